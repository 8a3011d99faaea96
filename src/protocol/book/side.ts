/**
 * One side of an order book: levels kept sorted best-first in parallel typed arrays, found by binary
 * search, inserted and removed with copyWithin. No objects per level and no allocation per update;
 * capacity doubles in the rare case a side outgrows its subscribed length.
 *
 * Keys: k1 is the price (or rate), ordered by `dir` (+1 ascending for asks, -1 descending for bids);
 * k2 breaks ties ascending (0 for aggregated price books, the period for funding books, the order or
 * offer id for raw books). A side built with `keyed` false (aggregated price books) never stores a
 * k2 other than 0, so its k2 column is all zeros and is never shifted. `aux` is the count (aggregated books) or the period (raw funding books);
 * `amount` keeps the signed wire amount, as the checksum needs it.
 *
 * Indexing note: typed-array reads inside the bounds maintained by `size` are never undefined, so the
 * hot loops use non-null assertions instead of checks, which `noUncheckedIndexedAccess` would
 * otherwise demand on every typed-array read.
 */
import { CRC_COLON, crcUpdateByte, crcUpdateText } from "../crc32";

/** Levels per side whose checksum text is cached: the checksum's depth (docs/protocol.md#checksum). */
export const TOKEN_CACHE = 25;
/**
 * Longest checksum text kept per level ("price:amount"; the longest seen on the wire ~40): the CRC
 * shift tables go to 64 bytes. Longer text is hashed directly when a checksum needs it.
 */
export const TOKEN_SLOT = 48;
/**
 * Shifts of up to this many levels run as one plain loop over the columns; longer ones use
 * copyWithin. Measured (Node 20, this machine): copyWithin costs ~20 ns per call whatever the
 * length, a loop ~1 ns per element and column, so below ~24 levels the loop wins, and a shift
 * touches three or four columns.
 */
const LOOP_SHIFT = 24;
/** Sides up to this many levels are searched linearly from the best (see find). */
const LINEAR_FIND = 32;

export class BookSide {
  readonly dir: 1 | -1;
  /** Whether k2 carries a key (false: always 0, and left out of inserts and removals). */
  readonly keyed: boolean;
  k1: Float64Array;
  k2: Float64Array;
  aux: Float64Array;
  amount: Float64Array;
  /**
   * Checksum text ("first:amount") of the best TOKEN_CACHE levels, one slot per level: the string it
   * is in and where — `first` is tokSrc[s][tokF0[s], tokF1[s]), the amount tokSrc[s][tokA0[s],
   * tokA1[s]). A level updated from a frame points into the frame's own text, so an update costs
   * four offsets and a reference (copying the ~20 characters was ~15% of an update at 25 levels;
   * bench/README.md); a level whose text was never on the wire gets it built from its numbers.
   * `tokLen` 0 means "not known yet". Only the top 25 take part in the checksum.
   *
   * The token arrays are indexed by slot, and `tokSlot[i]` is the slot of level i: an insert or a
   * removal in the top 25 moves 25 slot numbers rather than every token array.
   */
  readonly tokSrc: string[] = new Array<string>(TOKEN_CACHE).fill("");
  readonly tokF0 = new Int32Array(TOKEN_CACHE);
  readonly tokF1 = new Int32Array(TOKEN_CACHE);
  readonly tokA0 = new Int32Array(TOKEN_CACHE);
  readonly tokA1 = new Int32Array(TOKEN_CACHE);
  readonly tokLen = new Uint8Array(TOKEN_CACHE);
  /**
   * F(0, ":" + token): each cached token's CRC, colon first, from a zero register (see crcShift in
   * crc32.ts) — the form every token but the checksum's first takes in the joined text.
   */
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
    const n = this.size;
    if (n <= LINEAR_FIND) {
      // Short sides: a walk from the best level, where most updates land, with one branch that
      // mispredicts once instead of a binary search's several.
      for (let j = 0; j < n; j++) {
        let d = (k1[j]! - x1) * dir;
        if (d === 0) d = k2[j]! - x2;
        if (d >= 0) return d === 0 ? j : ~j;
      }
      return ~n;
    }
    let lo = 0;
    let hi = n - 1;
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
   * Records where the checksum text of level i is in the frame text: `first` is src[f0, f1), the
   * amount src[a0, a1). Text longer than a slot is left to the lazy path.
   */
  setTokenFromText(i: number, src: string, f0: number, f1: number, a0: number, a1: number): void {
    if (i >= TOKEN_CACHE) return;
    const len = f1 - f0 + 1 + (a1 - a0);
    if (len > TOKEN_SLOT) return;
    const slot = this.tokSlot[i]!;
    this.tokSrc[slot] = src;
    this.tokF0[slot] = f0;
    this.tokF1[slot] = f1;
    this.tokA0[slot] = a0;
    this.tokA1[slot] = a1;
    this.tokLen[slot] = len;
    this.tokCrcOk[slot] = 0;
  }

  /** Length of level i's cached checksum text, 0 when not known yet (i < TOKEN_CACHE). */
  tokenLength(i: number): number {
    return this.tokLen[this.tokSlot[i]!]!;
  }

  /** F(0, ":" + token) of the token in `slot` (whose text is known), computed on first use. */
  colonTokenCrc(slot: number): number {
    if (this.tokCrcOk[slot] === 0) {
      const src = this.tokSrc[slot]!;
      const c = crcUpdateByte(crcUpdateText(CRC_COLON, src, this.tokF0[slot]!, this.tokF1[slot]!), 58);
      this.tokCrc[slot] = crcUpdateText(c, src, this.tokA0[slot]!, this.tokA1[slot]!);
      this.tokCrcOk[slot] = 1;
    }
    return this.tokCrc[slot]!;
  }

  /** Builds the checksum text of level i from its numbers (String(number) is the wire text). */
  buildToken(i: number, first: number): boolean {
    const head = String(first);
    const t = `${head}:${String(this.amount[i]!)}`;
    if (t.length > TOKEN_SLOT) return false;
    const slot = this.tokSlot[i]!;
    this.tokSrc[slot] = t;
    this.tokF0[slot] = 0;
    this.tokF1[slot] = head.length;
    this.tokA0[slot] = head.length + 1;
    this.tokA1[slot] = t.length;
    this.tokLen[slot] = t.length;
    this.tokCrcOk[slot] = 0;
    return true;
  }

  clear(): void {
    this.size = 0;
    this.tokLen.fill(0);
    // Let go of the frames the tokens pointed into.
    this.tokSrc.fill("");
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
      this.tokF0.byteLength * 4 +
      this.tokLen.byteLength +
      this.tokCrc.byteLength +
      this.tokCrcOk.byteLength +
      this.tokSlot.byteLength
    );
  }
}
