/**
 * Accounts of the embedded exchange: users with scrypt-hashed passwords, session tokens with the
 * 8-minute expiry (docs/product-rules.md#constants), and API keys whose HMAC-SHA384 signatures are checked in
 * constant time with nonces strictly increasing per key. An API secret is shown once at creation;
 * it is kept because verifying an HMAC needs it (it never leaves the server).
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { ERROR_CODES, SESSION_MAX_MS, TOKEN_EXPIRY_MS } from "../../src/protocol/index.ts";
import type { Db } from "./db.ts";
import { sessionLapsed } from "./security-settings.ts";

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

/** How far past the server's clock (in microseconds) a signed call's nonce may run: 10 minutes of skew. */
export const MAX_NONCE_LEAD_US = 10 * 60 * 1_000_000;

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
 * Compares a secret (signature, mailed code) in constant time: timingSafeEqual on
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
  | {
      readonly ok: true;
      readonly userId: number;
      readonly caps?: readonly string[];
      /** The API key behind the credential: the key itself, or the key a token was minted with. */
      readonly keyId?: string;
      /** The token, when the credential is one. */
      readonly token?: string;
      /**
       * Set when the token is a sub-account context (server/subaccounts.ts): minted by `masterId`
       * in its sign-in session `session`; `readOnly` refuses every write made with it.
       */
      readonly context?: SubaccountContext;
    }
  | { readonly ok: false; readonly code: number; readonly msg: string };

/** A sub-account context token's link to the master that minted it (server/subaccounts.ts). */
export interface SubaccountContext {
  readonly masterId: number;
  readonly readOnly: boolean;
  readonly session: number;
}

/**
 * What an authenticated socket holds to be checked again after its credentials change: the token
 * it signed in with (and the key that token was minted with, if any), or the API key itself.
 */
export type Credential =
  { readonly token: string; readonly keyId: string | null } | { readonly token: null; readonly keyId: string };

/**
 * A socket's credential checked again (`Accounts.recheck`): what it may do now and when to look
 * again (null: never by itself, an API key), or why it is signed out.
 */
export type Recheck =
  | { readonly ok: true; readonly caps: readonly string[] | null; readonly until: number | null }
  | { readonly ok: false; readonly msg: string };

/**
 * Told the user whose API keys or tokens were revoked or narrowed (sockets re-check what they hold).
 */
export type CredentialListener = (userId: number) => void;

/**
 * `caps` no wider than `limit` (both capability lists: letters, `:r` read-only): a write letter
 * `limit` only reads becomes read-only, a letter `limit` lacks is dropped.
 */
export function narrowCaps(caps: readonly string[], limit: readonly string[]): string[] {
  const out: string[] = [];
  for (const c of caps) {
    const letter = c.replace(/:r$/, "");
    if (!c.endsWith(":r") && limit.includes(letter)) out.push(c);
    else if (limit.includes(letter) || limit.includes(`${letter}:r`)) out.push(`${letter}:r`);
  }
  return [...new Set(out)];
}

export class Accounts {
  readonly #credentialListeners = new Set<CredentialListener>();
  /** Steps a freeze runs inside its transaction (withdrawals.ts cancels what has not left yet). */
  readonly #freezeSteps: ((userId: number, now: number) => void)[] = [];
  /** The transaction a freeze runs in: the venue's, so the events of its steps go out after COMMIT. */
  #freezeTransaction: <T>(fn: () => T) => T = (fn) => this.db.transaction(fn)();

  constructor(readonly db: Db) {}

  /**
   * Adds a step to every freeze, run in the freeze's transaction after the account is marked;
   * `transaction` (when given) is the one that transaction must be so the step's events wait for it.
   */
  onFreeze(step: (userId: number, now: number) => void, transaction?: <T>(fn: () => T) => T): void {
    this.#freezeSteps.push(step);
    if (transaction) this.#freezeTransaction = transaction;
  }

  onCredentialsChanged(listener: CredentialListener): void {
    this.#credentialListeners.add(listener);
  }

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
   * for with `caps`), checked on every call like the key's. `keyId`: the API key it was minted
   * with (directly or through another of its tokens), whose revocation or narrowing reaches it.
   */
  issueToken(
    userId: number,
    now: number,
    ttlMs = TOKEN_EXPIRY_MS,
    caps: readonly string[] | null = null,
    keyId: string | null = null,
    session: number | null = null,
  ): string {
    const token = randomBytes(24).toString("hex");
    this.db
      .prepare("INSERT INTO tokens (token, user_id, expires_at, caps, api_key, session_id) VALUES (?, ?, ?, ?, ?, ?)")
      .run(token, userId, now + ttlMs, JSON.stringify(caps), keyId, session);
    return token;
  }

  /**
   * A token minted by a credential (`w/token`, `w/user/token/generate`), with what tokenGrant
   * allowed (never more than the caller may do). A token of a sign-in session — the session's own,
   * or one minted from it, however limited — mints into that session (`session_id`): the session's
   * end (logout, "end this session", "sign out everywhere else", single login, a freeze) deletes
   * it with the rest, and the session cap (`keep_session_alive` off) refuses it with them, so it
   * can neither outlive nor out-power the session. An API key, or a token minted with one, has no
   * session: its tokens carry the key (`keyId`) and die or narrow with it, and live their ttl.
   */
  mintToken(
    parent: { readonly token?: string; readonly keyId?: string },
    userId: number,
    now: number,
    ttlMs: number | null,
    caps: readonly string[] | null,
  ): string {
    const keyId = parent.keyId ?? null;
    const session = keyId === null && parent.token !== undefined ? this.sessionOfToken(parent.token) : null;
    return this.issueToken(userId, now, ttlMs ?? TOKEN_EXPIRY_MS, caps, keyId, session);
  }

  /**
   * The second factors the account has, as user info's `tfaTypes` names them: `otp` (an
   * authenticator app), `u2f` (hardware keys, WebAuthn; server/security.ts) and `sms` (codes texted
   * to a phone number; server/sms.ts).
   */
  secondFactors(user: UserRow): string[] {
    const out: string[] = [];
    if (user.tfa_secret) out.push("otp");
    if (this.db.prepare("SELECT 1 FROM webauthn_keys WHERE user_id = ? LIMIT 1").get(user.id)) out.push("u2f");
    if (this.db.prepare("SELECT 1 FROM sms_factors WHERE user_id = ?").get(user.id)) out.push("sms");
    return out;
  }

  /**
   * The sign-in session a token belongs to (null: an API key's token, or one from before sessions
   * were kept). Tokens minted from it join that session (`mintToken`; server/security.ts lists and
   * ends sessions).
   */
  sessionOfToken(parent: string): number | null {
    const row = this.db.prepare("SELECT session_id FROM tokens WHERE token = ?").get(parent) as
      { session_id: number | null } | undefined;
    return row?.session_id ?? null;
  }

  /**
   * Ends `userId`'s sign-in sessions that `which` picks (by session id; a token issued before
   * sessions were kept has none and counts as its own session, id null): every token of theirs —
   * the session's own and those minted from it, limited to capabilities or not (`mintToken`) — is
   * deleted and the sockets signed in with them told (onCredentialsChanged) and closed. Tokens
   * minted with an API key are no session's and stay (the key's revocation ends them). Returns
   * the number of sessions ended.
   */
  revokeSessions(userId: number, which: (session: number | null) => boolean): number {
    const rows = this.db
      .prepare("SELECT token, session_id FROM tokens WHERE user_id = ? AND api_key IS NULL")
      .all(userId) as { token: string; session_id: number | null }[];
    const gone = rows.filter((r) => which(r.session_id));
    if (gone.length === 0) return 0;
    this.db.transaction(() => {
      for (const r of gone) this.db.prepare("DELETE FROM tokens WHERE token = ?").run(r.token);
    })();
    this.#credentialsChanged(userId);
    return new Set(gone.map((r) => r.session_id ?? `token:${r.token}`)).size;
  }

  /**
   * Freezes an account (server/compliance.ts: the link in every security mail, or the owner's own
   * button): in one transaction the account is marked frozen and every token it has is deleted;
   * its keys stay stored but sign nothing while it is frozen (checkSignature), and its sockets
   * are told and closed; the steps added by `onFreeze` run in that transaction (its withdrawals that
   * have not left yet are canceled and refunded). Only support lifts it (`unfreeze`). False when
   * already frozen or unknown.
   */
  freeze(userId: number, now: number): boolean {
    const changed = this.#freezeTransaction(() => {
      const r = this.db
        .prepare("UPDATE users SET frozen = 1, frozen_at = ? WHERE id = ? AND frozen = 0")
        .run(now, userId);
      if (r.changes === 0) return false;
      this.db.prepare("DELETE FROM tokens WHERE user_id = ?").run(userId);
      for (const step of this.#freezeSteps) step(userId, now);
      return true;
    });
    if (changed) this.#credentialsChanged(userId);
    return changed;
  }

  /** Lifts a freeze (support, through the development endpoint on this machine). */
  unfreeze(userId: number): boolean {
    return (
      this.db.prepare("UPDATE users SET frozen = 0, frozen_at = NULL WHERE id = ? AND frozen = 1").run(userId).changes >
      0
    );
  }

  isFrozen(userId: number): boolean {
    const row = this.db.prepare("SELECT frozen FROM users WHERE id = ?").get(userId) as { frozen: number } | undefined;
    return row?.frozen === 1;
  }

  checkToken(token: string, now: number): AuthCheck {
    return this.#checkToken(token, now, true);
  }

  /** checkToken; `expiry` false leaves the token's own expiry to the caller (recheck). */
  #checkToken(token: string, now: number, expiry: boolean): AuthCheck {
    const row = this.db
      .prepare(
        "SELECT t.user_id, t.expires_at, t.caps, t.api_key, t.session_id, t.context_master, t.context_read_only, u.frozen FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token = ?",
      )
      .get(token) as
      | {
          user_id: number;
          expires_at: number;
          caps: string;
          api_key: string | null;
          session_id: number | null;
          context_master: number | null;
          context_read_only: number;
          frozen: number;
        }
      | undefined;
    if (!row || (expiry && row.expires_at <= now))
      return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "token: invalid" };
    if (row.frozen === 1) return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "account: frozen" };
    // keep_session_alive off: a sign-in session ends SESSION_MAX_MS after it began, renewals or not.
    if (row.session_id !== null && sessionLapsed(this.db, row.session_id, now))
      return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "token: session expired" };
    let context: { readonly context: SubaccountContext } | null = null;
    if (row.context_master !== null) {
      // A sub-account context lives as long as its master's sign-in session: some token of that
      // session (expired ones count: the context's renewals keep the session in use) must still be
      // there, and the master not frozen. Logout, "end this session" and a freeze delete them.
      const live =
        row.session_id !== null &&
        this.db
          .prepare(
            "SELECT 1 FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.user_id = ? AND t.session_id = ? AND t.context_master IS NULL AND u.frozen = 0 LIMIT 1",
          )
          .get(row.context_master, row.session_id) !== undefined;
      if (!live || row.session_id === null) return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "token: invalid" };
      context = {
        context: { masterId: row.context_master, readOnly: row.context_read_only === 1, session: row.session_id },
      };
    }
    const key = row.api_key !== null ? { keyId: row.api_key } : {};
    let caps: unknown;
    try {
      caps = JSON.parse(row.caps);
    } catch {
      caps = [];
    }
    // Anything but null or a list of strings (a damaged row) grants nothing: fail closed.
    if (caps === null && row.api_key === null) return { ok: true, userId: row.user_id, token, ...context };
    const list = Array.isArray(caps) ? caps.filter((c): c is string => typeof c === "string") : [];
    return { ok: true, userId: row.user_id, caps: list, token, ...key, ...context };
  }

  /**
   * Session keep-alive: a still-valid session token (the user's own: no capability limit, no API
   * key behind it) gets a full expiry window again; returns the new expiry. A token minted with a
   * key or limited to capabilities lives its ttl and no longer — renewing it would let it outlive
   * a revoked key, or live forever for whoever holds it.
   */
  renewToken(token: string, now: number, ttlMs = TOKEN_EXPIRY_MS): number | null {
    const check = this.checkToken(token, now);
    if (!check.ok || check.caps !== undefined || check.keyId !== undefined) return null;
    this.db.prepare("UPDATE tokens SET expires_at = ? WHERE token = ?").run(now + ttlMs, token);
    return now + ttlMs;
  }

  /** Deletes a token; the sockets signed in with it are told (onCredentialsChanged) and closed. */
  revokeToken(token: string): void {
    const row = this.db.prepare("DELETE FROM tokens WHERE token = ? RETURNING user_id").get(token) as
      { user_id: number } | undefined;
    if (row) this.#credentialsChanged(row.user_id);
  }

  /**
   * Deletes one of `userId`'s tokens (`w/token/del`, logout); false when it is not theirs or does
   * not exist. The sockets signed in with it are told (onCredentialsChanged) and closed.
   */
  revokeOwnToken(token: string, userId: number): boolean {
    const gone = this.db.prepare("DELETE FROM tokens WHERE token = ? AND user_id = ?").run(token, userId).changes > 0;
    if (gone) this.#credentialsChanged(userId);
    return gone;
  }

  /**
   * Revokes `userId`'s API key `key` (null: all of them) with every token minted with it; the
   * sockets holding them are told (onCredentialsChanged). Returns the number of keys deleted.
   */
  revokeApiKeys(userId: number, key: string | null): number {
    const keys = (
      key === null
        ? this.db.prepare("SELECT key FROM api_keys WHERE user_id = ?").all(userId)
        : this.db.prepare("SELECT key FROM api_keys WHERE user_id = ? AND key = ?").all(userId, key)
    ) as { key: string }[];
    if (keys.length === 0) return 0;
    this.db.transaction(() => {
      for (const k of keys) {
        this.db.prepare("DELETE FROM tokens WHERE api_key = ?").run(k.key);
        this.db.prepare("DELETE FROM api_keys WHERE key = ?").run(k.key);
      }
    })();
    this.#credentialsChanged(userId);
    return keys.length;
  }

  /**
   * Sets an API key's label and capabilities; its tokens are narrowed to the new capabilities (a
   * widened key does not widen a token minted before) and its sockets told.
   */
  updateApiKey(userId: number, key: string, label: string, caps: readonly string[]): void {
    const tokens = this.db.prepare("SELECT token, caps FROM tokens WHERE api_key = ?").all(key) as {
      token: string;
      caps: string;
    }[];
    this.db.transaction(() => {
      this.db
        .prepare("UPDATE api_keys SET label = ?, caps = ? WHERE key = ? AND user_id = ?")
        .run(label, JSON.stringify(caps), key, userId);
      for (const t of tokens) {
        let held: unknown;
        try {
          held = JSON.parse(t.caps);
        } catch {
          held = [];
        }
        const list = Array.isArray(held) ? held.filter((c): c is string => typeof c === "string") : [];
        this.db
          .prepare("UPDATE tokens SET caps = ? WHERE token = ?")
          .run(JSON.stringify(narrowCaps(list, caps)), t.token);
      }
    })();
    this.#credentialsChanged(userId);
  }

  /**
   * What a socket authenticated with a token or an API key may do now: `caps` the key's or the
   * token's current capabilities (null: a session's own token, everything its user may), and
   * `until`, when to check again (null: an API key, which has no expiry). Not ok, with the reason
   * the socket is told, once the key or token is gone (deleted, logged out, revoked with its key),
   * the token has expired, its sign-in session reached the cap (`keep_session_alive` off) or its
   * account is frozen — the socket is then signed out (exchange/ws-account.ts). A session's own token (or a sub-account context of
   * it) is renewed by new tokens of the session (`w/token`) while the socket keeps the one it
   * signed in with, so such a socket lives while its session holds a live token of that kind; a
   * token limited to capabilities or minted with a key lives to its own expiry.
   */
  recheck(cred: Credential, now: number): Recheck {
    if (cred.token === null) {
      const key = this.db
        .prepare("SELECT k.caps, u.frozen FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key = ?")
        .get(cred.keyId) as { caps: string; frozen: number } | undefined;
      if (!key) return { ok: false, msg: "apikey: revoked" };
      if (key.frozen === 1) return { ok: false, msg: "account: frozen" };
      return { ok: true, caps: capsList(key.caps), until: null };
    }
    const row = this.db
      .prepare("SELECT api_key, expires_at, caps, session_id, context_master FROM tokens WHERE token = ?")
      .get(cred.token) as
      | {
          api_key: string | null;
          expires_at: number;
          caps: string;
          session_id: number | null;
          context_master: number | null;
        }
      | undefined;
    if (!row || row.api_key !== cred.keyId) return { ok: false, msg: "token: revoked" };
    let until = row.expires_at;
    // Only once the token itself has expired are the session's renewals looked for (a scan of its
    // tokens): until then its own expiry is when to look again.
    const renewable =
      row.session_id !== null && row.api_key === null && (row.caps === "null" || row.context_master !== null);
    if (until <= now && renewable) {
      const latest = this.db
        .prepare(
          "SELECT MAX(expires_at) AS m FROM tokens WHERE session_id = ? AND api_key IS NULL AND (caps = 'null' OR context_master IS NOT NULL)",
        )
        .get(row.session_id) as { m: number | null };
      until = Math.max(until, latest.m ?? 0);
    }
    if (until <= now) return { ok: false, msg: "token: expired" };
    // The rest as a call would be checked: frozen, the session cap, a context's master session.
    const check = this.#checkToken(cred.token, now, false);
    if (!check.ok) return { ok: false, msg: check.msg === "token: invalid" ? "token: revoked" : check.msg };
    if (row.session_id !== null) {
      // The cap is checked again when it comes, whatever keep_session_alive says now: it may be
      // turned off (a tightening, at once) before then.
      const s = this.db.prepare("SELECT created_at FROM sessions WHERE id = ?").get(row.session_id) as
        { created_at: number } | undefined;
      if (s && s.created_at + SESSION_MAX_MS > now) until = Math.min(until, s.created_at + SESSION_MAX_MS);
    }
    return { ok: true, caps: check.caps ?? null, until };
  }

  /**
   * Tells the sockets of `userId` to check their credentials again: what a session may do changed
   * outside this class (the address lock of server/security-settings.ts).
   */
  credentialsChanged(userId: number): void {
    this.#credentialsChanged(userId);
  }

  #credentialsChanged(userId: number): void {
    for (const l of this.#credentialListeners) {
      try {
        l(userId);
      } catch {
        // A listener's failure must not undo a committed revocation; the socket re-checks on input.
      }
    }
  }

  createApiKey(
    userId: number,
    label: string,
    caps: readonly string[],
    now: number,
    fixed?: { key: string; secret: string },
    /** The key's IP allowlist (api-keys.ts `keyAllowsAddress`); empty: any address. */
    options: { readonly ipAllow?: readonly string[] } = {},
  ): { key: string; secret: string } {
    const key = fixed?.key ?? randomBytes(20).toString("hex");
    const secret = fixed?.secret ?? randomBytes(24).toString("hex");
    // One row holds the whole key (capabilities and allowlist included): it exists whole or not at all.
    this.db
      .prepare(
        "INSERT INTO api_keys (key, user_id, secret, label, caps, created_at, ip_allow) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(key, userId, secret, label, JSON.stringify(caps), now, JSON.stringify(options.ipAllow ?? []));
    return { key, secret };
  }

  /**
   * Takes TOTP step `step` for `userId` if it is later than the last one accepted (false: seen
   * already). Kept in the database, in one conditional write: the two API hosts, and any other
   * process on the same file, accept a code once between them — for sign-in, key creation and
   * security changes alike.
   */
  useTotpStep(userId: number, step: number): boolean {
    return (
      this.db.prepare("UPDATE users SET tfa_last_step = ? WHERE id = ? AND tfa_last_step < ?").run(step, userId, step)
        .changes === 1
    );
  }

  /**
   * Verifies `sig = hex(HMAC-SHA384(secret, payload))` for an API key and moves its nonce forward;
   * a nonce not above the last one is refused (10114), as is one further ahead of `now` (ms) than
   * MAX_NONCE_LEAD_US, an unknown key or a bad signature. The caller makes sure the signed `payload`
   * contains the nonce, so a captured signature cannot be replayed with another nonce.
   */
  checkSignature(key: string, payload: string, sig: string, nonce: number, now: number): AuthCheck {
    const row = this.db
      .prepare(
        "SELECT k.user_id, k.secret, k.last_nonce, k.caps, u.frozen FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key = ?",
      )
      .get(key) as { user_id: number; secret: string; last_nonce: number; caps: string; frozen: number } | undefined;
    const expected = createHmac("sha384", row?.secret ?? "no-such-key")
      .update(payload)
      .digest("hex");
    if (!row || !safeEqual(expected, sig)) return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "apikey: invalid" };
    // Checked after the signature: only the key's holder learns that its account is frozen.
    if (row.frozen === 1) return { ok: false, code: ERROR_CODES.AUTH_FAILED, msg: "account: frozen" };
    if (!Number.isSafeInteger(nonce) || nonce <= row.last_nonce)
      return { ok: false, code: ERROR_CODES.AUTH_NONCE, msg: "nonce: small" };
    // A nonce far in the future would be accepted once and then lock the key's owner out until the
    // clock caught up (2^53 − 1: for ever). Clients count in microseconds at most, so anything past
    // now in microseconds plus the allowed lead is refused and the stored nonce does not move.
    if (nonce > now * 1000 + MAX_NONCE_LEAD_US)
      return { ok: false, code: ERROR_CODES.AUTH_NONCE, msg: "nonce: too big" };
    this.db.prepare("UPDATE api_keys SET last_nonce = ? WHERE key = ?").run(nonce, key);
    return { ok: true, userId: row.user_id, caps: JSON.parse(row.caps) as string[], keyId: key };
  }
}

/** A stored capability list; anything but a list of strings (a damaged row) grants nothing. */
function capsList(text: string): string[] {
  let caps: unknown;
  try {
    caps = JSON.parse(text);
  } catch {
    caps = [];
  }
  return Array.isArray(caps) ? caps.filter((c): c is string => typeof c === "string") : [];
}

/** A fixed hash to verify against when the user does not exist, so timing does not tell. */
const hashPasswordDummy = hashPassword("not-a-real-password");
