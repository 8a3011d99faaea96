/** The desk's account tables: orders (open and history), own trades, positions and balances. */
export { ACCOUNT_TABLE_WIDGETS } from "./defs";
export { BalancesWidget } from "./BalancesWidget";
export { OrdersWidget } from "./OrdersWidget";
export { OwnTradesWidget } from "./OwnTradesWidget";
export { PositionsWidget } from "./PositionsWidget";
