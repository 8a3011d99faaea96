/**
 * The desk's widget types and its default layout. A stored layout naming a type that is not here
 * loses that widget (parseLayout), so removing a type is safe; renaming one is not.
 */
import { GRID_CONFIG_VERSION, isFeatureEnabled, variantConfig, widgetKey, type VariantConfig } from "../../protocol";
import type { GridItem, GridLayout } from "./grid/layout";
import { DEFAULT_LAYOUT_ID } from "./grid/layouts";
import type { WidgetDef } from "./widget";
import { orderBookWidget } from "./widgets/book";
import { chartWidgetDef } from "./widgets/chart";
import { depthChartWidget } from "./widgets/depth";
import { derivStatusWidget } from "./widgets/deriv-status";
import { leaderboardWidget } from "./widgets/leaderboard";
import { liquidationsWidget } from "./widgets/liquidations";
import { marginWidgetDef } from "./widgets/margin";
import { MARKETS_WIDGET } from "./widgets/markets/MarketsWidget";
import { orderFormWidget } from "./widgets/order-form";
import { ACCOUNT_TABLE_WIDGETS } from "./widgets/tables";
import { tradesTapeWidget } from "./widgets/trades";

export const WIDGETS: readonly WidgetDef[] = [
  MARKETS_WIDGET,
  orderBookWidget,
  tradesTapeWidget,
  chartWidgetDef,
  depthChartWidget,
  orderFormWidget,
  ...ACCOUNT_TABLE_WIDGETS,
  derivStatusWidget,
  marginWidgetDef,
  liquidationsWidget,
  leaderboardWidget,
];

export const WIDGETS_BY_TYPE: ReadonlyMap<string, WidgetDef> = new Map(WIDGETS.map((w) => [w.type, w]));

/**
 * The default arrangement on 24 columns: markets and the order form on the left, the chart with the
 * account tables under it in the middle, the book and the tape on the right, where a trader's eye
 * goes from the chart to the book to the form without crossing the screen.
 */
const DEFAULT_PLACEMENT: readonly (Omit<GridItem, "key"> & { readonly type: string })[] = [
  { type: "markets", x: 0, y: 0, w: 6, h: 16 },
  { type: "order-form", x: 0, y: 16, w: 6, h: 22 },
  { type: "chart", x: 6, y: 0, w: 11, h: 23 },
  { type: "orders", x: 6, y: 23, w: 11, h: 15 },
  { type: "book", x: 17, y: 0, w: 7, h: 23 },
  { type: "trades", x: 17, y: 23, w: 7, h: 15 },
  { type: "balances", x: 0, y: 38, w: 8, h: 12 },
  { type: "depth", x: 8, y: 38, w: 9, h: 12 },
  { type: "own-trades", x: 17, y: 38, w: 7, h: 12 },
  { type: "positions", x: 0, y: 50, w: 12, h: 10 },
  { type: "deriv-status", x: 12, y: 50, w: 12, h: 10 },
  { type: "margin", x: 0, y: 60, w: 8, h: 10 },
  { type: "liquidations", x: 8, y: 60, w: 9, h: 12 },
  { type: "leaderboard", x: 17, y: 60, w: 7, h: 12 },
];

/** The widget types a platform variant offers: those of a feature it switches off are left out. */
export function offeredWidgets(variant: VariantConfig): ReadonlyMap<string, WidgetDef> {
  return new Map(
    WIDGETS.filter((w) => w.feature === undefined || isFeatureEnabled(variant, w.feature)).map((w) => [w.type, w]),
  );
}

export function defaultLayout(name: string, variant: VariantConfig = variantConfig("default")): GridLayout {
  const offered = offeredWidgets(variant);
  const items = DEFAULT_PLACEMENT.filter((p) => offered.has(p.type)).map(({ type, ...place }): GridItem => ({
    key: widgetKey(type, "main"),
    ...place,
  }));
  return { id: DEFAULT_LAYOUT_ID, name, version: GRID_CONFIG_VERSION, items };
}
