/**
 * Where the desk's market widgets get their data: the app's one bridge by default, or whatever a
 * MarketSourceContext provider hands in (browser tests feed synthetic views this way, and a page can
 * point a widget at another bridge). Only the streaming calls the widgets use are part of it.
 */
import { createContext, useContext } from "react";
import type { MarketBridge } from "../../../market/bridge";
import { market } from "../../../market/market";

export type MarketSource = Pick<MarketBridge, "book" | "trades">;

export const MarketSourceContext = createContext<MarketSource | null>(null);

/** The injected source, or null for the app's bridge (see resolveSource). */
export function useInjectedSource(): MarketSource | null {
  return useContext(MarketSourceContext);
}

/**
 * The source to subscribe with. The app's bridge is created only here, inside the subscribing
 * effect, so rendering a widget never spawns the worker by itself.
 */
export function resolveSource(injected: MarketSource | null): MarketSource {
  return injected ?? market();
}
