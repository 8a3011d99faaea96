/**
 * TOTP (RFC 6238: HMAC-SHA1, 30 s steps, 6 digits) for two-factor sign-in, through the `otpauth`
 * library rather than our own HMAC truncation and base32: secrets are base32 as authenticator apps
 * expect, and the otpauth:// address carries the product and the date in its label so a user with
 * several enrolments can tell them apart.
 */
import { Secret, TOTP } from "otpauth";

const PERIOD_S = 30;

function totpOf(secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: PERIOD_S });
}

/** A new random secret (160 bits, the RFC's recommendation for SHA-1), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The code for `timeMs` (tests and the development tools compute what an authenticator shows). */
export function totp(secret: string, timeMs: number): string {
  return totpOf(secret).generate({ timestamp: timeMs });
}

/** Accepts the current code and its neighbours (±1 step of clock drift). */
export function verifyTotp(secret: string, code: string, timeMs: number): boolean {
  return totpStep(secret, code, timeMs) !== null;
}

/**
 * The time step (counter) whose code `code` is — the current one or a neighbour (±1 step of
 * clock drift) — or null. A code is exactly six digits: nothing padded or cut, so a longer string
 * that starts with a valid code is no code. A caller refusing a step at or below the last one it
 * accepted (Accounts.useTotpStep) makes every code good once.
 */
export function totpStep(secret: string, code: string, timeMs: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: timeMs, window: 1 });
  return delta === null ? null : TOTP.counter({ period: PERIOD_S, timestamp: timeMs }) + delta;
}

export function otpauthUrl(secret: string, account: string, product = "Orderflow", date = new Date()): string {
  const label = encodeURIComponent(`${product} ${date.toISOString().slice(0, 10)}:${account}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(product)}`;
}
