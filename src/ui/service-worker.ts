/**
 * Registers the background worker (public/sw.js) from the site root, only over HTTPS or on
 * localhost (docs/product-rules.md#service-worker). Its lifecycle states are reported: installed, updated (a reload
 * when resources failed to load), redundant, activated.
 */
import { log } from "./log";

export const SW_INSECURE_MESSAGE = "Service workers can only be used over HTTPS, or on localhost for development";

export type SwEvent = "installed" | "updated" | "redundant" | "activated";

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

export function swAllowed(loc: { protocol: string; hostname: string }): boolean {
  return loc.protocol === "https:" || LOCAL_HOSTS.has(loc.hostname) || loc.hostname.endsWith(".localhost");
}

export interface SwEnv {
  readonly location: { protocol: string; hostname: string };
  readonly container: ServiceWorkerContainer | undefined;
  readonly onEvent: (e: SwEvent) => void;
}

export async function registerServiceWorker(env: SwEnv): Promise<ServiceWorkerRegistration | null> {
  if (!env.container) return null;
  if (!swAllowed(env.location)) {
    log.error(SW_INSECURE_MESSAGE);
    return null;
  }
  try {
    const reg = await env.container.register("/sw.js", { scope: "/" });
    reg.addEventListener("updatefound", () => {
      const worker = reg.installing;
      if (!worker) return;
      worker.addEventListener("statechange", () => {
        if (worker.state === "installed") env.onEvent(env.container?.controller ? "updated" : "installed");
        else if (worker.state === "activated") env.onEvent("activated");
        else if (worker.state === "redundant") env.onEvent("redundant");
      });
    });
    return reg;
  } catch (err) {
    log.error("service worker registration failed", err);
    return null;
  }
}
