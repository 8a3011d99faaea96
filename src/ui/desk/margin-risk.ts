/**
 * How close a margin position is to liquidation (docs/product-rules.md#liquidation-warning): the
 * positions table flags the row and the chart colours its liquidation line once the price would
 * need to move by LIQUIDATION_WARNING_DISTANCE or less to reach the liquidation price.
 */
import type { Position } from "../../protocol";

/** 5 %: the exchange's maintenance margin — a fully leveraged (10×) position opens about 5.3 % away. */
const LIQUIDATION_WARNING_DISTANCE = 0.05;

/**
 * The price the exchange marks the position at: its P/L is `amount × (mark − base price)`, so the
 * mark follows from the record itself, with no second feed that could disagree with it.
 */
export function positionMark(p: Position): number | null {
  if (p.pl === null || p.amount === 0 || !Number.isFinite(p.basePrice)) return null;
  return p.basePrice + p.pl / p.amount;
}

/** The liquidation price, or null when the position has none (0: no price liquidates it). */
export function liquidationPrice(p: Position): number | null {
  return p.liqPrice !== null && p.liqPrice > 0 ? p.liqPrice : null;
}

/**
 * How far the mark is from the liquidation price, as a fraction of the mark (0.03: a 3 % move
 * liquidates); 0 once the mark is at or past it; null without a mark or a liquidation price.
 */
export function liquidationDistance(p: Position, mark: number | null = positionMark(p)): number | null {
  const liq = liquidationPrice(p);
  if (liq === null || mark === null || !(mark > 0)) return null;
  // A long is liquidated below, a short above.
  const gap = p.amount > 0 ? mark - liq : liq - mark;
  return Math.max(0, gap / mark);
}

export function nearLiquidation(p: Position, mark: number | null = positionMark(p)): boolean {
  const d = liquidationDistance(p, mark);
  return d !== null && d <= LIQUIDATION_WARNING_DISTANCE;
}
