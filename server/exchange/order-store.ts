/**
 * Account orders as stored: the `orders` table, the open orders in memory by id, their wire record
 * (`orderCodec`) and what they reserve. Order entry (orders.ts), settlement (settlement.ts) and the
 * stop book (stop-book.ts) share this one store, so all three see the same state of an order.
 */
import {
  isExchangeOrderType,
  ORDER_FLAGS,
  orderCodec,
  parseSymbol,
  type Order,
  type WalletType,
} from "../../src/protocol/index.ts";
import { fromUnits, type Db } from "../store/db.ts";
import type { Balances } from "./balances.ts";
import { newEngineOrder, type EngineOrder, type Side } from "./engine.ts";
import type { AccountEvents } from "./events.ts";
import type { Exchange } from "./exchange.ts";
import { migrateOrderHistory } from "./order-history.ts";

export interface OrderRow {
  id: number;
  user_id: number;
  cid: number | null;
  /** The order's group id, or null. */
  gid: number | null;
  symbol: string;
  type: string;
  side: Side;
  price: number | null;
  amount_orig: number;
  remaining: number;
  avg_price: number;
  status: string;
  flags: number;
  reserved: number;
  mts_create: number;
  mts_update: number;
  open: number;
  /** Stop orders: the trigger price, the limit after triggering (STOP LIMIT), the trail distance. */
  trigger_price: number | null;
  aux_price: number | null;
  trail: number | null;
  /** 1 once a stop has triggered and gone to the book. */
  triggered: number;
  /** The other leg of an OCO pair (a limit and a stop): whichever acts first closes the other. */
  oco_peer: number | null;
}

/** The bare types trade on margin (positions.ts); the EXCHANGE ones in the exchange wallet. */
export const isMargin = (type: string): boolean => !isExchangeOrderType(type);

/** A stop that has not triggered: it waits in the stop book, not on the matching engine's book. */
export const isPendingStop = (r: OrderRow): boolean => r.trigger_price !== null && r.triggered === 0;

/**
 * Where an order reserves: a margin order its margin in the quote currency of the margin wallet, a
 * spot buy the quote and a spot sell the base it pays, in the exchange wallet.
 */
export function reserveOf(symbol: string, type: string, side: Side): { wallet: WalletType; currency: string } | null {
  const info = parseSymbol(symbol);
  if (!info || info.kind !== "trading") return null;
  const margin = isMargin(type);
  return { wallet: margin ? "margin" : "exchange", currency: margin || side === "buy" ? info.quote : info.base };
}

export class OrderStore {
  /** The open orders, by id. */
  readonly open = new Map<number, OrderRow>();
  /**
   * Orders being updated (`ou`): taken off the book and put back under the same id. Settlement
   * skips the take-off, and reports the put-back as `ou` with the fills it had before kept.
   */
  readonly amending = new Map<number, { phase: "off" | "on"; filled: number; avg: number }>();

  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly events: AccountEvents,
    readonly now: () => number,
  ) {
    migrateOrderHistory(db);
  }

  /** Loads the open orders and puts those on a book back on it (after a restart); returns how many. */
  restore(exchange: Exchange): number {
    // A trade id names one fill for ever: new fills continue after the stored ones.
    const last = this.db.prepare("SELECT MAX(trade_id) AS id FROM trades").get() as { id: number | null };
    exchange.resumeTradeIds(last.id ?? 0);
    const rows = this.db.prepare("SELECT * FROM orders WHERE open = 1 ORDER BY id").all() as OrderRow[];
    for (const r of rows) {
      const market = exchange.markets.get(r.symbol);
      if (!market) continue;
      this.open.set(r.id, r);
      // A stop waiting for its trigger is not on the book.
      if (isPendingStop(r)) continue;
      const restingPrice = r.type.endsWith("STOP LIMIT") ? r.aux_price : r.price;
      const { id, cid, side } = r;
      const hidden = (r.flags & ORDER_FLAGS.HIDDEN) !== 0;
      const amount = fromUnits(r.amount_orig);
      const engineOrder: EngineOrder = {
        ...newEngineOrder({
          id,
          owner: r.user_id,
          cid,
          side,
          type: "LIMIT",
          price: restingPrice ?? NaN,
          amount,
          hidden,
          now: r.mts_create,
        }),
        remaining: fromUnits(r.remaining),
        mtsUpdate: r.mts_update,
        status: r.status,
        avgPrice: r.avg_price,
        filled: fromUnits(r.amount_orig - r.remaining),
      };
      market.engine.restore(engineOrder);
      market.applyLevels(
        engineOrder.hidden
          ? []
          : [{ side: r.side, price: engineOrder.price, deltaAmount: engineOrder.remaining, deltaCount: 1 }],
      );
    }
    return rows.length;
  }

  save(r: OrderRow): void {
    this.db
      .prepare(
        `INSERT INTO orders (id, user_id, cid, gid, symbol, type, side, price, amount_orig, remaining, avg_price, status, flags, reserved, mts_create, mts_update, open, trigger_price, aux_price, trail, triggered)
         VALUES (@id, @user_id, @cid, @gid, @symbol, @type, @side, @price, @amount_orig, @remaining, @avg_price, @status, @flags, @reserved, @mts_create, @mts_update, @open, @trigger_price, @aux_price, @trail, @triggered)
         ON CONFLICT(id) DO UPDATE SET price = excluded.price, remaining = excluded.remaining, avg_price = excluded.avg_price, status = excluded.status,
           reserved = excluded.reserved, amount_orig = excluded.amount_orig, mts_update = excluded.mts_update, open = excluded.open, trigger_price = excluded.trigger_price, triggered = excluded.triggered`,
      )
      .run(r);
  }

  wire(r: OrderRow): unknown[] {
    const sign = r.side === "buy" ? 1 : -1;
    const order: Omit<Order, "isOco" | "type_value"> = {
      id: r.id,
      group_id: r.gid,
      client_id: r.cid,
      symbol: r.symbol,
      mts_create: r.mts_create,
      mts_update: r.mts_update,
      amount: sign * fromUnits(r.remaining),
      original_amount: sign * fromUnits(r.amount_orig),
      type: r.type,
      type_prev: null,
      mts_tif: null,
      flags: r.flags,
      status: r.status,
      price: r.price,
      price_average: r.avg_price,
      price_trailing: r.trail ?? 0,
      price_aux_limit: r.aux_price ?? 0,
      notify: false,
      hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
      placed_id: r.oco_peer,
      routing: "BFX",
      meta: null,
    };
    return orderCodec.encode(order);
  }

  openOf(userId: number): OrderRow[] {
    return [...this.open.values()].filter((r) => r.user_id === userId && r.open === 1);
  }

  /** Releases what an open order still reserves, from the wallet it reserved in. */
  release(r: OrderRow): void {
    const where = r.reserved > 0 ? reserveOf(r.symbol, r.type, r.side) : null;
    if (!where) return;
    this.balances.move(r.user_id, where.wallet, where.currency, 0, -r.reserved, null);
    r.reserved = 0;
  }

  /**
   * Closes an order that is not on the book (a pending stop, cancelled or unpayable once fired),
   * releasing what it reserved: `oc`. Inside the caller's transaction.
   */
  closeOffBook(r: OrderRow, status: string): unknown[] {
    r.open = 0;
    r.status = status;
    r.mts_update = this.now();
    this.release(r);
    this.save(r);
    const wire = this.wire(r);
    this.events.emit(r.user_id, "oc", wire);
    this.open.delete(r.id);
    return wire;
  }
}
