/**
 * Runtime configuration, read once at boot from /config.json (written by `npm start` from its
 * environment), so one build can point at the embedded exchange or at the real Bitfinex hosts.
 */
import { type PlatformVariant, variantConfig, type VariantConfig } from "../protocol";

export interface Endpoints {
  /** Public REST host, e.g. https://api-pub.bitfinex.com. */
  readonly restPublic: string;
  /** Authenticated REST host: /v1/ and /v2/auth/ paths go here (the host swap of docs/protocol.md#hosts). */
  readonly restAuth: string;
  readonly wsPublic: string;
  readonly wsAuth: string;
  readonly staticHost: string;
}

export interface AppConfig {
  readonly platform: PlatformVariant;
  readonly backend: "embedded" | "bitfinex";
  readonly endpoints: Endpoints;
  readonly build: string;
}

function sameOrigin(origin: string): Endpoints {
  const ws = origin.replace(/^http/, "ws");
  return { restPublic: origin, restAuth: origin, wsPublic: `${ws}/ws/2`, wsAuth: `${ws}/ws/2`, staticHost: origin };
}

export function defaultConfig(origin: string): AppConfig {
  return { platform: "default", backend: "embedded", endpoints: sameOrigin(origin), build: "dev" };
}

function str(v: unknown, fallback: string): string {
  return typeof v === "string" && v !== "" ? v : fallback;
}

/** Reads a config object leniently: every missing or wrong field takes its default. */
export function parseConfig(raw: unknown, origin: string): AppConfig {
  const base = defaultConfig(origin);
  if (typeof raw !== "object" || raw === null) return base;
  const r = raw as Record<string, unknown>;
  const e = (typeof r["endpoints"] === "object" && r["endpoints"] !== null ? r["endpoints"] : {}) as Record<
    string,
    unknown
  >;
  return {
    platform: variantConfig(r["platform"]).variant,
    backend: r["backend"] === "bitfinex" ? "bitfinex" : "embedded",
    build: str(r["build"], base.build),
    endpoints: {
      restPublic: str(e["restPublic"], base.endpoints.restPublic),
      restAuth: str(e["restAuth"], base.endpoints.restAuth),
      wsPublic: str(e["wsPublic"], base.endpoints.wsPublic),
      wsAuth: str(e["wsAuth"], base.endpoints.wsAuth),
      staticHost: str(e["staticHost"], base.endpoints.staticHost),
    },
  };
}

/** The REST URL for an API path, with the public→authenticated host swap for /v1/ and /v2/auth/. */
export function apiUrl(endpoints: Endpoints, path: string): string {
  const auth = path.startsWith("/v1/") || path.startsWith("/v2/auth/");
  return `${auth ? endpoints.restAuth : endpoints.restPublic}${path}`;
}

let loaded: AppConfig | null = null;

export async function loadConfig(origin: string): Promise<AppConfig> {
  try {
    const res = await fetch("/config.json", { cache: "no-store" });
    loaded = parseConfig(res.ok ? await res.json() : null, origin);
  } catch {
    loaded = defaultConfig(origin);
  }
  return loaded;
}

/** Sets the configuration without fetching it: the build's prerender, which has no server to ask. */
export function setStaticConfig(config: AppConfig): void {
  loaded = config;
}

export function appConfig(): AppConfig {
  if (!loaded) throw new Error("config read before loadConfig()");
  return loaded;
}

export function platform(): VariantConfig {
  return variantConfig(appConfig().platform);
}
