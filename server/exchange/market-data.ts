/**
 * What every market's public data is made of, for trading pairs (market.ts) and funding currencies
 * (funding-market.ts) alike: the aggregated books at P0–P4 (5 down to 1 significant digits; bids
 * rounded down, asks up, so levels never cross), the trade tape with its rolling 24 hours, and
 * candles in candleCodec's layout `[MTS, OPEN, CLOSE, HIGH, LOW, VOLUME]` — of prices, or of rates.
 */
import { CANDLE_FIELDS, candleCodec, type BookSide, type OrderBook } from "../../src/protocol/index.ts";

export const PRECISIONS = ["P0", "P1", "P2", "P3", "P4"] as const;
export type Prec = (typeof PRECISIONS)[number];
const SIG: Record<Prec, number> = { P0: 5, P1: 4, P2: 3, P3: 2, P4: 1 };

export const TIMEFRAMES: Record<string, number> = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "30m": 1_800_000,
  "1h": 3_600_000,
  "3h": 10_800_000,
  "6h": 21_600_000,
  "12h": 43_200_000,
  "1D": 86_400_000,
  "1W": 604_800_000,
  "14D": 1_209_600_000,
  "1M": 2_592_000_000,
};

/** Public trades and candles kept per market. */
export const MAX_TRADES = 1000;
export const MAX_CANDLES = 1000;

export const round8 = (v: number): number => Math.round(v * 1e8) / 1e8;

/** Rounds a price to `sig` significant digits: down for bids, up for asks. */
export function roundToPrecision(price: number, sig: number, bid: boolean): number {
  if (price <= 0) return price;
  const magnitude = Math.floor(Math.log10(price));
  const step = 10 ** (magnitude - sig + 1);
  const q = price / step;
  // A hair of tolerance so 30000 / 1 does not become 29999.999… and round a level away.
  const n = bid ? Math.floor(q + 1e-9) : Math.ceil(q - 1e-9);
  return Number((n * step).toPrecision(sig + 2));
}

/**
 * Applies one change of a level's visible amount and order count to every precision's aggregated
 * book: the level at `key` (a price, or a rate with its `period`) rounded to the precision; it goes
 * when its count or amount does, else `write` sets it (amount unsigned; the book kind signs it).
 */
export function aggregate(
  books: ReadonlyMap<Prec, OrderBook>,
  level: { key: number; period: number; bid: boolean; deltaAmount: number; deltaCount: number },
  write: (book: OrderBook, key: number, count: number, amount: number) => void,
): void {
  for (const p of PRECISIONS) {
    const book = books.get(p) as OrderBook;
    const key = roundToPrecision(level.key, SIG[p], level.bid);
    const side = level.bid ? book.bids : book.asks;
    const i = side.find(key, level.period);
    const count = (i >= 0 ? (side.aux[i] as number) : 0) + level.deltaCount;
    const amount = round8((i >= 0 ? Math.abs(side.amount[i] as number) : 0) + level.deltaAmount);
    if (count <= 0 || amount <= 1e-12) {
      if (i >= 0) side.removeAt(i);
    } else write(book, key, count, amount);
  }
}

/** The amount on a side's best 25 levels (the tickers' BID_SIZE and ASK_SIZE). */
export function topDepth(side: BookSide): number {
  let s = 0;
  for (let i = 0; i < Math.min(25, side.size); i++) s += Math.abs(side.amount[i] as number);
  return round8(s);
}

/** A market's public trades: newest first, at most MAX_TRADES, and those of the last 24 hours. */
export class Tape<T extends { readonly mts: number; readonly amount: number }> {
  trades: T[] = [];
  #day: T[] = [];

  /** `value` reads a trade's price (or rate). */
  constructor(readonly value: (t: T) => number) {}

  add(rows: readonly T[]): void {
    for (const row of rows) {
      this.trades.unshift(row);
      this.#day.push(row);
    }
    if (this.trades.length > MAX_TRADES) this.trades.length = MAX_TRADES;
  }

  /** The trades of the last 24 hours up to `now`, oldest first (the ticker's window). */
  dayTrades(now: number): readonly T[] {
    while (this.#day.length > 0 && (this.#day[0] as T).mts < now - 86_400_000) this.#day.shift();
    return this.#day;
  }

  /** The last 24 hours up to `now`: its first value, high, low and volume, `last` included in the range. */
  day(now: number, last: number): { first: number; high: number; low: number; volume: number } {
    this.dayTrades(now);
    const first = this.#day[0] ? this.value(this.#day[0]) : last;
    let high = last;
    let low = last;
    let volume = 0;
    for (const t of this.#day) {
      const v = this.value(t);
      high = Math.max(high, v);
      low = Math.min(low, v);
      volume += Math.abs(t.amount);
    }
    return { first, high, low, volume };
  }
}

/**
 * The ticker fields trading and funding tickers share: the best bid and ask of the P0 book with the
 * depth of their side, and the last 24 hours up to `last` (`change` rounds the daily change).
 */
export function dailyTicker<T extends { readonly mts: number; readonly amount: number }>(
  p0: OrderBook,
  tape: Tape<T>,
  now: number,
  last: number,
  change: (v: number) => number,
) {
  const { first, high, low, volume } = tape.day(now, last);
  const dailyChange = change(last - first);
  return {
    bid: p0.bids.size ? (p0.bids.k1[0] as number) : 0,
    bidSize: topDepth(p0.bids),
    ask: p0.asks.size ? (p0.asks.k1[0] as number) : 0,
    askSize: topDepth(p0.asks),
    dailyChange,
    dailyChangePerc: first ? Math.round((dailyChange / first) * 1e4) / 1e4 : 0,
    lastPrice: last,
    volume: round8(volume),
    high,
    low,
  };
}

const { close: CLOSE, high: HIGH, low: LOW, volume: VOLUME } = CANDLE_FIELDS;

/** Adds a trade at `value` to a candle series of `ms` candles (oldest first, at most MAX_CANDLES). */
export function addToCandles(list: number[][], ms: number, mts: number, value: number, amount: number): void {
  const start = Math.floor(mts / ms) * ms;
  const last = list[list.length - 1];
  const vol = Math.abs(amount);
  if (last && last[0] === start) {
    last[CLOSE] = value;
    last[HIGH] = Math.max(last[HIGH] as number, value);
    last[LOW] = Math.min(last[LOW] as number, value);
    last[VOLUME] = round8((last[VOLUME] as number) + vol);
  } else if (!last || (last[0] as number) < start) {
    list.push(candle(start, value, value, value, value, vol));
    if (list.length > MAX_CANDLES) list.shift();
  }
}

/** A candle row (numbers only, as the series keep them). */
export function candle(mts: number, open: number, close: number, high: number, low: number, volume: number): number[] {
  return candleCodec.encode({ mts, open, close, high, low, volume }) as number[];
}
