/**
 * The funding desk's widget types and its default layout: the market's widgets (chart, book,
 * trades) and the account's (`FUNDING_ACCOUNT_WIDGETS`: the offer form, offers, credits, loans…).
 * Their types are the funding desk's own, so a stored funding layout never names a trading widget.
 */
import { GRID_CONFIG_VERSION, widgetKey } from "../../protocol";
import { addItem, compact, type GridItem, type GridLayout } from "../desk/grid/layout";
import { createLayoutStore, DEFAULT_LAYOUT_ID } from "../desk/grid/layouts";
import type { WidgetDef } from "../desk/widget";
import { FUNDING_ACCOUNT_WIDGETS } from "./account";
import { fundingBookWidget } from "./widgets/book/FundingBook";
import { fundingChartWidget } from "./widgets/chart/FundingChart";
import { fundingTradesWidget } from "./widgets/trades/FundingTrades";

export const FUNDING_MARKET_WIDGETS: readonly WidgetDef[] = [
  fundingChartWidget,
  fundingBookWidget,
  fundingTradesWidget,
];

export const FUNDING_WIDGETS: readonly WidgetDef[] = [...FUNDING_MARKET_WIDGETS, ...FUNDING_ACCOUNT_WIDGETS];

export const FUNDING_WIDGETS_BY_TYPE: ReadonlyMap<string, WidgetDef> = new Map(FUNDING_WIDGETS.map((w) => [w.type, w]));

/** The funding desk's layouts, apart from the trading desk's (own storage key and exchange setting). */
export const fundingLayouts = createLayoutStore("funding-desk-layouts", "funding_desk_layouts");

/** Where the form that places offers goes: the column the order form has on the trading desk. */
export const OFFER_FORM_TYPE = "funding-offer-form";

type Placement = Omit<GridItem, "key"> & { readonly type: string };

/**
 * The default arrangement on 24 columns, as the trading desk's: the offer form on the left with the
 * auto-renew setting under it, the chart in the middle with the account's offers, credits and loans
 * under it, the book and the tape on the right, the earnings below. Without an offer form the chart
 * takes the left column too. Widgets without a place here follow under the rest.
 */
export function fundingPlacement(types: ReadonlySet<string>): Placement[] {
  const form = types.has(OFFER_FORM_TYPE);
  const left = form ? 6 : 0;
  const placed: Placement[] = [
    { type: OFFER_FORM_TYPE, x: 0, y: 0, w: 6, h: 24 },
    { type: "funding-auto-renew", x: 0, y: 24, w: 6, h: 14 },
    { type: fundingChartWidget.type, x: left, y: 0, w: 17 - left, h: 23 },
    { type: "funding-records", x: left, y: 23, w: 17 - left, h: 15 },
    { type: fundingBookWidget.type, x: 17, y: 0, w: 7, h: 23 },
    { type: fundingTradesWidget.type, x: 17, y: 23, w: 7, h: 15 },
    { type: "funding-summary", x: 0, y: 38, w: 12, h: 10 },
  ];
  return placed.filter((p) => types.has(p.type));
}

export function defaultFundingLayout(name: string, widgets: readonly WidgetDef[] = FUNDING_WIDGETS): GridLayout {
  const types = new Set(widgets.map((w) => w.type));
  let items: GridItem[] = fundingPlacement(types).map(({ type, ...place }) => ({
    key: widgetKey(type, "main"),
    ...place,
  }));
  for (const w of widgets) {
    if (items.some((i) => i.key === widgetKey(w.type, "main"))) continue;
    items = addItem(items, w.type, w, "main");
  }
  return { id: DEFAULT_LAYOUT_ID, name, version: GRID_CONFIG_VERSION, items: compact(items) };
}

fundingLayouts.configureLayouts(FUNDING_WIDGETS_BY_TYPE, () => defaultFundingLayout(""));
