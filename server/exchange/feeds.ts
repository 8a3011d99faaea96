/**
 * What the exchange publishes per book subscription shape (symbol, precision, length): the levels
 * that changed in the top-`len` window since the last batch, as wire entries, with deletes first
 * (levels leaving the window are sent as deletes, so a client book never exceeds `len` per side).
 * Each feed keeps a mirror of exactly what it has sent — its checksum is what every client holds.
 */
import { OrderBook, type BookSide } from "../../src/protocol/index.ts";
import type { Market, Prec } from "./market.ts";

/** What a book subscription reads: the client-visible mirror, its snapshot, and the next diff. */
export interface Feed {
  readonly market: Market;
  readonly prec: Prec | "R0";
  readonly len: number;
  readonly mirror: OrderBook;
  snapshot(): number[][];
  diff(): number[][];
}

export class BookFeed implements Feed {
  readonly mirror: OrderBook;
  constructor(
    readonly market: Market,
    readonly prec: Prec,
    readonly len: number,
  ) {
    // Plain delete semantics (no top-of-book rule): the mirror is what a standard client holds.
    this.mirror = new OrderBook({ kind: "price", len, topOfBookRule: false });
  }

  /** The client-visible book as a snapshot: bids best first, then asks best first. */
  snapshot(): number[][] {
    return snapshotLevels(this.mirror, PRICE_LEVELS);
  }

  diff(): number[][] {
    return diffLevels(this.market.books.get(this.prec) as OrderBook, this.mirror, this.len, PRICE_LEVELS);
  }
}

/** How an aggregated book kind keys its levels and writes them on the wire. */
export interface LevelShape<K> {
  /** What identifies level `i` of a side (its price, or its rate and period). */
  key(s: BookSide, i: number): K;
  /** Level `i` of a side as a wire entry. */
  entry(s: BookSide, i: number): number[];
  /** The wire entry that deletes level `i` of a side. */
  deletion(s: BookSide, i: number, bid: boolean): number[];
}

/** Trading books: `[PRICE, COUNT, AMOUNT]`, keyed by price (k2 stays 0 in price books). */
export const PRICE_LEVELS: LevelShape<number> = {
  key: (s, i) => s.k1[i] as number,
  entry: (s, i) => [s.k1[i] as number, s.aux[i] as number, s.amount[i] as number],
  deletion: (s, i, bid) => [s.k1[i] as number, 0, bid ? 1 : -1],
};

/** A mirror as a snapshot: bids best first, then asks best first. */
export function snapshotLevels<K>(mirror: OrderBook, shape: LevelShape<K>): number[][] {
  const out: number[][] = [];
  for (const s of [mirror.bids, mirror.asks]) for (let i = 0; i < s.size; i++) out.push(shape.entry(s, i));
  return out;
}

/**
 * Entries that bring clients from the mirror to the book's current top-`len`; applied to the mirror.
 * Deletes of both sides go first: a price moving across the spread is deleted from its old side
 * before it is added to the new one, so no client sees a delete of a level it no longer holds.
 */
export function diffLevels<K>(book: OrderBook, mirror: OrderBook, len: number, shape: LevelShape<K>): number[][] {
  const deletes: number[][] = [];
  const upserts: number[][] = [];
  for (const bid of [true, false]) {
    const want = bid ? book.bids : book.asks;
    const have = bid ? mirror.bids : mirror.asks;
    const n = Math.min(len, want.size);
    const wanted = new Set<K>();
    for (let i = 0; i < n; i++) wanted.add(shape.key(want, i));
    for (let i = 0; i < have.size; i++) if (!wanted.has(shape.key(have, i))) deletes.push(shape.deletion(have, i, bid));
    for (let i = 0; i < n; i++) {
      const j = have.find(want.k1[i] as number, want.k2[i] as number);
      if (j >= 0 && have.aux[j] === want.aux[i] && have.amount[j] === want.amount[i]) continue;
      upserts.push(shape.entry(want, i));
    }
  }
  const out = deletes.concat(upserts);
  for (const e of out) mirror.applyEntry(e);
  return out;
}

/**
 * A raw (R0) book: the top-`len` visible orders per side, best price first and oldest first within
 * a price, as `[ORDER_ID, PRICE, AMOUNT]`; an order leaving the window or the book is sent with
 * price 0. Hidden orders never appear. Computed from the engine's resting orders on each batch.
 */
export class RawBookFeed implements Feed {
  readonly prec = "R0" as const;
  readonly mirror: OrderBook;
  constructor(
    readonly market: Market,
    readonly len: number,
  ) {
    this.mirror = new OrderBook({ kind: "raw", len });
  }

  snapshot(): number[][] {
    const out: number[][] = [];
    const push = (s: BookSide): void => {
      for (let i = 0; i < s.size; i++) out.push([s.k2[i] as number, s.k1[i] as number, s.amount[i] as number]);
    };
    push(this.mirror.bids);
    push(this.mirror.asks);
    return out;
  }

  /** The visible orders per side in book order (the engine keeps them in arrival order). */
  #top(): { bids: [number, number, number][]; asks: [number, number, number][] } {
    const bids: [number, number, number][] = [];
    const asks: [number, number, number][] = [];
    for (const o of this.market.engine.resting()) {
      if (o.hidden || !(o.remaining > 0)) continue;
      if (o.side === "buy") bids.push([o.id, o.price, o.remaining]);
      else asks.push([o.id, o.price, -o.remaining]);
    }
    // Array sort is stable: orders at one price stay in arrival (time-priority) order.
    bids.sort((a, b) => b[1] - a[1]);
    asks.sort((a, b) => a[1] - b[1]);
    return { bids: bids.slice(0, this.len), asks: asks.slice(0, this.len) };
  }

  diff(): number[][] {
    const top = this.#top();
    const deletes: number[][] = [];
    const upserts: number[][] = [];
    for (const bid of [true, false]) {
      const want = bid ? top.bids : top.asks;
      const have = bid ? this.mirror.bids : this.mirror.asks;
      const held = new Map<number, [number, number]>();
      for (let i = 0; i < have.size; i++)
        held.set(have.k2[i] as number, [have.k1[i] as number, have.amount[i] as number]);
      const wanted = new Set(want.map((o) => o[0]));
      for (const id of held.keys()) if (!wanted.has(id)) deletes.push([id, 0, bid ? 1 : -1]);
      for (const o of want) {
        const h = held.get(o[0]);
        if (!h || h[0] !== o[1] || h[1] !== o[2]) upserts.push([o[0], o[1], o[2]]);
      }
    }
    const out = deletes.concat(upserts);
    for (const e of out) this.mirror.applyEntry(e);
    return out;
  }
}
