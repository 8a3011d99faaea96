/**
 * Order and trade filters (docs/product-rules.md#lists-and-filters: by pair, status, type (context) and side,
 * BUY when the amount is positive). The pair, status and context live in the `order_filters` setting
 * (`pair` may be CURRENT_PAIR, the widget's own pair, or ALL); the side is the existing bounded
 * `orders_filter` setting (all / buy / sell). Unknown stored values fall back to "everything".
 */
import { isExchangeOrderType, tradingSymbol, type AuthTrade, type Order, type Position } from "../../../../protocol";
import { statusKind } from "./columns";

export const CURRENT_PAIR = "CURRENT_PAIR";
export const ALL = "ALL";

// eslint-disable-next-line lingui/no-unlocalized-strings -- exchange status codes, labelled in the UI
export const STATUS_FILTERS = [ALL, "ACTIVE", "PARTIALLY FILLED", "EXECUTED", "CANCELED"] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export const CONTEXT_FILTERS = [ALL, "exchange", "margin"] as const;
export type ContextFilter = (typeof CONTEXT_FILTERS)[number];
export const SIDE_FILTERS = ["all", "buy", "sell"] as const;
export type SideFilter = (typeof SIDE_FILTERS)[number];

export interface OrderFilters {
  /** CURRENT_PAIR, ALL, or a pair such as `BTCUSD`. */
  readonly pair: string;
  readonly status: StatusFilter;
  readonly context: ContextFilter;
  readonly side: SideFilter;
}

function oneOf<T extends string>(list: readonly T[], value: unknown, fallback: T): T {
  return typeof value === "string" && (list as readonly string[]).includes(value) ? (value as T) : fallback;
}

export function readOrderFilters(stored: Readonly<Record<string, string>> | undefined, side: unknown): OrderFilters {
  const pair = stored?.["pair"];
  return {
    pair: typeof pair === "string" && /^[A-Z0-9:_]+$/.test(pair) ? pair : CURRENT_PAIR,
    status: oneOf(STATUS_FILTERS, stored?.["status"], ALL),
    context: oneOf(CONTEXT_FILTERS, stored?.["type"], ALL),
    side: oneOf(SIDE_FILTERS, side, "all"),
  };
}

/** The `order_filters` record for a changed filter (the side goes to `orders_filter` instead). */
export function withOrderFilter(
  stored: Readonly<Record<string, string>> | undefined,
  key: "pair" | "status" | "type",
  value: string,
): Record<string, string> {
  return { ...stored, [key]: value };
}

/** Exchange (spot) orders carry the EXCHANGE prefix; everything else trades on margin. */
export function orderContext(type: string | null): "exchange" | "margin" {
  return type !== null && isExchangeOrderType(type) ? "exchange" : "margin";
}

export function sideOf(amount: number): "buy" | "sell" {
  return amount > 0 ? "buy" : "sell";
}

/** The symbol the pair filter selects, or null for every pair. */
export function pairFilterSymbol(filter: string, currentSymbol: string): string | null {
  if (filter === ALL) return null;
  if (filter === CURRENT_PAIR) return currentSymbol;
  return tradingSymbol(filter);
}

export function matchesOrder(o: Order, f: OrderFilters, currentSymbol: string): boolean {
  const symbol = pairFilterSymbol(f.pair, currentSymbol);
  if (symbol !== null && o.symbol !== symbol) return false;
  if (f.status !== ALL && statusKind(o.status) !== f.status) return false;
  if (f.context !== ALL && orderContext(o.type) !== f.context) return false;
  // The side of an order is its original amount's sign: an executed order's remaining amount is 0.
  if (f.side !== "all" && sideOf(o.original_amount !== 0 ? o.original_amount : o.amount) !== f.side) return false;
  return true;
}

export function filterOrders(orders: readonly Order[], f: OrderFilters, currentSymbol: string): Order[] {
  return orders.filter((o) => matchesOrder(o, f, currentSymbol));
}

/** Own trades: the same pair, context and side filters (a trade has no status). */
export function filterTrades(trades: readonly AuthTrade[], f: OrderFilters, currentSymbol: string): AuthTrade[] {
  const symbol = pairFilterSymbol(f.pair, currentSymbol);
  return trades.filter(
    (t) =>
      (symbol === null || t.pair === symbol) &&
      (f.context === ALL || t.order_type === null || orderContext(t.order_type) === f.context) &&
      (f.side === "all" || sideOf(t.exec_amount) === f.side),
  );
}

/**
 * Positions: the same pair filter (CURRENT_PAIR follows the widget's pair) and side (long buys,
 * short sells). Every position trades on margin, so the context filter does not apply to them.
 */
export function filterPositions(
  positions: readonly Position[],
  f: Pick<OrderFilters, "pair" | "side">,
  currentSymbol: string,
): Position[] {
  const symbol = pairFilterSymbol(f.pair, currentSymbol);
  return positions.filter(
    (p) => (symbol === null || p.pair === symbol) && (f.side === "all" || sideOf(p.amount) === f.side),
  );
}
