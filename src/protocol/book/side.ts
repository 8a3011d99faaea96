/**
 * One side of an order book: levels kept sorted best-first in parallel typed arrays, found by binary
 * search, inserted and removed with copyWithin. No objects per level and no allocation per update
 * (HOUSE-STYLE 10); capacity doubles in the rare case a side outgrows its subscribed length.
 *
 * Keys: k1 is the price (or rate), ordered by `dir` (+1 ascending for asks, -1 descending for bids);
 * k2 breaks ties ascending (0 for aggregated price books, the period for funding books, the order or
 * offer id for raw books). `aux` is the count (aggregated books) or the period (raw funding books);
 * `amount` keeps the signed wire amount, as the checksum needs it.
 *
 * Indexing note: typed-array reads inside the bounds maintained by `size` are never undefined, so the
 * hot loops use non-null assertions instead of checks (HOUSE-STYLE 14).
 */
/** Levels per side whose checksum text is cached: the checksum's depth (PROTOCOL.md 3). */
export const TOKEN_CACHE = 25;

export class BookSide {
  readonly dir: 1 | -1;
  k1: Float64Array;
  k2: Float64Array;
  aux: Float64Array;
  amount: Float64Array;
  /**
   * Cached checksum text ("first:amount") of the best TOKEN_CACHE levels, undefined until asked for.
   * Only the top 25 take part in the checksum, so only they are cached; deeper levels cost nothing
   * here. (A cache as long as the side, shifted with Array#copyWithin, cost 1.5 µs per update: V8
   * has no fast path for copyWithin on plain arrays.)
   */
  readonly tok: (string | undefined)[] = new Array<string | undefined>(TOKEN_CACHE).fill(undefined);
  size = 0;

  constructor(dir: 1 | -1, capacity = 32) {
    this.dir = dir;
    this.k1 = new Float64Array(capacity);
    this.k2 = new Float64Array(capacity);
    this.aux = new Float64Array(capacity);
    this.amount = new Float64Array(capacity);
  }

  /** Index of (x1, x2), or `~insertionPoint` (negative) when absent. */
  find(x1: number, x2: number): number {
    const k1 = this.k1;
    const k2 = this.k2;
    const dir = this.dir;
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      let d = (k1[mid]! - x1) * dir;
      if (d === 0) d = k2[mid]! - x2;
      if (d < 0) lo = mid + 1;
      else if (d > 0) hi = mid - 1;
      else return mid;
    }
    return ~lo;
  }

  /** Adds or replaces the level at (x1, x2). */
  upsert(x1: number, x2: number, aux: number, amount: number): void {
    let i = this.find(x1, x2);
    if (i < 0) {
      i = ~i;
      if (this.size === this.k1.length) this.#grow();
      const n = this.size;
      if (i < n) {
        this.k1.copyWithin(i + 1, i, n);
        this.k2.copyWithin(i + 1, i, n);
        this.aux.copyWithin(i + 1, i, n);
        this.amount.copyWithin(i + 1, i, n);
        this.#shiftTokensRight(i);
      }
      this.k1[i] = x1;
      this.k2[i] = x2;
      this.size = n + 1;
    } else if (this.amount[i] === amount && this.aux[i] === aux) {
      return; // unchanged: keep the cached token
    }
    this.aux[i] = aux;
    this.amount[i] = amount;
    if (i < TOKEN_CACHE) this.tok[i] = undefined;
  }

  /** Removes the level at (x1, x2); false when there was none. */
  remove(x1: number, x2: number): boolean {
    const i = this.find(x1, x2);
    if (i < 0) return false;
    this.removeAt(i);
    return true;
  }

  removeAt(i: number): void {
    const n = this.size;
    if (i < n - 1) {
      this.k1.copyWithin(i, i + 1, n);
      this.k2.copyWithin(i, i + 1, n);
      this.aux.copyWithin(i, i + 1, n);
      this.amount.copyWithin(i, i + 1, n);
    }
    this.#shiftTokensLeft(i);
    this.size = n - 1;
  }

  #shiftTokensRight(i: number): void {
    const tok = this.tok;
    for (let j = TOKEN_CACHE - 1; j > i; j--) tok[j] = tok[j - 1];
    if (i < TOKEN_CACHE) tok[i] = undefined;
  }

  #shiftTokensLeft(i: number): void {
    if (i >= TOKEN_CACHE) return;
    const tok = this.tok;
    for (let j = i; j < TOKEN_CACHE - 1; j++) tok[j] = tok[j + 1];
    // The level that moved up into the last cached slot has no cached text yet.
    tok[TOKEN_CACHE - 1] = undefined;
  }

  clear(): void {
    this.size = 0;
    this.tok.fill(undefined);
  }

  /** Drops levels beyond `len` (the worst ones). */
  truncate(len: number): void {
    if (this.size <= len) return;
    if (len < TOKEN_CACHE) this.tok.fill(undefined, len);
    this.size = len;
  }

  #grow(): void {
    const cap = this.k1.length * 2;
    const grow = (a: Float64Array): Float64Array => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    this.k1 = grow(this.k1);
    this.k2 = grow(this.k2);
    this.aux = grow(this.aux);
    this.amount = grow(this.amount);
  }

  /** Bytes held by this side's arrays (for the memory budget). */
  get retainedBytes(): number {
    return this.k1.byteLength * 4 + TOKEN_CACHE * 8;
  }
}
