/**
 * The security settings (docs/product-rules.md#account-security-settings) on the server: reading
 * and changing them, the changes that wait for a mailed confirmation, the mailed links that confirm
 * or cancel such a change, and the sign-in gate the settings put on every login (address lock, a
 * mailed confirmation for a new address, single login, the sign-in mail, the two-factor fallback).
 *
 * A change that loosens the account's protection (src/protocol `changeLoosens`) is stored as
 * pending and mailed to the owner with a confirm and a cancel link; only the confirm link applies
 * it. A tightening applies at once. Links are single-use random tokens stored as a SHA-256 only,
 * working SECURITY_CHANGE_TTL_MS (a sign-in's: LOGIN_CONFIRM_TTL_MS); a new change of the same
 * setting replaces the pending one and its link. Every write is one SQLite transaction: a refused
 * value changes nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import {
  changeLoosens,
  checkSettingValue,
  ERROR_CODES,
  ipLockList,
  LOGIN_CONFIRM_TTL_MS,
  SECURITY_CHANGE_NAMES,
  SECURITY_CHANGE_TTL_MS,
  settingOn,
  type SecurityChangeName,
} from "../src/protocol/index.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Client } from "./security.ts";
import type { Accounts } from "./store/accounts.ts";
import {
  hasSignedIn,
  IP_LOCK_REFUSAL,
  ipLockAllows,
  knownAddress,
  onAddressList,
  plainPeer,
  securitySetting,
} from "./store/security-settings.ts";

type Mailer = (to: string, subject: string, body: string) => void;

/** The page that opens a change's mailed links (src/pages/ConfirmSecurityChangePage.tsx). */
export const CHANGE_LINK_PATH = "/confirm-security-change";
/** The page that opens a new address's mailed sign-in link (src/pages/LoginConfirmPage.tsx). */
export const LOGIN_CONFIRM_PATH = "/login-confirm";

/** The authenticated calls (session tokens only, through server/security.ts). */
export const SETTINGS_PATHS: ReadonlySet<string> = new Set([
  "/v2/auth/r/int/security/settings",
  "/v2/auth/w/int/security/settings",
  "/v2/auth/w/int/security/pending/cancel",
]);

/** What the owner reads in a mail for each setting. */
const LABELS: Readonly<Record<SecurityChangeName, string>> = {
  keep_session_alive: "keep sessions alive",
  email_on_login: "e-mail on every sign-in",
  nosinglelogin: "single login",
  ip_lock: "sign-in address lock",
  no_enforce_withdrawal_check: "withdrawal confirmation",
  lock_on_new_ip: "confirm sign-ins from new addresses",
  two_fa_fallback: "two-factor fallback",
};

/** A value as the owner reads it in a mail (the page's "on" for single login is a stored "0"). */
function spoken(name: SecurityChangeName, value: string): string {
  if (name === "ip_lock") return value === "0" ? "off" : `only ${ipLockList(value).join(", ")}`;
  // "withdrawal confirmation" reads on when the check is enforced, the inverse of the stored flag.
  if (name === "no_enforce_withdrawal_check") return value === "1" ? "off" : "on";
  return settingOn(name, value) ? "on" : "off";
}

const refuse = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);
const digest = (token: string): string => createHash("sha256").update(token).digest("hex");
const isName = (v: unknown): v is SecurityChangeName =>
  typeof v === "string" && (SECURITY_CHANGE_NAMES as readonly string[]).includes(v);
const tokenOf = (v: unknown): string | null => (typeof v === "string" && /^[0-9a-f]{64}$/.test(v) ? v : null);

interface ChangeRow {
  readonly token_hash: string;
  readonly user_id: number;
  readonly name: SecurityChangeName;
  readonly value: string;
  readonly created_at: number;
  readonly expires_at: number;
}

interface LoginRow {
  readonly token_hash: string;
  readonly user_id: number;
  readonly address: string;
  readonly agent: string;
  readonly created_at: number;
  readonly expires_at: number;
}

export class SecuritySettings {
  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
    readonly mail: Mailer,
  ) {}

  // --- the sign-in gate --------------------------------------------------------------------------

  /** `ip_lock`: the refusal of a sign-in from an address off the account's list, or null. */
  addressRefusal(userId: number, address: string | null): Reply | null {
    return ipLockAllows(this.accounts.db, userId, address) ? null : fail(ERROR_CODES.AUTH_FAILED, IP_LOCK_REFUSAL, 400);
  }

  /**
   * The second factors a sign-in accepts: all the account has, or — with `two_fa_fallback` off and
   * more than one — only the first (`tfaTypes[0]`, the one the app offers first).
   */
  acceptedFactors(userId: number, factors: readonly string[]): string[] {
    const fallback = settingOn("two_fa_fallback", securitySetting(this.accounts.db, userId, "two_fa_fallback"));
    return factors.length > 1 && !fallback ? factors.slice(0, 1) : [...factors];
  }

  /**
   * A sign-in that proved its password and second factor: refused off the `ip_lock` list; held for
   * a mailed confirmation (`{confirmLogin: "email"}`) from an address the account never signed in
   * from while `lock_on_new_ip` is on (the very first sign-in has nothing to compare with); else
   * the session starts (`start`), the account's other sessions end with single login on, and the
   * owner is mailed with `email_on_login` on. Answers the token as `[TOKEN]`.
   */
  signIn(userId: number, client: Client, start: (userId: number, client: Client) => string): Reply {
    const db = this.accounts.db;
    const refused = this.addressRefusal(userId, client.address);
    if (refused) return refused;
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "login: invalid", 400);
    const address = client.address === null ? null : plainPeer(client.address);
    if (
      settingOn("lock_on_new_ip", securitySetting(db, userId, "lock_on_new_ip")) &&
      hasSignedIn(db, userId) &&
      (address === null || !(knownAddress(db, userId, address) || this.#confirmedAddress(userId, address)))
    ) {
      this.#holdSignIn(userId, user.email, address ?? "unknown", client.agent);
      return ok({ confirmLogin: "email" });
    }
    const token = start(userId, client);
    const session = this.accounts.sessionOfToken(token);
    // settingOn reads "single login" for nosinglelogin: on at a stored "0".
    if (settingOn("nosinglelogin", securitySetting(db, userId, "nosinglelogin")))
      this.accounts.revokeSessions(userId, (s) => s !== session);
    if (settingOn("email_on_login", securitySetting(db, userId, "email_on_login")))
      this.mail(
        user.email,
        "New sign-in to your account",
        `Your account was signed in to at ${new Date(this.now()).toISOString()} from ${address ?? "an unknown address"}` +
          ` (${client.agent.slice(0, 200) || "unknown browser"}). If this was not you, change your password at once.`,
      );
    return ok([token]);
  }

  /** Whether the owner confirmed, by the mailed link, sign-ins of `userId` from `address`. */
  #confirmedAddress(userId: number, address: string): boolean {
    const rows = this.accounts.db
      .prepare("SELECT address FROM login_confirmations WHERE user_id = ? AND state = 'confirmed'")
      .all(userId) as { address: string }[];
    return onAddressList(
      rows.map((r) => r.address),
      address,
    );
  }

  /** Stores a sign-in waiting for its mailed confirmation and mails the link (one live per address). */
  #holdSignIn(userId: number, email: string, address: string, agent: string): void {
    const db = this.accounts.db;
    const now = this.now();
    const token = randomBytes(32).toString("hex");
    db.transaction(() => {
      db.prepare(
        "UPDATE login_confirmations SET state = 'replaced', decided_at = ? WHERE user_id = ? AND address = ? AND state = 'pending'",
      ).run(now, userId, address);
      db.prepare(
        "INSERT INTO login_confirmations (token_hash, user_id, address, agent, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(digest(token), userId, address, agent.slice(0, 300), now, now + LOGIN_CONFIRM_TTL_MS);
      this.mail(
        email,
        "Confirm a sign-in from a new address",
        `Someone signed in to your account with your password from ${address}, an address it was never used from ` +
          `(${agent.slice(0, 200) || "unknown browser"}, ${new Date(now).toISOString()}). To let this address in, ` +
          `open ${LOGIN_CONFIRM_PATH}?token=${token} within 30 minutes and confirm, then sign in again. ` +
          `If this was not you, open the same link and cancel, then change your password.`,
      );
    })();
  }

  // --- the security page's calls -------------------------------------------------------------------

  /** Live pending changes of `userId` by setting. */
  #pending(userId: number): Record<string, { val: string; created: number; expires: number }> {
    const rows = this.accounts.db
      .prepare(
        "SELECT name, value, created_at, expires_at FROM security_changes WHERE user_id = ? AND state = 'pending' AND expires_at > ? ORDER BY created_at",
      )
      .all(userId, this.now()) as { name: string; value: string; created_at: number; expires_at: number }[];
    return Object.fromEntries(
      rows.map((r) => [r.name, { val: r.value, created: r.created_at, expires: r.expires_at }] as const),
    );
  }

  /** The authenticated calls (SETTINGS_PATHS) of `userId`, a session's own token (security.ts checks). */
  handle(userId: number, path: string, body: Record<string, unknown>, client: Client): Reply {
    const db = this.accounts.db;
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    switch (path) {
      case "/v2/auth/r/int/security/settings":
        return ok({
          settings: Object.fromEntries(SECURITY_CHANGE_NAMES.map((n) => [n, securitySetting(db, userId, n)] as const)),
          pendingChanges: this.#pending(userId),
          // The address this call came from: the page offers it for the address lock.
          address: client.address === null ? null : plainPeer(client.address),
        });
      case "/v2/auth/w/int/security/settings":
        return this.#change(userId, user.email, body, client);
      case "/v2/auth/w/int/security/pending/cancel": {
        const name = body["setting"];
        if (!isName(name)) return refuse("setting: invalid");
        const dropped = db
          .prepare(
            "UPDATE security_changes SET state = 'cancelled', decided_at = ? WHERE user_id = ? AND name = ? AND state = 'pending' AND expires_at > ?",
          )
          .run(this.now(), userId, name, this.now()).changes;
        return dropped > 0 ? ok([1]) : refuse("pending: none");
      }
      default:
        return fail(ERROR_CODES.PARAMS, "not found", 404);
    }
  }

  /** `w/int/security/settings {setting, val}`: applies a tightening, holds a loosening for the mail. */
  #change(userId: number, email: string, body: Record<string, unknown>, client: Client): Reply {
    const name = body["setting"];
    if (!isName(name)) return refuse("setting: invalid");
    const checked = checkSettingValue(name, body["val"], isIP);
    if (!checked.ok) {
      const p = checked.problem;
      if (p.kind === "invalid") return refuse(`ip_lock: invalid address ${p.entry.slice(0, 64)}`);
      if (p.kind === "too-many") return refuse("ip_lock: too many addresses");
      if (p.kind === "empty") return refuse("ip_lock: empty");
      return refuse("val: invalid");
    }
    const val = checked.value;
    // A lock that leaves out the address this very call comes from would end the caller's own
    // session the moment it applied: the owner must keep the address they are using.
    if (name === "ip_lock" && val !== "0" && !onAddressList(ipLockList(val), client.address))
      return refuse("ip_lock: your current address must be on the list");
    const db = this.accounts.db;
    const now = this.now();
    const token = randomBytes(32).toString("hex");
    const outcome = db.transaction((): "unchanged" | "applied" | "pending" => {
      // A new request for the setting replaces what was waiting: its link stops working.
      db.prepare(
        "UPDATE security_changes SET state = 'replaced', decided_at = ? WHERE user_id = ? AND name = ? AND state = 'pending'",
      ).run(now, userId, name);
      const current = securitySetting(db, userId, name);
      if (val === current) return "unchanged";
      if (!changeLoosens(name, current, val)) {
        this.#store(userId, name, val);
        return "applied";
      }
      db.prepare(
        "INSERT INTO security_changes (token_hash, user_id, name, value, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).run(digest(token), userId, name, val, now, now + SECURITY_CHANGE_TTL_MS);
      this.mail(
        email,
        "Confirm a change to your security settings",
        `Someone signed in to your account asked to set "${LABELS[name]}" to ${spoken(name, val)}. It takes effect ` +
          `only when you confirm: ${CHANGE_LINK_PATH}?token=${token} (within 1 hour; the link works once). ` +
          `To drop it, open ${CHANGE_LINK_PATH}?token=${token}&action=cancel. If this was not you, cancel it and ` +
          "change your password.",
      );
      return "pending";
    })();
    // A lock or a shorter session life reaches the account's open sockets now, not at their next check.
    if (outcome === "applied" && (name === "ip_lock" || name === "keep_session_alive")) {
      this.accounts.credentialsChanged(userId);
    }
    if (outcome === "pending") return ok({ pending: { val, expires: now + SECURITY_CHANGE_TTL_MS } });
    return ok({ applied: { val } });
  }

  #store(userId: number, name: SecurityChangeName, val: string): void {
    this.accounts.db
      .prepare(
        "INSERT INTO security_settings (user_id, name, value) VALUES (?, ?, ?) ON CONFLICT(user_id, name) DO UPDATE SET value = excluded.value",
      )
      .run(userId, name, val);
  }

  // --- the mailed links (public host) ----------------------------------------------------------------

  /** A change's link while it works: pending, not expired, not replaced. */
  #liveChange(token: unknown): ChangeRow | null {
    const t = tokenOf(token);
    if (t === null) return null;
    const row = this.accounts.db
      .prepare(
        "SELECT token_hash, user_id, name, value, created_at, expires_at FROM security_changes WHERE token_hash = ? AND state = 'pending'",
      )
      .get(digest(t)) as ChangeRow | undefined;
    return row && row.expires_at > this.now() ? row : null;
  }

  #liveLogin(token: unknown): LoginRow | null {
    const t = tokenOf(token);
    if (t === null) return null;
    const row = this.accounts.db
      .prepare(
        "SELECT token_hash, user_id, address, agent, created_at, expires_at FROM login_confirmations WHERE token_hash = ? AND state = 'pending'",
      )
      .get(digest(t)) as LoginRow | undefined;
    return row && row.expires_at > this.now() ? row : null;
  }

  /**
   * The mailed links' calls, needing no sign-in (the link's token is the proof): a change's
   * `/v2/int/security/change/{check,confirm,cancel}` and a new address's
   * `/v2/int/login/confirm/{check,…}`; null for any other path. Opening a link only checks it: the
   * page asks before confirming, so a mail scanner that fetches links changes nothing.
   */
  handlePublic(path: string, body: Record<string, unknown>): Reply | null {
    const db = this.accounts.db;
    const now = this.now();
    switch (path) {
      case "/v2/int/security/change/check": {
        const row = this.#liveChange(body["token"]);
        return row
          ? ok({ setting: row.name, val: row.value, created: row.created_at, expires: row.expires_at })
          : refuse("token: invalid");
      }
      case "/v2/int/security/change/confirm":
      case "/v2/int/security/change/cancel": {
        const confirm = path.endsWith("/confirm");
        const done = db.transaction((): ChangeRow | null => {
          const row = this.#liveChange(body["token"]);
          if (!row) return null;
          db.prepare("UPDATE security_changes SET state = ?, decided_at = ? WHERE token_hash = ?").run(
            confirm ? "applied" : "cancelled",
            now,
            row.token_hash,
          );
          if (confirm) this.#store(row.user_id, row.name, row.value);
          return row;
        })();
        if (!done) return refuse("token: invalid");
        if (confirm && (done.name === "ip_lock" || done.name === "keep_session_alive")) {
          this.accounts.credentialsChanged(done.user_id);
        }
        return ok([1]);
      }
      case "/v2/int/login/confirm/check": {
        const row = this.#liveLogin(body["token"]);
        return row
          ? ok({ address: row.address, agent: row.agent, created: row.created_at, expires: row.expires_at })
          : refuse("token: invalid");
      }
      case "/v2/int/login/confirm":
      case "/v2/int/login/confirm/cancel": {
        const confirm = path === "/v2/int/login/confirm";
        const changed = db.transaction((): boolean => {
          const row = this.#liveLogin(body["token"]);
          if (!row) return false;
          db.prepare("UPDATE login_confirmations SET state = ?, decided_at = ? WHERE token_hash = ?").run(
            confirm ? "confirmed" : "cancelled",
            now,
            row.token_hash,
          );
          return true;
        })();
        return changed ? ok([1]) : refuse("token: invalid");
      }
      default:
        return null;
    }
  }
}
