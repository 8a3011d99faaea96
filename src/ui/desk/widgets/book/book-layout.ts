/**
 * The book layouts (setting `book_layout`):
 * - 1 stacked: one column list, asks above (best ask next to the spread row), the spread row, bids
 *   below; price | amount | total | count.
 * - 2 side by side (the default): bids on the left, asks on the right, best levels in the first row;
 *   the spread sits above the columns.
 * - 3 ladder: a price ladder in one column list like the stacked one, with the bid sizes left of the
 *   price column and the ask sizes right of it, so each side reads from its own edge.
 * Stacked and ladder share the row model below: with `n` rows per side the list has 2n + 1 rows.
 */
export const BOOK_LAYOUT = { STACKED: 1, SIDE_BY_SIDE: 2, LADDER: 3 } as const;

/** Every book row is this tall; the virtualizer relies on it (no measuring). */
export const ROW_HEIGHT = 20;
export type BookLayout = (typeof BOOK_LAYOUT)[keyof typeof BOOK_LAYOUT];

export function bookLayout(setting: number): BookLayout {
  return setting === 1 || setting === 3 ? setting : 2;
}

/** Rows in the virtual list for `perSide` levels per side. */
export function listRows(layout: BookLayout, perSide: number): number {
  return layout === BOOK_LAYOUT.SIDE_BY_SIDE ? perSide : perSide * 2 + 1;
}

export type StackedRow =
  | { readonly kind: "ask"; readonly level: number }
  | { readonly kind: "spread" }
  | { readonly kind: "bid"; readonly level: number };

const SPREAD: StackedRow = { kind: "spread" };

/** What row `index` of a stacked or ladder list shows. */
export function stackedRow(index: number, perSide: number): StackedRow {
  if (index < perSide) return { kind: "ask", level: perSide - 1 - index };
  if (index === perSide) return SPREAD;
  return { kind: "bid", level: index - perSide - 1 };
}

/** The deepest level (0-based, either side) among the visible rows `start`…`end`. */
export function deepestVisible(layout: BookLayout, perSide: number, start: number, end: number): number {
  if (layout === BOOK_LAYOUT.SIDE_BY_SIDE) return Math.max(0, end);
  const askDepth = start < perSide ? perSide - 1 - start : -1;
  const bidDepth = end > perSide ? end - perSide - 1 : -1;
  return Math.max(0, askDepth, bidDepth);
}

/** The scroll offset that puts the spread row in the middle of a viewport `height` tall. */
export function centerOffset(perSide: number, rowHeight: number, height: number): number {
  return Math.max(0, perSide * rowHeight - (height - rowHeight) / 2);
}

/** The list row that shows `level` on `side`. */
export function rowIndexOf(layout: BookLayout, perSide: number, side: "bid" | "ask", level: number): number {
  if (layout === BOOK_LAYOUT.SIDE_BY_SIDE) return level;
  return side === "ask" ? perSide - 1 - level : perSide + 1 + level;
}

/** A keyboard cursor on the book: a level and the cell (price or amount) Enter would take. */
export interface BookCursor {
  readonly side: "bid" | "ask";
  readonly level: number;
  readonly part: "price" | "amount";
}

/**
 * Where a key moves the cursor, or null when the key does not move it. Up and down follow the rows
 * on screen (in the stacked layouts, across the spread from the best ask to the best bid); left and
 * right follow the cells on screen: side by side, bid amount · bid price · ask price · ask amount;
 * stacked, price · amount; on the ladder, a bid's amount is left of its price and an ask's right.
 * Home goes to the best level of the side, End to the deepest listed, PageUp and PageDown move a
 * `page` of rows along the side (better, deeper). The caller keeps the cursor on levels present.
 */
export function moveCursor(
  layout: BookLayout,
  perSide: number,
  c: BookCursor,
  key: string,
  page = 10,
): BookCursor | null {
  const last = Math.max(0, perSide - 1);
  if (key === "Home") return { ...c, level: 0 };
  if (key === "End") return { ...c, level: last };
  if (key === "PageDown" || key === "PageUp") {
    // Deeper is down the screen for bids (and side by side), up for the stacked asks.
    const deeper = layout === BOOK_LAYOUT.SIDE_BY_SIDE || c.side === "bid" ? key === "PageDown" : key === "PageUp";
    const level = c.level + (deeper ? page : -page);
    return { ...c, level: Math.min(last, Math.max(0, level)) };
  }
  if (key === "ArrowUp" || key === "ArrowDown") {
    const step = key === "ArrowDown" ? 1 : -1;
    if (layout === BOOK_LAYOUT.SIDE_BY_SIDE) return { ...c, level: Math.min(last, Math.max(0, c.level + step)) };
    let index = rowIndexOf(layout, perSide, c.side, c.level) + step;
    if (index === perSide) index += step; // the spread row
    const row = stackedRow(Math.min(perSide * 2, Math.max(0, index)), perSide);
    return row.kind === "spread" ? c : { ...c, side: row.kind, level: row.level };
  }
  if (key !== "ArrowLeft" && key !== "ArrowRight") return null;
  const step = key === "ArrowRight" ? 1 : -1;
  if (layout === BOOK_LAYOUT.SIDE_BY_SIDE) {
    const order = ["bid:amount", "bid:price", "ask:price", "ask:amount"] as const;
    const at = order.indexOf(`${c.side}:${c.part}`);
    const next = order[Math.min(order.length - 1, Math.max(0, at + step))] as (typeof order)[number];
    const [side, part] = next.split(":") as ["bid" | "ask", "price" | "amount"];
    return { side, level: c.level, part };
  }
  const order =
    layout === BOOK_LAYOUT.LADDER && c.side === "bid" ? (["amount", "price"] as const) : (["price", "amount"] as const);
  const at = order.indexOf(c.part);
  return { ...c, part: order[Math.min(1, Math.max(0, at + step))] as "price" | "amount" };
}
