/**
 * The account's trading history (docs/protocol.md#history-paging and #history-exports): closed
 * orders (`r/orders[/SYM]/hist`, walked by their last update) and own trades (`r/trades[/SYM]/hist`,
 * by their time and trade id), and their streamed CSV exports `r/orders[/SYM]/export` and
 * `r/trades[/SYM]/export`. Paging and streaming are history-pages.ts's; this is only which rows and
 * how each is written.
 */
import {
  authTradeCodec,
  ORDER_CSV_HEADER,
  TRADE_CSV_HEADER,
  unitsToDecimal,
  type RangeQuery,
} from "../../src/protocol/index.ts";
import { fromUnits, type Db } from "../store/db.ts";
import {
  csvExport,
  exportName,
  keysetPage,
  type Condition,
  type KeysetSource,
  type StreamedBody,
} from "./history-pages.ts";
import type { OrderRow, OrderStore } from "./order-store.ts";

/** A stored own trade (settlement.ts writes them): amounts and fees in units of 1e-8. */
export interface TradeRow {
  readonly trade_id: number;
  readonly symbol: string;
  readonly mts: number;
  readonly order_id: number;
  readonly amount: number;
  readonly price: number;
  readonly order_type: string;
  readonly order_price: number | null;
  readonly maker: number;
  readonly fee: number;
  readonly fee_currency: string;
}

/** The indexes the newest-first walks use (OrderStore runs this when it opens). */
export function migrateOrderHistory(db: Db): void {
  db.exec(`CREATE INDEX IF NOT EXISTS orders_user_hist ON orders (user_id, mts_update DESC, id DESC) WHERE open = 0;
    CREATE INDEX IF NOT EXISTS trades_user_mts ON trades (user_id, mts DESC, trade_id DESC);`);
}

/**
 * Closed orders walk by their last update, which is when they closed; a trade's own id breaks ties
 * (no account trades with itself, docs/protocol.md#orders, so a trade id is one row per account).
 */
const CLOSED_ORDERS: KeysetSource = { table: "orders", time: "mts_update", id: "id" };
const TRADES: KeysetSource = { table: "trades", time: "mts", id: "trade_id" };

function scope(userId: number, symbol: string | null): Condition[] {
  return symbol === null
    ? [["user_id = ?", userId]]
    : [
        ["user_id = ?", userId],
        ["symbol = ?", symbol],
      ];
}

export function closedOrderPage(db: Db, userId: number, symbol: string | null, q: RangeQuery): OrderRow[] {
  return keysetPage<OrderRow>(db, CLOSED_ORDERS, [...scope(userId, symbol), ["open = 0"]], q);
}

export function tradePage(db: Db, userId: number, symbol: string | null, q: RangeQuery): TradeRow[] {
  return keysetPage<TradeRow>(db, TRADES, scope(userId, symbol), q);
}

/** An own trade as the wire has it: the 12-field record with its fee. */
export function tradeWire(t: TradeRow): unknown[] {
  return authTradeCodec.encode({
    id: t.trade_id,
    pair: t.symbol,
    mts_create: t.mts,
    order_id: t.order_id,
    exec_amount: fromUnits(t.amount),
    exec_price: t.price,
    order_type: t.order_type,
    order_price: t.order_price,
    maker: t.maker ? 1 : -1,
    fee: fromUnits(t.fee),
    fee_currency: t.fee_currency,
    cid: null,
  });
}

/** The closed orders' CSV over `q`'s range (history-pages.ts streams it). */
export function ordersCsv(store: OrderStore, userId: number, symbol: string | null, q: RangeQuery): StreamedBody {
  return csvExport<OrderRow>({
    filename: exportName("orders", symbol, store.now()),
    header: ORDER_CSV_HEADER,
    q,
    page: (page) => closedOrderPage(store.db, userId, symbol, page),
    cursor: (o) => ({ end: o.mts_update, endId: o.id }),
    line: (o) => {
      const sign = o.side === "buy" ? 1 : -1;
      return [
        String(o.id),
        new Date(o.mts_create).toISOString(),
        new Date(o.mts_update).toISOString(),
        o.symbol,
        o.type,
        o.side,
        unitsToDecimal(sign * o.amount_orig),
        unitsToDecimal(sign * (o.amount_orig - o.remaining)),
        o.price === null ? "" : String(o.price),
        o.avg_price === 0 ? "" : String(o.avg_price),
        o.status,
      ];
    },
  });
}

/** The own trades' CSV over `q`'s range (history-pages.ts streams it). */
export function tradesCsv(db: Db, userId: number, symbol: string | null, q: RangeQuery, now: number): StreamedBody {
  return csvExport<TradeRow>({
    filename: exportName("trades", symbol, now),
    header: TRADE_CSV_HEADER,
    q,
    page: (page) => tradePage(db, userId, symbol, page),
    cursor: (t) => ({ end: t.mts, endId: t.trade_id }),
    line: (t) => [
      String(t.trade_id),
      new Date(t.mts).toISOString(),
      t.symbol,
      String(t.order_id),
      t.amount > 0 ? "buy" : "sell",
      unitsToDecimal(t.amount),
      String(t.price),
      unitsToDecimal(t.fee),
      t.fee_currency,
      t.maker ? "maker" : "taker",
    ],
  });
}
