/**
 * One side of an order book: levels kept sorted best-first in parallel typed arrays, found by binary
 * search, inserted and removed with copyWithin. No objects per level and no allocation per update
 * (HOUSE-STYLE 10); capacity doubles in the rare case a side outgrows its subscribed length.
 *
 * Keys: k1 is the price (or rate), ordered by `dir` (+1 ascending for asks, -1 descending for bids);
 * k2 breaks ties ascending (0 for aggregated price books, the period for funding books, the order or
 * offer id for raw books). A side built with `keyed` false (aggregated price books) never stores a
 * k2 other than 0, so its k2 column is all zeros and is never shifted. `aux` is the count (aggregated books) or the period (raw funding books);
 * `amount` keeps the signed wire amount, as the checksum needs it.
 *
 * Indexing note: typed-array reads inside the bounds maintained by `size` are never undefined, so the
 * hot loops use non-null assertions instead of checks (HOUSE-STYLE 14).
 */
import { crcUpdateBytes } from "../crc32";

/** Levels per side whose checksum text is cached: the checksum's depth (PROTOCOL.md 3). */
export const TOKEN_CACHE = 25;
/** Bytes per cached token: "price:amount" in wire text fits comfortably (longest seen ~40). */
export const TOKEN_SLOT = 48;
/**
 * Shifts of up to this many levels run as one plain loop over the columns; longer ones use
 * copyWithin. Measured (Node 20, this machine): copyWithin costs ~20 ns per call whatever the
 * length, a loop ~1 ns per element and column, so below ~24 levels the loop wins, and a shift
 * touches three or four columns.
 */
const LOOP_SHIFT = 24;

export class BookSide {
  readonly dir: 1 | -1;
  /** Whether k2 carries a key (false: always 0, and left out of inserts and removals). */
  readonly keyed: boolean;
  k1: Float64Array;
  k2: Float64Array;
  aux: Float64Array;
  amount: Float64Array;
  /**
   * Checksum text ("first:amount") of the best TOKEN_CACHE levels as bytes, one TOKEN_SLOT-byte slot
   * per level; `tokLen` 0 means "not known yet" (built from the numbers when the checksum needs it).
   * Only the top 25 take part in the checksum, so deeper levels cost nothing here. Bytes rather than
   * strings: the fast path copies the wire text straight in, and the CRC walks a typed array.
   *
   * The token arrays are indexed by slot, and `tokSlot[i]` is the slot of level i: an insert or a
   * removal in the top 25 moves 25 slot numbers instead of 1.2 KB of text and three more arrays
   * (measured: the four copyWithin calls were ~20% of an insert at 25 levels; bench/README.md).
   */
  readonly tokBytes = new Uint8Array(TOKEN_CACHE * TOKEN_SLOT);
  readonly tokLen = new Uint8Array(TOKEN_CACHE);
  /** F(0, token): each cached token's CRC from a zero register (see crcShift in crc32.ts). */
  readonly tokCrc = new Int32Array(TOKEN_CACHE);
  /**
   * Whether tokCrc[slot] is computed. The CRC of a token is taken only when a checksum needs it: a
   * top level often changes several times between two `cs` frames, and only its last text is hashed.
   */
  readonly tokCrcOk = new Uint8Array(TOKEN_CACHE);
  /** Level index → token slot, for the best TOKEN_CACHE levels (a permutation of 0…24). */
  readonly tokSlot = Uint8Array.from({ length: TOKEN_CACHE }, (_, i) => i);
  /** The best index changed since the last checksum (TOKEN_CACHE when none): the CRC resumes there. */
  dirtyFrom = 0;
  size = 0;

  constructor(dir: 1 | -1, capacity = 32, keyed = true) {
    this.dir = dir;
    this.keyed = keyed;
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

  /** Adds or replaces the level at (x1, x2); returns its index, or -1 when nothing changed. */
  upsert(x1: number, x2: number, aux: number, amount: number): number {
    let i = this.find(x1, x2);
    if (i < 0) {
      i = ~i;
      if (this.size === this.k1.length) this.#grow();
      const n = this.size;
      if (i < n) {
        this.#openGap(i, n);
        this.#shiftTokensRight(i);
      }
      this.k1[i] = x1;
      if (this.keyed) this.k2[i] = x2;
      this.size = n + 1;
    } else if (this.amount[i] === amount && this.aux[i] === aux) {
      return -1; // unchanged: keep the cached token
    }
    this.aux[i] = aux;
    this.amount[i] = amount;
    if (i < TOKEN_CACHE) {
      this.tokLen[this.tokSlot[i]!] = 0;
      if (i < this.dirtyFrom) this.dirtyFrom = i;
    }
    return i;
  }

  /**
   * Snapshot path: levels arrive best-first, so a level worse than the current last is appended
   * without a search; anything out of order falls back to upsert.
   */
  appendOrUpsert(x1: number, x2: number, aux: number, amount: number): number {
    const n = this.size;
    if (n > 0) {
      let d = (this.k1[n - 1]! - x1) * this.dir;
      if (d === 0) d = this.k2[n - 1]! - x2;
      if (d >= 0) return this.upsert(x1, x2, aux, amount);
    }
    if (n === this.k1.length) this.#grow();
    this.k1[n] = x1;
    if (this.keyed) this.k2[n] = x2;
    this.aux[n] = aux;
    this.amount[n] = amount;
    this.size = n + 1;
    if (n < TOKEN_CACHE) {
      this.tokLen[this.tokSlot[n]!] = 0;
      if (n < this.dirtyFrom) this.dirtyFrom = n;
    }
    return n;
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
    if (i < n - 1) this.#closeGap(i, n);
    this.#shiftTokensLeft(i);
    this.size = n - 1;
  }

  /** Moves levels [i, n) one place down, leaving room at i. */
  #openGap(i: number, n: number): void {
    const k1 = this.k1;
    const aux = this.aux;
    const amount = this.amount;
    if (n - i <= LOOP_SHIFT) {
      for (let k = n; k > i; k--) {
        k1[k] = k1[k - 1]!;
        aux[k] = aux[k - 1]!;
        amount[k] = amount[k - 1]!;
      }
      if (this.keyed) {
        const k2 = this.k2;
        for (let k = n; k > i; k--) k2[k] = k2[k - 1]!;
      }
      return;
    }
    k1.copyWithin(i + 1, i, n);
    if (this.keyed) this.k2.copyWithin(i + 1, i, n);
    aux.copyWithin(i + 1, i, n);
    amount.copyWithin(i + 1, i, n);
  }

  /** Moves levels [i + 1, n) one place up over level i. */
  #closeGap(i: number, n: number): void {
    const k1 = this.k1;
    const aux = this.aux;
    const amount = this.amount;
    if (n - i <= LOOP_SHIFT) {
      for (let k = i + 1; k < n; k++) {
        k1[k - 1] = k1[k]!;
        aux[k - 1] = aux[k]!;
        amount[k - 1] = amount[k]!;
      }
      if (this.keyed) {
        const k2 = this.k2;
        for (let k = i + 1; k < n; k++) k2[k - 1] = k2[k]!;
      }
      return;
    }
    k1.copyWithin(i, i + 1, n);
    if (this.keyed) this.k2.copyWithin(i, i + 1, n);
    aux.copyWithin(i, i + 1, n);
    amount.copyWithin(i, i + 1, n);
  }

  #shiftTokensRight(i: number): void {
    if (i >= TOKEN_CACHE) return;
    // The level pushed out of the top 25 gives its slot to the new level i.
    const slots = this.tokSlot;
    const freed = slots[TOKEN_CACHE - 1]!;
    for (let k = TOKEN_CACHE - 1; k > i; k--) slots[k] = slots[k - 1]!;
    slots[i] = freed;
    this.tokLen[freed] = 0;
    if (i < this.dirtyFrom) this.dirtyFrom = i;
  }

  #shiftTokensLeft(i: number): void {
    if (i >= TOKEN_CACHE) return;
    // The removed level's slot goes to the level that moves up into the last cached place, which
    // has no cached text yet.
    const slots = this.tokSlot;
    const freed = slots[i]!;
    for (let k = i; k < TOKEN_CACHE - 1; k++) slots[k] = slots[k + 1]!;
    slots[TOKEN_CACHE - 1] = freed;
    this.tokLen[freed] = 0;
    if (i < this.dirtyFrom) this.dirtyFrom = i;
  }

  /**
   * Stores the checksum text of level i from the frame text: `first` is s[f0, f1), the amount
   * s[a0, a1). Text longer than a slot is left to the lazy path.
   */
  setTokenFromText(i: number, src: string, f0: number, f1: number, a0: number, a1: number): void {
    if (i >= TOKEN_CACHE) return;
    const len = f1 - f0 + 1 + (a1 - a0);
    if (len > TOKEN_SLOT) return;
    const slot = this.tokSlot[i]!;
    const b = this.tokBytes;
    let o = slot * TOKEN_SLOT;
    for (let k = f0; k < f1; k++) b[o++] = src.charCodeAt(k);
    b[o++] = 58; // ':'
    for (let k = a0; k < a1; k++) b[o++] = src.charCodeAt(k);
    this.tokLen[slot] = len;
    this.tokCrcOk[slot] = 0;
  }

  /** Length of level i's cached checksum text, 0 when not known yet (i < TOKEN_CACHE). */
  tokenLength(i: number): number {
    return this.tokLen[this.tokSlot[i]!]!;
  }

  /** F(0, token) of level i (whose text is cached), computed on first use. */
  tokenCrc(i: number): number {
    const slot = this.tokSlot[i]!;
    if (this.tokCrcOk[slot] === 0) {
      this.tokCrc[slot] = crcUpdateBytes(0, this.tokBytes, slot * TOKEN_SLOT, this.tokLen[slot]!);
      this.tokCrcOk[slot] = 1;
    }
    return this.tokCrc[slot]!;
  }

  /** Builds the checksum text of level i from its numbers (String(number) is the wire text). */
  buildToken(i: number, first: number): boolean {
    const t = `${String(first)}:${String(this.amount[i]!)}`;
    if (t.length > TOKEN_SLOT) return false;
    const slot = this.tokSlot[i]!;
    const b = this.tokBytes;
    const o = slot * TOKEN_SLOT;
    for (let k = 0; k < t.length; k++) b[o + k] = t.charCodeAt(k);
    this.tokLen[slot] = t.length;
    this.tokCrcOk[slot] = 0;
    return true;
  }

  clear(): void {
    this.size = 0;
    this.tokLen.fill(0);
    this.dirtyFrom = 0;
  }

  /** Drops levels beyond `len` (the worst ones). */
  truncate(len: number): void {
    if (this.size <= len) return;
    if (len < TOKEN_CACHE) {
      for (let i = len; i < TOKEN_CACHE; i++) this.tokLen[this.tokSlot[i]!] = 0;
      if (len < this.dirtyFrom) this.dirtyFrom = len;
    }
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
    return (
      this.k1.byteLength * 4 +
      this.tokBytes.byteLength +
      this.tokLen.byteLength +
      this.tokCrc.byteLength +
      this.tokCrcOk.byteLength +
      this.tokSlot.byteLength
    );
  }
}
