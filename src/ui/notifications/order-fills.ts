/**
 * One notice per order, whatever the number of trades it fills in (docs/product-rules.md#notifications):
 * a market order that walks eight book levels is one order to the trader, not eight. The tracker
 * reads the account view the worker reconciles, groups the own trades that arrived since the desk
 * opened by their order, and tells which orders' sums changed: the amount filled, the volume-weighted
 * average price, the number of fills, and whether the order is settled (no longer open: filled,
 * cancelled, or gone from the open set for another reason). Framework-free; the desk turns a summary
 * into localized text.
 */
import type { AuthTrade, Order } from "../../protocol";

export interface OrderFills {
  readonly orderId: number;
  /** The trade's pair as the wire sends it (tBTCUSD). */
  readonly pair: string;
  readonly side: "buy" | "sell";
  /** Absolute amount filled so far. */
  readonly filled: number;
  /** Volume-weighted average price of the fills. */
  readonly averagePrice: number;
  readonly fills: number;
  /** The order's whole amount (absolute) when the account view still knows it, or null. */
  readonly amount: number | null;
  /** The order is no longer open: the notice says what happened, once. */
  readonly settled: boolean;
}

/** What the tracker needs of the account view. */
export interface FillsSource {
  readonly trades: readonly AuthTrade[];
  readonly orders: readonly Order[];
  readonly history: Readonly<Record<string, readonly Order[]>>;
}

interface Sum {
  pair: string;
  amount: number;
  notional: number;
  fills: number;
  settled: boolean;
  told: string;
}

/** Orders followed at once; the oldest is forgotten past this (a session of thousands of fills). */
const FOLLOWED = 200;

export class FillTracker {
  readonly #seen = new Set<number>();
  readonly #orders = new Map<number, Sum>();
  #primed = false;

  /**
   * The orders whose notice must change after this view. The first view only marks its trades as
   * seen: fills from before the desk opened are history, not news.
   */
  update(view: FillsSource): OrderFills[] {
    if (!this.#primed) {
      this.#primed = true;
      for (const t of view.trades) this.#seen.add(t.id);
      return [];
    }
    const touched = new Set<number>();
    for (const t of view.trades) {
      if (this.#seen.has(t.id)) continue;
      this.#seen.add(t.id);
      let sum = this.#orders.get(t.order_id);
      if (!sum) {
        sum = { pair: t.pair, amount: 0, notional: 0, fills: 0, settled: false, told: "" };
        this.#orders.set(t.order_id, sum);
      }
      sum.amount += t.exec_amount;
      sum.notional += Math.abs(t.exec_amount) * t.exec_price;
      sum.fills += 1;
      touched.add(t.order_id);
    }
    const open = new Set(view.orders.map((o) => o.id));
    const out: OrderFills[] = [];
    for (const [orderId, sum] of this.#orders) {
      sum.settled = !open.has(orderId);
      const summary = this.#summary(orderId, sum, view);
      // A change the trader would see (more fills, or the order closing): told again.
      const told = `${summary.fills}|${summary.settled}|${summary.amount}`;
      if (told !== sum.told || touched.has(orderId)) {
        sum.told = told;
        out.push(summary);
      }
    }
    for (const [orderId, sum] of this.#orders) if (sum.settled && !touched.has(orderId)) this.#orders.delete(orderId);
    while (this.#orders.size > FOLLOWED) {
      const oldest = this.#orders.keys().next().value;
      if (oldest === undefined) break;
      this.#orders.delete(oldest);
    }
    // The seen set only needs the trades the view still holds.
    if (this.#seen.size > view.trades.length * 2 + 100) {
      const kept = new Set(view.trades.map((t) => t.id));
      for (const id of this.#seen) if (!kept.has(id)) this.#seen.delete(id);
    }
    return out;
  }

  #summary(orderId: number, sum: Sum, view: FillsSource): OrderFills {
    const order =
      view.orders.find((o) => o.id === orderId) ?? view.history[sum.pair]?.find((o) => o.id === orderId) ?? null;
    const filled = Math.abs(sum.amount);
    return {
      orderId,
      pair: sum.pair,
      side: sum.amount >= 0 ? "buy" : "sell",
      filled,
      averagePrice: filled === 0 ? 0 : sum.notional / filled,
      fills: sum.fills,
      amount: order ? Math.abs(order.original_amount) : null,
      settled: sum.settled,
    };
  }
}
