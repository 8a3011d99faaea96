/**
 * Funding markets (docs/protocol.md#funding-books, #funding-conventions): per currency, a matching
 * engine of lend and borrow offers keyed by (rate, period) (funding-engine.ts), the aggregated
 * P0–P4 funding books (src/protocol's OrderBook of kind "funding": bids are borrowers with negative
 * amounts, asks lenders with positive ones), the funding trades tape, candles per period (`p30`) and
 * per period range (`a30:p2:p30`), and the 16-field funding ticker with its FRR. `FundingExchange`
 * holds the markets, their book feeds and the batch listeners, as `Exchange` does for trading pairs.
 * A trade's amount is signed by the taker: positive when the taker lends, negative when it borrows.
 */
import {
  FUNDING_PERIOD_MAX,
  FUNDING_PERIOD_MIN,
  fundingTickerCodec,
  OrderBook,
  seededRandom,
} from "../../src/protocol/index.ts";
import { notifyAll } from "../log.ts";
import { own } from "../reply.ts";
import { Feeds, FUNDING_LEVELS, LevelFeed, RAW_OFFERS, RawFeed, type Feed, type MarketBatch } from "./feeds.ts";
import {
  FundingEngine,
  type FundingFill,
  type FundingLevelChange,
  type FundingMatch,
  type FundingOrder,
} from "./funding-engine.ts";
import {
  addToCandles,
  aggregate,
  candle,
  dailyTicker,
  PRECISIONS,
  round8,
  Tape,
  TIMEFRAMES,
  type Prec,
} from "./market-data.ts";

export const MIN_PERIOD = FUNDING_PERIOD_MIN;
export const MAX_PERIOD = FUNDING_PERIOD_MAX;
/** Periods a candle key may name (`p30`, `a30:p2:p30`): bounded, so keys cannot multiply series. */
export const CANDLE_PERIODS = [2, 3, 4, 5, 6, 7, 10, 14, 15, 20, 30, 60, 90, 120] as const;

export interface ListedFunding {
  readonly symbol: string;
  /** Starting rate (daily fraction). */
  readonly start: number;
  /** USD value of one unit of the currency: sizes the simulated offers and the minimum offer. */
  readonly usd: number;
}

export const LISTED_FUNDING: readonly ListedFunding[] = [
  { symbol: "fUSD", start: 0.0002, usd: 1 },
  { symbol: "fBTC", start: 0.00004, usd: 86_500 },
  { symbol: "fETH", start: 0.00008, usd: 3_200 },
  { symbol: "fUST", start: 0.00025, usd: 1 },
];

export interface PublicFundingTradeRow {
  readonly id: number;
  readonly mts: number;
  readonly amount: number;
  readonly rate: number;
  readonly period: number;
}

const SEEDED_CANDLES = 240;

/** A candle key's period filter: `p30` (that period) or `a30:p2:p30` (a period range). */
export function parseCandleFilter(filter: string): { from: number; to: number } | null {
  const ok = (p: number): boolean => (CANDLE_PERIODS as readonly number[]).includes(p);
  const single = /^p([0-9]{1,3})$/.exec(filter);
  if (single) {
    const p = Number(single[1]);
    return ok(p) ? { from: p, to: p } : null;
  }
  const range = /^a(10|30):p([0-9]{1,3}):p([0-9]{1,3})$/.exec(filter);
  if (!range) return null;
  const from = Number(range[2]);
  const to = Number(range[3]);
  return ok(from) && ok(to) && from <= to ? { from, to } : null;
}

export class FundingMarket {
  readonly engine: FundingEngine;
  readonly books = new Map<Prec, OrderBook>();
  readonly tape = new Tape<PublicFundingTradeRow>((t) => t.rate);
  /** Candle series by `${tf}|${filter}`, oldest first; created (with a seeded past) on first use. */
  readonly #candles = new Map<string, { from: number; to: number; ms: number; rows: number[][] }>();
  /** The flash return rate: an amount-weighted moving average of traded rates. */
  #frr: number;

  constructor(
    readonly symbol: string,
    readonly listing: ListedFunding,
    nextTradeId: () => number,
    readonly now: () => number,
    readonly seed: number,
  ) {
    this.engine = new FundingEngine(nextTradeId);
    this.#frr = listing.start;
    for (const p of PRECISIONS) this.books.set(p, new OrderBook({ kind: "funding", len: 1_000_000 }));
  }

  get currency(): string {
    return this.symbol.slice(1);
  }

  /** The public funding trades, newest first. */
  get trades(): readonly PublicFundingTradeRow[] {
    return this.tape.trades;
  }

  frr(): number {
    return this.#frr;
  }

  applyLevels(changes: readonly FundingLevelChange[]): void {
    for (const c of changes) {
      const bid = c.side === "borrow";
      aggregate(this.books, { ...c, key: c.rate, bid }, (book, rate, count, amount) =>
        book.applyFunding(rate, c.period, count, bid ? -amount : amount),
      );
    }
  }

  applyFills(fills: readonly FundingFill[]): PublicFundingTradeRow[] {
    const rows = fills.map((f) => ({
      id: f.tradeId,
      mts: f.mts,
      amount: f.taker.side === "lend" ? f.amount : -f.amount,
      rate: f.rate,
      period: f.period,
    }));
    for (const f of fills) {
      // A slow average (weighted by amount against a ~10 000-unit-of-USD window) moves like an FRR.
      const w = Math.min(0.2, (f.amount * this.listing.usd) / 10_000) * 0.1;
      this.#frr = Number((this.#frr * (1 - w) + f.rate * w).toPrecision(8));
    }
    this.tape.add(rows);
    for (const row of rows)
      for (const s of this.#candles.values())
        if (row.period >= s.from && row.period <= s.to) addToCandles(s.rows, s.ms, row.mts, row.rate, row.amount);
    return rows;
  }

  /**
   * A candle series `[MTS, OPEN, CLOSE, HIGH, LOW, VOLUME]` (rates, amounts), oldest first; null for
   * an unknown timeframe or filter. A new series starts with a seeded past ending at the FRR.
   */
  candles(tf: string, filter: string): number[][] | null {
    const ms = own(TIMEFRAMES, tf);
    const range = parseCandleFilter(filter);
    if (ms === undefined || !range) return null;
    const key = `${tf}|${filter}`;
    let s = this.#candles.get(key);
    if (!s) {
      let h = this.seed;
      for (const ch of key) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
      const r = seededRandom(h);
      const rows: number[][] = [];
      const now = this.now();
      let close = this.#frr;
      const sig = (v: number): number => Number(v.toPrecision(5));
      for (let i = 1; i <= SEEDED_CANDLES; i++) {
        const mts = Math.floor(now / ms) * ms - i * ms;
        const vol = Math.min(0.3, 0.02 * Math.sqrt(ms / 60_000));
        const open = sig(close * (1 + (r() - 0.5) * vol));
        const high = sig(Math.max(open, close) * (1 + r() * vol * 0.5));
        const low = sig(Math.min(open, close) * (1 - r() * vol * 0.5));
        rows.push(
          candle(mts, open, sig(close), high, low, Number(((r() * 100_000) / this.listing.usd).toPrecision(6))),
        );
        close = open;
      }
      rows.reverse();
      s = { ...range, ms, rows };
      this.#candles.set(key, s);
    }
    return s.rows;
  }

  /** The funding ticker, 16 fields (docs/protocol.md#tickers), encoded by src/protocol's codec. */
  ticker(now: number): unknown[] {
    const p0 = this.books.get("P0") as OrderBook;
    const daily = dailyTicker(p0, this.tape, now, this.trades[0]?.rate ?? this.#frr, (v) => Number(v.toPrecision(8)));
    // Lend offers at or under the FRR: what an FRR borrower could take right now.
    let frrAvailable = 0;
    for (const o of this.engine.lends) if (o.rate <= this.#frr && !o.hidden) frrAvailable += o.remaining;
    return fundingTickerCodec.encode({
      ...daily,
      frr: this.#frr,
      bidPeriod: p0.bids.size ? (p0.bids.k2[0] as number) : 0,
      askPeriod: p0.asks.size ? (p0.asks.k2[0] as number) : 0,
      frrAmountAvailable: round8(frrAvailable),
    });
  }

  /** Top `len` levels per side of a precision's book, bids then asks: `[RATE, PERIOD, COUNT, AMOUNT]`. */
  levels(prec: Prec, len: number): number[][] {
    const book = this.books.get(prec) as OrderBook;
    const out: number[][] = [];
    // Every field of a book level is a number.
    for (const s of [book.bids, book.asks])
      for (let i = 0; i < Math.min(len, s.size); i++) out.push(FUNDING_LEVELS.entry(s, i) as number[]);
    return out;
  }

  /** Top `len` visible offers per side: `[OFFER_ID, PERIOD, RATE, AMOUNT]` (bids negative). */
  rawOffers(len: number): unknown[][] {
    return RAW_OFFERS.top(this, len).flat();
  }
}

export type FundingFeed = Feed<FundingMarket>;

export type FundingBatch = MarketBatch<FundingMarket, FundingMatch, PublicFundingTradeRow>;

export interface FundingOfferInput {
  readonly id?: number;
  readonly owner: number;
  /** Positive lends, negative borrows. */
  readonly amount: number;
  readonly rate: number;
  readonly period: number;
  readonly hidden?: boolean;
  /** What does not match at once is dropped (simulated takers). */
  readonly immediate?: boolean;
}

export class FundingExchange {
  readonly markets = new Map<string, FundingMarket>();
  readonly #feeds = new Feeds<FundingMarket>();
  readonly #listeners = new Set<(b: FundingBatch) => void>();
  /** Simulator offer ids, far above account offer ids (which come from storage, from 1). */
  #offerId = 2_000_000_000_000;
  #tradeId = 1;
  readonly #now: () => number;

  constructor(options: { now: () => number; seed?: number; markets?: readonly ListedFunding[] }) {
    this.#now = options.now;
    for (const l of options.markets ?? LISTED_FUNDING)
      this.markets.set(
        l.symbol,
        new FundingMarket(l.symbol, l, () => this.#tradeId++, options.now, options.seed ?? 42),
      );
  }

  /**
   * Continues the funding trade ids after `lastId`, the largest one stored: after a restart the
   * counter would start again at 1, and a new funding trade would take the id of an old one in the
   * accounts' histories and in the credit each trade opened.
   */
  resumeTradeIds(lastId: number): void {
    this.#tradeId = Math.max(this.#tradeId, lastId + 1);
  }

  onBatch(listener: (b: FundingBatch) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Submits an offer; null when the market is unknown or the offer is malformed. */
  place(symbol: string, o: FundingOfferInput): FundingBatch | null {
    const market = this.markets.get(symbol);
    const amount = round8(Math.abs(o.amount));
    if (
      !market ||
      !(amount >= 1e-8) ||
      !(o.rate > 0) ||
      !Number.isInteger(o.period) ||
      o.period < MIN_PERIOD ||
      o.period > MAX_PERIOD
    )
      return null;
    const now = this.#now();
    const order: FundingOrder = {
      id: o.id ?? this.#offerId++,
      owner: o.owner,
      side: o.amount > 0 ? "lend" : "borrow",
      rate: o.rate,
      period: o.period,
      hidden: o.hidden ?? false,
      mtsCreate: now,
      remaining: amount,
      original: amount,
    };
    return this.#settle(market, market.engine.submit(order, now, o.immediate ?? false));
  }

  /** `owner` takes the resting offer `id` whole (FundingEngine.take); null when it cannot. */
  take(symbol: string, id: number, owner: number): FundingBatch | null {
    const market = this.markets.get(symbol);
    const now = this.#now();
    const match = market?.engine.take(id, { id: this.#offerId++, owner, hidden: false, mtsCreate: now }, now);
    return market && match ? this.#settle(market, match) : null;
  }

  /** Puts a stored offer back on its book without matching (after a restart). */
  restore(symbol: string, o: FundingOrder): void {
    const market = this.markets.get(symbol);
    if (!market) return;
    market.engine.restore(o);
    if (!o.hidden)
      market.applyLevels([{ side: o.side, rate: o.rate, period: o.period, deltaAmount: o.remaining, deltaCount: 1 }]);
    this.#feeds.diffs(symbol);
  }

  cancel(symbol: string, id: number): FundingBatch | null {
    const market = this.markets.get(symbol);
    const c = market?.engine.cancel(id);
    if (!market || !c) return null;
    return this.#settle(market, { order: c.order, fills: [], levels: c.level ? [c.level] : [], rested: false });
  }

  #settle(market: FundingMarket, result: FundingMatch): FundingBatch {
    market.applyLevels(result.levels);
    const trades = market.applyFills(result.fills);
    const batch: FundingBatch = { market, result, trades, bookDiffs: this.#feeds.diffs(market.symbol) };
    notifyAll(this.#listeners, batch);
    return batch;
  }

  bookFeed(symbol: string, prec: string, len: number): FundingFeed | null {
    const market = this.markets.get(symbol);
    if (!market) return null;
    return this.#feeds.get(market, prec, len, (p) =>
      p === "R0" ? new RawFeed<FundingMarket>(market, len, RAW_OFFERS) : new LevelFeed(market, p, len, FUNDING_LEVELS),
    );
  }
}
