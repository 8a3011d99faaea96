/**
 * The matching engine of one market: price-time priority over resting orders, for LIMIT, MARKET,
 * IOC and FOK orders with the post-only and hidden flags. It knows nothing of sockets, storage or
 * balances: it takes orders and returns what happened (fills, order updates, book level changes),
 * so the exchange can persist, publish and settle in one place.
 *
 * Self-trade: an incoming order never fills against its own owner's resting orders; those resting
 * orders are cancelled ("CANCELED was: self-trade prevention") and matching continues behind them.
 * Prices compare exactly (orders carry at most 5 significant digits, as the exchange truncates).
 */

export type Side = "buy" | "sell";
export type EngineOrderType = "LIMIT" | "MARKET" | "IOC" | "FOK";

export interface EngineOrder {
  readonly id: number;
  readonly owner: number;
  readonly cid: number | null;
  readonly side: Side;
  readonly type: EngineOrderType;
  /** Limit price; NaN for MARKET. */
  readonly price: number;
  /** Remaining amount, positive. */
  remaining: number;
  readonly original: number;
  readonly hidden: boolean;
  readonly postOnly: boolean;
  readonly mtsCreate: number;
  mtsUpdate: number;
  status: string;
  /** Volume-weighted average fill price so far. */
  avgPrice: number;
  filled: number;
  /**
   * A buy's spending cap in 1e-8 units of the quote currency (what the account can pay): matching
   * stops before the fills' cost (each rounded to the unit, as settlement books it) would pass it,
   * and the rest is cancelled as INSUFFICIENT BALANCE. Absent: no cap (simulator orders, limits).
   */
  quoteBudget?: number;
  /** What was left when self-trade prevention cancelled it (`remaining` is then 0 for the book). */
  leftover?: number;
}

export interface Fill {
  readonly tradeId: number;
  readonly mts: number;
  readonly price: number;
  /** Filled amount, positive. */
  readonly amount: number;
  readonly taker: EngineOrder;
  readonly maker: EngineOrder;
}

/** A change of the visible amount and order count at a price (hidden orders excluded). */
export interface LevelChange {
  readonly side: Side;
  readonly price: number;
  readonly deltaAmount: number;
  readonly deltaCount: number;
}

export interface MatchResult {
  readonly order: EngineOrder;
  readonly fills: Fill[];
  /** Resting orders whose state changed (partially or fully filled, or cancelled). */
  readonly touched: EngineOrder[];
  readonly levels: LevelChange[];
  /** The order rests on the book after matching. */
  readonly rested: boolean;
}

interface Level {
  readonly price: number;
  readonly orders: EngineOrder[];
  head: number;
}

/** Prices printed like the exchange's status strings: at least one decimal. */
function px(n: number): string {
  return Number.isInteger(n) ? n.toFixed(1) : String(n);
}

function round8(n: number): number {
  return Math.round(n * 1e8) / 1e8;
}

class BookSideLevels {
  readonly prices: number[] = [];
  readonly levels = new Map<number, Level>();
  constructor(readonly side: Side) {}

  /** Best first: highest bid, lowest ask. */
  #better(a: number, b: number): boolean {
    return this.side === "buy" ? a > b : a < b;
  }

  #index(price: number): number {
    let lo = 0;
    let hi = this.prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#better(this.prices[mid] as number, price)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  add(order: EngineOrder): void {
    let level = this.levels.get(order.price);
    if (!level) {
      level = { price: order.price, orders: [], head: 0 };
      this.levels.set(order.price, level);
      this.prices.splice(this.#index(order.price), 0, order.price);
    }
    level.orders.push(order);
  }

  best(): Level | undefined {
    const p = this.prices[0];
    return p === undefined ? undefined : this.levels.get(p);
  }

  /** Drops filled/cancelled orders from the front of a level, and the level when empty. */
  compact(level: Level): void {
    while (level.head < level.orders.length && (level.orders[level.head] as EngineOrder).remaining <= 0) level.head++;
    if (level.head > 32 && level.head * 2 > level.orders.length) {
      level.orders.splice(0, level.head);
      level.head = 0;
    }
    if (level.head >= level.orders.length) {
      this.levels.delete(level.price);
      const i = this.#index(level.price);
      if (this.prices[i] === level.price) this.prices.splice(i, 1);
    }
  }

  remove(order: EngineOrder): boolean {
    const level = this.levels.get(order.price);
    if (!level) return false;
    const i = level.orders.indexOf(order, level.head);
    if (i < 0) return false;
    level.orders.splice(i, 1);
    if (level.orders.length === level.head) this.compact(level);
    return true;
  }

  /** Amount available at prices acceptable to a taker at `limit` (NaN: any price), not the taker's own. */
  liquidityTo(limit: number, owner: number): number {
    let sum = 0;
    for (const p of this.prices) {
      // This side is asks for a buyer (acceptable up to the limit) and bids for a seller (down to it).
      const acceptable = Number.isNaN(limit) || (this.side === "sell" ? p <= limit : p >= limit);
      if (!acceptable) break;
      const level = this.levels.get(p) as Level;
      for (let i = level.head; i < level.orders.length; i++) {
        const o = level.orders[i] as EngineOrder;
        if (o.owner !== owner) sum += o.remaining;
      }
    }
    return sum;
  }
}

export class MatchingEngine {
  readonly bids = new BookSideLevels("buy");
  readonly asks = new BookSideLevels("sell");
  readonly #orders = new Map<number, EngineOrder>();
  #nextTradeId: () => number;

  constructor(nextTradeId: () => number) {
    this.#nextTradeId = nextTradeId;
  }

  get(id: number): EngineOrder | undefined {
    return this.#orders.get(id);
  }

  /** Every resting order (for snapshots and persistence). */
  resting(): EngineOrder[] {
    return [...this.#orders.values()];
  }

  bestBid(): number | undefined {
    return this.bids.prices[0];
  }

  bestAsk(): number | undefined {
    return this.asks.prices[0];
  }

  /**
   * What buying `amount` at market would cost `owner` now, in 1e-8 units of the quote (each fill
   * rounded as settlement books it), walking the asks as `submit` would — hidden orders included,
   * the owner's own skipped (self-trade prevention cancels them); null when the asks run out first.
   */
  buyCost(amount: number, owner: number): number | null {
    let left = round8(amount);
    let cost = 0;
    for (const p of this.asks.prices) {
      const level = this.asks.levels.get(p) as Level;
      for (let i = level.head; i < level.orders.length && left > 0; i++) {
        const o = level.orders[i] as EngineOrder;
        if (o.owner === owner || o.remaining <= 0) continue;
        const take = round8(Math.min(left, o.remaining));
        cost += Math.round(take * p * 1e8);
        left = round8(left - take);
      }
      if (left <= 0) return cost;
    }
    return null;
  }

  /** Puts an order back on the book as it was (restoring from storage): no matching. */
  restore(order: EngineOrder): void {
    (order.side === "buy" ? this.bids : this.asks).add(order);
    this.#orders.set(order.id, order);
  }

  submit(order: EngineOrder, now: number): MatchResult {
    const fills: Fill[] = [];
    const touched: EngineOrder[] = [];
    const levels: LevelChange[] = [];
    const own = order.side === "buy" ? this.bids : this.asks;
    const opp = order.side === "buy" ? this.asks : this.bids;
    const crosses = (p: number): boolean =>
      order.type === "MARKET" || (order.side === "buy" ? p <= order.price : p >= order.price);

    const best = opp.best();
    if (order.postOnly && best && crosses(best.price)) {
      order.status = "POSTONLY CANCELED";
      order.mtsUpdate = now;
      return { order, fills, touched, levels, rested: false };
    }
    if (order.type === "FOK" && opp.liquidityTo(order.price, order.owner) + 1e-12 < order.remaining) {
      order.status = "FILLORKILL CANCELED";
      order.mtsUpdate = now;
      return { order, fills, touched, levels, rested: false };
    }

    let outOfFunds = false;
    while (order.remaining > 0 && !outOfFunds) {
      const level = opp.best();
      if (!level || !crosses(level.price)) break;
      for (let i = level.head; i < level.orders.length && order.remaining > 0; i++) {
        const maker = level.orders[i] as EngineOrder;
        if (maker.remaining <= 0) continue;
        if (maker.owner === order.owner) {
          // Self-trade prevention: cancel the resting order.
          if (!maker.hidden)
            levels.push({ side: maker.side, price: maker.price, deltaAmount: -maker.remaining, deltaCount: -1 });
          maker.leftover = maker.remaining;
          maker.remaining = 0;
          maker.status = `CANCELED was: self-trade prevention`;
          maker.mtsUpdate = now;
          this.#orders.delete(maker.id);
          touched.push(maker);
          continue;
        }
        let amount = round8(Math.min(order.remaining, maker.remaining));
        if (order.quoteBudget !== undefined) {
          amount = Math.min(amount, affordable(order.quoteBudget, level.price));
          if (amount <= 0) {
            outOfFunds = true;
            break;
          }
        }
        if (amount <= 0) {
          // Float residue below 1e-8: the order is done; never emit a zero fill.
          if (order.remaining < 1e-8) order.remaining = 0;
          if (maker.remaining < 1e-8) maker.remaining = 0;
          continue;
        }
        const fill: Fill = { tradeId: this.#nextTradeId(), mts: now, price: level.price, amount, taker: order, maker };
        fills.push(fill);
        if (order.quoteBudget !== undefined) order.quoteBudget -= Math.round(amount * level.price * 1e8);
        for (const o of [order, maker]) {
          o.avgPrice = (o.avgPrice * o.filled + level.price * amount) / (o.filled + amount);
          o.filled = round8(o.filled + amount);
          o.remaining = round8(o.remaining - amount);
          o.mtsUpdate = now;
          const prev = o.status;
          const signed = o.side === "buy" ? amount : -amount;
          const step = `${px(level.price)}(${round8(signed)})`;
          o.status = o.remaining > 0 ? `PARTIALLY FILLED @ ${step}` : `EXECUTED @ ${step}`;
          // Like the exchange, the history keeps one step: "EXECUTED @ …: was PARTIALLY FILLED @ …".
          if (prev !== "ACTIVE" && prev !== "" && !prev.startsWith("CANCELED"))
            o.status += `: was ${prev.split(": was ")[0]}`;
        }
        if (!maker.hidden) {
          levels.push({
            side: maker.side,
            price: maker.price,
            deltaAmount: -amount,
            deltaCount: maker.remaining > 0 ? 0 : -1,
          });
        }
        if (maker.remaining <= 0) this.#orders.delete(maker.id);
        touched.push(maker);
      }
      opp.compact(level);
    }

    let rested = false;
    if (order.remaining > 0) {
      if (order.type === "LIMIT") {
        own.add(order);
        this.#orders.set(order.id, order);
        rested = true;
        if (!order.hidden)
          levels.push({ side: order.side, price: order.price, deltaAmount: order.remaining, deltaCount: 1 });
      } else {
        // MARKET, IOC, FOK: what did not fill is cancelled (for want of funds when the cap stopped it).
        const prev = order.status;
        const why = outOfFunds ? "INSUFFICIENT BALANCE" : "CANCELED";
        order.status = prev === "ACTIVE" || prev === "" ? why : `${why} was: ${prev}`;
        order.mtsUpdate = now;
      }
    }
    return { order, fills, touched, levels, rested };
  }

  /** Cancels a resting order; returns its level change, or null when it was not resting. */
  cancel(id: number, now: number): { order: EngineOrder; level: LevelChange | null } | null {
    const order = this.#orders.get(id);
    if (!order) return null;
    (order.side === "buy" ? this.bids : this.asks).remove(order);
    this.#orders.delete(id);
    const level = order.hidden
      ? null
      : { side: order.side, price: order.price, deltaAmount: -order.remaining, deltaCount: -1 };
    order.status = order.status === "ACTIVE" ? "CANCELED" : `CANCELED was: ${order.status}`;
    order.mtsUpdate = now;
    return { order, level };
  }
}

/** The most a budget of `units` (1e-8 of the quote) buys at `price`, in whole 1e-8 of the base. */
function affordable(units: number, price: number): number {
  let a = Math.floor(units / price);
  // Settlement rounds each fill's cost to the unit: step down past any float rounding up.
  while (a > 0 && Math.round((a / 1e8) * price * 1e8) > units) a--;
  return a > 0 ? a / 1e8 : 0;
}

/** An order as submitted: `price` NaN for MARKET, `quoteBudget` a buy's spending cap (1e-8 quote units). */
export interface NewOrder {
  id: number;
  owner: number;
  side: Side;
  type: EngineOrderType;
  price: number;
  amount: number;
  cid?: number | null;
  hidden?: boolean;
  postOnly?: boolean;
  quoteBudget?: number;
}

export function newEngineOrder(fields: NewOrder & { now: number }): EngineOrder {
  return {
    id: fields.id,
    owner: fields.owner,
    cid: fields.cid ?? null,
    side: fields.side,
    type: fields.type,
    price: fields.type === "MARKET" ? Number.NaN : fields.price,
    remaining: fields.amount,
    original: fields.amount,
    hidden: fields.hidden ?? false,
    postOnly: fields.postOnly ?? false,
    mtsCreate: fields.now,
    mtsUpdate: fields.now,
    status: "ACTIVE",
    avgPrice: 0,
    filled: 0,
    ...(fields.quoteBudget !== undefined && fields.side === "buy" ? { quoteBudget: fields.quoteBudget } : {}),
  };
}
