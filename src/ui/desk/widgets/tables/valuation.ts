/**
 * Bitcoin view mode in the account tables (docs/product-rules.md#bitcoin-view):
 * money amounts that are not the pair's own base amounts — a position's P/L and funding cost (in the
 * pair's quote currency), a trade's fee (in its fee currency) — are shown in bitcoin (BTC, or TESTBTC
 * for paper trading) when the mode is on, converted with the same multiplier as the balances
 * (bitcoin-view.ts). When the mode is off, or no price connects the currency to the unit, the amount
 * stays in its own currency, so nothing is hidden for want of a ticker.
 */
import { parseSymbol } from "../../../../protocol";
import { unitDecimals, valueIn } from "../../bitcoin-view";
import { formatAmount } from "./format";

export interface Valuation {
  /** The bitcoin unit when bitcoin view is on; null when amounts stay in their own currency. */
  readonly unit: string | null;
  readonly last: ReadonlyMap<string, number>;
}

/** The quote currency of a trading symbol or pair (`tBTCUSD` → `USD`); null for other forms. */
export function quoteOf(symbol: string): string | null {
  const info = parseSymbol(symbol.startsWith("t") ? symbol : `t${symbol}`);
  return info?.kind === "trading" ? info.quote : null;
}

export interface ShownAmount {
  readonly value: number;
  readonly text: string;
  /** The currency the text is in; null when the caller's column already says it. */
  readonly currency: string | null;
}

/**
 * `amount` of `currency` as a table shows it: in the bitcoin unit when the view asks for it and the
 * prices allow, otherwise as received with `decimals`.
 */
export function shownAmount(
  v: Valuation,
  currency: string | null,
  amount: number | null,
  decimals: number,
): ShownAmount | null {
  if (amount === null) return null;
  if (v.unit !== null && currency !== null) {
    const converted = valueIn(currency, amount, v.unit, v.last);
    if (!Number.isNaN(converted))
      return { value: converted, text: formatAmount(converted, unitDecimals(v.unit)), currency: v.unit };
  }
  return { value: amount, text: formatAmount(amount, decimals), currency };
}
