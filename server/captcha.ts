/**
 * The login captcha: an ALTCHA proof of work (altcha-lib's v2 API) behind the product's captcha
 * calls (docs/product-rules.md#calls: `/v2/int/captcha/providers`, `…/required`, and the login's
 * `captchaToken` and `captchaProvider`). The arithmetic question it replaces could be read off the
 * page and answered by a script for free; here the browser has to find, by trying counter after
 * counter, the one whose PBKDF2 key the challenge names — work a script cannot skip either.
 *
 * The challenge is signed (HMAC) and carries its expiry, so the server keeps nothing per challenge
 * it hands out; it remembers only the solutions it accepted, until they expire, so that each one
 * signs in once.
 */
import { randomBytes, randomInt } from "node:crypto";
import { CappedMap, createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";

/** What `/v2/int/captcha/providers` lists and the login's `captchaProvider` must name. */
export const CAPTCHA_PROVIDER = "altcha";
/**
 * PBKDF2 rather than iterated SHA: WebCrypto runs a PBKDF2 key's iterations natively in one call,
 * so the browser works about as fast as a native solver would, instead of paying a promise per
 * hash.
 */
const ALGORITHM = "PBKDF2/SHA-256";
/**
 * The cost: PBKDF2 iterations per tried counter, and the largest counter the challenge may hide
 * (deterministic mode: the solver tries 0, 1, 2, … until its key matches, 600 tries on average).
 * Measured on this project's machine (2 shared cores, loaded): Chromium ~0.36 ms per try at 1000
 * iterations, so ~0.2 s on average and ~0.45 s at worst; Node ~0.3-0.5 ms. Verifying costs the
 * server one HMAC. So every login attempt past the captcha costs a guesser ~600 000 PBKDF2
 * iterations (~0.2 CPU-seconds): a million guesses ~55 CPU-hours, on top of the login rate limit.
 */
export const CAPTCHA_COST = 1000;
const CAPTCHA_COUNTER_MAX = 1200;
/** How long a challenge may be solved and used (`expiresAt`), and a used one is remembered. */
export const CAPTCHA_TTL_MS = 5 * 60_000;
/**
 * Used solutions remembered at most (a nonce and a time each, ~100 B: a few MB). Reaching it
 * takes that many solved challenges within CAPTCHA_TTL_MS; then new solutions are refused until
 * old ones expire (never evicted early: an evicted nonce could be replayed).
 */
const CAPTCHA_SPENT_CAPACITY = 50_000;

interface CaptchaPayload {
  readonly challenge: Challenge;
  readonly solution: Solution;
}

/** The `captchaToken` the client sends: base64 of `{challenge, solution}` JSON, ALTCHA's payload. */
export function encodeCaptchaToken(payload: CaptchaPayload): string {
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64");
}

function decodeCaptchaToken(token: unknown): CaptchaPayload | null {
  if (typeof token !== "string" || token === "" || token.length > 16_384) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(token, "base64").toString("utf8"));
  } catch {
    return null;
  }
  if (typeof raw !== "object" || raw === null) return null;
  const { challenge, solution } = raw as Record<string, unknown>;
  if (typeof challenge !== "object" || challenge === null || typeof solution !== "object" || solution === null)
    return null;
  const c = challenge as Record<string, unknown>;
  const s = solution as Record<string, unknown>;
  if (typeof c["parameters"] !== "object" || c["parameters"] === null || typeof c["signature"] !== "string")
    return null;
  if (typeof s["counter"] !== "number" || typeof s["derivedKey"] !== "string") return null;
  return {
    challenge: { parameters: c["parameters"] as Challenge["parameters"], signature: c["signature"] },
    solution: { counter: s["counter"], derivedKey: s["derivedKey"] },
  };
}

export class AltchaCaptcha {
  // Random per instance: the exchange host has one Identity (so one of these) for both API hosts,
  // and a restart invalidates the challenges out, which only means solving one again.
  readonly #secret = randomBytes(32).toString("hex");
  readonly #keySecret = randomBytes(32).toString("hex");
  /** Nonces of accepted solutions → when their challenge expires (epoch ms), oldest first. */
  readonly #spent: CappedMap<string, number>;
  readonly #capacity: number;

  constructor(
    readonly now: () => number,
    capacity = CAPTCHA_SPENT_CAPACITY,
  ) {
    this.#capacity = capacity;
    // The cap is a backstop only: #spend refuses before the map would evict a live entry.
    this.#spent = new CappedMap({ maxSize: capacity });
  }

  /** A new signed challenge (`GET /v2/int/captcha/altcha/challenge`). */
  challenge(): Promise<Challenge> {
    return createChallenge({
      algorithm: ALGORITHM,
      cost: CAPTCHA_COST,
      // Deterministic mode: the key of this counter is the target, signed (keySignature) so that
      // a solution is verified with one HMAC instead of a key derivation.
      counter: randomInt(0, CAPTCHA_COUNTER_MAX + 1),
      deriveKey,
      expiresAt: Math.floor((this.now() + CAPTCHA_TTL_MS) / 1000),
      hmacSignatureSecret: this.#secret,
      hmacKeySignatureSecret: this.#keySecret,
    });
  }

  /**
   * Whether `token` is a solution of a challenge this instance signed, unexpired and not used
   * before; an accepted one is spent. Anything malformed is simply refused.
   */
  async redeem(token: unknown): Promise<boolean> {
    const payload = decodeCaptchaToken(token);
    if (!payload) return false;
    let verified: boolean;
    try {
      const result = await verifySolution({
        challenge: payload.challenge,
        solution: payload.solution,
        deriveKey,
        hmacSignatureSecret: this.#secret,
        hmacKeySignatureSecret: this.#keySecret,
      });
      verified = result.verified;
    } catch {
      return false;
    }
    // altcha-lib checks expiry against the wall clock; the exchange's clock (`now`) decides too.
    const { nonce, expiresAt } = payload.challenge.parameters;
    if (!verified || typeof expiresAt !== "number" || expiresAt * 1000 <= this.now()) return false;
    return this.#spend(nonce, expiresAt * 1000);
  }

  /** Records a solution as used; false when it was already, or when the memory is full. */
  #spend(nonce: string, expires: number): boolean {
    const now = this.now();
    // Entries go in roughly in expiry order (one TTL for all): drop the expired ones at the front.
    for (const [key, until] of this.#spent) {
      if (until > now) break;
      this.#spent.delete(key);
    }
    if (this.#spent.has(nonce)) return false;
    if (this.#spent.size >= this.#capacity) {
      for (const [key, until] of this.#spent) if (until <= now) this.#spent.delete(key);
      if (this.#spent.size >= this.#capacity) return false;
    }
    // Synchronous check-and-set: two requests racing with one solution cannot both pass.
    return this.#spent.setIfAbsent(nonce, expires);
  }
}
