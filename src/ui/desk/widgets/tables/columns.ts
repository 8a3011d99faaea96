/**
 * The account tables' ids (the keys of `tables_sorting`), their sortable columns and default order.
 * Framework-free so the comparators are tested in Node.
 */
import type { TableSorting } from "../../../../protocol";
import type { AuthTrade, Order, Position, Wallet } from "../../../../protocol";
import type { SortKeys } from "./sorting";

export const TABLE_IDS = {
  openOrders: "orders",
  orderHistory: "order_history",
  ownTrades: "own_trades",
  positions: "positions",
  balances: "balances",
} as const;
export type TableId = (typeof TABLE_IDS)[keyof typeof TABLE_IDS];

/** Filled share of an order, 0–1: (original − remaining) / original, by magnitude. */
export function filledFraction(o: Pick<Order, "amount" | "original_amount">): number {
  const orig = Math.abs(o.original_amount);
  if (orig === 0) return 0;
  return Math.min(1, Math.max(0, (orig - Math.abs(o.amount)) / orig));
}

/** The status without its fill details: "EXECUTED @ 100(1): was …" → "EXECUTED". */
export function statusKind(status: string): string {
  const cut = status.search(/ @|:| was /);
  return (cut < 0 ? status : status.slice(0, cut)).trim();
}

export const ORDER_SORT_KEYS: SortKeys<Order> = {
  pair: (o) => o.symbol,
  type: (o) => o.type_value,
  amount: (o) => o.amount,
  original: (o) => Math.abs(o.original_amount),
  price: (o) => o.price,
  average: (o) => o.price_average,
  filled: (o) => filledFraction(o),
  status: (o) => o.status,
  created: (o) => o.mts_create,
  updated: (o) => o.mts_update,
};

export const TRADE_SORT_KEYS: SortKeys<AuthTrade> = {
  pair: (t) => t.pair,
  time: (t) => t.mts_create,
  amount: (t) => t.exec_amount,
  price: (t) => t.exec_price,
  fee: (t) => t.fee,
  type: (t) => t.order_type,
  maker: (t) => (t.isMaker ? 1 : 0),
};

export const POSITION_SORT_KEYS: SortKeys<Position> = {
  pair: (p) => p.pair,
  amount: (p) => p.amount,
  base: (p) => p.basePrice,
  liq: (p) => p.liqPrice,
  pl: (p) => p.pl,
  plPercent: (p) => p.plPercent,
  swap: (p) => p.swap,
  leverage: (p) => p.leverage,
};

export const BALANCE_SORT_KEYS: SortKeys<Wallet> = {
  currency: (w) => w.currency,
  wallet: (w) => w.type,
  total: (w) => w.balance,
  available: (w) => w.available,
};

/** What a table shows before the user picks a column (not written to the setting). */
export const DEFAULT_SORTING: Readonly<Record<TableId, TableSorting>> = {
  orders: { column: "created", direction: "desc" },
  order_history: { column: "updated", direction: "desc" },
  own_trades: { column: "time", direction: "desc" },
  positions: { column: "pair", direction: "asc" },
  balances: { column: "currency", direction: "asc" },
};
