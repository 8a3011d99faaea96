/**
 * Where each cell of a book row sits, for a list `width` pixels wide: one description used by the
 * canvas that draws the rows, the column heads above it and the hit test of a click, so the three
 * can never disagree. Narrow books (the grid lets a book be 5 of 24 columns wide) drop the least
 * useful columns first: the count, then the running total.
 */
import { BOOK_LAYOUT, type BookLayout } from "./book-layout";

export type BookPart = "price" | "amount" | "total" | "count";
export type CellAlign = "left" | "right" | "center";

export interface BookColumn {
  readonly part: BookPart;
  readonly x: number;
  readonly width: number;
  readonly align: CellAlign;
}

/** Where the text of a cell starts (left), ends (right) or centres, inside its padding. */
export function textX(col: BookColumn, padding: number): number {
  if (col.align === "left") return col.x + padding;
  if (col.align === "right") return col.x + col.width - padding;
  return col.x + col.width / 2;
}

export interface HalfGeometry {
  readonly x: number;
  readonly width: number;
  readonly columns: readonly BookColumn[];
  /**
   * The depth bar: it starts at `anchor` and grows by up to `span` pixels in direction `dir`
   * (-1 leftwards, 1 rightwards), in proportion to the level's cumulative amount.
   */
  readonly bar: { readonly anchor: number; readonly span: number; readonly dir: -1 | 1 };
  /** Own-order markers sit on the outer edge, away from the prices in the middle. */
  readonly ownEdge: "left" | "right";
}

export interface BookGeometry {
  readonly layout: BookLayout;
  readonly width: number;
  readonly padding: number;
  readonly bid: HalfGeometry;
  readonly ask: HalfGeometry;
}

/** Container widths (the widget's) below which columns are dropped, as the old CSS grid did. */
export const NARROW = 460;
const TINY = 340;
const STACK_NARROW = 300;
const LADDER_NARROW = 380;

type Slot = BookPart | null;

/** Lays `slots` out over [x, x + width) in proportion to their fractions. */
function columns(
  x: number,
  width: number,
  slots: readonly Slot[],
  fr: readonly number[],
  align: (p: BookPart) => CellAlign,
) {
  const sum = fr.reduce((a, b) => a + b, 0);
  const out: BookColumn[] = [];
  let at = x;
  slots.forEach((part, i) => {
    const w = (width * (fr[i] ?? 1)) / sum;
    if (part) out.push({ part, x: at, width: w, align: align(part) });
    at += w;
  });
  return out;
}

function find(cols: readonly BookColumn[], part: BookPart): BookColumn | undefined {
  return cols.find((c) => c.part === part);
}

const right = (): CellAlign => "right";

/**
 * The geometry of a list `width` pixels wide (the canvas, without the scrollbar) in a widget
 * `container` pixels wide (what the column-dropping thresholds read).
 */
export function bookGeometry(layout: BookLayout, width: number, container = width): BookGeometry {
  const w = Math.max(0, width);
  const padding = container <= NARROW ? 3 : 6;
  if (layout === BOOK_LAYOUT.SIDE_BY_SIDE) {
    const half = w / 2;
    const bidSlots: Slot[] =
      container <= TINY
        ? ["amount", "price"]
        : container <= NARROW
          ? ["amount", "total", "price"]
          : ["count", "amount", "total", "price"];
    const bidFr = bidSlots.map((p) => (p === "count" ? 0.7 : 1));
    const askSlots = [...bidSlots].reverse();
    const askFr = [...bidFr].reverse();
    return {
      layout,
      width: w,
      padding,
      bid: {
        x: 0,
        width: half,
        columns: columns(0, half, bidSlots, bidFr, right),
        bar: { anchor: half, span: half, dir: -1 },
        ownEdge: "left",
      },
      ask: {
        x: half,
        width: w - half,
        columns: columns(half, w - half, askSlots, askFr, (p) => (p === "price" ? "left" : "right")),
        bar: { anchor: half, span: w - half, dir: 1 },
        ownEdge: "right",
      },
    };
  }
  if (layout === BOOK_LAYOUT.STACKED) {
    const slots: Slot[] =
      container <= STACK_NARROW ? ["price", "amount", "total"] : ["price", "amount", "total", "count"];
    const fr = slots.map((p) => (p === "count" ? 0.6 : 1));
    const cols = columns(0, w, slots, fr, (p) => (p === "price" ? "left" : "right"));
    const half: HalfGeometry = { x: 0, width: w, columns: cols, bar: { anchor: w, span: w, dir: -1 }, ownEdge: "left" };
    return { layout, width: w, padding, bid: half, ask: { ...half } };
  }
  // Ladder: bid sizes left of the price column, ask sizes right of it, each side reading from its edge.
  const narrow = container <= LADDER_NARROW;
  const bidSlots: Slot[] = narrow ? ["amount", "price", null] : ["total", "amount", "price", null, null];
  const askSlots: Slot[] = narrow ? [null, "price", "amount"] : [null, null, "price", "amount", "total"];
  const fr = bidSlots.map(() => 1);
  const ladderAlign = (p: BookPart): CellAlign => (p === "price" ? "center" : "right");
  const bidCols = columns(0, w, bidSlots, fr, ladderAlign);
  const askCols = columns(0, w, askSlots, fr, ladderAlign);
  const bidPrice = find(bidCols, "price");
  const askPrice = find(askCols, "price");
  const bidAnchor = bidPrice ? bidPrice.x : w / 2;
  const askAnchor = askPrice ? askPrice.x + askPrice.width : w / 2;
  return {
    layout,
    width: w,
    padding,
    bid: { x: 0, width: w, columns: bidCols, bar: { anchor: bidAnchor, span: bidAnchor, dir: -1 }, ownEdge: "left" },
    ask: {
      x: 0,
      width: w,
      columns: askCols,
      bar: { anchor: askAnchor, span: w - askAnchor, dir: 1 },
      ownEdge: "right",
    },
  };
}

/** The column under `x` on a half, or null between columns or outside the half. */
export function columnAt(half: HalfGeometry, x: number): BookColumn | null {
  for (const c of half.columns) if (x >= c.x && x < c.x + c.width) return c;
  return null;
}

/** A column head: which side's column it names (ladder heads name "Bids"/"Asks" by side). */
export interface HeadCell extends BookColumn {
  readonly side: "bid" | "ask";
}

/** The heads above the list: both halves side by side, one set stacked, the ladder's two sides. */
export function headCells(g: BookGeometry): readonly HeadCell[] {
  if (g.layout === BOOK_LAYOUT.STACKED) return g.bid.columns.map((c) => ({ ...c, side: "bid" as const }));
  if (g.layout === BOOK_LAYOUT.SIDE_BY_SIDE)
    return [
      ...g.bid.columns.map((c) => ({ ...c, side: "bid" as const })),
      ...g.ask.columns.map((c) => ({ ...c, side: "ask" as const })),
    ];
  return [
    ...g.bid.columns.map((c) => ({ ...c, side: "bid" as const })),
    ...g.ask.columns.filter((c) => c.part !== "price").map((c) => ({ ...c, side: "ask" as const })),
  ];
}
