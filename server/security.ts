/**
 * The account's security page on the server (docs/product-rules.md#account-security): sign-in
 * sessions and their history, "sign out everywhere else", and hardware keys (WebAuthn, the
 * successor of U2F) as a second factor. Attestations and assertions are verified by SimpleWebAuthn,
 * never by hand; a key's public key and signature counter live in SQLite. Every call here needs a
 * session's own token: an API key or a token limited to capabilities may not see or change how the
 * account signs in.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { ERROR_CODES, TOKEN_EXPIRY_MS } from "../src/protocol/index.ts";
import { proveOwner } from "./owner-proof.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { SecuritySettings, SETTINGS_PATHS } from "./security-settings.ts";
import type { Accounts } from "./store/accounts.ts";

/** Who is calling: the peer's address, its `User-Agent`, and the app origin it called from. */
export interface Client {
  readonly address: string | null;
  readonly agent: string;
  /**
   * The `Origin` of the request when it is one the API serves (the app's, or its loopback alias);
   * null otherwise. WebAuthn binds a key to this origin's host name (its relying party).
   */
  readonly origin: string | null;
}

type Mailer = (to: string, subject: string, body: string) => void;

/** What the login history records for an attempt against an existing account. */
type LoginOutcome = "signed-in" | "password" | "otp" | "key" | "sms";

/** How long a key's registration or sign-in challenge waits for its answer. */
const CHALLENGE_MS = 5 * 60_000;
const RP_NAME = "Orderflow";
/** A key's name: what the owner calls it, shown on the security page. */
const KEY_NAME_MAX = 40;
const MAX_KEYS = 10;
const HISTORY_ROWS = 50;

interface KeyRow {
  readonly id: string;
  readonly user_id: number;
  readonly name: string;
  readonly public_key: Buffer;
  readonly counter: number;
  readonly transports: string;
  readonly rp_id: string;
  readonly created_at: number;
  readonly last_used: number | null;
}

const err = (code: number, msg: string): Reply => fail(code, msg, 400);

function transportsOf(row: KeyRow): string[] {
  try {
    const list: unknown = JSON.parse(row.transports);
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

/** The relying party of an origin: its host name (`localhost`, `127.0.0.1` is refused by browsers). */
function rpOf(origin: string): string {
  return new URL(origin).hostname;
}

/** The paths answered here (authenticated host); see `handle`. */
export const SECURITY_PATHS: ReadonlySet<string> = new Set([
  "/v2/auth/r/int/security",
  "/v2/auth/r/int/sessions",
  "/v2/auth/w/int/sessions/revoke",
  "/v2/auth/w/int/sessions/revoke-others",
  "/v2/auth/r/int/logins/hist",
  "/v2/auth/r/int/2fa/key/challenge",
  "/v2/auth/w/int/2fa/key/register",
  "/v2/auth/w/int/2fa/key/rename",
  "/v2/auth/w/int/2fa/key/remove",
  // The security settings and their pending changes (security-settings.ts).
  ...SETTINGS_PATHS,
]);

export class Security {
  /** Registration challenges by user: the challenge and the origin it was issued for. */
  readonly #registering = new Map<number, { challenge: string; origin: string; expires: number }>();
  /** Sign-in challenges by temporary login token. */
  readonly #signing = new Map<string, { challenge: string; origin: string; expires: number }>();

  /** The security settings, their pending changes and the sign-in gate (security-settings.ts). */
  readonly settings: SecuritySettings;

  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
    readonly mail: Mailer,
  ) {
    this.settings = new SecuritySettings(accounts, now, mail);
  }

  // --- sessions and history -------------------------------------------------------------------

  /**
   * A new sign-in session for `userId` from `client`: its row and its first token (renewals of that
   * token carry the session on, `Accounts.issueToken`). Recorded in the login history.
   */
  startSession(userId: number, client: Client): string {
    const db = this.accounts.db;
    const now = this.now();
    return db.transaction(() => {
      const r = db
        .prepare("INSERT INTO sessions (user_id, created_at, address, agent) VALUES (?, ?, ?, ?)")
        .run(userId, now, client.address, client.agent.slice(0, 300));
      this.#record(userId, client, "signed-in");
      return this.accounts.issueToken(userId, now, TOKEN_EXPIRY_MS, null, null, Number(r.lastInsertRowid));
    })();
  }

  /** Records a sign-in attempt against an existing account. */
  recordLogin(userId: number, client: Client, outcome: LoginOutcome): void {
    this.#record(userId, client, outcome);
  }

  #record(userId: number, client: Client, outcome: LoginOutcome): void {
    this.accounts.db
      .prepare("INSERT INTO login_history (user_id, mts, address, agent, outcome) VALUES (?, ?, ?, ?, ?)")
      .run(userId, this.now(), client.address, client.agent.slice(0, 300), outcome);
  }

  /** The user's sessions that still hold a live token, newest first. */
  #sessions(userId: number, current: number | null) {
    const rows = this.accounts.db
      .prepare(
        `SELECT s.id, s.created_at, s.address, s.agent, MAX(t.expires_at) AS expires
         FROM sessions s JOIN tokens t ON t.session_id = s.id
         WHERE s.user_id = ? AND t.expires_at > ? GROUP BY s.id ORDER BY s.created_at DESC, s.id DESC`,
      )
      .all(userId, this.now()) as {
      id: number;
      created_at: number;
      address: string | null;
      agent: string;
      expires: number;
    }[];
    return rows.map((r) => ({
      id: r.id,
      created: r.created_at,
      // A session's token is renewed while its app is open: the latest renewal is when it was last seen.
      lastSeen: Math.max(r.created_at, r.expires - TOKEN_EXPIRY_MS),
      address: r.address,
      agent: r.agent,
      current: r.id === current,
    }));
  }

  // --- hardware keys -----------------------------------------------------------------------------

  keysOf(userId: number): KeyRow[] {
    return this.accounts.db
      .prepare("SELECT * FROM webauthn_keys WHERE user_id = ? ORDER BY created_at, id")
      .all(userId) as KeyRow[];
  }

  /** Sign-in with a key, first half: the assertion options for a login's temporary token. */
  async signInOptions(userId: number, tempToken: string, origin: string | null): Promise<Reply> {
    if (origin === null) return err(ERROR_CODES.PARAMS, "origin: not allowed");
    const rpID = rpOf(origin);
    const keys = this.keysOf(userId).filter((k) => k.rp_id === rpID);
    if (keys.length === 0) return err(ERROR_CODES.AUTH_FAILED, "key: none for this site");
    const options = await generateAuthenticationOptions({
      rpID,
      allowCredentials: keys.map((k) => ({ id: k.id, transports: transportsOf(k) })),
      userVerification: "discouraged",
      timeout: CHALLENGE_MS,
    });
    this.#signing.set(tempToken, { challenge: options.challenge, origin, expires: this.now() + CHALLENGE_MS });
    return ok(options);
  }

  /**
   * Sign-in with a key, second half: true when `response` is a valid assertion, for the challenge
   * issued to `tempToken`, by one of the user's keys, with a signature counter above the stored one
   * (a cloned key's replay is refused). The challenge is spent either way.
   */
  async verifySignIn(userId: number, tempToken: string, response: unknown, origin: string | null): Promise<boolean> {
    const pending = this.#signing.get(tempToken);
    this.#signing.delete(tempToken);
    if (!pending || pending.expires <= this.now() || origin !== pending.origin) return false;
    if (typeof response !== "object" || response === null) return false;
    const id = (response as { id?: unknown }).id;
    const key = this.keysOf(userId).find((k) => k.id === id);
    if (!key) return false;
    try {
      const result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: pending.challenge,
        expectedOrigin: pending.origin,
        expectedRPID: key.rp_id,
        credential: {
          id: key.id,
          publicKey: new Uint8Array(key.public_key),
          counter: key.counter,
          transports: transportsOf(key),
        },
        requireUserVerification: false,
      });
      if (!result.verified) return false;
      // A conditional write: two sign-ins racing with one assertion cannot both move the counter.
      const moved = this.accounts.db
        .prepare(
          "UPDATE webauthn_keys SET counter = ?, last_used = ? WHERE id = ? AND (counter < ? OR (counter = 0 AND ? = 0))",
        )
        .run(
          result.authenticationInfo.newCounter,
          this.now(),
          key.id,
          result.authenticationInfo.newCounter,
          result.authenticationInfo.newCounter,
        );
      return moved.changes === 1;
    } catch {
      return false;
    }
  }

  // --- the REST calls ---------------------------------------------------------------------------
  // A wrong password, code or key answer is a bad parameter (10020): 10100 would end the caller's
  // session (docs/product-rules.md#errors), whose token is fine.

  /**
   * The security page's calls for `userId`, authenticated with `token` (`caps` null: a session's
   * own token; anything else is refused).
   */
  async handle(
    userId: number,
    token: string | null,
    caps: readonly string[] | null,
    path: string,
    body: Record<string, unknown>,
    client: Client,
  ): Promise<Reply> {
    if (caps !== null || token === null) return fail(ERROR_CODES.AUTH_FAILED, "security: a session token is required");
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const db = this.accounts.db;
    const current = this.accounts.sessionOfToken(token);
    switch (path) {
      case "/v2/auth/r/int/security":
        return ok({
          factors: this.accounts.secondFactors(user),
          keys: this.keysOf(userId).map((k) => ({
            id: k.id,
            name: k.name,
            created: k.created_at,
            lastUsed: k.last_used,
            site: k.rp_id,
          })),
        });
      case "/v2/auth/r/int/sessions":
        return ok(this.#sessions(userId, current));
      case "/v2/auth/w/int/sessions/revoke": {
        const id = body["id"];
        if (typeof id !== "number" || !Number.isSafeInteger(id)) return err(ERROR_CODES.PARAMS, "id: invalid");
        if (id === current) return err(ERROR_CODES.PARAMS, "session: sign out to end this one");
        const ended = this.accounts.revokeSessions(userId, (s) => s === id);
        return ended === 0 ? err(ERROR_CODES.PARAMS, "session: not found") : ok([ended]);
      }
      case "/v2/auth/w/int/sessions/revoke-others":
        return ok([this.accounts.revokeSessions(userId, (s) => s !== current)]);
      case "/v2/auth/r/int/logins/hist": {
        const rows = db
          .prepare(
            "SELECT id, mts, address, agent, outcome FROM login_history WHERE user_id = ? ORDER BY mts DESC, id DESC LIMIT ?",
          )
          .all(userId, HISTORY_ROWS);
        return ok(rows);
      }
      case "/v2/auth/r/int/2fa/key/challenge": {
        if (client.origin === null) return err(ERROR_CODES.PARAMS, "origin: not allowed");
        const keys = this.keysOf(userId);
        if (keys.length >= MAX_KEYS) return err(ERROR_CODES.PARAMS, `key: at most ${MAX_KEYS}`);
        const options = await generateRegistrationOptions({
          rpName: RP_NAME,
          rpID: rpOf(client.origin),
          userName: user.username,
          userID: new TextEncoder().encode(`user-${user.id}`),
          attestationType: "none",
          excludeCredentials: keys.map((k) => ({ id: k.id, transports: transportsOf(k) })),
          authenticatorSelection: { residentKey: "discouraged", userVerification: "discouraged" },
          timeout: CHALLENGE_MS,
        });
        this.#registering.set(userId, {
          challenge: options.challenge,
          origin: client.origin,
          expires: this.now() + CHALLENGE_MS,
        });
        return ok(options);
      }
      case "/v2/auth/w/int/2fa/key/register": {
        const name = typeof body["name"] === "string" ? body["name"].trim() : "";
        if (name === "" || name.length > KEY_NAME_MAX) return err(ERROR_CODES.PARAMS, "name: invalid");
        const proof = proveOwner(this.accounts, user, body, this.now());
        if (proof !== null) return err(ERROR_CODES.PARAMS, proof);
        const pending = this.#registering.get(userId);
        if (!pending || pending.expires <= this.now() || client.origin !== pending.origin)
          return err(ERROR_CODES.PARAMS, "key: challenge expired");
        const response = body["response"];
        if (typeof response !== "object" || response === null) return err(ERROR_CODES.PARAMS, "response: invalid");
        let info;
        try {
          const result = await verifyRegistrationResponse({
            response: response as RegistrationResponseJSON,
            expectedChallenge: pending.challenge,
            expectedOrigin: pending.origin,
            expectedRPID: rpOf(pending.origin),
            requireUserVerification: false,
          });
          if (!result.verified) return err(ERROR_CODES.PARAMS, "key: not verified");
          info = result.registrationInfo;
        } catch {
          return err(ERROR_CODES.PARAMS, "key: not verified");
        }
        this.#registering.delete(userId);
        const { credential } = info;
        if (db.prepare("SELECT 1 FROM webauthn_keys WHERE id = ?").get(credential.id))
          return err(ERROR_CODES.PARAMS, "key: already registered");
        db.prepare(
          "INSERT INTO webauthn_keys (id, user_id, name, public_key, counter, transports, rp_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          credential.id,
          userId,
          name,
          Buffer.from(credential.publicKey),
          credential.counter,
          JSON.stringify(credential.transports ?? []),
          rpOf(pending.origin),
          this.now(),
        );
        this.mail(
          user.email,
          "A security key was added",
          `The security key "${name}" can now confirm sign-ins to your account. If this was not you, contact support at once.`,
        );
        return ok([credential.id]);
      }
      case "/v2/auth/w/int/2fa/key/rename": {
        const name = typeof body["name"] === "string" ? body["name"].trim() : "";
        if (name === "" || name.length > KEY_NAME_MAX) return err(ERROR_CODES.PARAMS, "name: invalid");
        const changed = db
          .prepare("UPDATE webauthn_keys SET name = ? WHERE id = ? AND user_id = ?")
          .run(name, String(body["id"]), userId).changes;
        return changed === 1 ? ok([1]) : err(ERROR_CODES.PARAMS, "key: not found");
      }
      case "/v2/auth/w/int/2fa/key/remove": {
        const key = this.keysOf(userId).find((k) => k.id === body["id"]);
        if (!key) return err(ERROR_CODES.PARAMS, "key: not found");
        const proof = proveOwner(this.accounts, user, body, this.now());
        if (proof !== null) return err(ERROR_CODES.PARAMS, proof);
        db.prepare("DELETE FROM webauthn_keys WHERE id = ? AND user_id = ?").run(key.id, userId);
        this.mail(
          user.email,
          "A security key was removed",
          `The security key "${key.name}" no longer confirms sign-ins to your account. If this was not you, contact support at once.`,
        );
        return ok([1]);
      }
      default:
        if (SETTINGS_PATHS.has(path)) return this.settings.handle(userId, path, body, client);
        return fail(ERROR_CODES.PARAMS, "not found", 404);
    }
  }
}
