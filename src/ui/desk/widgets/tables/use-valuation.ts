import { useMemo, useSyncExternalStore } from "react";
import { useSnapshot } from "valtio";
import { settings } from "../../../settings/store";
import { lastPrices } from "../../bitcoin-view";
import { subscribeTickers, tickersSnapshot } from "../markets/tickers-feed";
import type { Valuation } from "./valuation";

const idle = (): (() => void) => () => undefined;

/**
 * The tables' bitcoin view: the unit (null when the mode is off) and the last prices from the shared
 * ticker poll, which runs only while the mode is on (one render per poll, never per tick).
 */
export function useValuation(): Valuation {
  const s = useSnapshot(settings);
  const unit = s.bitcoin_view_enabled ? s.bitcoin_view_mode : null;
  const tickers = useSyncExternalStore(unit === null ? idle : subscribeTickers, tickersSnapshot);
  return useMemo(() => ({ unit, last: lastPrices(tickers.tickers) }), [unit, tickers]);
}
