/**
 * Cell formatting for the account tables: prices to 5 significant digits (docs/product-rules.md#constants), amounts
 * to the wallet's 8 decimals without trailing zeros, times in the user's `time_format` at
 * `utc_offset` hours, and pairs as BASE/QUOTE.
 */
import { parseSymbol, toFixedCapped, toSignificant, WALLET_DECIMALS } from "../../../../protocol";

export function formatPrice(value: number | null): string {
  return value === null ? "–" : toSignificant(value);
}

/**
 * An order's average fill price, "—" while nothing of it is filled: the exchange sends 0 (or null)
 * then, and a 0 would read as a fill at zero.
 */
export function formatAveragePrice(value: number | null, filled: number): string {
  return value === null || value === 0 || filled === 0 ? "—" : toSignificant(value);
}

/** Up to 8 decimals, trailing zeros dropped; never in exponent form (1e-7 → "0.0000001"). */
export function formatAmount(value: number | null, decimals = WALLET_DECIMALS): string {
  if (value === null) return "–";
  const fixed = toFixedCapped(value, decimals);
  const trimmed = fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
  return trimmed === "-0" ? "0" : trimmed;
}

export function formatPercentValue(fraction: number): string {
  return `${(fraction * 100).toFixed(fraction >= 1 || fraction === 0 ? 0 : 1)}%`;
}

// One formatting module for every shown time (src/ui/time/format.ts); the tables keep this name.
export { formatTime } from "../../../time/format";

/** `tBTCUSD` → `BTC/USD`, `tTESTBTC:TESTUSD` → `TESTBTC/TESTUSD`; unknown forms as received. */
export function displayPair(symbol: string): string {
  const info = parseSymbol(symbol.startsWith("t") || symbol.startsWith("f") ? symbol : `t${symbol}`);
  return info?.kind === "trading" ? `${info.base}/${info.quote}` : symbol;
}
