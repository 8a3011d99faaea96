/**
 * Writes trades views into a bounded set of row elements, drawn once per frame: React renders only the
 * row skeletons (their number changes while the tape fills, then never); each view is painted here,
 * and a row is rewritten only when the trade it shows changes. Labels are cached.
 *
 * Every new trade shifts the tape, so every row shows another trade with each view; of the 100 rows
 * only a handful are in sight in a desk-sized tape. Rows further than a panel height (at least
 * PAINT_MARGIN_ROWS) from the visible ones are left as they are and painted once a scroll brings
 * them near: with 8 tapes the rows out of sight were most of the page's layout and paint per frame
 * (bench:ui).
 */
import { PUBLIC_TRADE_FIELDS, TRADE_VIEW_STRIDE, type TradesView } from "../../../../protocol";

/** A trades view row keeps the public trade's layout (its price is a funding trade's rate). */
const T = PUBLIC_TRADE_FIELDS;
import { amountLabel, BoundedCache, priceLabel } from "../book";

/** Rows the tape keeps (the newest trades). */
export const MAX_TRADE_ROWS = 100;

/** Rows painted beyond each edge of the visible ones at least (a panel height when taller). */
export const PAINT_MARGIN_ROWS = 10;

interface TradeRow {
  readonly el: HTMLElement;
  readonly price: HTMLElement;
  readonly amount: HTMLElement;
  readonly time: HTMLElement;
  /** A funding trade's period, where the row has that cell. */
  readonly period: HTMLElement | null;
  id: number;
  p: number;
}

function part(el: HTMLElement, name: string): HTMLElement {
  const found = el.querySelector<HTMLElement>(`[data-part="${name}"]`);
  if (!found) throw new Error(`trade row without its ${name} cell`);
  return found;
}

function setText(el: HTMLElement, text: string): void {
  // Writing the text node's data keeps the node (no child list change for the cell's layout).
  const first = el.firstChild;
  if (first && first.nodeType === 3 && !first.nextSibling) (first as Text).data = text;
  else el.textContent = text;
}

export class TradesPainter {
  readonly #rows = new Map<Element, TradeRow>();
  readonly #prices = new BoundedCache<number, string>(1024);
  readonly #amounts = new BoundedCache<number, string>(1024);
  readonly #times = new BoundedCache<number, string>(1024);
  /** The user's clock (src/ui/time/format.ts: `time_format`'s time part at `utc_offset`). */
  #clock: (mts: number) => string;
  #view: TradesView | null = null;
  readonly #rowHeight: number;
  /** The panel's scroll offset and height (css px) as last seen; Infinity: not known, paint all. */
  #scrollTop = 0;
  #height = Number.POSITIVE_INFINITY;

  readonly #priceText: (price: number) => string;

  /** `priceText` labels the price column (a funding tape shows its rates as a percentage a day). */
  constructor(clock: (mts: number) => string, rowHeight = 20, priceText = (v: number) => priceLabel(v, 5)) {
    this.#clock = clock;
    this.#rowHeight = rowHeight;
    this.#priceText = priceText;
  }

  /**
   * Ref callback for the scrolling panel: its height (from a ResizeObserver, so no layout is forced)
   * and scroll offset decide which rows are painted; rows that come near on a scroll are painted in
   * the scroll handler, before the frame that shows them.
   */
  readonly observe = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const onScroll = (): void => {
      this.#scrollTop = el.scrollTop;
      this.paint();
    };
    const resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (!box) return;
      const grew = box.height > this.#height;
      this.#height = box.height;
      if (grew) this.paint();
    });
    resize.observe(el);
    el.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      resize.disconnect();
      el.removeEventListener("scroll", onScroll);
      this.#scrollTop = 0;
      this.#height = Number.POSITIVE_INFINITY;
    };
  };

  setClock(clock: (mts: number) => string): void {
    if (clock === this.#clock) return;
    this.#clock = clock;
    this.#times.clear();
    for (const r of this.#rows.values()) r.id = NaN;
    this.paint();
  }

  setView(view: TradesView | null): void {
    this.#view = view;
    this.paint();
  }

  /** Ref callback for a row with `data-index` and price/amount/time parts (and maybe a period). */
  readonly register = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const row: TradeRow = {
      el,
      price: part(el, "price"),
      amount: part(el, "amount"),
      time: part(el, "time"),
      period: el.querySelector<HTMLElement>('[data-part="period"]'),
      id: NaN,
      p: NaN,
    };
    this.#rows.set(el, row);
    return () => {
      this.#rows.delete(el);
    };
  };

  /** The price a clicked row shows, as painted. */
  priceOf(target: Element): number | null {
    const el = target.closest("[data-index]");
    const row = el ? this.#rows.get(el) : undefined;
    return row && !Number.isNaN(row.p) ? row.p : null;
  }

  time(mts: number): string {
    const second = Math.floor(mts / 1000);
    return this.#times.get(second, (s) => this.#clock(s * 1000));
  }

  /** Paints the rows in or near sight; the others keep what they show until they come near. */
  paint(): void {
    const view = this.#view;
    const h = this.#rowHeight;
    const margin = Math.max(PAINT_MARGIN_ROWS, Math.ceil(this.#height / h));
    const first = Math.floor(this.#scrollTop / h) - margin;
    const last = Math.ceil((this.#scrollTop + this.#height) / h) + margin;
    for (const r of this.#rows.values()) {
      const i = Number(r.el.dataset["index"]);
      if (i < first || i > last) continue;
      const o = i * TRADE_VIEW_STRIDE;
      if (!view || !(i >= 0 && i < view.count)) {
        if (Number.isNaN(r.id)) continue;
        r.id = r.p = NaN;
        setText(r.price, "");
        setText(r.amount, "");
        setText(r.time, "");
        if (r.period) setText(r.period, "");
        delete r.el.dataset["dir"];
        r.el.dataset["empty"] = "";
        continue;
      }
      const rows = view.rows;
      const id = rows[o + T.id] ?? NaN;
      if (id === r.id) continue;
      const mts = rows[o + T.mts] ?? 0;
      const amount = rows[o + T.amount] ?? 0;
      const price = rows[o + T.price] ?? NaN;
      r.id = id;
      r.p = price;
      delete r.el.dataset["empty"];
      const dir = amount < 0 ? "down" : "up";
      if (r.el.dataset["dir"] !== dir) r.el.dataset["dir"] = dir;
      setText(r.price, this.#prices.get(price, this.#priceText));
      setText(
        r.amount,
        this.#amounts.get(Math.abs(amount), (v) => amountLabel(v, false)),
      );
      setText(r.time, this.time(mts));
      if (r.period) setText(r.period, String(view.periods?.[i] ?? ""));
    }
  }
}
