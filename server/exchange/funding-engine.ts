/**
 * The matching engine of one funding currency: lend and borrow offers keyed by (rate, period), in
 * price-time priority. A lender's period is the longest term it accepts, a borrower's the term it
 * needs, so a lend offer (rate r, period p) matches a borrow (rate ≥ r, period ≤ p); the trade runs
 * at the resting (maker) offer's rate for the borrower's period, and never between two offers of
 * one owner. Hidden offers rest but leave the books alone.
 */
import { round8 } from "./market-data.ts";

export type FundingSide = "lend" | "borrow";

export interface FundingOrder {
  readonly id: number;
  readonly owner: number;
  readonly side: FundingSide;
  readonly rate: number;
  readonly period: number;
  readonly hidden: boolean;
  readonly mtsCreate: number;
  remaining: number;
  readonly original: number;
}

export interface FundingFill {
  readonly tradeId: number;
  readonly mts: number;
  readonly maker: FundingOrder;
  readonly taker: FundingOrder;
  readonly amount: number;
  readonly rate: number;
  readonly period: number;
}

export interface FundingLevelChange {
  readonly side: FundingSide;
  readonly rate: number;
  readonly period: number;
  readonly deltaAmount: number;
  readonly deltaCount: number;
}

export interface FundingMatch {
  readonly order: FundingOrder;
  readonly fills: readonly FundingFill[];
  readonly levels: readonly FundingLevelChange[];
  /** True when (what is left of) the order rests on the book. */
  readonly rested: boolean;
}

/** Price-time priority over (rate, period) offers; hidden offers rest but leave the books alone. */
export class FundingEngine {
  /** Best first: lends by rate ascending, borrows by rate descending; arrival order within a rate. */
  readonly lends: FundingOrder[] = [];
  readonly borrows: FundingOrder[] = [];
  readonly #byId = new Map<number, FundingOrder>();

  constructor(readonly nextTradeId: () => number) {}

  get(id: number): FundingOrder | undefined {
    return this.#byId.get(id);
  }

  /** Matches an offer; the rest rests unless `immediate` (a simulated taker). */
  submit(o: FundingOrder, now: number, immediate = false): FundingMatch {
    const fills: FundingFill[] = [];
    const levels: FundingLevelChange[] = [];
    const book = o.side === "lend" ? this.borrows : this.lends;
    for (let i = 0; i < book.length && o.remaining > 1e-9;) {
      const m = book[i] as FundingOrder;
      const crosses = o.side === "lend" ? m.rate >= o.rate : m.rate <= o.rate;
      if (!crosses) break;
      const lend = o.side === "lend" ? o : m;
      const borrow = o.side === "lend" ? m : o;
      if (borrow.period > lend.period || m.owner === o.owner) {
        i++;
        continue;
      }
      const amount = round8(Math.min(o.remaining, m.remaining));
      o.remaining = round8(o.remaining - amount);
      m.remaining = round8(m.remaining - amount);
      fills.push({
        tradeId: this.nextTradeId(),
        mts: now,
        maker: m,
        taker: o,
        amount,
        rate: m.rate,
        period: borrow.period,
      });
      if (!m.hidden)
        levels.push({
          side: m.side,
          rate: m.rate,
          period: m.period,
          deltaAmount: -amount,
          deltaCount: m.remaining > 1e-9 ? 0 : -1,
        });
      if (m.remaining <= 1e-9) {
        book.splice(i, 1);
        this.#byId.delete(m.id);
      } else i++;
    }
    const rested = !immediate && o.remaining > 1e-9;
    if (rested) {
      this.restore(o);
      if (!o.hidden)
        levels.push({ side: o.side, rate: o.rate, period: o.period, deltaAmount: o.remaining, deltaCount: 1 });
    }
    return { order: o, fills, levels, rested };
  }

  /**
   * A counterparty (`taker`, never resting) takes the resting offer `id` whole at its rate and for
   * its period, whatever else is on the book: a simulated demand for one chosen offer. Null when
   * there is no such offer or it is the taker's own.
   */
  take(
    id: number,
    taker: Omit<FundingOrder, "side" | "rate" | "period" | "remaining" | "original">,
    now: number,
  ): FundingMatch | null {
    const m = this.#byId.get(id);
    if (!m || m.owner === taker.owner) return null;
    const amount = m.remaining;
    const o: FundingOrder = {
      ...taker,
      side: m.side === "lend" ? "borrow" : "lend",
      rate: m.rate,
      period: m.period,
      remaining: 0,
      original: amount,
    };
    const book = m.side === "lend" ? this.lends : this.borrows;
    book.splice(book.indexOf(m), 1);
    this.#byId.delete(id);
    m.remaining = 0;
    const fill: FundingFill = {
      tradeId: this.nextTradeId(),
      mts: now,
      maker: m,
      taker: o,
      amount,
      rate: m.rate,
      period: m.period,
    };
    const levels: FundingLevelChange[] = m.hidden
      ? []
      : [{ side: m.side, rate: m.rate, period: m.period, deltaAmount: -amount, deltaCount: -1 }];
    return { order: o, fills: [fill], levels, rested: false };
  }

  /** Puts an offer on its side without matching (a restart's restore, or what is left after matching). */
  restore(o: FundingOrder): void {
    const side = o.side === "lend" ? this.lends : this.borrows;
    const better = (a: number, b: number): boolean => (o.side === "lend" ? a < b : a > b);
    let i = side.length;
    while (i > 0 && better(o.rate, (side[i - 1] as FundingOrder).rate)) i--;
    side.splice(i, 0, o);
    this.#byId.set(o.id, o);
  }

  cancel(id: number): { order: FundingOrder; level: FundingLevelChange | null } | null {
    const o = this.#byId.get(id);
    if (!o) return null;
    const side = o.side === "lend" ? this.lends : this.borrows;
    side.splice(side.indexOf(o), 1);
    this.#byId.delete(id);
    const level = o.hidden
      ? null
      : { side: o.side, rate: o.rate, period: o.period, deltaAmount: -o.remaining, deltaCount: -1 };
    return { order: o, level };
  }
}
