/**
 * The `stats1` series the stats page charts (docs/protocol.md#site-figures), computed from the
 * markets' own candles: `vol.1d:1h:BFX` (every trading pair's trailing 24-hour volume, in USD, at
 * each hour) and `vol.1d:1h:{tSYMBOL}` (one pair's, in its base currency). Rows are `[MTS, VALUE]`,
 * newest first unless `sort=1`, at most `limit` (default 100, most 1000: the candles kept).
 */
import { splitPair, statsRowCodec } from "../../src/protocol/index.ts";
import { fxRate } from "./derived.ts";
import type { Exchange } from "./exchange.ts";

const HOUR = 3_600_000;
const DAY_HOURS = 24;

/** Hourly base volume of one market: mts → volume (from its 1 h candles, `[MTS, O, C, H, L, VOL]`). */
function hourly(exchange: Exchange, symbol: string, inUsd: boolean): Map<number, number> | null {
  const market = exchange.markets.get(symbol);
  if (!market) return null;
  const quote = splitPair(symbol.slice(1))?.quote ?? "USD";
  // A pair's quote valued at today's rate (a derivative's collateral and USDt as USD, as the
  // website stats do): a series of what was traded, not of what it was worth then.
  const rate = inUsd ? (fxRate(exchange, quote.replace(/F0$/, "").replace("UST", "USD"), "USD") ?? 0) : 1;
  const out = new Map<number, number>();
  for (const c of market.candles.get("1h") ?? []) {
    const [mts = 0, , close = 0, , , vol = 0] = c;
    out.set(mts, inUsd ? vol * close * rate : vol);
  }
  return out;
}

/** The series of a `vol.1d:1h:…` key; null for a key not served. */
export function statsSeries(exchange: Exchange, key: string): unknown[][] | null {
  const m = /^vol\.1d:1h:(BFX|t[A-Z0-9:]+)$/.exec(key);
  if (!m) return null;
  const target = m[1] as string;
  const per: Map<number, number>[] = [];
  if (target === "BFX") {
    for (const symbol of exchange.markets.keys()) per.push(hourly(exchange, symbol, true) ?? new Map<number, number>());
  } else {
    const one = hourly(exchange, target, false);
    if (!one) return null;
    per.push(one);
  }
  const total = new Map<number, number>();
  for (const series of per) for (const [mts, v] of series) total.set(mts, (total.get(mts) ?? 0) + v);
  const hours = [...total.keys()].sort((a, b) => a - b);
  // Each point: the 24 hours ending with that hour's candle.
  const first = hours[0] ?? 0;
  const rows: unknown[][] = [];
  for (const mts of hours) {
    // The first day has no full window behind it: left out rather than charted as a false ramp.
    if (mts - (DAY_HOURS - 1) * HOUR < first) continue;
    let sum = 0;
    for (let h = 0; h < DAY_HOURS; h++) sum += total.get(mts - h * HOUR) ?? 0;
    rows.push(statsRowCodec.encode({ mts, value: Math.round(sum * 1e8) / 1e8 }));
  }
  return rows;
}
