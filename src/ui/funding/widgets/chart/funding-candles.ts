/**
 * The funding chart's candle series (docs/protocol.md#candles): a currency's candles are per
 * period, `fUSD:p30` for offers of 30 days, or aggregated over a range of periods,
 * `fUSD:a30:p2:p30` (the product's default range, the `funding_chart_period` setting [2, 30]).
 */

/** The periods and ranges the chart offers, [shortest, longest] in days; the first is the default. */
export const FUNDING_CHART_PERIODS: readonly (readonly [number, number])[] = [
  [2, 30],
  [2, 120],
  [2, 2],
  [7, 7],
  [14, 14],
  [30, 30],
  [60, 60],
  [90, 90],
  [120, 120],
];

/** The candle key's market part for a funding symbol and a period range. */
export function fundingSeries(symbol: string, [shortest, longest]: readonly [number, number]): string {
  return shortest === longest ? `${symbol}:p${shortest}` : `${symbol}:a30:p${shortest}:p${longest}`;
}

/** The option value of a range (`2-30`) and back; null for a value the chart does not offer. */
export function periodValue([shortest, longest]: readonly [number, number]): string {
  return `${shortest}-${longest}`;
}

export function periodFromValue(value: string): readonly [number, number] | null {
  return FUNDING_CHART_PERIODS.find((p) => periodValue(p) === value) ?? null;
}
