/**
 * The app's one market-data bridge, created on first use and configured from the runtime config
 * (the embedded exchange or the real Bitfinex hosts).
 */
import { appConfig } from "../config";
import { appScheduler } from "../scheduler";
import { reportApiReply } from "../shell/api-notice";
import { createMarketBridge, type MarketBridge } from "./bridge";

let bridge: MarketBridge | null = null;

export function market(): MarketBridge {
  if (!bridge) {
    bridge = createMarketBridge();
    const e = appConfig().endpoints;
    void bridge.configure({ wsPublic: e.wsPublic, wsAuth: e.wsAuth, restPublic: e.restPublic, restAuth: e.restAuth });
    // The worker's 429s join the main thread's in the one notice (shell/api-notice.ts).
    void bridge.rateLimits((retryAfter, body) => reportApiReply(429, body, retryAfter, appScheduler.now()));
  }
  return bridge;
}
