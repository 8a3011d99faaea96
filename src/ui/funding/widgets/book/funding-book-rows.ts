/**
 * The funding book's rows, framework-free so it tests in Node. The book is one stacked list: the
 * offers (lenders, asks) above with the best (lowest) rate nearest the middle, the bids (borrowers)
 * below with the best (highest) rate nearest the middle, `perSide` rows each, so the list's middle is
 * where the two sides meet whatever the depth. A row's text comes from the worker's view: the rate,
 * the period or period range of the level, the count (offers at that rate) and the amount.
 */
import { BOOK_VIEW_STRIDE, type BookView } from "../../../../protocol";
import { periodLabel, ratePercent } from "../funding-format";
import { amountLabel } from "../../../desk/widgets/book/book-format";

export type FundingSide = "bid" | "ask";

export interface FundingRowSlot {
  readonly side: FundingSide;
  /** 0 is the best level of the side. */
  readonly level: number;
}

/** Where list row `index` sits: offers top (worst first), then bids (best first). */
export function slotOf(index: number, perSide: number): FundingRowSlot | null {
  if (index < 0 || index >= 2 * perSide) return null;
  return index < perSide ? { side: "ask", level: perSide - 1 - index } : { side: "bid", level: index - perSide };
}

/** The list index that shows a side's level (the inverse of slotOf). */
export function indexOf(slot: FundingRowSlot, perSide: number): number {
  return slot.side === "ask" ? perSide - 1 - slot.level : perSide + slot.level;
}

export interface FundingRowText {
  readonly rate: string;
  readonly period: string;
  readonly count: string;
  readonly amount: string;
  /** The level's share of the deepest cumulative amount in the view (0–1), for the depth bar. */
  readonly depth: number;
}

/**
 * The labels of a side's level in a view, or null when the side has no such level. A raw book's
 * levels are offers: each is one offer (its count slot carries the period, see BookView).
 */
export function rowText(view: BookView, slot: FundingRowSlot, raw: boolean): FundingRowText | null {
  const n = slot.side === "bid" ? view.bids : view.asks;
  if (slot.level >= n) return null;
  const i = (slot.side === "bid" ? 0 : view.bids) + slot.level;
  const at = i * BOOK_VIEW_STRIDE;
  const shortest = view.periods?.[2 * i] ?? NaN;
  const longest = view.periods?.[2 * i + 1] ?? NaN;
  const deepest = Math.max(cumulativeAt(view, "bid"), cumulativeAt(view, "ask"));
  const cumulative = view.levels[at + 3] ?? 0;
  return {
    rate: ratePercent(view.levels[at] ?? NaN),
    period: periodLabel(shortest, longest),
    count: raw ? "1" : String(view.levels[at + 1] ?? 0),
    amount: amountLabel(view.levels[at + 2] ?? 0, false),
    depth: deepest > 0 ? cumulative / deepest : 0,
  };
}

/** The cumulative amount at a side's deepest level in the view (0 when the side is empty). */
function cumulativeAt(view: BookView, side: FundingSide): number {
  const n = side === "bid" ? view.bids : view.asks;
  if (n === 0) return 0;
  const i = (side === "bid" ? 0 : view.bids) + n - 1;
  return view.levels[i * BOOK_VIEW_STRIDE + 3] ?? 0;
}

/** Precisions of the funding book: the aggregated P0–P4 and the raw book of single offers. */
export const FUNDING_PRECISIONS = ["P0", "P1", "P2", "P3", "P4", "R0"] as const;
export type FundingPrecision = (typeof FUNDING_PRECISIONS)[number];

/** Levels a side shows and asks for. */
export const FUNDING_BOOK_DEPTH = 100;
