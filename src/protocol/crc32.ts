/**
 * CRC-32 (IEEE 802.3 / zlib: reflected, polynomial 0xEDB88320, init and xor-out 0xFFFFFFFF) over the
 * bytes of ASCII text, returned as a signed 32-bit integer — the form Bitfinex sends in `cs` frames.
 * Checksum tokens are numbers and colons, so each char code is its byte; no UTF-8 encoding step.
 */

/**
 * Slicing-by-4 tables: T0 is the classic byte table; T1–T3 advance a byte through 1–3 more zero
 * bytes, so four input bytes fold in with four lookups and no per-byte dependency chain (about 2.5x
 * the byte loop on the checksum bench).
 */
const TABLES = /* @__PURE__ */ (() => {
  const t = new Int32Array(256 * 4);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n] as number;
    for (let k = 1; k < 4; k++) {
      c = (t[c & 0xff] as number) ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();
const TABLE = TABLES.subarray(0, 256);

/** Running CRC state: start with CRC_INIT, feed text with crcUpdate, finish with crcFinish. */
export const CRC_INIT = -1;

/** Feeds the char codes of an ASCII string into a running CRC state. */
export function crcUpdate(state: number, text: string): number {
  let c = state;
  for (let i = 0; i < text.length; i++) {
    // `& 0xff` keeps a non-ASCII char from indexing out of the table; tokens are ASCII by contract.
    c = (TABLE[(c ^ text.charCodeAt(i)) & 0xff] as number) ^ (c >>> 8);
  }
  return c;
}

/** Feeds one byte (a separator such as ':'). */
export function crcUpdateByte(state: number, byte: number): number {
  return (TABLE[(state ^ byte) & 0xff] as number) ^ (state >>> 8);
}

/** The signed 32-bit result. */
export function crcFinish(state: number): number {
  return ~state | 0;
}

/** CRC-32 of a whole ASCII string, signed. */
export function crc32(text: string): number {
  return crcFinish(crcUpdate(CRC_INIT, text));
}

/** Feeds `len` bytes of `bytes` from `start`, four at a time. */
export function crcUpdateBytes(state: number, bytes: Uint8Array, start: number, len: number): number {
  const T = TABLES;
  let c = state;
  let i = start;
  const end = start + len;
  const end4 = end - 3;
  for (; i < end4; i += 4) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c = T[768 + (c & 0xff)]! ^ T[512 + ((c >>> 8) & 0xff)]! ^ T[256 + ((c >>> 16) & 0xff)]! ^ T[c >>> 24]!;
  }
  for (; i < end; i++) c = T[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return c;
}

/**
 * Feeds the char codes of text[start, end), four at a time (ASCII by contract, as crcUpdate): the
 * book hashes a level's checksum text straight from the frame it came in.
 */
export function crcUpdateText(state: number, text: string, start: number, end: number): number {
  const T = TABLES;
  let c = state;
  let i = start;
  const end4 = end - 3;
  for (; i < end4; i += 4) {
    c ^=
      (text.charCodeAt(i) & 0xff) |
      ((text.charCodeAt(i + 1) & 0xff) << 8) |
      ((text.charCodeAt(i + 2) & 0xff) << 16) |
      ((text.charCodeAt(i + 3) & 0xff) << 24);
    c = T[768 + (c & 0xff)]! ^ T[512 + ((c >>> 8) & 0xff)]! ^ T[256 + ((c >>> 16) & 0xff)]! ^ T[c >>> 24]!;
  }
  for (; i < end; i++) c = T[(c ^ text.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return c;
}

/**
 * CRC linearity, for checksums over cached tokens: feeding message M to a register r gives
 * F(r, M) = Z_|M|(r) ⊕ F(0, M), where Z_n is "feed n zero bytes" — linear in r, so four table
 * lookups per n. With each level's F(0, token) cached, a book checksum costs a few lookups per level
 * instead of re-hashing ~1 KB of text (3.5 µs → ~0.2 µs on the bench machine).
 */
export const CRC_SHIFT_MAX = 64;
const ZT = /* @__PURE__ */ (() => {
  // ZT[n*1024 + k*256 + v] = Z_n(v << 8k); Z_1(x) = T[x & 0xff] ^ (x >>> 8); Z_n = Z_1 ∘ Z_(n-1).
  const z = new Int32Array((CRC_SHIFT_MAX + 1) * 1024);
  for (let k = 0; k < 4; k++) for (let v = 0; v < 256; v++) z[k * 256 + v] = v << (8 * k);
  for (let n = 1; n <= CRC_SHIFT_MAX; n++) {
    const prev = (n - 1) * 1024;
    const cur = n * 1024;
    for (let j = 0; j < 1024; j++) {
      const x = z[prev + j] as number;
      z[cur + j] = (TABLE[x & 0xff] as number) ^ (x >>> 8);
    }
  }
  return z;
})();

/** Z_n(state): the register after feeding n zero bytes (n ≤ CRC_SHIFT_MAX). */
export function crcShift(state: number, n: number): number {
  const o = n * 1024;
  return (
    ZT[o + (state & 0xff)]! ^
    ZT[o + 256 + ((state >>> 8) & 0xff)]! ^
    ZT[o + 512 + ((state >>> 16) & 0xff)]! ^
    ZT[o + 768 + (state >>> 24)]!
  );
}

/** F(0, ":"): a colon fed to a zero register; prefixing a token with ':' adds Z_len(CRC_COLON). */
export const CRC_COLON = /* @__PURE__ */ crcUpdateByte(0, 58);

/** COLON_TERM[len] = Z_len(CRC_COLON): the colon's contribution ahead of a token of `len` bytes. */
export const CRC_COLON_TERM = /* @__PURE__ */ (() => {
  const t = new Int32Array(CRC_SHIFT_MAX + 1);
  for (let n = 0; n <= CRC_SHIFT_MAX; n++) t[n] = crcShift(CRC_COLON, n);
  return t;
})();
