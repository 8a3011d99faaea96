/**
 * The account tables' widget definitions for the desk grid (sizes in grid units: 24 columns, rows of
 * 24 px).
 */
import { msg } from "@lingui/core/macro";
import type { WidgetDef } from "../../widget";
import { BalancesWidget } from "./BalancesWidget";
import { OrdersWidget } from "./OrdersWidget";
import { OwnTradesWidget } from "./OwnTradesWidget";
import { PositionsWidget } from "./PositionsWidget";

export const ordersWidgetDef: WidgetDef = {
  type: "orders",
  title: msg`Orders`,
  component: OrdersWidget,
  defaultSize: { w: 16, h: 12 },
  // Below ~530 px the tab bar, filters and cancel-all controls take three lines.
  minSize: { w: 10, h: 8 },
};

export const ownTradesWidgetDef: WidgetDef = {
  type: "own-trades",
  title: msg`My trades`,
  component: OwnTradesWidget,
  defaultSize: { w: 12, h: 10 },
  minSize: { w: 6, h: 5 },
};

export const positionsWidgetDef: WidgetDef = {
  type: "positions",
  title: msg`Positions`,
  component: PositionsWidget,
  defaultSize: { w: 12, h: 8 },
  minSize: { w: 6, h: 5 },
  // Margin and derivative positions: every variant without margin has no derivatives either.
  feature: "margin",
};

export const balancesWidgetDef: WidgetDef = {
  type: "balances",
  title: msg`Balances`,
  component: BalancesWidget,
  defaultSize: { w: 8, h: 10 },
  minSize: { w: 5, h: 5 },
};

export const ACCOUNT_TABLE_WIDGETS: readonly WidgetDef[] = [
  ordersWidgetDef,
  ownTradesWidgetDef,
  positionsWidgetDef,
  balancesWidgetDef,
];
