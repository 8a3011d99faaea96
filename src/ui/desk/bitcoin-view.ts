/**
 * Bitcoin view mode (docs/product-rules.md#bitcoin-view: enabled flag, default off; mode, default BTC): account values
 * are expressed in bitcoin — BTC, or TESTBTC for paper trading — instead of the total-equivalent
 * currency (USD by default). Each amount is converted with a multiplier, the currency's price in
 * the unit, taken from the exchange's last prices (the markets list's ticker poll).
 */
import type { Ticker } from "../../protocol";
import { rateOf } from "./widgets/markets/markets-core";

export interface ValuationSettings {
  readonly bitcoin_view_enabled: boolean;
  readonly bitcoin_view_mode: string;
  readonly total_equivalent_currency: string;
}

/** The currency account values are shown in. */
export function valuationUnit(s: ValuationSettings): string {
  return s.bitcoin_view_enabled ? s.bitcoin_view_mode : s.total_equivalent_currency;
}

export function lastPrices(tickers: ReadonlyMap<string, Pick<Ticker, "lastPrice">>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [pair, t] of tickers) out.set(pair, t.lastPrice);
  return out;
}

/** `amount` of `currency` in `unit`; NaN when the last prices do not connect the two. */
export function valueIn(currency: string, amount: number, unit: string, last: ReadonlyMap<string, number>): number {
  if (amount === 0) return 0;
  return amount * rateOf(currency, unit, last);
}

/** Decimals that suit a unit: 8 for bitcoin, 2 for fiat and everything else. */
export function unitDecimals(unit: string): number {
  return unit === "BTC" || unit === "TESTBTC" ? 8 : 2;
}
