/**
 * Accounts of the embedded exchange: users with scrypt-hashed passwords, session tokens with the
 * 8-minute expiry (SPEC section 9), and API keys whose HMAC-SHA384 signatures are checked in
 * constant time with nonces strictly increasing per key. An API secret is shown once at creation;
 * it is kept because verifying an HMAC needs it (it never leaves the server).
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { TOKEN_EXPIRY_MS } from "../../src/protocol/index.ts";
import type { Db } from "./db.ts";

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64")}$${hash.toString("base64")}`;
}

export function verifyPassword(password: string, stored: string): boolean {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const got = scryptSync(password, Buffer.from(salt, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(expected, got);
}

/**
 * Compares a secret (signature, mailed code, captcha answer) in constant time: timingSafeEqual on
 * equal-length buffers (a length mismatch is refused at once; lengths are public here).
 */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface UserRow {
  readonly id: number;
  readonly email: string;
  readonly username: string;
  readonly password_hash: string;
  readonly created_at: number;
  readonly email_verified: number;
  readonly verification_level: number;
  readonly tfa_secret: string | null;
  readonly locale: string;
}

/**
 * A credential's check; `caps` is set for API keys and the tokens limited to capabilities, whose
 * calls are checked against them (absent: a session token, the user's own).
 */
export type AuthCheck =
  | { readonly ok: true; readonly userId: number; readonly caps?: readonly string[] }
  | { readonly ok: false; readonly code: number; readonly msg: string };

export class Accounts {
  constructor(readonly db: Db) {}

  createUser(email: string, username: string, password: string, now: number, verified = false): number {
    const r = this.db
      .prepare(
        "INSERT INTO users (email, username, password_hash, created_at, email_verified, verification_level) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(email.toLowerCase(), username, hashPassword(password), now, verified ? 1 : 0, verified ? 2 : 0);
    return Number(r.lastInsertRowid);
  }

  byLogin(login: string): UserRow | undefined {
    return this.db.prepare("SELECT * FROM users WHERE email = ? OR username = ?").get(login.toLowerCase(), login) as
      UserRow | undefined;
  }

  byId(id: number): UserRow | undefined {
    return this.db.prepare("SELECT * FROM users WHERE id = ?").get(id) as UserRow | undefined;
  }

  /** Checks a login; a wrong password and an unknown user answer the same, after the same work. */
  login(login: string, password: string): UserRow | null {
    const user = this.byLogin(login);
    const ok = verifyPassword(password, user?.password_hash ?? hashPasswordDummy);
    return user && ok ? user : null;
  }

  /**
   * A token for `userId`, valid `ttlMs`. `caps` null: the session's own token (everything the user
   * may do); a list: a token limited to those capabilities (one minted with an API key, or asked
   * for with `caps`), checked on every call like the key's.
   */
  issueToken(userId: number, now: number, ttlMs = TOKEN_EXPIRY_MS, caps: readonly string[] | null = null): string {
    const token = randomBytes(24).toString("hex");
    this.db
      .prepare("INSERT INTO tokens (token, user_id, expires_at, caps) VALUES (?, ?, ?, ?)")
      .run(token, userId, now + ttlMs, JSON.stringify(caps));
    return token;
  }

  checkToken(token: string, now: number): AuthCheck {
    const row = this.db.prepare("SELECT user_id, expires_at, caps FROM tokens WHERE token = ?").get(token) as
      { user_id: number; expires_at: number; caps: string } | undefined;
    if (!row || row.expires_at <= now) return { ok: false, code: 10100, msg: "token: invalid" };
    let caps: unknown;
    try {
      caps = JSON.parse(row.caps);
    } catch {
      caps = [];
    }
    // Anything but null or a list of strings (a damaged row) grants nothing: fail closed.
    if (caps === null) return { ok: true, userId: row.user_id };
    const list = Array.isArray(caps) ? caps.filter((c): c is string => typeof c === "string") : [];
    return { ok: true, userId: row.user_id, caps: list };
  }

  /** Session keep-alive: a still-valid token gets a full expiry window again; returns the new expiry. */
  renewToken(token: string, now: number, ttlMs = TOKEN_EXPIRY_MS): number | null {
    if (!this.checkToken(token, now).ok) return null;
    this.db.prepare("UPDATE tokens SET expires_at = ? WHERE token = ?").run(now + ttlMs, token);
    return now + ttlMs;
  }

  revokeToken(token: string): void {
    this.db.prepare("DELETE FROM tokens WHERE token = ?").run(token);
  }

  createApiKey(
    userId: number,
    label: string,
    caps: readonly string[],
    now: number,
    fixed?: { key: string; secret: string },
  ): { key: string; secret: string } {
    const key = fixed?.key ?? randomBytes(20).toString("hex");
    const secret = fixed?.secret ?? randomBytes(24).toString("hex");
    this.db
      .prepare("INSERT INTO api_keys (key, user_id, secret, label, caps, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(key, userId, secret, label, JSON.stringify(caps), now);
    return { key, secret };
  }

  /**
   * Verifies `sig = hex(HMAC-SHA384(secret, payload))` for an API key and moves its nonce forward;
   * a nonce not above the last one is refused (10114), as is an unknown key or a bad signature.
   */
  checkSignature(key: string, payload: string, sig: string, nonce: number): AuthCheck {
    const row = this.db.prepare("SELECT user_id, secret, last_nonce, caps FROM api_keys WHERE key = ?").get(key) as
      { user_id: number; secret: string; last_nonce: number; caps: string } | undefined;
    const expected = createHmac("sha384", row?.secret ?? "no-such-key")
      .update(payload)
      .digest("hex");
    if (!row || !safeEqual(expected, sig)) return { ok: false, code: 10100, msg: "apikey: invalid" };
    if (!Number.isSafeInteger(nonce) || nonce <= row.last_nonce) return { ok: false, code: 10114, msg: "nonce: small" };
    this.db.prepare("UPDATE api_keys SET last_nonce = ? WHERE key = ?").run(nonce, key);
    return { ok: true, userId: row.user_id, caps: JSON.parse(row.caps) as string[] };
  }
}

/** A fixed hash to verify against when the user does not exist, so timing does not tell. */
const hashPasswordDummy = hashPassword("not-a-real-password");
