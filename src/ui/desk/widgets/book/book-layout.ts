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
