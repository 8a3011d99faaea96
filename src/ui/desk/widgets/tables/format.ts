/**
 * Cell formatting for the account tables: prices to 5 significant digits (docs/product-rules.md#constants), amounts
 * to the wallet's 8 decimals without trailing zeros, times in the user's `time_format` at
 * `utc_offset` hours, and pairs as BASE/QUOTE.
 */
import { parseSymbol, toFixedCapped, toSignificant, WALLET_DECIMALS } from "../../../../protocol";

export function formatPrice(value: number | null): string {
  return value === null ? "–" : toSignificant(value);
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

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/**
 * A time in the `time_format` pattern (tokens YYYY, YY, MM, DD, HH, mm, ss), shifted by the user's
 * UTC offset in hours; read in UTC so the browser's own zone does not add to it.
 */
export function formatTime(mts: number | null, pattern: string, utcOffsetHours: number): string {
  if (mts === null) return "–";
  const d = new Date(mts + utcOffsetHours * 3_600_000);
  const parts: Record<string, string> = {
    YYYY: String(d.getUTCFullYear()),
    YY: pad(d.getUTCFullYear() % 100),
    MM: pad(d.getUTCMonth() + 1),
    DD: pad(d.getUTCDate()),
    HH: pad(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
  };
  return pattern.replace(/YYYY|YY|MM|DD|HH|mm|ss/g, (token) => parts[token] ?? token);
}

/** `tBTCUSD` → `BTC/USD`, `tTESTBTC:TESTUSD` → `TESTBTC/TESTUSD`; unknown forms as received. */
export function displayPair(symbol: string): string {
  const info = parseSymbol(symbol.startsWith("t") || symbol.startsWith("f") ? symbol : `t${symbol}`);
  return info?.kind === "trading" ? `${info.base}/${info.quote}` : symbol;
}
