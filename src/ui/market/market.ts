/**
 * The app's one market-data bridge, created on first use and configured from the runtime config
 * (the embedded exchange or the real Bitfinex hosts).
 */
import { appConfig } from "../config";
import { createMarketBridge, type MarketBridge } from "./bridge";

let bridge: MarketBridge | null = null;

export function market(): MarketBridge {
  if (!bridge) {
    bridge = createMarketBridge();
    const e = appConfig().endpoints;
    void bridge.configure({ wsPublic: e.wsPublic, wsAuth: e.wsAuth, restPublic: e.restPublic, restAuth: e.restAuth });
  }
  return bridge;
}
