/**
 * One trading pair's public data, derived from its matching engine: aggregated books at every
 * precision, the trades tape, candles for every timeframe, and the 24-hour ticker (market-data.ts
 * holds what funding markets share). The books are src/protocol's OrderBook — the same algebra the
 * client runs — so what the server publishes and what a client rebuilds cannot drift apart.
 */
import { OrderBook, tickerCodec, type Ticker } from "../../src/protocol/index.ts";
import { MatchingEngine, type Fill, type LevelChange } from "./engine.ts";
import {
  addToCandles,
  aggregate,
  dailyTicker,
  MAX_CANDLES,
  PRECISIONS,
  round8,
  Tape,
  TIMEFRAMES,
  type Prec,
} from "./market-data.ts";

export interface PublicTradeRow {
  readonly id: number;
  readonly mts: number;
  /** Signed by the taker's side: positive buy. */
  readonly amount: number;
  readonly price: number;
}

export class Market {
  readonly engine: MatchingEngine;
  readonly books = new Map<Prec, OrderBook>();
  readonly tape = new Tape<PublicTradeRow>((t) => t.price);
  /** Candles per timeframe, oldest first: [MTS, OPEN, CLOSE, HIGH, LOW, VOLUME]. */
  readonly candles = new Map<string, number[][]>();

  constructor(
    readonly symbol: string,
    nextTradeId: () => number,
  ) {
    this.engine = new MatchingEngine(nextTradeId);
    for (const p of PRECISIONS) this.books.set(p, new OrderBook({ kind: "price", len: 1_000_000 }));
    for (const tf of Object.keys(TIMEFRAMES)) this.candles.set(tf, []);
  }

  /** The public trades, newest first. */
  get trades(): readonly PublicTradeRow[] {
    return this.tape.trades;
  }

  /** Applies the engine's visible level changes to every precision's aggregated book. */
  applyLevels(changes: readonly LevelChange[]): void {
    for (const c of changes)
      aggregate(this.books, { ...c, key: c.price, period: 0, bid: c.side === "buy" }, (book, price, count, amount) =>
        book.applyPrice(price, count, c.side === "buy" ? amount : -amount),
      );
  }

  /** Records fills on the tape, the candles and the 24 h window. */
  applyFills(fills: readonly Fill[]): PublicTradeRow[] {
    const rows = fills.map((f) => ({
      id: f.tradeId,
      mts: f.mts,
      amount: f.taker.side === "buy" ? f.amount : -f.amount,
      price: f.price,
    }));
    this.tape.add(rows);
    for (const row of rows)
      for (const [tf, ms] of Object.entries(TIMEFRAMES))
        addToCandles(this.candles.get(tf) as number[][], ms, row.mts, row.price, row.amount);
    return rows;
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
  ticker(now: number): unknown[] {
    return tickerCodec.encode(this.tickerRecord(now));
  }

  tickerRecord(now: number): Ticker {
    const p0 = this.books.get("P0") as OrderBook;
    return dailyTicker(p0, this.tape, now, this.trades[0]?.price ?? p0.bids.k1[0] ?? 0, round8);
  }
}
