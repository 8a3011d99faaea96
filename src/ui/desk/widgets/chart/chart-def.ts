/**
 * The chart's entry for the desk grid. Its default height is the product's chart height (515 px of
 * plot) plus the cell's header and the chart's toolbar, in 24 px grid rows.
 */
import { msg } from "@lingui/core/macro";
import { CHART_HEIGHT } from "../../../../protocol";
import type { WidgetDef } from "../../widget";
import { TOOLBAR_PX } from "./chart.css";
import { ChartWidget } from "./ChartWidget";

const ROW_PX = 24;
/** What the grid cell adds around the widget: the gap between cells, its header, its border. */
const CELL_CHROME_PX = 6 + 26 + 2;

/** Grid rows for a plot of `plotPx` pixels (CHART_HEIGHT → the default size). */
export function chartRowsFor(plotPx: number): number {
  return Math.round((plotPx + TOOLBAR_PX + CELL_CHROME_PX) / ROW_PX);
}

export const chartWidgetDef: WidgetDef = {
  type: "chart",
  title: msg`Chart`,
  component: ChartWidget,
  defaultSize: { w: 14, h: chartRowsFor(CHART_HEIGHT) },
  minSize: { w: 6, h: 10 },
};
