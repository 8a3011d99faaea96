/**
 * Candle rows for the chart, framework-free so it tests in Node. Rows travel as the worker's
 * CandlesView does: a Float64Array of stride 6 [mts, open, close, high, low, volume], oldest first.
 * The chart keeps two such arrays, the loaded history and the live series, and merges them by mts
 * (the live row wins: it is the newer copy of the same candle) into uPlot's columnar form.
 */
import { CANDLE_FIELDS, CANDLE_VIEW_STRIDE, candleCodec, type Candle } from "../../../../protocol";
import type { CandleTimeframe } from "../../../settings/schema";

const S = CANDLE_VIEW_STRIDE;
/** The rows keep the wire candle's layout, so its field positions index them. */
const C = CANDLE_FIELDS;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Nominal length of each timeframe (1M as 30 days: only used for spacing and request windows). */
export const TIMEFRAME_MS: Readonly<Record<CandleTimeframe, number>> = {
  "1m": MINUTE,
  "5m": 5 * MINUTE,
  "15m": 15 * MINUTE,
  "30m": 30 * MINUTE,
  "1h": HOUR,
  "3h": 3 * HOUR,
  "6h": 6 * HOUR,
  "12h": 12 * HOUR,
  "1D": DAY,
  "1W": 7 * DAY,
  "14D": 14 * DAY,
  "1M": 30 * DAY,
};

/** The candles channel key, `trade:30m:tBTCUSD`. */
export function candleKey(timeframe: CandleTimeframe, symbol: string): string {
  return `trade:${timeframe}:${symbol}`;
}

/** Candles asked per history page (the exchange allows up to 10 000). */
export const HISTORY_PAGE = 500;

/**
 * The REST path of the history page that ends just before `end` (ms). `start` is sent too: with
 * sort=1 and no start the real exchange answers with the OLDEST candles it has, not those before
 * `end`.
 */
export function historyPath(key: string, end: number, timeframe: CandleTimeframe, limit = HISTORY_PAGE): string {
  const start = Math.max(0, end - limit * TIMEFRAME_MS[timeframe]);
  return `/v2/candles/${key}/hist?start=${start}&end=${end}&limit=${limit}&sort=1`;
}

/**
 * The REST answer (`[[MTS, OPEN, CLOSE, HIGH, LOW, VOLUME], …]`, either order) as stride-6 rows,
 * oldest first; rows that are not six finite numbers are skipped.
 */
export function decodeCandleRows(body: unknown): Float64Array {
  if (!Array.isArray(body)) return new Float64Array(0);
  const candles: Candle[] = [];
  for (const r of body as unknown[]) {
    const d = candleCodec.decode(r);
    if (d.ok) candles.push(d.value);
  }
  candles.sort((a, b) => a.mts - b.mts);
  const out = new Float64Array(candles.length * S);
  candles.forEach((c, i) => {
    const o = i * S;
    out[o + C.mts] = c.mts;
    out[o + C.open] = c.open;
    out[o + C.close] = c.close;
    out[o + C.high] = c.high;
    out[o + C.low] = c.low;
    out[o + C.volume] = c.volume;
  });
  return out;
}

function at(rows: Float64Array, i: number): number {
  return rows[i] as number;
}

/**
 * Merges two sorted stride-6 row arrays by mts; on equal mts the row of `b` wins. One pass, one
 * allocation.
 */
export function mergeRows(a: Float64Array, b: Float64Array): Float64Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let o = 0;
  while (i < a.length || j < b.length) {
    let from: Float64Array;
    let src: number;
    if (j >= b.length || (i < a.length && at(a, i + C.mts) < at(b, j + C.mts))) {
      from = a;
      src = i;
      i += S;
    } else {
      if (i < a.length && at(a, i + C.mts) === at(b, j + C.mts)) i += S;
      from = b;
      src = j;
      j += S;
    }
    for (let k = 0; k < S; k++) out[o + k] = at(from, src + k);
    o += S;
  }
  return o === out.length ? out : out.slice(0, o);
}

/** uPlot's aligned data: x in seconds, then open, high, low, close, volume. */
export type CandleColumns = [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];

export const COL = { x: 0, open: 1, high: 2, low: 3, close: 4, volume: 5 } as const;

/** Stride-6 rows (open, CLOSE, high, low order on the wire) to uPlot's columns. */
export function toColumns(rows: Float64Array): CandleColumns {
  const n = Math.floor(rows.length / S);
  const cols: CandleColumns = [
    new Float64Array(n),
    new Float64Array(n),
    new Float64Array(n),
    new Float64Array(n),
    new Float64Array(n),
    new Float64Array(n),
  ];
  for (let i = 0; i < n; i++) {
    const r = i * S;
    cols[COL.x][i] = at(rows, r + C.mts) / 1000;
    cols[COL.open][i] = at(rows, r + C.open);
    cols[COL.close][i] = at(rows, r + C.close);
    cols[COL.high][i] = at(rows, r + C.high);
    cols[COL.low][i] = at(rows, r + C.low);
    cols[COL.volume][i] = at(rows, r + C.volume);
  }
  return cols;
}
