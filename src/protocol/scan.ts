/**
 * A scanner for the one frame shape that dominates a busy feed — a single book update,
 * `[CHAN_ID,[N,N,N(,N)](,SEQ)(,MTS)]` — that skips JSON.parse and keeps where each number's text
 * sits in the frame, so the book can take the checksum text straight from the wire.
 *
 * Numbers are read with the exact fast path of decimal conversion (Clinger): a significand below
 * 2^53 scaled by a power of ten of at most 22 (exactly representable) is correctly rounded by one
 * multiplication or division. Anything else — more digits, a larger exponent,
 * unexpected spacing or shape — returns false and the caller parses the frame with JSON.parse, so
 * the scanner can only be faster, never different.
 */

const POW10 = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

export interface ScannedUpdate {
  chanId: number;
  /** How many numbers the entry holds (3 or 4). */
  arity: number;
  /** The entry's numbers. */
  readonly values: Float64Array;
  /** Start and end offsets of each number's text in the frame. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Numbers after the entry (SEQ, MTS), how many, and their values. */
  trailing: number;
  readonly trailers: Float64Array;
}

export function newScannedUpdate(): ScannedUpdate {
  return {
    chanId: 0,
    arity: 0,
    values: new Float64Array(4),
    starts: new Int32Array(4),
    ends: new Int32Array(4),
    trailing: 0,
    trailers: new Float64Array(2),
  };
}

/**
 * Reads a JSON number at `i` into `into[at]`; returns the position after it, or -1 when it is not a
 * number the fast path reads exactly. (Returning the position and writing the value into a typed
 * array keeps the hot loop free of module-level `let`s, whose TDZ checks cost ~40% here.)
 */
function readNumber(s: string, i: number, into: Float64Array, at: number): number {
  let neg = false;
  let c = s.charCodeAt(i);
  if (c === 45) {
    neg = true;
    c = s.charCodeAt(++i);
  }
  // `d >= 0 && d <= 9` is false for NaN too, which charCodeAt returns past the end: no bounds test.
  let d = c - 48;
  if (!(d >= 0 && d <= 9)) return -1;
  let mant = d;
  i++;
  // Integer part (a leading zero is a lone digit in JSON).
  if (d !== 0) {
    for (;;) {
      d = s.charCodeAt(i) - 48;
      if (!(d >= 0 && d <= 9)) break;
      mant = mant * 10 + d;
      i++;
    }
  }
  let scale = 0;
  c = s.charCodeAt(i);
  if (c === 46) {
    const from = ++i;
    for (;;) {
      d = s.charCodeAt(i) - 48;
      if (!(d >= 0 && d <= 9)) break;
      mant = mant * 10 + d;
      i++;
    }
    if (i === from) return -1;
    scale = from - i;
    c = s.charCodeAt(i);
  }
  if (c === 101 || c === 69) {
    i++;
    let eneg = false;
    c = s.charCodeAt(i);
    if (c === 45 || c === 43) {
      eneg = c === 45;
      c = s.charCodeAt(++i);
    }
    d = c - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    let e = 0;
    for (;;) {
      d = s.charCodeAt(i) - 48;
      if (!(d >= 0 && d <= 9)) break;
      e = e * 10 + d;
      if (e > 400) return -1;
      i++;
    }
    scale += eneg ? -e : e;
  }
  // Exact only while the significand is: rounding is monotonic, so a digit string at or above
  // 2^53 also accumulates to at or above it, and is declined.
  if (mant > 9007199254740991) return -1;
  let v: number;
  if (mant === 0) v = 0;
  else if (scale >= 0) {
    if (scale > 22) return -1;
    v = mant * (POW10[scale] as number);
  } else {
    if (scale < -22) return -1;
    v = mant / (POW10[-scale] as number);
  }
  into[at] = neg ? -v : v;
  return i;
}

/**
 * Reads one entry `[a,b,c(,d)]` starting at `i` (which must be '['): values and text offsets into
 * `out`. Returns the index after the closing ']', or -1.
 */
export function scanEntry(s: string, i: number, out: ScannedUpdate): number {
  if (s.charCodeAt(i) !== 91) return -1;
  i++;
  let k = 0;
  for (;;) {
    if (k === 4) return -1;
    const end = readNumber(s, i, out.values, k);
    if (end < 0) return -1;
    out.starts[k] = i;
    out.ends[k] = end;
    k++;
    i = end;
    const c = s.charCodeAt(i);
    if (c === 44) {
      i++;
      continue;
    }
    if (c === 93) break;
    return -1;
  }
  if (k < 3) return -1;
  out.arity = k;
  return i + 1;
}

/** Reads `[CHAN,` at the start of a frame into out.chanId; returns the index after the comma, or -1. */
export function scanChannelPrefix(s: string, out: ScannedUpdate): number {
  if (s.charCodeAt(0) !== 91) return -1;
  // Channel ids are small positive integers: digits only (no sign, fraction or leading zero).
  let d = s.charCodeAt(1) - 48;
  if (!(d >= 1 && d <= 9)) return -1;
  let id = d;
  let i = 2;
  for (;;) {
    d = s.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) break;
    id = id * 10 + d;
    i++;
  }
  if (s.charCodeAt(i) !== 44 || i > 16) return -1;
  out.chanId = id;
  return i + 1;
}

/**
 * Reads the frame's tail after its payload at `i`: `(,SEQ)(,MTS)]` to the end of the text.
 * Returns false when anything else follows.
 */
export function scanTrailer(s: string, i: number, out: ScannedUpdate): boolean {
  let t = 0;
  while (s.charCodeAt(i) === 44) {
    if (t === 2) return false;
    const end = readNumber(s, i + 1, out.trailers, t);
    if (end < 0) return false;
    t++;
    i = end;
  }
  if (s.charCodeAt(i) !== 93 || i !== s.length - 1) return false;
  out.trailing = t;
  return true;
}

/**
 * Scans `[CHAN,[a,b,c(,d)](,x)(,y)]` with no whitespace (what the exchange sends). Returns false for
 * any other shape, including snapshots (a nested array) and string messages ("hb", "cs", "te").
 */
export function scanBookUpdate(s: string, out: ScannedUpdate): boolean {
  const i = scanChannelPrefix(s, out);
  if (i < 0) return false;
  const end = scanEntry(s, i, out);
  return end >= 0 && scanTrailer(s, end, out);
}

/**
 * Scans `[CHAN,"cs",CHECKSUM(,x)(,y)]`, the frame after each book batch when checksums are on (one
 * frame in ~10 on a busy book): the checksum into out.values[0], the suffix as for updates. False
 * for anything else. Measured: JSON.parse and classification of these frames were ~10% of the
 * feed's time per update (bench/README.md).
 */
export function scanChecksum(s: string, out: ScannedUpdate): boolean {
  const i = scanChannelPrefix(s, out);
  if (
    i < 0 ||
    s.charCodeAt(i) !== 34 ||
    s.charCodeAt(i + 1) !== 99 ||
    s.charCodeAt(i + 2) !== 115 ||
    s.charCodeAt(i + 3) !== 34 ||
    s.charCodeAt(i + 4) !== 44
  ) {
    return false;
  }
  const end = readNumber(s, i + 5, out.values, 0);
  return end >= 0 && Number.isInteger(out.values[0]) && scanTrailer(s, end, out);
}
