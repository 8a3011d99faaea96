/** The candles chart widget (issue 5): component, grid entry, injectable data source. */
export { ChartWidget, type ChartWidgetProps } from "./ChartWidget";
export { chartWidgetDef, chartPlotPxFor, chartRowsFor } from "./chart-def";
export { ChartSourceContext, fetchCandleHistory, marketChartSource, type ChartSource } from "./chart-source";
export type { CandleChart, ChartOverlay, LiquidationMarker, PriceLine, PriceLineKind } from "./candle-chart";
export { candleKey, historyPath, TIMEFRAME_MS } from "./candles-data";
export { forgetWidgetTimeframe, timeframeStorageKey } from "./widget-timeframe";
