/**
 * Number rules of the book, the depth chart and the trades tape: level prices at a book precision,
 * price/amount labels (plain or compact), the strings handed to the order form, and the bounded
 * caches that keep label formatting off the per-view path. Pure; tested in Node.
 */
import { abbreviate, BOOK_PRECISIONS, toFixedCapped, toSignificant, type BookPrecision } from "../../../../protocol";

/** Significant digits of a price level at P0–P4 (P0: 5 … P4: 1), as the exchange aggregates. */
export function precisionDigits(prec: number): number {
  return 5 - Math.max(0, Math.min(4, Math.trunc(prec)));
}

/**
 * The `book_precision` setting (0–4) as the wire precision; anything else is P0
 * (docs/product-rules.md#settings-values).
 */
export function bookPrecision(setting: number): BookPrecision {
  return BOOK_PRECISIONS[setting] ?? "P0";
}

/**
 * The level an order at `price` rests in at `digits` significant digits: bids round down, asks up,
 * exactly as the exchange groups them, so an own order marks the level it is counted in.
 */
export function levelPrice(price: number, digits: number, bid: boolean): number {
  if (!(price > 0)) return price;
  const magnitude = Math.floor(Math.log10(price));
  const step = 10 ** (magnitude - digits + 1);
  const q = price / step;
  // A hair of tolerance so 30000 / 1 does not become 29999.999… and fall one level off.
  const n = bid ? Math.floor(q + 1e-9) : Math.ceil(q - 1e-9);
  return normalizePrice(n * step, digits);
}

/** A level price from the feed, normalized the same way as levelPrice() for Set lookups. */
export function normalizePrice(price: number, digits: number): number {
  return Number(price.toPrecision(digits + 2));
}

/**
 * A number as the order form's text field wants it: no exponent, no binary noise
 * (0.1 + 0.2 → "0.3"), at most 8 decimals (the exchange's amount resolution).
 */
export function formValue(value: number): string {
  if (!Number.isFinite(value)) return "";
  const fixed = toFixedCapped(Math.abs(value) < 1e-8 ? 0 : value, 8);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** A price label at the book's significant digits (P0 BTC: "50012", ETHBTC: "0.034567"). */
export function priceLabel(price: number, digits: number): string {
  return toSignificant(price, digits);
}

/**
 * An amount label with fixed decimals so the digits of a column line up: 4 decimals below 1000
 * (3 significant digits below 0.0001, so dust is not "0.0000"). From 1000 up: 2 decimals, or in
 * compact notation 4 significant digits with k/M/B… ("12.35k").
 */
export function amountLabel(amount: number, compact: boolean): string {
  const a = Math.abs(amount);
  if (a === 0) return "0";
  if (a < 0.0001) return toSignificant(a, 3);
  if (a < 1000) return toFixedCapped(a, 4);
  return compact ? abbreviate(a, 4) : toFixedCapped(a, 2);
}

/**
 * A size-bounded memo for labels. Eviction drops the oldest entry (Map keeps insertion order), which is
 * O(1) and good enough for labels: the prices near the spread are re-inserted as soon as they are
 * needed again.
 */
export class BoundedCache<K, V> {
  readonly #max: number;
  readonly #map = new Map<K, V>();

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  get size(): number {
    return this.#map.size;
  }

  get(key: K, make: (key: K) => V): V {
    const hit = this.#map.get(key);
    if (hit !== undefined) return hit;
    const value = make(key);
    if (this.#map.size >= this.#max) {
      const oldest = this.#map.keys().next();
      if (!oldest.done) this.#map.delete(oldest.value);
    }
    this.#map.set(key, value);
    return value;
  }

  clear(): void {
    this.#map.clear();
  }
}

/** Label caches for one widget: prices at the current digits, amounts in the current notation. */
export class LabelCache {
  #digits = 5;
  #compact = false;
  readonly #prices = new BoundedCache<number, string>(2048);
  readonly #amounts = new BoundedCache<number, string>(4096);

  configure(digits: number, compact: boolean): void {
    if (digits !== this.#digits) this.#prices.clear();
    if (compact !== this.#compact) this.#amounts.clear();
    this.#digits = digits;
    this.#compact = compact;
  }

  price(value: number): string {
    return this.#prices.get(value, (v) => priceLabel(v, this.#digits));
  }

  amount(value: number): string {
    return this.#amounts.get(value, (v) => amountLabel(v, this.#compact));
  }
}

/** Depth tiers a book widget asks the worker for (levels per side), and the matching book length. */
export const DEPTH_TIERS = [25, 100, 250] as const;
export type DepthTier = (typeof DEPTH_TIERS)[number];

/** The worker's synthetic stress book (developer flag) exists only as a 250-level book. */
export const STRESS_BOOK_SYMBOL = "tSTRESS";

/** The subscription length for a depth: 25 and 100 share the default 100-level channel. */
export function lengthForDepth(depth: DepthTier, symbol = ""): 100 | 250 {
  return depth > 100 || symbol === STRESS_BOOK_SYMBOL ? 250 : 100;
}

/** Rows of margin kept below the deepest visible level before the next tier is asked for. */
export const TIER_MARGIN = 12;

/** The smallest tier that shows `deepest` (0-based deepest visible level) with the margin. */
export function tierFor(deepest: number): DepthTier {
  for (const tier of DEPTH_TIERS) if (deepest + TIER_MARGIN < tier) return tier;
  return 250;
}
