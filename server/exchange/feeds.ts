/**
 * What the exchange publishes per book subscription shape (symbol, precision, length), for trading
 * and funding books alike: the entries that changed in the top-`len` window since the last batch,
 * deletes first (entries leaving the window are sent as deletes, so a client book never exceeds
 * `len` per side). Each feed keeps a mirror of exactly what it has sent — its checksum is what every
 * client holds. Entries are built by src/protocol's book-row codecs.
 */
import {
  bookLevelCodec,
  fundingBookLevelCodec,
  OrderBook,
  rawBookOrderCodec,
  rawFundingBookOfferCodec,
  type BookSide,
} from "../../src/protocol/index.ts";
import type { FundingEngine } from "./funding-engine.ts";
import type { Market } from "./market.ts";
import { PRECISIONS, type Prec } from "./market-data.ts";

/** What a book subscription reads: the client-visible mirror, its snapshot, and the next diff. */
export interface Feed<M extends { readonly symbol: string } = Market> {
  readonly market: M;
  readonly prec: Prec | "R0";
  readonly len: number;
  readonly mirror: OrderBook;
  snapshot(): unknown[][];
  diff(): unknown[][];
}

/** How an aggregated book kind keys its levels and writes them on the wire. */
interface LevelShape {
  readonly kind: "price" | "funding";
  /** What identifies level `i` of a side (its price, or its rate and period). */
  key(s: BookSide, i: number): number | string;
  /** Level `i` of a side as a wire entry. */
  entry(s: BookSide, i: number): unknown[];
  /** The wire entry that deletes level `i` of a side. */
  deletion(s: BookSide, i: number, bid: boolean): unknown[];
}

const at = (a: ArrayLike<number>, i: number): number => a[i] as number;

/** Trading books: `[PRICE, COUNT, AMOUNT]`, keyed by price (k2 stays 0 in price books). */
export const PRICE_LEVELS: LevelShape = {
  kind: "price",
  key: (s, i) => at(s.k1, i),
  entry: (s, i) => bookLevelCodec.encode({ price: at(s.k1, i), count: at(s.aux, i), amount: at(s.amount, i) }),
  deletion: (s, i, bid) => bookLevelCodec.encode({ price: at(s.k1, i), count: 0, amount: bid ? 1 : -1 }),
};

/** Funding books: `[RATE, PERIOD, COUNT, AMOUNT]`, keyed by rate and period; bids (borrows) negative. */
export const FUNDING_LEVELS: LevelShape = {
  kind: "funding",
  key: (s, i) => `${at(s.k1, i)}|${at(s.k2, i)}`,
  entry: (s, i) =>
    fundingBookLevelCodec.encode({
      rate: at(s.k1, i),
      period: at(s.k2, i),
      count: at(s.aux, i),
      amount: at(s.amount, i),
    }),
  deletion: (s, i, bid) =>
    fundingBookLevelCodec.encode({ rate: at(s.k1, i), period: at(s.k2, i), count: 0, amount: bid ? -1 : 1 }),
};

/** An aggregated book's feed (P0–P4). */
export class LevelFeed<
  M extends { readonly symbol: string; readonly books: ReadonlyMap<Prec, OrderBook> },
> implements Feed<M> {
  readonly mirror: OrderBook;
  constructor(
    readonly market: M,
    readonly prec: Prec,
    readonly len: number,
    readonly shape: LevelShape,
  ) {
    // Plain delete semantics (no top-of-book rule): the mirror is what a standard client holds.
    this.mirror = new OrderBook({ kind: shape.kind, len, topOfBookRule: false });
  }

  /** The client-visible book as a snapshot: bids best first, then asks best first. */
  snapshot(): unknown[][] {
    const out: unknown[][] = [];
    for (const s of [this.mirror.bids, this.mirror.asks])
      for (let i = 0; i < s.size; i++) out.push(this.shape.entry(s, i));
    return out;
  }

  /**
   * Entries that bring clients from the mirror to the book's current top-`len`; applied to the
   * mirror. Deletes of both sides go first: a price moving across the spread is deleted from its
   * old side before it is added to the new one, so no client sees a delete of a level it no longer
   * holds.
   */
  diff(): unknown[][] {
    const book = this.market.books.get(this.prec) as OrderBook;
    const deletes: unknown[][] = [];
    const upserts: unknown[][] = [];
    for (const bid of [true, false]) {
      const want = bid ? book.bids : book.asks;
      const have = bid ? this.mirror.bids : this.mirror.asks;
      const n = Math.min(this.len, want.size);
      const wanted = new Set<number | string>();
      for (let i = 0; i < n; i++) wanted.add(this.shape.key(want, i));
      for (let i = 0; i < have.size; i++)
        if (!wanted.has(this.shape.key(have, i))) deletes.push(this.shape.deletion(have, i, bid));
      for (let i = 0; i < n; i++) {
        const j = have.find(at(want.k1, i), at(want.k2, i));
        if (j >= 0 && have.aux[j] === want.aux[i] && have.amount[j] === want.amount[i]) continue;
        upserts.push(this.shape.entry(want, i));
      }
    }
    return apply(this.mirror, deletes, upserts);
  }
}

/** How a raw book kind lists its orders (offers) and writes them on the wire; the id is first. */
interface RawShape<M> {
  readonly kind: "raw" | "funding-raw";
  /** The top `len` visible orders of each side as wire entries, best first. */
  top(market: M, len: number): [bids: unknown[][], asks: unknown[][]];
  /** Entry `i` of a mirror side. */
  held(s: BookSide, i: number): unknown[];
  /** The wire entry that deletes a held entry. */
  deletion(held: unknown[], bid: boolean): unknown[];
}

/**
 * Trading raw books (R0): `[ORDER_ID, PRICE, AMOUNT]`, best price first and oldest first within a
 * price; an order leaving the window or the book is sent with price 0. Hidden orders never appear.
 */
export const RAW_ORDERS: RawShape<Market> = {
  kind: "raw",
  top(market, len) {
    const bids: { id: number; price: number; amount: number }[] = [];
    const asks: { id: number; price: number; amount: number }[] = [];
    for (const o of market.engine.resting()) {
      if (o.hidden || !(o.remaining > 0)) continue;
      if (o.side === "buy") bids.push({ id: o.id, price: o.price, amount: o.remaining });
      else asks.push({ id: o.id, price: o.price, amount: -o.remaining });
    }
    // Array sort is stable: orders at one price stay in arrival (time-priority) order.
    bids.sort((a, b) => b.price - a.price);
    asks.sort((a, b) => a.price - b.price);
    return [
      bids.slice(0, len).map((o) => rawBookOrderCodec.encode(o)),
      asks.slice(0, len).map((o) => rawBookOrderCodec.encode(o)),
    ];
  },
  held: (s, i) => rawBookOrderCodec.encode({ id: at(s.k2, i), price: at(s.k1, i), amount: at(s.amount, i) }),
  deletion: (h, bid) => rawBookOrderCodec.encode({ id: h[0] as number, price: 0, amount: bid ? 1 : -1 }),
};

/**
 * Funding raw books (R0): `[OFFER_ID, PERIOD, RATE, AMOUNT]` (borrowers negative), best rate first
 * and by id within a rate; an offer leaving the window or the book is sent with rate 0.
 */
export const RAW_OFFERS: RawShape<{ readonly symbol: string; readonly engine: FundingEngine }> = {
  kind: "funding-raw",
  top(market, len) {
    const side = (bid: boolean): unknown[][] =>
      (bid ? market.engine.borrows : market.engine.lends)
        .filter((o) => !o.hidden)
        .sort((a, b) => (bid ? b.rate - a.rate : a.rate - b.rate) || a.id - b.id)
        .slice(0, len)
        .map((o) => rawFundingBookOfferCodec.encode({ ...o, amount: bid ? -o.remaining : o.remaining }));
    return [side(true), side(false)];
  },
  held: (s, i) =>
    rawFundingBookOfferCodec.encode({
      id: at(s.k2, i),
      period: at(s.aux, i),
      rate: at(s.k1, i),
      amount: at(s.amount, i),
    }),
  deletion: (h, bid) =>
    rawFundingBookOfferCodec.encode({ id: h[0] as number, period: h[1] as number, rate: 0, amount: bid ? -1 : 1 }),
};

/** A raw book's feed (R0), computed from the engine's resting orders (offers) on each batch. */
export class RawFeed<M extends { readonly symbol: string }> implements Feed<M> {
  readonly prec = "R0" as const;
  readonly mirror: OrderBook;
  constructor(
    readonly market: M,
    readonly len: number,
    readonly shape: RawShape<M>,
  ) {
    this.mirror = new OrderBook({ kind: shape.kind, len });
  }

  snapshot(): unknown[][] {
    const out: unknown[][] = [];
    for (const s of [this.mirror.bids, this.mirror.asks])
      for (let i = 0; i < s.size; i++) out.push(this.shape.held(s, i));
    return out;
  }

  diff(): unknown[][] {
    const deletes: unknown[][] = [];
    const upserts: unknown[][] = [];
    const top = this.shape.top(this.market, this.len);
    for (const [k, want] of top.entries()) {
      const bid = k === 0;
      const have = bid ? this.mirror.bids : this.mirror.asks;
      const held = new Map<unknown, unknown[]>();
      for (let i = 0; i < have.size; i++) {
        const e = this.shape.held(have, i);
        held.set(e[0], e);
      }
      const wanted = new Set(want.map((e) => e[0]));
      for (const [id, e] of held) if (!wanted.has(id)) deletes.push(this.shape.deletion(e, bid));
      for (const e of want) {
        const h = held.get(e[0]);
        if (!h || h.some((v, j) => v !== e[j])) upserts.push(e);
      }
    }
    return apply(this.mirror, deletes, upserts);
  }
}

/**
 * What one match (or cancellation, or printed trade) on a market did: the engine's result, the
 * public trades it printed, and each book feed's diff — computed once: every socket server (public
 * and authenticated host) sends the same entries, and a feed's mirror advances exactly once.
 */
export interface MarketBatch<M extends { readonly symbol: string }, R, T> {
  readonly market: M;
  readonly result: R;
  readonly trades: readonly T[];
  readonly bookDiffs: ReadonlyMap<Feed<M>, unknown[][]>;
}

/** The feeds of a set of markets, one per (symbol, precision, length), made (and synced) on first use. */
export class Feeds<M extends { readonly symbol: string }> {
  readonly #feeds = new Map<string, Feed<M>>();

  /** The feed of a book shape; null for a precision that is neither P0–P4 nor R0. */
  get(market: M, prec: string, len: number, make: (prec: Prec | "R0") => Feed<M>): Feed<M> | null {
    if (prec !== "R0" && !(PRECISIONS as readonly string[]).includes(prec)) return null;
    const key = `${market.symbol}|${prec}|${len}`;
    let feed = this.#feeds.get(key);
    if (!feed) {
      feed = make(prec as Prec | "R0");
      feed.diff();
      this.#feeds.set(key, feed);
    }
    return feed;
  }

  /**
   * Each feed's diff after a change on `symbol`, computed once here: every socket server (public
   * and authenticated host) sends the same entries, and a feed's mirror advances exactly once.
   */
  diffs(symbol: string): Map<Feed<M>, unknown[][]> {
    const out = new Map<Feed<M>, unknown[][]>();
    for (const feed of this.#feeds.values()) if (feed.market.symbol === symbol) out.set(feed, feed.diff());
    return out;
  }
}

/** Deletes first, then the rest, applied to the mirror in that order: what the clients get. */
function apply(mirror: OrderBook, deletes: unknown[][], upserts: unknown[][]): unknown[][] {
  const out = deletes.concat(upserts);
  for (const e of out) mirror.applyEntry(e);
  return out;
}
