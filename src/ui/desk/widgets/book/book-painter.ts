/**
 * Writes book views into the rows the virtualizer has mounted (HOUSE-STYLE 7, 10–12). React renders
 * only the row skeletons (on scroll or layout change); each view is painted here imperatively: for
 * every mounted half-row the level is read from the view's typed array and only the cells whose
 * value changed are written. Labels come from bounded caches. No allocation per level per view.
 */
import { BOOK_VIEW_STRIDE, formatPercent, type BookView } from "../../../../protocol";
import { LabelCache, normalizePrice } from "./book-format";
import type { PaintQueue } from "./paint-queue";

export type BookSide = "bid" | "ask";

interface Half {
  readonly el: HTMLElement;
  readonly bar: HTMLElement;
  readonly price: HTMLElement;
  readonly amount: HTMLElement;
  readonly total: HTMLElement;
  readonly count: HTMLElement;
  /** The bar's width at full depth, in % of the half (`data-span`). */
  readonly span: number;
  /** What is painted now (NaN: blank), so unchanged cells are not written and clicks use what was seen. */
  side: BookSide;
  level: number;
  p: number;
  a: number;
  c: number;
  n: number;
  scale: number;
  own: boolean;
  swept: boolean;
  /** Scratch for the two-pass paint: the cumulative amount this view gives the half (NaN: none). */
  nextC: number;
}

interface Spread {
  readonly abs: HTMLElement;
  readonly pct: HTMLElement;
  last: string;
}

/** What a click on a painted level refers to. */
export interface PaintedLevel {
  readonly side: BookSide;
  readonly price: number;
  readonly amount: number;
  readonly cumulative: number;
}

function part(el: HTMLElement, name: string): HTMLElement {
  const found = el.querySelector<HTMLElement>(`[data-part="${name}"]`);
  if (!found) throw new Error(`book row without its ${name} cell`);
  return found;
}

function setText(el: HTMLElement, text: string): void {
  // Writing the text node's data avoids replacing the node (and a layout of its parent's children).
  const first = el.firstChild;
  if (first && first.nodeType === 3 && !first.nextSibling) (first as Text).data = text;
  else el.textContent = text;
}

export class BookPainter {
  readonly labels = new LabelCache();
  readonly #queue: PaintQueue | null;
  readonly #paintQueued = (): void => this.#paintView();
  readonly #halves = new Map<Element, Half>();
  readonly #spreads = new Set<Spread>();
  #view: BookView | null = null;
  #digits = 5;
  #ownBids: ReadonlySet<number> = new Set();
  #ownAsks: ReadonlySet<number> = new Set();
  #hoverSide: BookSide | null = null;
  #hoverLevel = -1;
  #root: HTMLElement | null = null;

  /**
   * With a `queue`, views are painted in animation frames, shared fairly with the other books (see
   * PaintQueue): however many views arrive between two paints, the book paints once, the newest,
   * and a main thread that falls behind skips stale views instead of queueing them (bench:ui, 8
   * books). Without, every view is painted at once.
   */
  constructor(queue: PaintQueue | null = null) {
    this.#queue = queue;
  }

  /** Mounted half-rows (for tests and the DOM-size budget). */
  get mounted(): number {
    return this.#halves.size;
  }

  configure(digits: number, compact: boolean): void {
    this.#digits = digits;
    this.labels.configure(digits, compact);
    this.#invalidate();
    this.paint();
  }

  setView(view: BookView | null): void {
    this.#view = view;
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
    // The worker time of the data on screen, for `npm run bench:ui` (how far behind the book is)
    // and for anyone inspecting the page: one attribute write per view, not per level.
    const view = this.#view;
    if (this.#root && view) this.#root.dataset["paintedUpdateAt"] = String(view.health.lastUpdateAt);
  }

  /** The widget's root element, which carries `data-painted-update-at`. */
  registerRoot(el: HTMLElement | null): void {
    this.#root = el;
  }

  /** Own orders' levels at the book's precision (see levelPrice). */
  setOwn(bids: ReadonlySet<number>, asks: ReadonlySet<number>): void {
    this.#ownBids = bids;
    this.#ownAsks = asks;
    this.paint();
  }

  /**
   * The level under the pointer: it and every better level on its side are marked as swept (what a
   * market order for the hovered total would take). Null clears.
   */
  hover(target: Element | null): void {
    const el = target?.closest<HTMLElement>("[data-side]");
    const half = el ? this.#halves.get(el) : undefined;
    const side = half && !Number.isNaN(half.p) ? half.side : null;
    const level = side ? (half?.level ?? -1) : -1;
    if (side === this.#hoverSide && level === this.#hoverLevel) return;
    this.#hoverSide = side;
    this.#hoverLevel = level;
    for (const h of this.#halves.values()) this.#paintSwept(h);
  }

  #paintSwept(h: Half): void {
    const swept = h.side === this.#hoverSide && h.level <= this.#hoverLevel && !Number.isNaN(h.p);
    if (swept === h.swept) return;
    h.swept = swept;
    if (swept) h.el.dataset["swept"] = "true";
    else delete h.el.dataset["swept"];
  }

  /** Ref callback for a half-row: `data-side`, `data-level` and `data-part` cells (see BookHalf). */
  readonly registerHalf = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const half: Half = {
      el,
      bar: part(el, "bar"),
      price: part(el, "price"),
      amount: part(el, "amount"),
      total: part(el, "total"),
      count: part(el, "count"),
      span: Number(part(el, "bar").dataset["span"] ?? 100) || 100,
      side: "bid",
      level: -1,
      p: NaN,
      a: NaN,
      c: NaN,
      n: NaN,
      scale: -1,
      own: false,
      swept: false,
      nextC: NaN,
    };
    this.#halves.set(el, half);
    return () => {
      this.#halves.delete(el);
    };
  };

  readonly registerSpread = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const spread: Spread = { abs: part(el, "spread-abs"), pct: part(el, "spread-pct"), last: "" };
    this.#spreads.add(spread);
    this.#paintSpread(spread);
    return () => {
      this.#spreads.delete(spread);
    };
  };

  /** The level a clicked element shows, as painted (not as the next view may have it). */
  levelOf(target: Element): PaintedLevel | null {
    const el = target.closest("[data-side]");
    const half = el ? this.#halves.get(el) : undefined;
    if (!half || Number.isNaN(half.p)) return null;
    return { side: half.side, price: half.p, amount: half.a, cumulative: half.c };
  }

  #invalidate(): void {
    for (const h of this.#halves.values()) {
      h.p = h.a = h.c = h.n = NaN;
      h.scale = -1;
    }
    for (const s of this.#spreads) s.last = "";
  }

  /** Paints every mounted row from the current view. Cheap when nothing changed. */
  paint(): void {
    const view = this.#view;
    const levels = view?.levels;
    let maxC = 0;
    // Pass 1: which level each half shows now, and the largest cumulative among them, so the depth
    // bars are scaled to what is on screen rather than to the 250th level.
    for (const h of this.#halves.values()) {
      const side: BookSide = h.el.dataset["side"] === "ask" ? "ask" : "bid";
      const level = Number(h.el.dataset["level"]);
      h.side = side;
      h.level = level;
      h.nextC = NaN;
      if (!view || !levels) continue;
      const n = side === "bid" ? view.bids : view.asks;
      if (!(level >= 0 && level < n)) continue;
      const o = (side === "bid" ? level : view.bids + level) * BOOK_VIEW_STRIDE;
      const c = levels[o + 3] ?? NaN;
      h.nextC = c;
      if (c > maxC) maxC = c;
    }
    for (const h of this.#halves.values()) this.#paintHalf(h, view, maxC);
    for (const s of this.#spreads) this.#paintSpread(s);
  }

  #paintHalf(h: Half, view: BookView | null, maxC: number): void {
    if (!view || Number.isNaN(h.nextC)) {
      if (Number.isNaN(h.p) && h.scale === 0) return;
      h.p = h.a = h.c = h.n = NaN;
      h.scale = 0;
      h.own = false;
      setText(h.price, "");
      setText(h.amount, "");
      setText(h.total, "");
      setText(h.count, "");
      h.bar.style.width = "0";
      h.el.dataset["empty"] = "true";
      delete h.el.dataset["own"];
      this.#paintSwept(h);
      return;
    }
    const levels = view.levels;
    const o = (h.side === "bid" ? h.level : view.bids + h.level) * BOOK_VIEW_STRIDE;
    const p = levels[o] ?? NaN;
    const n = levels[o + 1] ?? NaN;
    const a = levels[o + 2] ?? NaN;
    const c = h.nextC;
    if (Number.isNaN(h.p)) delete h.el.dataset["empty"];
    if (p !== h.p) {
      h.p = p;
      setText(h.price, this.labels.price(p));
    }
    if (a !== h.a) {
      h.a = a;
      setText(h.amount, this.labels.amount(a));
    }
    if (c !== h.c) {
      h.c = c;
      setText(h.total, this.labels.amount(c));
    }
    if (n !== h.n) {
      h.n = n;
      setText(h.count, String(n));
    }
    // Thousandths are finer than any bar width in pixels; rounding keeps unchanged rows unwritten.
    const scale = maxC > 0 ? Math.round((c / maxC) * 1000) / 1000 : 0;
    if (scale !== h.scale) {
      h.scale = scale;
      h.bar.style.width = `${Math.round(scale * h.span * 10) / 10}%`;
    }
    const own = (h.side === "bid" ? this.#ownBids : this.#ownAsks).has(normalizePrice(p, this.#digits));
    if (own !== h.own) {
      h.own = own;
      if (own) h.el.dataset["own"] = "true";
      else delete h.el.dataset["own"];
    }
    this.#paintSwept(h);
  }

  #paintSpread(s: Spread): void {
    const view = this.#view;
    let abs = "";
    let pct = "";
    if (view && view.bids > 0 && view.asks > 0) {
      const bid = view.levels[0] ?? NaN;
      const ask = view.levels[view.bids * BOOK_VIEW_STRIDE] ?? NaN;
      const spread = ask - bid;
      // The spread is shown with as many decimals as the prices around it.
      const label = this.labels.price(ask);
      const dot = label.indexOf(".");
      abs = spread.toFixed(dot < 0 ? 0 : label.length - dot - 1);
      pct = `(${formatPercent(spread / ((ask + bid) / 2))})`;
    }
    const key = `${abs}|${pct}`;
    if (key === s.last) return;
    s.last = key;
    setText(s.abs, abs);
    setText(s.pct, pct);
  }
}
