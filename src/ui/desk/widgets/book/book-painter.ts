/**
 * Draws a book's rows on one canvas, once per frame, from reused buffers and cached labels, and
 * only the rows in sight. The virtualizer says which rows are in
 * sight and where; each view is drawn over them in one pass per colour and font: backgrounds, depth
 * bars, own-order marks, then the text. No DOM is written per view.
 *
 * Why a canvas: with a DOM row per level, every view changed the text and bar width of every row in
 * sight, and 8 books at the stress rates spent each frame in style, layout, pre-paint, paint and
 * layerization of hundreds of nodes (bench:ui: p99 83 ms at 100x, long tasks). The same rows on a
 * canvas are ~250 `fillText` calls at a few µs each and one texture upload, the way the chart and
 * the depth chart already draw.
 *
 * Clicks, hover and the keyboard cursor are resolved with the same column geometry the rows are drawn
 * with (`book-columns.ts`), against the view that was drawn, not the next one.
 */
import { BOOK_VIEW_STRIDE, formatPercent, type BookView } from "../../../../protocol";
import type { CanvasPalette } from "../../../theme/canvas-palette";
import { bookGeometry, columnAt, textX, type BookGeometry, type BookPart, type HalfGeometry } from "./book-columns";
import { LabelCache, normalizePrice } from "./book-format";
import { BOOK_LAYOUT, listRows, ROW_HEIGHT, stackedRow, type BookLayout } from "./book-layout";
import type { PaintQueue } from "./paint-queue";

export type BookSide = "bid" | "ask";

export { ROW_HEIGHT };

/** What a click on a drawn level refers to. */
export interface PaintedLevel {
  readonly side: BookSide;
  readonly level: number;
  readonly price: number;
  readonly amount: number;
  readonly cumulative: number;
  readonly count: number;
}

/** A cell under the pointer or the keyboard cursor. */
export interface BookCell {
  readonly side: BookSide;
  readonly level: number;
  /** The column, or null between columns. */
  readonly part: BookPart | null;
}

/** A row of the list in sight: its index in the virtual list and its top in list coordinates. */
export interface WindowRow {
  readonly index: number;
  readonly start: number;
}

/** A drawn half-row as the inspector reports it. */
export interface DrawnRow {
  readonly side: BookSide;
  readonly level: number;
  /** Top of the row in canvas pixels (CSS). */
  readonly y: number;
  readonly price: string;
  readonly amount: string;
  readonly total: string;
  readonly count: string;
  readonly own: boolean;
  readonly swept: boolean;
}

/**
 * What the book drew, for tests, E2E and tools: a canvas has no DOM to query. The widget's root
 * element carries it as `bookInspector` (see `inspectorOf`).
 */
export interface BookInspector {
  rows(): readonly DrawnRow[];
  /** The spread row of the stacked layouts as drawn (`top` in canvas pixels), or null. */
  spread(): { readonly y: number; readonly text: string } | null;
  /** Viewport coordinates of a cell's text, to click or hover it; null when not in sight. */
  point(side: BookSide, level: number, part: BookPart): { readonly x: number; readonly y: number } | null;
  /** The list's scroll offset the canvas was last drawn at (bench:ui checks it keeps up with a scroll). */
  scrollTop(): number;
}

const INSPECTOR = "bookInspector";

/** The inspector of the book widget whose root is `el`. */
export function inspectorOf(el: Element | null): BookInspector | null {
  return (el as unknown as Record<string, BookInspector | undefined> | null)?.[INSPECTOR] ?? null;
}

/** One half-row in sight at this paint (pooled: no allocation per level per view). */
interface Slot {
  side: BookSide;
  level: number;
  y: number;
  p: number;
  n: number;
  a: number;
  c: number;
  own: boolean;
  swept: boolean;
}

interface SpreadEl {
  readonly abs: HTMLElement;
  readonly pct: HTMLElement;
  last: string;
}

function part(el: HTMLElement, name: string): HTMLElement {
  const found = el.querySelector<HTMLElement>(`[data-part="${name}"]`);
  if (!found) throw new Error(`book spread without its ${name} cell`);
  return found;
}

/** The list's length follows the book's depth in steps of this many levels. */
export const LEVEL_STEP = 10;

/** Small counts are the common case: their labels are made once. */
const COUNT_LABELS: string[] = Array.from({ length: 1000 }, (_, i) => String(i));
function countLabel(n: number): string {
  return COUNT_LABELS[n] ?? String(n);
}

export class BookPainter {
  readonly labels = new LabelCache();
  readonly #queue: PaintQueue | null;
  readonly #paintQueued = (): void => this.#paintView();
  readonly #spreads = new Set<SpreadEl>();
  readonly #slots: Slot[] = [];
  #slotCount = 0;
  #spreadY = Number.NaN;
  #view: BookView | null = null;
  /** The view the canvas shows now: clicks and the inspector read this one. */
  #drawn: BookView | null = null;
  #digits = 5;
  #ownBids: ReadonlySet<number> = new Set();
  #ownAsks: ReadonlySet<number> = new Set();
  #hover: BookCell | null = null;
  #cursor: BookCell | null = null;
  #showCursor = false;
  #root: HTMLElement | null = null;
  #canvas: HTMLCanvasElement | null = null;
  #ctx: CanvasRenderingContext2D | null = null;
  #palette: CanvasPalette | null = null;
  /** Canvas font shorthands, made once per palette rather than per paint. */
  #fonts = { bold: "", plain: "", body: "" };
  #layout: BookLayout = BOOK_LAYOUT.SIDE_BY_SIDE;
  #perSide = 25;
  #geometry: BookGeometry = bookGeometry(BOOK_LAYOUT.SIDE_BY_SIDE, 0);
  #width = 0;
  #height = 0;
  #dpr = 1;
  #rows: readonly WindowRow[] = [];
  #scrollTop = 0;
  #spreadLabel = "";
  #drawnScrollTop = 0;
  #levelsBucket = -1;
  /**
   * Told how many levels the deeper side has, in steps of LEVEL_STEP, when that changes: the list is
   * as long as the book (a shallow book would otherwise scroll into hundreds of blank rows), and
   * React renders only when the step changes, not per view.
   */
  #onLevels: ((levels: number) => void) | null = null;

  /** Listens for the book's depth (see above); returns the way to stop. */
  listenLevels(fn: (levels: number) => void): () => void {
    this.#onLevels = fn;
    return () => {
      if (this.#onLevels === fn) this.#onLevels = null;
    };
  }

  /**
   * With a `queue`, views are painted in animation frames, shared fairly with the other books (see
   * PaintQueue): however many views arrive between two paints, the book paints once, the newest,
   * and a main thread that falls behind skips stale views instead of queueing them (bench:ui, 8
   * books). Without, every view is painted at once.
   */
  constructor(queue: PaintQueue | null = null) {
    this.#queue = queue;
  }

  readonly inspector: BookInspector = {
    rows: () => this.#drawnRows(),
    spread: () => (Number.isNaN(this.#spreadY) ? null : { y: this.#spreadY, text: this.#spreadText() }),
    point: (side, level, p) => this.#point(side, level, p),
    scrollTop: () => this.#drawnScrollTop,
  };

  configure(digits: number, compact: boolean): void {
    this.#digits = digits;
    this.labels.configure(digits, compact);
    this.paint();
  }

  /** The list's row model: the layout and how many levels a side it lists. */
  setRows(layout: BookLayout, perSide: number): void {
    this.#layout = layout;
    this.#perSide = perSide;
  }

  /** The cells' geometry (its width is the list's, without the scrollbar), the list's height, the density. */
  setSize(geometry: BookGeometry, height: number, dpr: number): void {
    this.#geometry = geometry;
    const width = geometry.width;
    const canvas = this.#canvas;
    if (width === this.#width && height === this.#height && dpr === this.#dpr) return;
    this.#width = width;
    this.#height = height;
    this.#dpr = dpr;
    if (canvas) this.#sizeCanvas(canvas);
  }

  /** The rows the virtualizer has in sight and the list's scroll offset. */
  setWindow(rows: readonly WindowRow[], scrollTop: number): void {
    this.#rows = rows;
    this.#scrollTop = scrollTop;
  }

  setPalette(palette: CanvasPalette): void {
    this.#palette = palette;
    /* eslint-disable lingui/no-unlocalized-strings -- canvas font shorthands, not text */
    this.#fonts = {
      bold: `600 12px ${palette.font}`,
      plain: `12px ${palette.font}`,
      body: `12px ${palette.bodyFont}`,
    };
    /* eslint-enable lingui/no-unlocalized-strings */
    this.paint();
  }

  /** The localized word on the stacked layouts' spread row. */
  setSpreadLabel(label: string): void {
    this.#spreadLabel = label;
  }

  /** Ref callback for the canvas. */
  readonly attachCanvas = (canvas: HTMLCanvasElement | null): void => {
    this.#canvas = canvas;
    this.#ctx = null;
    if (canvas) this.#sizeCanvas(canvas);
  };

  #sizeCanvas(canvas: HTMLCanvasElement): void {
    canvas.width = Math.max(1, Math.round(this.#width * this.#dpr));
    canvas.height = Math.max(1, Math.round(this.#height * this.#dpr));
    canvas.style.width = `${this.#width}px`;
    canvas.style.height = `${this.#height}px`;
    // Resizing resets the context's state, so it is set up again here, once, not per paint.
    const ctx = canvas.getContext("2d");
    if (ctx) {
      // With the default "inherit", every fillText flushed the page's pending style work (bench:ui).
      ctx.direction = "ltr";
      ctx.textBaseline = "middle";
    }
    this.#ctx = ctx;
  }

  setView(view: BookView | null): void {
    this.#view = view;
    if (view) {
      const bucket = Math.ceil(Math.max(view.bids, view.asks) / LEVEL_STEP) * LEVEL_STEP;
      if (bucket !== this.#levelsBucket) {
        this.#levelsBucket = bucket;
        this.#onLevels?.(bucket);
      }
    }
    if (this.#queue && view) {
      this.#queue.request(this.#paintQueued);
      return;
    }
    this.#queue?.cancel(this.#paintQueued);
    this.#paintView();
  }

  /** Drops a waiting paint (the widget unmounts). */
  dispose(): void {
    this.#queue?.cancel(this.#paintQueued);
  }

  #paintView(): void {
    this.paint();
    // The worker times of the data on screen and of its view, for `npm run bench:ui` (update-to-paint
    // latency) and for anyone inspecting the page: two attribute writes per view, not per level.
    const view = this.#view;
    if (this.#root && view) {
      this.#root.dataset["paintedUpdateAt"] = String(view.health.lastUpdateAt);
      this.#root.dataset["paintedPublishedAt"] = String(view.publishedAt);
    }
  }

  /** The widget's root element: it carries `data-painted-update-at` and the inspector. */
  registerRoot(el: HTMLElement | null): void {
    if (this.#root) delete (this.#root as unknown as Record<string, unknown>)[INSPECTOR];
    this.#root = el;
    if (el) (el as unknown as Record<string, unknown>)[INSPECTOR] = this.inspector;
  }

  /** Own orders' levels at the book's precision (see levelPrice). */
  setOwn(bids: ReadonlySet<number>, asks: ReadonlySet<number>): void {
    this.#ownBids = bids;
    this.#ownAsks = asks;
    this.paint();
  }

  /**
   * The cell at (x, y) in list pixels (y relative to the list's top edge, not its content), or null
   * on the spread row, an empty level or outside the rows.
   */
  cellAt(x: number, y: number): BookCell | null {
    const index = Math.floor((y + this.#scrollTop) / ROW_HEIGHT);
    if (index < 0 || index >= listRows(this.#layout, this.#perSide)) return null;
    let side: BookSide;
    let level: number;
    if (this.#layout === BOOK_LAYOUT.SIDE_BY_SIDE) {
      side = x < this.#geometry.ask.x ? "bid" : "ask";
      level = index;
    } else {
      const row = stackedRow(index, this.#perSide);
      if (row.kind === "spread") return null;
      side = row.kind;
      level = row.level;
    }
    if (!this.levelOf(side, level)) return null;
    return { side, level, part: columnAt(this.#half(side), x)?.part ?? null };
  }

  /** Levels on a side in the view drawn (0 before the first). */
  levelsOn(side: BookSide): number {
    const view = this.#drawn;
    return view ? (side === "bid" ? view.bids : view.asks) : 0;
  }

  /** The level as drawn (not as the next view may have it), or null when that level is empty. */
  levelOf(side: BookSide, level: number): PaintedLevel | null {
    const view = this.#drawn;
    if (!view) return null;
    const n = side === "bid" ? view.bids : view.asks;
    if (!(level >= 0 && level < n)) return null;
    const o = (side === "bid" ? level : view.bids + level) * BOOK_VIEW_STRIDE;
    const l = view.levels;
    return {
      side,
      level,
      price: l[o] ?? Number.NaN,
      count: l[o + 1] ?? Number.NaN,
      amount: l[o + 2] ?? Number.NaN,
      cumulative: l[o + 3] ?? Number.NaN,
    };
  }

  /**
   * The level under the pointer: it and every better level on its side are marked as swept (what a
   * market order for the hovered total would take). Null clears.
   */
  hover(cell: BookCell | null): void {
    const same =
      cell === this.#hover ||
      (cell && this.#hover && cell.side === this.#hover.side && cell.level === this.#hover.level);
    this.#hover = cell;
    if (!same) this.paint();
  }

  /** The keyboard cursor, drawn as a focus ring while `visible` (the list has keyboard focus). */
  setCursor(cell: BookCell | null, visible: boolean): void {
    this.#cursor = cell;
    this.#showCursor = visible;
    this.paint();
  }

  readonly registerSpread = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const spread: SpreadEl = { abs: part(el, "spread-abs"), pct: part(el, "spread-pct"), last: "" };
    this.#spreads.add(spread);
    this.#paintSpreadEl(spread, this.#spreadParts());
    return () => {
      this.#spreads.delete(spread);
    };
  };

  #half(side: BookSide): HalfGeometry {
    return side === "bid" ? this.#geometry.bid : this.#geometry.ask;
  }

  #slot(i: number): Slot {
    let s = this.#slots[i];
    if (!s) {
      s = { side: "bid", level: 0, y: 0, p: 0, n: 0, a: 0, c: 0, own: false, swept: false };
      this.#slots[i] = s;
    }
    return s;
  }

  /** Fills the slots with the halves in sight; returns the largest cumulative among them. */
  #collect(view: BookView | null): number {
    this.#slotCount = 0;
    this.#spreadY = Number.NaN;
    const side2 = this.#layout === BOOK_LAYOUT.SIDE_BY_SIDE;
    const hover = this.#hover;
    let maxC = 0;
    const add = (side: BookSide, level: number, y: number): void => {
      if (!view) return;
      const n = side === "bid" ? view.bids : view.asks;
      if (!(level >= 0 && level < n)) return;
      const o = (side === "bid" ? level : view.bids + level) * BOOK_VIEW_STRIDE;
      const l = view.levels;
      const s = this.#slot(this.#slotCount++);
      s.side = side;
      s.level = level;
      s.y = y;
      s.p = l[o] ?? Number.NaN;
      s.n = l[o + 1] ?? Number.NaN;
      s.a = l[o + 2] ?? Number.NaN;
      s.c = l[o + 3] ?? Number.NaN;
      s.own = (side === "bid" ? this.#ownBids : this.#ownAsks).has(normalizePrice(s.p, this.#digits));
      s.swept = hover !== null && hover.side === side && level <= hover.level;
      if (s.c > maxC) maxC = s.c;
    };
    for (const r of this.#rows) {
      const y = r.start - this.#scrollTop;
      if (y + ROW_HEIGHT <= 0 || y >= this.#height) continue;
      if (side2) {
        add("bid", r.index, y);
        add("ask", r.index, y);
        continue;
      }
      const row = stackedRow(r.index, this.#perSide);
      if (row.kind === "spread") this.#spreadY = y;
      else add(row.kind, row.level, y);
    }
    return maxC;
  }

  /** Draws the rows in sight from the current view. Cheap enough to call on every scroll. */
  paint(): void {
    const view = this.#view;
    this.#drawn = view;
    // Formatted once a paint, for the DOM spread bar or the stacked layouts' spread row.
    const spread = this.#spreadParts();
    for (const s of this.#spreads) this.#paintSpreadEl(s, spread);
    const ctx = this.#ctx;
    const pal = this.#palette;
    if (!ctx || !pal) {
      this.#collect(view);
      return;
    }
    const maxC = this.#collect(view);
    this.#drawnScrollTop = this.#scrollTop;
    const g = this.#geometry;
    const dpr = this.#dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, this.#width, this.#height);
    const slots = this.#slots;
    const count = this.#slotCount;

    // Backgrounds: the swept levels and the spread row.
    ctx.fillStyle = pal.surfaceRaised;
    for (let i = 0; i < count; i++) {
      const s = slots[i] as Slot;
      if (!s.swept) continue;
      const h = this.#half(s.side);
      ctx.fillRect(h.x, s.y, h.width, ROW_HEIGHT);
    }
    if (!Number.isNaN(this.#spreadY)) {
      ctx.fillRect(0, this.#spreadY, g.width, ROW_HEIGHT);
      ctx.fillStyle = pal.border;
      ctx.fillRect(0, this.#spreadY, g.width, 1);
      ctx.fillRect(0, this.#spreadY + ROW_HEIGHT - 1, g.width, 1);
    }

    // Depth bars, scaled to what is in sight rather than to the 250th level.
    if (maxC > 0)
      for (const side of ["bid", "ask"] as const) {
        ctx.fillStyle = side === "bid" ? pal.upSoft : pal.downSoft;
        const bar = this.#half(side).bar;
        for (let i = 0; i < count; i++) {
          const s = slots[i] as Slot;
          if (s.side !== side) continue;
          const len = Math.round((s.c / maxC) * bar.span);
          if (len <= 0) continue;
          ctx.fillRect(bar.dir < 0 ? bar.anchor - len : bar.anchor, s.y + 1, len, ROW_HEIGHT - 2);
        }
      }

    // Own orders: a small accent triangle on the outer edge.
    ctx.fillStyle = pal.accent;
    for (let i = 0; i < count; i++) {
      const s = slots[i] as Slot;
      if (!s.own) continue;
      const h = this.#half(s.side);
      const edge = h.ownEdge === "left" ? h.x : h.x + h.width;
      const tip = h.ownEdge === "left" ? edge + 5 : edge - 5;
      ctx.beginPath();
      ctx.moveTo(edge, s.y + 6);
      ctx.lineTo(tip, s.y + 10);
      ctx.lineTo(edge, s.y + 14);
      ctx.closePath();
      ctx.fill();
    }

    // Text, one font and colour at a time.
    ctx.font = this.#fonts.bold;
    this.#texts(ctx, "price", "bid", pal.up);
    this.#texts(ctx, "price", "ask", pal.down);
    ctx.font = this.#fonts.plain;
    this.#texts(ctx, "amount", null, pal.text);
    this.#texts(ctx, "total", null, pal.muted);
    this.#texts(ctx, "count", null, pal.muted);

    if (!Number.isNaN(this.#spreadY)) this.#drawSpreadRow(ctx, pal, spread);
    if (this.#showCursor && this.#cursor) this.#drawCursor(ctx, pal, this.#cursor);
  }

  #texts(ctx: CanvasRenderingContext2D, p: BookPart, only: BookSide | null, colour: string): void {
    ctx.fillStyle = colour;
    const pad = this.#geometry.padding;
    for (const side of ["bid", "ask"] as const) {
      if (only && side !== only) continue;
      const col = this.#half(side).columns.find((c) => c.part === p);
      if (!col) continue;
      ctx.textAlign = col.align;
      const x = textX(col, pad);
      const max = Math.max(1, col.width - 2 * pad);
      for (let i = 0; i < this.#slotCount; i++) {
        const s = this.#slots[i] as Slot;
        if (s.side !== side) continue;
        ctx.fillText(this.#label(s, p), x, s.y + ROW_HEIGHT / 2 + 1, max);
      }
    }
  }

  #label(s: Slot, p: BookPart): string {
    if (p === "price") return this.labels.price(s.p);
    if (p === "amount") return this.labels.amount(s.a);
    if (p === "total") return this.labels.amount(s.c);
    return countLabel(s.n);
  }

  #drawSpreadRow(ctx: CanvasRenderingContext2D, pal: CanvasPalette, [abs, pct]: [string, string]): void {
    const y = this.#spreadY + ROW_HEIGHT / 2 + 1;
    const label = this.#spreadLabel;
    ctx.font = this.#fonts.body;
    const wLabel = ctx.measureText(label).width;
    ctx.font = this.#fonts.plain;
    const value = abs ? `${abs} ${pct}` : "";
    const wValue = ctx.measureText(value).width;
    const gap = value ? 6 : 0;
    let x = (this.#geometry.width - (wLabel + gap + wValue)) / 2;
    ctx.textAlign = "left";
    ctx.font = this.#fonts.body;
    ctx.fillStyle = pal.muted;
    ctx.fillText(label, x, y);
    x += wLabel + gap;
    ctx.font = this.#fonts.plain;
    ctx.fillStyle = pal.text;
    ctx.fillText(value, x, y);
  }

  #drawCursor(ctx: CanvasRenderingContext2D, pal: CanvasPalette, cell: BookCell): void {
    const at = this.#rect(cell.side, cell.level, cell.part ?? "price");
    if (!at) return;
    ctx.strokeStyle = pal.focus;
    ctx.lineWidth = 2;
    ctx.strokeRect(at.x + 1, at.y + 1, at.width - 2, ROW_HEIGHT - 2);
  }

  /** A cell's box in canvas pixels, when its row is in sight. */
  #rect(side: BookSide, level: number, p: BookPart): { x: number; y: number; width: number } | null {
    for (let i = 0; i < this.#slotCount; i++) {
      const s = this.#slots[i] as Slot;
      if (s.side !== side || s.level !== level) continue;
      const col = this.#half(side).columns.find((c) => c.part === p);
      if (!col) return null;
      return { x: col.x, y: s.y, width: col.width };
    }
    return null;
  }

  #point(side: BookSide, level: number, p: BookPart): { x: number; y: number } | null {
    const r = this.#rect(side, level, p);
    const box = this.#canvas?.getBoundingClientRect();
    if (!r || !box) return null;
    const y = r.y + ROW_HEIGHT / 2;
    if (y < 0 || y > this.#height) return null;
    return { x: box.left + r.x + r.width / 2, y: box.top + y };
  }

  #drawnRows(): DrawnRow[] {
    const out: DrawnRow[] = [];
    for (let i = 0; i < this.#slotCount; i++) {
      const s = this.#slots[i] as Slot;
      out.push({
        side: s.side,
        level: s.level,
        y: s.y,
        price: this.#label(s, "price"),
        amount: this.#label(s, "amount"),
        total: this.#label(s, "total"),
        count: this.#label(s, "count"),
        own: s.own,
        swept: s.swept,
      });
    }
    return out;
  }

  /** The spread as [absolute, "(percent)"], both empty without both sides. */
  #spreadParts(): [string, string] {
    const view = this.#view;
    if (!view || view.bids === 0 || view.asks === 0) return ["", ""];
    const bid = view.levels[0] ?? Number.NaN;
    const ask = view.levels[view.bids * BOOK_VIEW_STRIDE] ?? Number.NaN;
    const spread = ask - bid;
    // The spread is shown with as many decimals as the prices around it.
    const label = this.labels.price(ask);
    const dot = label.indexOf(".");
    return [spread.toFixed(dot < 0 ? 0 : label.length - dot - 1), `(${formatPercent(spread / ((ask + bid) / 2))})`];
  }

  #spreadText(): string {
    const [abs, pct] = this.#spreadParts();
    return `${this.#spreadLabel} ${abs} ${pct}`.trim();
  }

  #paintSpreadEl(s: SpreadEl, [abs, pct]: [string, string]): void {
    const key = `${abs}|${pct}`;
    if (key === s.last) return;
    s.last = key;
    s.abs.textContent = abs;
    s.pct.textContent = pct;
  }
}
