/**
 * A scanner for the one frame shape that dominates a busy feed — a single book update,
 * `[CHAN_ID,[N,N,N(,N)](,SEQ)(,MTS)]` — that skips JSON.parse and keeps where each number's text
 * sits in the frame, so the book can take the checksum text straight from the wire.
 *
 * Numbers are read with the exact fast path of decimal conversion: a significand of at most 15
 * digits (below 2^53) scaled by a power of ten of at most 22 (exactly representable) is correctly
 * rounded by one multiplication or division. Anything else — more digits, a larger exponent,
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
  const n = s.length;
  let neg = false;
  let c = s.charCodeAt(i);
  if (c === 45) {
    neg = true;
    c = s.charCodeAt(++i);
  }
  if (c < 48 || c > 57) return -1;
  let mant = 0;
  let digits = 0;
  let scale = 0;
  // Integer part (a leading zero is a lone digit in JSON).
  if (c === 48) {
    i++;
  } else {
    while (i < n) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      if (digits < 15) {
        mant = mant * 10 + (c - 48);
        if (mant !== 0) digits++;
      } else return -1;
      i++;
    }
  }
  c = s.charCodeAt(i);
  if (c === 46) {
    i++;
    let any = false;
    while (i < n) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      any = true;
      if (mant === 0 && c === 48) {
        scale--; // leading zeros of a small number are not significant
      } else if (digits < 15) {
        mant = mant * 10 + (c - 48);
        digits++;
        scale--;
      } else return -1;
      i++;
    }
    if (!any) return -1;
  }
  c = s.charCodeAt(i);
  if (c === 101 || c === 69) {
    i++;
    let eneg = false;
    c = s.charCodeAt(i);
    if (c === 45 || c === 43) {
      eneg = c === 45;
      c = s.charCodeAt(++i);
    }
    if (c < 48 || c > 57) return -1;
    let e = 0;
    while (i < n) {
      c = s.charCodeAt(i);
      if (c < 48 || c > 57) break;
      e = e * 10 + (c - 48);
      if (e > 400) return -1;
      i++;
    }
    scale += eneg ? -e : e;
  }
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

const chan = new Float64Array(1);

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
  const i = readNumber(s, 1, chan, 0);
  const id = chan[0] as number;
  if (i < 0 || !Number.isInteger(id) || id < 1 || s.charCodeAt(i) !== 44) return -1;
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
