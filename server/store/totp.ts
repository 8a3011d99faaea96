/**
 * TOTP (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits) for two-factor login, with base32 secrets as
 * authenticator apps expect, and the otpauth:// address SPEC section 9 describes.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

const B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(buf: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of buf) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += B32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += B32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of clean) {
    const i = B32.indexOf(ch);
    if (i < 0) continue;
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

export function totp(secret: string, timeMs: number, step = 30): string {
  const counter = Math.floor(timeMs / 1000 / step);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const h = createHmac("sha1", base32Decode(secret)).update(msg).digest();
  const offset = (h[h.length - 1] as number) & 15;
  const code = (h.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(code).padStart(6, "0");
}

/** Accepts the current code and its neighbours (±1 step of clock drift), in constant time. */
export function verifyTotp(secret: string, code: string, timeMs: number): boolean {
  return totpStep(secret, code, timeMs) !== null;
}

/**
 * The time step (counter) whose code `code` is — the current one or a neighbour (±1 step of
 * clock drift) — or null; every candidate is compared, in constant time. A code is exactly six
 * digits: nothing padded or cut, so a longer string that starts with a valid code is no code. A
 * caller refusing a step at or below the last one it accepted refuses a code used again within
 * its window.
 */
export function totpStep(secret: string, code: string, timeMs: number, step = 30): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  let found: number | null = null;
  const got = Buffer.from(code);
  for (const d of [-1, 0, 1]) {
    const t = timeMs + d * step * 1000;
    const expected = Buffer.from(totp(secret, t, step));
    if (got.length === expected.length && timingSafeEqual(expected, got)) found = Math.floor(t / 1000 / step);
  }
  return found;
}

export function otpauthUrl(secret: string, account: string, product = "Orderflow", date = new Date()): string {
  const label = encodeURIComponent(`${product} ${date.toISOString().slice(0, 10)}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(product)}`;
}
