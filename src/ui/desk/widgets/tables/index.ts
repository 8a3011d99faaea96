/** The desk's account tables: orders (open and history), own trades, positions and balances. */
export {
  ACCOUNT_TABLE_WIDGETS,
  balancesWidgetDef,
  ordersWidgetDef,
  ownTradesWidgetDef,
  positionsWidgetDef,
} from "./defs";
export { BalancesWidget } from "./BalancesWidget";
export { OrdersWidget } from "./OrdersWidget";
export { OwnTradesWidget } from "./OwnTradesWidget";
export { PositionsWidget } from "./PositionsWidget";
export { TablesServicesContext, type TablesServices } from "./services";
export { TABLE_IDS, type TableId } from "./columns";
