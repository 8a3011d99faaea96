/**
 * Number formats of the live public pages, in the visitor's language (Intl, cached per locale and
 * kind: a table re-renders on every poll and must not build formatters each time).
 */
import type { Locale } from "../../protocol";
import { intlTag } from "../i18n";

const cache = new Map<string, Intl.NumberFormat>();

function fmt(locale: string, kind: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${kind}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlTag(locale as Locale), options);
    cache.set(key, f);
  }
  return f;
}

/** A fee or rate as a percentage: 0.001 → "0.1%", with up to three decimals. */
export function percent(locale: string, fraction: number): string {
  return fmt(locale, "pct", { style: "percent", maximumFractionDigits: 3 }).format(fraction);
}

/** A signed daily change: 0.0123 → "+1.23%". */
export function change(locale: string, fraction: number): string {
  return fmt(locale, "chg", {
    style: "percent",
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: "exceptZero",
  }).format(fraction);
}

/** A price with five significant figures, as the desk shows prices. */
export function price(locale: string, value: number): string {
  return fmt(locale, "price", { maximumSignificantDigits: 5 }).format(value);
}

/** A currency amount as configured (fees, minimums): every decimal it has, up to eight. */
export function amount(locale: string, value: number): string {
  return fmt(locale, "amt", { maximumFractionDigits: 8 }).format(value);
}

/** A whole count. */
export function count(locale: string, value: number): string {
  return fmt(locale, "int", { maximumFractionDigits: 0 }).format(value);
}

/** A large USD figure, compact ("$152M", "1.5亿美元"). */
export function usdCompact(locale: string, value: number): string {
  return fmt(locale, "usd", {
    style: "currency",
    currency: "USD",
    notation: "compact",
    maximumFractionDigits: 1,
  }).format(value);
}

/** A volume, compact ("1.2K"). */
export function compact(locale: string, value: number): string {
  return fmt(locale, "cmp", { notation: "compact", maximumFractionDigits: 2 }).format(value);
}
