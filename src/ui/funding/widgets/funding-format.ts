/**
 * How the funding desk writes its numbers. A funding rate travels as a daily fraction (0.0002) and
 * is shown as a percentage a day ("0.02000%"), with a fixed number of decimals so a column lines up;
 * a period is in days, a grouped level's periods a range ("2–30").
 */

/** Decimals of a rate shown as a percentage a day: 0.00001% steps, the finest P0 funding level. */
const RATE_PERCENT_DECIMALS = 5;

export function ratePercent(rate: number): string {
  if (!Number.isFinite(rate)) return "—";
  return `${(rate * 100).toFixed(RATE_PERCENT_DECIMALS)}%`;
}

/** A daily rate as a yearly one (simple interest, 365 days), as a percentage: 0.0002 → "7.30%". */
export function yearlyPercent(rate: number): string {
  if (!Number.isFinite(rate)) return "—";
  return `${(rate * 36500).toFixed(2)}%`;
}

/** A period or a range of periods in days: "30", "2–30". */
export function periodLabel(shortest: number, longest: number): string {
  if (!Number.isFinite(shortest) || !Number.isFinite(longest)) return "";
  return shortest === longest ? String(shortest) : `${shortest}–${longest}`;
}
