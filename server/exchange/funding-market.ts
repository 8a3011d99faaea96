/**
 * Funding markets (PROTOCOL.md 2.1–2.5, 7): per currency, a matching engine of lend and borrow
 * offers keyed by (rate, period), the aggregated P0–P4 funding books (src/protocol's OrderBook of
 * kind "funding": bids are borrowers with negative amounts, asks lenders with positive ones), the
 * funding trades tape, candles per period (`p30`) and per period range (`a30:p2:p30`), and the
 * 16-field funding ticker with its FRR. `FundingExchange` holds the markets, their book feeds and the
 * batch listeners, as `Exchange` does for trading pairs.
 *
 * Matching: a lender's period is the longest term it accepts, a borrower's the term it needs, so a
 * lend offer (rate r, period p) matches a borrow (rate ≥ r, period ≤ p); the trade runs at the
 * resting (maker) offer's rate for the borrower's period. A trade's amount is signed by the taker:
 * positive when the taker lends, negative when it borrows.
 */
import { fundingTickerCodec, OrderBook, publicFundingTradeCodec, type BookSide } from "../../src/protocol/index.ts";
import { diffLevels, snapshotLevels, type LevelShape } from "./feeds.ts";
import { notifyAll } from "../log.ts";
import { MAX_CANDLES, MAX_TRADES, PRECISIONS, roundToPrecision, TIMEFRAMES, type Prec } from "./market.ts";
import { mulberry32 } from "./simulator.ts";

const SIG: Record<Prec, number> = { P0: 5, P1: 4, P2: 3, P3: 2, P4: 1 };
export const MIN_PERIOD = 2;
export const MAX_PERIOD = 120;
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

export type FundingSide = "lend" | "borrow";

export interface FundingOrder {
  readonly id: number;
  readonly owner: number;
  readonly side: FundingSide;
  readonly rate: number;
  readonly period: number;
  readonly hidden: boolean;
  readonly mtsCreate: number;
  remaining: number;
  readonly original: number;
}

export interface FundingFill {
  readonly tradeId: number;
  readonly mts: number;
  readonly maker: FundingOrder;
  readonly taker: FundingOrder;
  readonly amount: number;
  readonly rate: number;
  readonly period: number;
}

interface LevelChange {
  readonly side: FundingSide;
  readonly rate: number;
  readonly period: number;
  readonly deltaAmount: number;
  readonly deltaCount: number;
}

export interface FundingMatch {
  readonly order: FundingOrder;
  readonly fills: readonly FundingFill[];
  readonly levels: readonly LevelChange[];
  /** True when (what is left of) the order rests on the book. */
  readonly rested: boolean;
}

const round8 = (v: number): number => Math.round(v * 1e8) / 1e8;

/** Price-time priority over (rate, period) offers; hidden offers rest but leave the books alone. */
export class FundingEngine {
  /** Best first: lends by rate ascending, borrows by rate descending; arrival order within a rate. */
  readonly lends: FundingOrder[] = [];
  readonly borrows: FundingOrder[] = [];
  readonly #byId = new Map<number, FundingOrder>();

  constructor(readonly nextTradeId: () => number) {}

  get(id: number): FundingOrder | undefined {
    return this.#byId.get(id);
  }

  /** Matches an offer; the rest rests unless `immediate` (a simulated taker). */
  submit(o: FundingOrder, now: number, immediate = false): FundingMatch {
    const fills: FundingFill[] = [];
    const levels: LevelChange[] = [];
    const book = o.side === "lend" ? this.borrows : this.lends;
    for (let i = 0; i < book.length && o.remaining > 1e-9;) {
      const m = book[i] as FundingOrder;
      const crosses = o.side === "lend" ? m.rate >= o.rate : m.rate <= o.rate;
      if (!crosses) break;
      const lend = o.side === "lend" ? o : m;
      const borrow = o.side === "lend" ? m : o;
      if (borrow.period > lend.period || m.owner === o.owner) {
        i++;
        continue;
      }
      const amount = round8(Math.min(o.remaining, m.remaining));
      o.remaining = round8(o.remaining - amount);
      m.remaining = round8(m.remaining - amount);
      fills.push({
        tradeId: this.nextTradeId(),
        mts: now,
        maker: m,
        taker: o,
        amount,
        rate: m.rate,
        period: borrow.period,
      });
      if (!m.hidden)
        levels.push({
          side: m.side,
          rate: m.rate,
          period: m.period,
          deltaAmount: -amount,
          deltaCount: m.remaining > 1e-9 ? 0 : -1,
        });
      if (m.remaining <= 1e-9) {
        book.splice(i, 1);
        this.#byId.delete(m.id);
      } else i++;
    }
    const rested = !immediate && o.remaining > 1e-9;
    if (rested) {
      this.restore(o);
      if (!o.hidden)
        levels.push({ side: o.side, rate: o.rate, period: o.period, deltaAmount: o.remaining, deltaCount: 1 });
    }
    return { order: o, fills, levels, rested };
  }

  /** Puts an offer on its side without matching (a restart's restore, or what is left after matching). */
  restore(o: FundingOrder): void {
    const side = o.side === "lend" ? this.lends : this.borrows;
    const better = (a: number, b: number): boolean => (o.side === "lend" ? a < b : a > b);
    let i = side.length;
    while (i > 0 && better(o.rate, (side[i - 1] as FundingOrder).rate)) i--;
    side.splice(i, 0, o);
    this.#byId.set(o.id, o);
  }

  cancel(id: number): { order: FundingOrder; level: LevelChange | null } | null {
    const o = this.#byId.get(id);
    if (!o) return null;
    const side = o.side === "lend" ? this.lends : this.borrows;
    side.splice(side.indexOf(o), 1);
    this.#byId.delete(id);
    const level = o.hidden
      ? null
      : { side: o.side, rate: o.rate, period: o.period, deltaAmount: -o.remaining, deltaCount: -1 };
    return { order: o, level };
  }
}

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
  trades: PublicFundingTradeRow[] = [];
  /** Candle series by `${tf}|${filter}`, oldest first; created (with a seeded past) on first use. */
  readonly #candles = new Map<string, { from: number; to: number; ms: number; rows: number[][] }>();
  #day: PublicFundingTradeRow[] = [];
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

  frr(): number {
    return this.#frr;
  }

  applyLevels(changes: readonly LevelChange[]): void {
    for (const c of changes) {
      const bid = c.side === "borrow";
      for (const p of PRECISIONS) {
        const book = this.books.get(p) as OrderBook;
        const rate = roundToPrecision(c.rate, SIG[p], bid);
        const side = bid ? book.bids : book.asks;
        const i = side.find(rate, c.period);
        const count = (i >= 0 ? (side.aux[i] as number) : 0) + c.deltaCount;
        const amount = round8((i >= 0 ? Math.abs(side.amount[i] as number) : 0) + c.deltaAmount);
        if (count <= 0 || amount <= 1e-12) {
          if (i >= 0) side.removeAt(i);
        } else {
          book.applyFunding(rate, c.period, count, bid ? -amount : amount);
        }
      }
    }
  }

  applyFills(fills: readonly FundingFill[]): PublicFundingTradeRow[] {
    const rows: PublicFundingTradeRow[] = [];
    for (const f of fills) {
      const row: PublicFundingTradeRow = {
        id: f.tradeId,
        mts: f.mts,
        amount: f.taker.side === "lend" ? f.amount : -f.amount,
        rate: f.rate,
        period: f.period,
      };
      rows.push(row);
      this.trades.unshift(row);
      this.#day.push(row);
      // A slow average (weighted by amount against a ~10 000-unit-of-USD window) moves like an FRR.
      const w = Math.min(0.2, (f.amount * this.listing.usd) / 10_000) * 0.1;
      this.#frr = Number((this.#frr * (1 - w) + f.rate * w).toPrecision(8));
      for (const s of this.#candles.values())
        if (row.period >= s.from && row.period <= s.to) this.#candle(s.rows, s.ms, row);
    }
    if (this.trades.length > MAX_TRADES) this.trades.length = MAX_TRADES;
    return rows;
  }

  /** Encoded public funding trade `[ID, MTS, AMOUNT, RATE, PERIOD]`. */
  static tradeWire(t: PublicFundingTradeRow): unknown[] {
    return publicFundingTradeCodec.encode(t);
  }

  #candle(list: number[][], ms: number, t: PublicFundingTradeRow): void {
    const start = Math.floor(t.mts / ms) * ms;
    const last = list[list.length - 1];
    const vol = Math.abs(t.amount);
    if (last && last[0] === start) {
      last[2] = t.rate;
      last[3] = Math.max(last[3] as number, t.rate);
      last[4] = Math.min(last[4] as number, t.rate);
      last[5] = round8((last[5] as number) + vol);
    } else if (!last || (last[0] as number) < start) {
      list.push([start, t.rate, t.rate, t.rate, t.rate, vol]);
      if (list.length > MAX_CANDLES) list.shift();
    }
  }

  /**
   * A candle series `[MTS, OPEN, CLOSE, HIGH, LOW, VOLUME]` (rates, amounts), oldest first; null for
   * an unknown timeframe or filter. A new series starts with a seeded past ending at the FRR.
   */
  candles(tf: string, filter: string): number[][] | null {
    const ms = TIMEFRAMES[tf];
    const range = parseCandleFilter(filter);
    if (ms === undefined || !range) return null;
    const key = `${tf}|${filter}`;
    let s = this.#candles.get(key);
    if (!s) {
      let h = this.seed;
      for (const ch of key) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
      const r = mulberry32(h);
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
        rows.push([mts, open, sig(close), high, low, Number(((r() * 100_000) / this.listing.usd).toPrecision(6))]);
        close = open;
      }
      rows.reverse();
      s = { ...range, ms, rows };
      this.#candles.set(key, s);
    }
    return s.rows;
  }

  /** The funding ticker, 16 fields (PROTOCOL.md 2.4), encoded by src/protocol's codec. */
  ticker(now: number): unknown[] {
    while (this.#day.length > 0 && (this.#day[0] as PublicFundingTradeRow).mts < now - 86_400_000) this.#day.shift();
    const p0 = this.books.get("P0") as OrderBook;
    const sum = (side: BookSide): number => {
      let s = 0;
      for (let i = 0; i < Math.min(25, side.size); i++) s += Math.abs(side.amount[i] as number);
      return round8(s);
    };
    const last = this.trades[0]?.rate ?? this.#frr;
    const first = this.#day[0]?.rate ?? last;
    let high = last;
    let low = last;
    let volume = 0;
    for (const t of this.#day) {
      high = Math.max(high, t.rate);
      low = Math.min(low, t.rate);
      volume += Math.abs(t.amount);
    }
    // Lend offers at or under the FRR: what an FRR borrower could take right now.
    let frrAvailable = 0;
    for (const o of this.engine.lends) if (o.rate <= this.#frr && !o.hidden) frrAvailable += o.remaining;
    const change = Number((last - first).toPrecision(8));
    return fundingTickerCodec.encode({
      frr: this.#frr,
      bid: p0.bids.size ? (p0.bids.k1[0] as number) : 0,
      bidPeriod: p0.bids.size ? (p0.bids.k2[0] as number) : 0,
      bidSize: sum(p0.bids),
      ask: p0.asks.size ? (p0.asks.k1[0] as number) : 0,
      askPeriod: p0.asks.size ? (p0.asks.k2[0] as number) : 0,
      askSize: sum(p0.asks),
      dailyChange: change,
      dailyChangePerc: first ? Math.round((change / first) * 1e4) / 1e4 : 0,
      lastPrice: last,
      volume: round8(volume),
      high,
      low,
      frrAmountAvailable: round8(frrAvailable),
    });
  }

  /** Top `len` levels per side of a precision's book, bids then asks: `[RATE, PERIOD, COUNT, AMOUNT]`. */
  levels(prec: Prec, len: number): number[][] {
    const book = this.books.get(prec) as OrderBook;
    const out: number[][] = [];
    for (const s of [book.bids, book.asks])
      for (let i = 0; i < Math.min(len, s.size); i++)
        out.push([s.k1[i] as number, s.k2[i] as number, s.aux[i] as number, s.amount[i] as number]);
    return out;
  }

  /** Top `len` visible offers per side: `[OFFER_ID, PERIOD, RATE, AMOUNT]` (bids negative). */
  rawOffers(len: number): number[][] {
    const out: number[][] = [];
    for (const [side, sign] of [
      [this.engine.borrows, -1],
      [this.engine.lends, 1],
    ] as const) {
      let n = 0;
      for (const o of side) {
        if (o.hidden) continue;
        if (n++ >= len) break;
        out.push([o.id, o.period, o.rate, sign * o.remaining]);
      }
    }
    return out;
  }
}

/** Funding books: `[RATE, PERIOD, COUNT, AMOUNT]`, keyed by rate and period; bids (borrows) negative. */
const FUNDING_LEVELS: LevelShape<string> = {
  key: (s, i) => `${s.k1[i] as number}|${s.k2[i] as number}`,
  entry: (s, i) => [s.k1[i] as number, s.k2[i] as number, s.aux[i] as number, s.amount[i] as number],
  deletion: (s, i, bid) => [s.k1[i] as number, s.k2[i] as number, 0, bid ? -1 : 1],
};

/**
 * A funding book subscription shape's feed: the diff of the top-`len` (rate, period) levels since
 * the last batch, deletes first, with the mirror of what clients hold (its checksum is theirs).
 */
export class FundingBookFeed {
  readonly mirror: OrderBook;
  constructor(
    readonly market: FundingMarket,
    readonly prec: Prec,
    readonly len: number,
  ) {
    this.mirror = new OrderBook({ kind: "funding", len, topOfBookRule: false });
  }

  snapshot(): number[][] {
    return snapshotLevels(this.mirror, FUNDING_LEVELS);
  }

  diff(): number[][] {
    return diffLevels(this.market.books.get(this.prec) as OrderBook, this.mirror, this.len, FUNDING_LEVELS);
  }
}

/**
 * A raw funding book (R0): the top-`len` visible offers per side as `[OFFER_ID, PERIOD, RATE,
 * AMOUNT]` (borrowers negative), best rate first and by id within a rate; an offer leaving the
 * window or the book is sent with rate 0.
 */
export class FundingRawFeed {
  readonly prec = "R0" as const;
  readonly mirror: OrderBook;
  constructor(
    readonly market: FundingMarket,
    readonly len: number,
  ) {
    this.mirror = new OrderBook({ kind: "funding-raw", len });
  }

  snapshot(): number[][] {
    const out: number[][] = [];
    for (const s of [this.mirror.bids, this.mirror.asks])
      for (let i = 0; i < s.size; i++)
        out.push([s.k2[i] as number, s.aux[i] as number, s.k1[i] as number, s.amount[i] as number]);
    return out;
  }

  diff(): number[][] {
    const deletes: number[][] = [];
    const upserts: number[][] = [];
    for (const bid of [true, false]) {
      const offers = (bid ? this.market.engine.borrows : this.market.engine.lends).filter((o) => !o.hidden);
      offers.sort((a, b) => (bid ? b.rate - a.rate : a.rate - b.rate) || a.id - b.id);
      const want = offers.slice(0, this.len);
      const have = bid ? this.mirror.bids : this.mirror.asks;
      const held = new Map<number, [number, number, number]>();
      for (let i = 0; i < have.size; i++)
        held.set(have.k2[i] as number, [have.aux[i] as number, have.k1[i] as number, have.amount[i] as number]);
      const wanted = new Set(want.map((o) => o.id));
      for (const [id, h] of held) if (!wanted.has(id)) deletes.push([id, h[0], 0, bid ? -1 : 1]);
      for (const o of want) {
        const amount = bid ? -o.remaining : o.remaining;
        const h = held.get(o.id);
        if (!h || h[0] !== o.period || h[1] !== o.rate || h[2] !== amount)
          upserts.push([o.id, o.period, o.rate, amount]);
      }
    }
    const out = deletes.concat(upserts);
    for (const e of out) this.mirror.applyEntry(e);
    return out;
  }
}

export type FundingFeed = FundingBookFeed | FundingRawFeed;

export interface FundingBatch {
  readonly market: FundingMarket;
  readonly result: FundingMatch;
  readonly trades: readonly PublicFundingTradeRow[];
  readonly bookDiffs: ReadonlyMap<FundingFeed, number[][]>;
}

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
  readonly #feeds = new Map<string, FundingFeed>();
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

  /** Puts a stored offer back on its book without matching (after a restart). */
  restore(symbol: string, o: FundingOrder): void {
    const market = this.markets.get(symbol);
    if (!market) return;
    market.engine.restore(o);
    if (!o.hidden)
      market.applyLevels([{ side: o.side, rate: o.rate, period: o.period, deltaAmount: o.remaining, deltaCount: 1 }]);
    for (const feed of this.#feedsOf(symbol)) feed.diff();
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
    const bookDiffs = new Map<FundingFeed, number[][]>();
    for (const feed of this.#feedsOf(market.symbol)) bookDiffs.set(feed, feed.diff());
    const batch: FundingBatch = { market, result, trades, bookDiffs };
    notifyAll(this.#listeners, batch);
    return batch;
  }

  bookFeed(symbol: string, prec: string, len: number): FundingFeed | null {
    const market = this.markets.get(symbol);
    if (!market || (prec !== "R0" && !(PRECISIONS as readonly string[]).includes(prec))) return null;
    const key = `${symbol}|${prec}|${len}`;
    let feed = this.#feeds.get(key);
    if (!feed) {
      feed = prec === "R0" ? new FundingRawFeed(market, len) : new FundingBookFeed(market, prec as Prec, len);
      feed.diff();
      this.#feeds.set(key, feed);
    }
    return feed;
  }

  #feedsOf(symbol: string): FundingFeed[] {
    return [...this.#feeds.values()].filter((f) => f.market.symbol === symbol);
  }
}
