/**
 * One market's public data, derived from its matching engine: aggregated books at every precision
 * (P0–P4: 5 down to 1 significant digits; bids rounded down, asks up, so levels never cross),
 * the trades tape, candles for every timeframe, and the 24-hour ticker. The books are
 * src/protocol's OrderBook — the same algebra the client runs — so what the server publishes and
 * what a client rebuilds cannot drift apart.
 */
import { OrderBook } from "../../src/protocol/index.ts";
import { MatchingEngine, type Fill, type LevelChange } from "./engine.ts";

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

export interface PublicTradeRow {
  readonly id: number;
  readonly mts: number;
  /** Signed by the taker's side: positive buy. */
  readonly amount: number;
  readonly price: number;
}

/** Public trades and candles kept per market (and per funding market). */
export const MAX_TRADES = 1000;
export const MAX_CANDLES = 1000;

export class Market {
  readonly symbol: string;
  readonly engine: MatchingEngine;
  readonly books = new Map<Prec, OrderBook>();
  trades: PublicTradeRow[] = [];
  /** Candles per timeframe, oldest first: [MTS, OPEN, CLOSE, HIGH, LOW, VOLUME]. */
  readonly candles = new Map<string, number[][]>();
  /** Rolling 24 h window of trades for the ticker. */
  #day: PublicTradeRow[] = [];

  constructor(symbol: string, nextTradeId: () => number) {
    this.symbol = symbol;
    this.engine = new MatchingEngine(nextTradeId);
    for (const p of PRECISIONS) this.books.set(p, new OrderBook({ kind: "price", len: 1_000_000 }));
    for (const tf of Object.keys(TIMEFRAMES)) this.candles.set(tf, []);
  }

  /** Applies the engine's visible level changes to every precision's aggregated book. */
  applyLevels(changes: readonly LevelChange[]): void {
    for (const c of changes) {
      const bid = c.side === "buy";
      for (const p of PRECISIONS) {
        const book = this.books.get(p) as OrderBook;
        const price = roundToPrecision(c.price, SIG[p], bid);
        const side = bid ? book.bids : book.asks;
        const i = side.find(price, 0);
        const count = (i >= 0 ? (side.aux[i] as number) : 0) + c.deltaCount;
        const amount = Math.round(((i >= 0 ? Math.abs(side.amount[i] as number) : 0) + c.deltaAmount) * 1e8) / 1e8;
        if (count <= 0 || amount <= 1e-12) {
          if (i >= 0) side.removeAt(i);
        } else {
          book.applyPrice(price, count, bid ? amount : -amount);
        }
      }
    }
  }

  /** Records fills on the tape, the candles and the 24 h window. */
  applyFills(fills: readonly Fill[]): PublicTradeRow[] {
    const rows: PublicTradeRow[] = [];
    for (const f of fills) {
      const row: PublicTradeRow = {
        id: f.tradeId,
        mts: f.mts,
        amount: f.taker.side === "buy" ? f.amount : -f.amount,
        price: f.price,
      };
      rows.push(row);
      this.trades.unshift(row);
      this.#day.push(row);
      for (const [tf, ms] of Object.entries(TIMEFRAMES)) this.#candle(tf, ms, row);
    }
    if (this.trades.length > MAX_TRADES) this.trades.length = MAX_TRADES;
    return rows;
  }

  #candle(tf: string, ms: number, t: PublicTradeRow): void {
    const list = this.candles.get(tf) as number[][];
    const start = Math.floor(t.mts / ms) * ms;
    const last = list[list.length - 1];
    const vol = Math.abs(t.amount);
    if (last && last[0] === start) {
      last[2] = t.price;
      last[3] = Math.max(last[3] as number, t.price);
      last[4] = Math.min(last[4] as number, t.price);
      last[5] = Math.round(((last[5] as number) + vol) * 1e8) / 1e8;
    } else if (!last || (last[0] as number) < start) {
      list.push([start, t.price, t.price, t.price, t.price, vol]);
      if (list.length > MAX_CANDLES) list.shift();
    }
  }

  /** Seeds candle history (a simulated past) without trades. */
  seedCandles(tf: string, rows: number[][]): void {
    this.candles.set(tf, rows.slice(-MAX_CANDLES));
  }

  /** The last trade price, or the mid (or the one side there is) before the market has traded. */
  lastPrice(): number | null {
    const t = this.trades[0];
    if (t) return t.price;
    const bid = this.engine.bestBid();
    const ask = this.engine.bestAsk();
    return bid !== undefined && ask !== undefined ? (bid + ask) / 2 : (bid ?? ask ?? null);
  }

  /** [BID, BID_SIZE, ASK, ASK_SIZE, DAILY_CHANGE, DAILY_CHANGE_RELATIVE, LAST, VOLUME, HIGH, LOW]. */
  ticker(now: number): number[] {
    while (this.#day.length > 0 && (this.#day[0] as PublicTradeRow).mts < now - 86_400_000) this.#day.shift();
    const p0 = this.books.get("P0") as OrderBook;
    const sum = (side: typeof p0.bids): number => {
      let s = 0;
      for (let i = 0; i < Math.min(25, side.size); i++) s += Math.abs(side.amount[i] as number);
      return Math.round(s * 1e8) / 1e8;
    };
    const last = this.trades[0]?.price ?? p0.bids.k1[0] ?? 0;
    const first = this.#day[0]?.price ?? last;
    let high = last;
    let low = last;
    let volume = 0;
    for (const t of this.#day) {
      high = Math.max(high, t.price);
      low = Math.min(low, t.price);
      volume += Math.abs(t.amount);
    }
    const change = Math.round((last - first) * 1e8) / 1e8;
    return [
      p0.bids.size ? (p0.bids.k1[0] as number) : 0,
      sum(p0.bids),
      p0.asks.size ? (p0.asks.k1[0] as number) : 0,
      sum(p0.asks),
      change,
      first ? Math.round((change / first) * 1e4) / 1e4 : 0,
      last,
      Math.round(volume * 1e8) / 1e8,
      high,
      low,
    ];
  }
}
