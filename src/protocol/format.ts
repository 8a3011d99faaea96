/**
 * Number formatting and small validation rules (docs/product-rules.md#numbers-and-formats and
 * #settings-values): percentages with 3 decimals under 1% and 2 otherwise, abbreviations with
 * k/M/B/T/P/E, 5 significant digits by default, a cap of 20 decimal places, book precision P0–P4
 * (anything else is P0), table sorting `column-asc|desc`.
 * Pure functions; the UI adds locale-aware separators on top.
 */
import { BOOK_PRECISIONS, MAX_DECIMAL_PLACES, PRICE_SIGNIFICANT_DIGITS, type BookPrecision } from "./constants";

/** A fraction (0.0123 = 1.23%) as a percent string: 3 decimals under 1% (in magnitude), else 2. */
export function formatPercent(fraction: number): string {
  const pct = fraction * 100;
  const decimals = Math.abs(pct) < 1 ? 3 : 2;
  return `${pct.toFixed(decimals)}%`;
}

const SUFFIXES = ["", "k", "M", "B", "T", "P", "E"] as const;

/** Abbreviates with k, M, B, T, P, E: 1234 → "1.23k", 5e9 → "5B". */
export function abbreviate(value: number, significant = 3): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  let tier = abs < 1000 ? 0 : Math.min(SUFFIXES.length - 1, Math.floor(Math.log10(abs) / 3));
  let scaled = value / 1000 ** tier;
  // Rounding can carry into the next tier (999 999 → "1000k"): move up instead.
  if (Math.abs(Number(scaled.toPrecision(significant))) >= 1000 && tier < SUFFIXES.length - 1) {
    tier++;
    scaled = value / 1000 ** tier;
  }
  return `${Number(scaled.toPrecision(significant))}${SUFFIXES[tier]}`;
}

/** Rounds to `digits` significant digits (default 5, docs/product-rules.md#constants), never in exponent form. */
export function toSignificant(value: number, digits = PRICE_SIGNIFICANT_DIGITS): string {
  if (!Number.isFinite(value) || value === 0) return value === 0 ? "0" : String(value);
  const rounded = Number(value.toPrecision(digits));
  const magnitude = Math.floor(Math.log10(Math.abs(rounded)));
  const decimals = Math.min(MAX_DECIMAL_PLACES, Math.max(0, digits - 1 - magnitude));
  return rounded.toFixed(decimals);
}

/** Fixed decimals with the 20-place cap (toFixed throws above 100; the product caps at 20). */
export function toFixedCapped(value: number, decimals: number): string {
  return value.toFixed(Math.max(0, Math.min(MAX_DECIMAL_PLACES, Math.floor(decimals))));
}

/** Book precision must be one of P0–P4, otherwise P0 (docs/product-rules.md#settings-values). */
export function validBookPrecision(value: unknown): BookPrecision {
  return typeof value === "string" && (BOOK_PRECISIONS as readonly string[]).includes(value)
    ? (value as BookPrecision)
    : "P0";
}

export interface TableSorting {
  readonly column: string;
  readonly direction: "asc" | "desc";
}

/** Table sorting is accepted only as column-asc or column-desc (docs/product-rules.md#settings-values). */
export function parseTableSorting(value: unknown): TableSorting | null {
  if (typeof value !== "string") return null;
  const m = /^([A-Za-z0-9_]+)-(asc|desc)$/.exec(value);
  return m ? { column: m[1] as string, direction: m[2] as "asc" | "desc" } : null;
}

/**
 * A number field is valid if empty (when empty is allowed) or a positive number
 * (docs/product-rules.md#numbers-and-formats: the product's "positive non-integer-only" is
 * ambiguous; we accept any positive finite decimal).
 */
export function validPositiveNumber(text: string, allowEmpty: boolean): boolean {
  const t = text.trim();
  if (t === "") return allowEmpty;
  if (!/^\d*\.?\d+(e[+-]?\d+)?$|^\d+\.$/i.test(t)) return false;
  const v = Number(t);
  return Number.isFinite(v) && v > 0;
}
