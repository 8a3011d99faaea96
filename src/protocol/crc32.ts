/**
 * CRC-32 (IEEE 802.3 / zlib: reflected, polynomial 0xEDB88320, init and xor-out 0xFFFFFFFF) over the
 * bytes of ASCII text, returned as a signed 32-bit integer — the form Bitfinex sends in `cs` frames.
 * Checksum tokens are numbers and colons, so each char code is its byte; no UTF-8 encoding step.
 */

const TABLE = /* @__PURE__ */ (() => {
  const t = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  return t;
})();

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
