/**
 * Grouped funding book (docs/product-rules.md#order-book): `gbids`/`gasks` aggregate the (rate, period) levels of a
 * side by rate, summing count and amount and keeping the period range. Levels are sorted by rate
 * then period, so each rate's levels are adjacent and one pass suffices.
 */
import type { BookSide } from "./side";

/** Fields per group: [rate, count, amount (signed, summed), minPeriod, maxPeriod]. */
export const FUNDING_GROUP_STRIDE = 5;

export function groupFundingByRate(side: BookSide, maxGroups = Number.POSITIVE_INFINITY): Float64Array {
  const n = side.size;
  const tmp = new Float64Array(Math.min(n, maxGroups) * FUNDING_GROUP_STRIDE);
  let g = -1;
  let lastRate = Number.NaN;
  for (let i = 0; i < n; i++) {
    const rate = side.k1[i] as number;
    const period = side.k2[i] as number;
    if (rate !== lastRate) {
      if (g + 1 >= maxGroups) break;
      g++;
      lastRate = rate;
      const o = g * FUNDING_GROUP_STRIDE;
      tmp[o] = rate;
      tmp[o + 1] = 0;
      tmp[o + 2] = 0;
      tmp[o + 3] = period;
      tmp[o + 4] = period;
    }
    const o = g * FUNDING_GROUP_STRIDE;
    tmp[o + 1] = (tmp[o + 1] as number) + (side.aux[i] as number);
    tmp[o + 2] = (tmp[o + 2] as number) + (side.amount[i] as number);
    if (period < (tmp[o + 3] as number)) tmp[o + 3] = period;
    if (period > (tmp[o + 4] as number)) tmp[o + 4] = period;
  }
  return tmp.slice(0, (g + 1) * FUNDING_GROUP_STRIDE);
}
