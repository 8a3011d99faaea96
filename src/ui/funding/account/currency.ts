import type { WidgetProps } from "../../desk/widget";

/**
 * The funding currency a widget shows: the desk hands a funding widget `fUSD` as its symbol (and
 * `USD` as its pair); a bare currency is taken as it is.
 */
export function currencyOf(props: Pick<WidgetProps, "symbol" | "pair">): string {
  if (/^f[A-Z0-9]+$/.test(props.symbol)) return props.symbol.slice(1);
  return props.pair;
}
