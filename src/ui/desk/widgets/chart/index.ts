/** The candles chart widget (issue 5): component, grid entry, injectable data source. */
export { chartWidgetDef } from "./chart-def";
