/**
 * What the exchange publishes per book subscription shape (symbol, precision, length): the levels
 * that changed in the top-`len` window since the last batch, as wire entries, with deletes first
 * (levels leaving the window are sent as deletes, so a client book never exceeds `len` per side).
 * Each feed keeps a mirror of exactly what it has sent — its checksum is what every client holds.
 */
import { OrderBook, type BookSide } from "../../src/protocol/index.ts";
import type { Market, Prec } from "./market.ts";

export class BookFeed {
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
    const out: number[][] = [];
    const push = (s: BookSide): void => {
      for (let i = 0; i < s.size; i++) out.push([s.k1[i] as number, s.aux[i] as number, s.amount[i] as number]);
    };
    push(this.mirror.bids);
    push(this.mirror.asks);
    return out;
  }

  /**
   * Entries that bring clients from the mirror to the current top-`len`; applied to the mirror.
   * Deletes of both sides go first: a price moving across the spread is deleted from its old side
   * before it is added to the new one, so no client sees a delete of a level it no longer holds.
   */
  diff(): number[][] {
    const book = this.market.books.get(this.prec) as OrderBook;
    const deletes: number[][] = [];
    const upserts: number[][] = [];
    for (const bid of [true, false]) {
      const want = bid ? book.bids : book.asks;
      const have = bid ? this.mirror.bids : this.mirror.asks;
      const n = Math.min(this.len, want.size);
      const wanted = new Set<number>();
      for (let i = 0; i < n; i++) wanted.add(want.k1[i] as number);
      for (let i = 0; i < have.size; i++) {
        const p = have.k1[i] as number;
        if (!wanted.has(p)) deletes.push([p, 0, bid ? 1 : -1]);
      }
      for (let i = 0; i < n; i++) {
        const p = want.k1[i] as number;
        const j = have.find(p, 0);
        if (j >= 0 && have.aux[j] === want.aux[i] && have.amount[j] === want.amount[i]) continue;
        upserts.push([p, want.aux[i] as number, want.amount[i] as number]);
      }
    }
    const out = deletes.concat(upserts);
    for (const e of out) this.mirror.applyEntry(e);
    return out;
  }
}
