/**
 * A worker book view turned into @lab49/react-order-book's props, the way an app using that
 * library feeds it: `[price, size]` string pairs per side, best first, made anew for every view.
 */
import { BOOK_VIEW_STRIDE, type BookView } from "../../src/protocol";

export interface PeerBook {
  readonly asks: string[][];
  readonly bids: string[][];
  /** The view's `health.lastUpdateAt` and `publishedAt`, written on the book's root once painted. */
  readonly updateAt: number;
  readonly publishedAt: number;
}

/** Amounts as the desk shows them on a P0 book (4 decimals); prices as received. */
const AMOUNT_DECIMALS = 4;

function side(levels: Float64Array, from: number, count: number): string[][] {
  const out: string[][] = new Array<string[]>(count);
  for (let i = 0; i < count; i++) {
    const at = (from + i) * BOOK_VIEW_STRIDE;
    out[i] = [String(levels[at] ?? 0), (levels[at + 2] ?? 0).toFixed(AMOUNT_DECIMALS)];
  }
  return out;
}

export function peerBook(view: Pick<BookView, "bids" | "asks" | "levels" | "health" | "publishedAt">): PeerBook {
  return {
    bids: side(view.levels, 0, view.bids),
    asks: side(view.levels, view.bids, view.asks),
    updateAt: view.health.lastUpdateAt,
    publishedAt: view.publishedAt,
  };
}
