/**
 * Writes trades views into a bounded set of row elements (HOUSE-STYLE 7, 12): React renders only the
 * row skeletons (their number changes while the tape fills, then never); each view is painted here,
 * and a row is rewritten only when the trade it shows changes. Labels are cached.
 */
import { TRADE_VIEW_STRIDE, type TradesView } from "../../../../protocol";
import { amountLabel, BoundedCache, priceLabel } from "../book";

/** Rows the tape keeps (the newest trades). */
export const MAX_TRADE_ROWS = 100;

interface TradeRow {
  readonly el: HTMLElement;
  readonly price: HTMLElement;
  readonly amount: HTMLElement;
  readonly time: HTMLElement;
  id: number;
  p: number;
}

function part(el: HTMLElement, name: string): HTMLElement {
  const found = el.querySelector<HTMLElement>(`[data-part="${name}"]`);
  if (!found) throw new Error(`trade row without its ${name} cell`);
  return found;
}

export class TradesPainter {
  readonly #rows = new Map<Element, TradeRow>();
  readonly #prices = new BoundedCache<number, string>(1024);
  readonly #amounts = new BoundedCache<number, string>(1024);
  readonly #times = new BoundedCache<number, string>(1024);
  #clock: Intl.DateTimeFormat;
  #view: TradesView | null = null;

  constructor(locale: string) {
    this.#clock = clockFormat(locale);
  }

  setLocale(locale: string): void {
    this.#clock = clockFormat(locale);
    this.#times.clear();
    for (const r of this.#rows.values()) r.id = NaN;
    this.paint();
  }

  setView(view: TradesView | null): void {
    this.#view = view;
    this.paint();
  }

  /** Ref callback for a row with `data-index` and price/amount/time parts. */
  readonly register = (el: HTMLElement | null): (() => void) | undefined => {
    if (!el) return undefined;
    const row: TradeRow = {
      el,
      price: part(el, "price"),
      amount: part(el, "amount"),
      time: part(el, "time"),
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
    return this.#times.get(second, (s) => this.#clock.format(s * 1000));
  }

  paint(): void {
    const view = this.#view;
    for (const r of this.#rows.values()) {
      const i = Number(r.el.dataset["index"]);
      const o = i * TRADE_VIEW_STRIDE;
      if (!view || !(i >= 0 && i < view.count)) {
        if (Number.isNaN(r.id)) continue;
        r.id = r.p = NaN;
        r.price.textContent = r.amount.textContent = r.time.textContent = "";
        delete r.el.dataset["dir"];
        continue;
      }
      const rows = view.rows;
      const id = rows[o] ?? NaN;
      if (id === r.id) continue;
      const mts = rows[o + 1] ?? 0;
      const amount = rows[o + 2] ?? 0;
      const price = rows[o + 3] ?? NaN;
      r.id = id;
      r.p = price;
      r.el.dataset["dir"] = amount < 0 ? "down" : "up";
      r.price.textContent = this.#prices.get(price, (v) => priceLabel(v, 5));
      r.amount.textContent = this.#amounts.get(Math.abs(amount), (v) => amountLabel(v, false));
      r.time.textContent = this.time(mts);
    }
  }
}

function clockFormat(locale: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat(locale, { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  } catch {
    return new Intl.DateTimeFormat("en", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
  }
}
