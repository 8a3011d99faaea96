/**
 * The served app's runtime configuration (/config.json), from the environment. One build points at
 * the embedded exchange (default) or at the real Bitfinex hosts:
 *
 *   BFX_BACKEND=bitfinex npm start          # api-pub.bitfinex.com / api.bitfinex.com
 *   BFX_PLATFORM=jp npm start               # platform variant: default | jp | br | tr
 *   BFX_REST_PUBLIC=… BFX_REST_AUTH=… BFX_WS_PUBLIC=… BFX_WS_AUTH=…   # explicit hosts
 */
import { isPlatformVariant, type PlatformVariant } from "../src/protocol/index.ts";

export interface ServedConfig {
  readonly platform: PlatformVariant;
  readonly backend: "embedded" | "bitfinex";
  readonly build: string;
  readonly endpoints: {
    readonly restPublic: string;
    readonly restAuth: string;
    readonly wsPublic: string;
    readonly wsAuth: string;
    readonly staticHost: string;
  };
}

export const BITFINEX_ENDPOINTS = {
  restPublic: "https://api-pub.bitfinex.com",
  restAuth: "https://api.bitfinex.com",
  wsPublic: "wss://api-pub.bitfinex.com/ws/2",
  wsAuth: "wss://api.bitfinex.com/ws/2",
  staticHost: "https://static.bitfinex.com",
} as const;

export function servedConfig(env: NodeJS.ProcessEnv, appOrigin: string, build: string): ServedConfig {
  const backend = env["BFX_BACKEND"] === "bitfinex" ? "bitfinex" : "embedded";
  const ws = appOrigin.replace(/^http/, "ws");
  const base =
    backend === "bitfinex"
      ? BITFINEX_ENDPOINTS
      : {
          restPublic: appOrigin,
          restAuth: appOrigin,
          wsPublic: `${ws}/ws/2`,
          wsAuth: `${ws}/ws/2`,
          staticHost: appOrigin,
        };
  const platform = env["BFX_PLATFORM"];
  return {
    platform: isPlatformVariant(platform) ? platform : "default",
    backend,
    build,
    endpoints: {
      restPublic: env["BFX_REST_PUBLIC"] ?? base.restPublic,
      restAuth: env["BFX_REST_AUTH"] ?? base.restAuth,
      wsPublic: env["BFX_WS_PUBLIC"] ?? base.wsPublic,
      wsAuth: env["BFX_WS_AUTH"] ?? base.wsAuth,
      staticHost: env["BFX_STATIC"] ?? base.staticHost,
    },
  };
}

/** Origins (http and ws forms) the app may connect to, for the CSP connect-src. */
export function connectSources(config: ServedConfig): string[] {
  const out = new Set<string>(["'self'"]);
  for (const url of Object.values(config.endpoints)) {
    try {
      const u = new URL(url);
      out.add(`${u.protocol}//${u.host}`);
    } catch {
      // An unparsable override is left out of the CSP; the app reports the failed connection.
    }
  }
  return [...out];
}
