/**
 * Sub-accounts (docs/product-rules.md#sub-accounts): a master opens accounts of its own group,
 * lists them with their balances, acts in their context, and moves funds between them and itself
 * (the transfer is `w/transfer` with `user_id_dst` or `email_dst`: exchange/funds.ts).
 *
 * Paths (Bitfinex documents the two reads; the writes follow its naming):
 * - `r/subaccounts` — the caller's sub-accounts (group masters never listed), `subaccountRowCodec`;
 * - `r/subaccounts/balances {ccy?, type?}` — every wallet of the group, the master's first
 *   (`subaccountBalanceCodec`); a sub-account sees only its own;
 * - `w/subaccounts/create {username, type, readOnly}` — a new sub-account, answered as its row;
 * - `w/subaccounts/context {id, readOnly?}` — switches the session to acting as `id` (one of the
 *   master's sub-accounts, or the master itself to switch back), answered `[TOKEN]`;
 * - `w/subaccounts/settings {disableContextSwitch}` — the group's setting, answered `[0|1]`.
 *
 * A context is a token of the sub-account minted with the master's session token (or with another
 * context token of the same session): it belongs to the master's sign-in session and dies with it —
 * logout, "end this session" (server/security.ts), a freeze — and ending it (its logout) ends that
 * session. A read-only context (the sub-account's flag, or asked for) carries read-only
 * capabilities, so every write is refused — REST, socket inputs, keys, settings — and REST names
 * the reason (`READ_ONLY_CONTEXT_MESSAGE`, exchange/rest-auth.ts).
 *
 * A sub-account has no password anyone knows (a random one is hashed) and an address under the
 * reserved `.invalid` domain: it is reached through its master only. It inherits the master's
 * verification level and compliance answers when it is opened.
 */
import { randomBytes } from "node:crypto";
import {
  CONTEXT_SWITCH_DISABLED_MESSAGE,
  decodeSubaccountRequest,
  ERROR_CODES,
  MAX_SUBACCOUNTS,
  SUBACCOUNT_WALLET_TYPES,
  subaccountBalanceCodec,
  subaccountRefusalMessage,
  subaccountRowCodec,
  TOKEN_EXPIRY_MS,
  walletCodec,
  type SubaccountRefusal,
  type UserInfo,
} from "../src/protocol/index.ts";
import { tokenGrant } from "./api-keys.ts";
import type { AccountGateway } from "./exchange/account-gateway.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { hashPassword, type AuthCheck, type SubaccountContext } from "./store/accounts.ts";
import type { Db } from "./store/db.ts";

type Authed = Extract<AuthCheck, { ok: true }>;

/** What a read-only context may do: read everything, write nothing (api-keys.ts letters). */
export const READ_ONLY_CAPS: readonly string[] = ["a:r", "o:r", "p:r", "f:r", "s:r", "w:r"];

interface SubRow {
  user_id: number;
  master_id: number;
  type: string;
  read_only: number;
  created_at: number;
  username: string;
}

const refuse = (r: SubaccountRefusal, status = 500): Reply =>
  fail(status === 400 ? ERROR_CODES.PARAMS : ERROR_CODES.GENERIC, subaccountRefusalMessage(r), status);

/** The sub-account row of `userId`, or undefined when it is no sub-account. */
export function subaccountOf(db: Db, userId: number): SubRow | undefined {
  return db
    .prepare("SELECT s.*, u.username FROM subaccounts s JOIN users u ON u.id = s.user_id WHERE s.user_id = ?")
    .get(userId) as SubRow | undefined;
}

function groupSwitchDisabled(db: Db, masterId: number): boolean {
  const row = db.prepare("SELECT disable_context_switch FROM subaccount_groups WHERE master_id = ?").get(masterId) as
    { disable_context_switch: number } | undefined;
  return row?.disable_context_switch === 1;
}

/** User info's group fields for `userId` (exchange/rest-auth.ts `userInfo`). */
export function subaccountInfo(db: Db, userId: number): Partial<UserInfo> {
  const sub = subaccountOf(db, userId);
  if (sub)
    return {
      subaccountType: sub.type,
      groupId: sub.master_id,
      masterAccountId: sub.master_id,
      inheritMasterAccountVerification: true,
      isGroupMaster: false,
      groupAllowDisableContextSwitch: false,
      groupDisableContextSwitch: groupSwitchDisabled(db, sub.master_id),
    };
  const group = db.prepare("SELECT disable_context_switch FROM subaccount_groups WHERE master_id = ?").get(userId) as
    { disable_context_switch: number } | undefined;
  if (!group) return {};
  return {
    groupId: userId,
    isGroupMaster: true,
    groupAllowDisableContextSwitch: true,
    groupDisableContextSwitch: group.disable_context_switch === 1,
  };
}

/** Which paths of a context credential must work even when it is read-only (switching, tokens, logout). */
export const CONTEXT_PATHS: ReadonlySet<string> = new Set([
  "/v2/auth/w/subaccounts/context",
  "/v2/auth/w/token",
  "/v2/auth/w/user/token/generate",
  "/v2/auth/w/token/del",
]);

const instances = new WeakMap<AccountGateway, SubAccounts>();

/** The one SubAccounts of an account gateway (both API hosts share it, and its credential listener). */
export function subaccountsOf(gate: AccountGateway): SubAccounts {
  let s = instances.get(gate);
  if (!s) {
    s = new SubAccounts(gate);
    instances.set(gate, s);
  }
  return s;
}

export class SubAccounts {
  readonly db: Db;

  constructor(readonly gate: AccountGateway) {
    this.db = gate.accounts.db;
    // A master's session ended (logout, "end this session", a freeze, a revoked token): the
    // contexts minted in it go too, and the sockets signed in with them are closed.
    gate.accounts.onCredentialsChanged((userId) => this.#sweep(userId));
  }

  /**
   * The sub-account calls, and a context credential's own token calls; null for any other path.
   * Runs after authentication and the read-only check (exchange/rest-auth.ts).
   */
  handle(auth: Authed, path: string, body: Record<string, unknown>, now: number): Reply | null {
    const user = auth.userId;
    switch (path) {
      case "/v2/auth/r/subaccounts":
        return ok(this.#list(user).map((r) => subaccountRowCodec.encode(r)));
      case "/v2/auth/r/subaccounts/balances":
        return this.#balances(user, body);
      case "/v2/auth/w/subaccounts/create":
        return this.#create(auth, body, now);
      case "/v2/auth/w/subaccounts/context":
        return this.#switch(auth, body, now);
      case "/v2/auth/w/subaccounts/settings":
        return this.#settings(auth, body);
      case "/v2/auth/w/token":
      case "/v2/auth/w/user/token/generate":
        return auth.context ? this.#renewContext(auth, auth.context, body, now) : null;
      case "/v2/auth/w/token/del":
        return this.#logout(auth, body);
      default:
        return null;
    }
  }

  #list(masterId: number) {
    // A group master is never listed: only accounts without sub-accounts of their own (a
    // sub-account cannot open one, so this holds by construction; the query keeps it explicit).
    const rows = this.db
      .prepare(
        `SELECT s.*, u.username FROM subaccounts s JOIN users u ON u.id = s.user_id
         WHERE s.master_id = ? AND NOT EXISTS (SELECT 1 FROM subaccounts x WHERE x.master_id = s.user_id)
         ORDER BY s.created_at, s.user_id`,
      )
      .all(masterId) as SubRow[];
    return rows.map((r) => ({
      id: r.user_id,
      username: r.username,
      type: r.type,
      readOnly: r.read_only === 1,
      mtsCreate: r.created_at,
      masterId: r.master_id,
    }));
  }

  #balances(user: number, body: Record<string, unknown>): Reply {
    const ccy = body["ccy"];
    const type = body["type"];
    if (ccy !== undefined && ccy !== null && (typeof ccy !== "string" || !/^[A-Z0-9]{2,10}$/.test(ccy)))
      return refuse({ field: "currency", reason: "invalid" }, 400);
    if (
      type !== undefined &&
      type !== null &&
      (typeof type !== "string" || !(SUBACCOUNT_WALLET_TYPES as readonly string[]).includes(type))
    )
      return refuse({ field: "wallet", reason: "invalid" }, 400);
    // A sub-account sees its own wallets only; a master its own, then each sub-account's.
    const accounts = subaccountOf(this.db, user) ? [user] : [user, ...this.#list(user).map((r) => r.id)];
    const out: unknown[][] = [];
    for (const id of accounts)
      for (const raw of this.gate.balances.walletsWire(id)) {
        const w = walletCodec.decode(raw);
        if (!w.ok) continue;
        if (typeof ccy === "string" && w.value.currency !== ccy) continue;
        if (typeof type === "string" && w.value.type !== type) continue;
        out.push(
          subaccountBalanceCodec.encode({
            userId: id,
            type: w.value.type,
            currency: w.value.currency,
            balance: w.value.balance,
            available: w.value.available,
          }),
        );
      }
    return ok(out);
  }

  #create(auth: Authed, body: Record<string, unknown>, now: number): Reply {
    const master = auth.userId;
    // A sub-account (acting in a context or not) opens none: groups are one level deep.
    if (auth.context || subaccountOf(this.db, master)) return refuse({ field: "account", reason: "not-allowed" });
    const input = decodeSubaccountRequest(body);
    if (!input.ok) return refuse(input.refusal, 400);
    const { username, type, readOnly } = input.value;
    const m = this.gate.accounts.byId(master);
    if (!m) return refuse({ field: "account", reason: "invalid" });
    // Hashed before the transaction: scrypt is slow, and nobody ever signs in with it.
    const unusable = hashPassword(randomBytes(32).toString("hex"));
    const created = this.gate.events.atomically(() => {
      const count = (
        this.db.prepare("SELECT COUNT(*) AS n FROM subaccounts WHERE master_id = ?").get(master) as { n: number }
      ).n;
      if (count >= MAX_SUBACCOUNTS) return refuse({ field: "account", reason: "limit" });
      const taken = this.db
        .prepare("SELECT 1 FROM users WHERE lower(username) = lower(?) OR email = ?")
        .get(username, addressOf(username, master));
      if (taken) return refuse({ field: "username", reason: "taken" });
      const master_ = this.db.prepare("SELECT us_resident, locale FROM users WHERE id = ?").get(master) as {
        us_resident: number | null;
        locale: string;
      };
      const r = this.db
        .prepare(
          `INSERT INTO users (email, username, password_hash, created_at, email_verified, verification_level, locale, us_resident)
           VALUES (?, ?, ?, ?, 1, ?, ?, ?)`,
        )
        .run(
          addressOf(username, master),
          username,
          unusable,
          now,
          m.verification_level,
          master_.locale,
          master_.us_resident,
        );
      const id = Number(r.lastInsertRowid);
      this.db
        .prepare("INSERT INTO subaccounts (user_id, master_id, type, read_only, created_at) VALUES (?, ?, ?, ?, ?)")
        .run(id, master, type, readOnly ? 1 : 0, now);
      this.db.prepare("INSERT OR IGNORE INTO subaccount_groups (master_id) VALUES (?)").run(master);
      return id;
    });
    if (typeof created !== "number") return created;
    const row = this.#list(master).find((r) => r.id === created);
    return row ? ok(subaccountRowCodec.encode(row)) : refuse({ field: "account", reason: "invalid" });
  }

  /** The acting master and its session behind a credential that may switch contexts; null: it may not. */
  #switcher(auth: Authed): { masterId: number; session: number } | null {
    if (auth.context) return { masterId: auth.context.masterId, session: auth.context.session };
    // The master's own session token only: not a key, not a token limited to capabilities (a
    // context carries more than they do), not one of a session this exchange did not start.
    if (auth.caps !== undefined || auth.keyId !== undefined || auth.token === undefined) return null;
    if (subaccountOf(this.db, auth.userId)) return null;
    const session = this.gate.accounts.sessionOfToken(auth.token);
    return session === null ? null : { masterId: auth.userId, session };
  }

  /**
   * Enters an account the master may act as that is none of its sub-accounts — its paper account
   * (server/paper.ts) — as a context of the master's sign-in session, as `#switch` enters a
   * sub-account. `target` names that account for the acting master (null: it has none). Null when
   * `auth` may not switch contexts or there is nothing to enter.
   */
  enter(auth: Authed, target: (masterId: number) => number | null, now: number): string | null {
    const who = this.#switcher(auth);
    const id = who ? target(who.masterId) : null;
    if (!who || id === null) return null;
    const token = this.#mint(id, { ...who, readOnly: false }, null, now, TOKEN_EXPIRY_MS);
    if (auth.context && auth.token) this.gate.accounts.revokeToken(auth.token);
    return token;
  }

  /** The master behind a credential that may switch contexts (its own session or one of its contexts). */
  masterOf(auth: Authed): number | null {
    return this.#switcher(auth)?.masterId ?? null;
  }

  #switch(auth: Authed, body: Record<string, unknown>, now: number): Reply {
    const who = this.#switcher(auth);
    if (!who) return refuse({ field: "account", reason: "not-allowed" });
    const id = body["id"];
    const ro = body["readOnly"];
    if (typeof id !== "number" || !Number.isSafeInteger(id))
      return refuse({ field: "account", reason: "invalid" }, 400);
    if (ro !== undefined && ro !== 0 && ro !== 1 && ro !== true && ro !== false)
      return refuse({ field: "readOnly", reason: "invalid" }, 400);
    let token: string;
    if (id === who.masterId) {
      // Back to the master: a token of the master's own session (the one it had may have expired
      // while the context was in use; the context's renewals kept the session alive).
      token = this.gate.accounts.issueToken(who.masterId, now, TOKEN_EXPIRY_MS, null, null, who.session);
    } else {
      const sub = subaccountOf(this.db, id);
      if (!sub || sub.master_id !== who.masterId) return refuse({ field: "account", reason: "invalid" });
      if (groupSwitchDisabled(this.db, who.masterId)) return fail(ERROR_CODES.GENERIC, CONTEXT_SWITCH_DISABLED_MESSAGE);
      const readOnly = sub.read_only === 1 || ro === 1 || ro === true;
      token = this.#mint(id, { masterId: who.masterId, session: who.session, readOnly }, null, now, TOKEN_EXPIRY_MS);
    }
    // The context switched away from ends (its sockets close); a master's own token lives out its expiry.
    if (auth.context && auth.token) this.gate.accounts.revokeToken(auth.token);
    return ok([token]);
  }

  #settings(auth: Authed, body: Record<string, unknown>): Reply {
    const master = auth.userId;
    if (auth.context || subaccountOf(this.db, master)) return refuse({ field: "account", reason: "not-allowed" });
    const v = body["disableContextSwitch"];
    if (v !== 0 && v !== 1 && v !== true && v !== false) return refuse({ field: "account", reason: "invalid" }, 400);
    const on = v === 1 || v === true ? 1 : 0;
    this.db
      .prepare(
        "INSERT INTO subaccount_groups (master_id, disable_context_switch) VALUES (?, ?) ON CONFLICT(master_id) DO UPDATE SET disable_context_switch = excluded.disable_context_switch",
      )
      .run(master, on);
    return ok([on]);
  }

  /** A context's renewal (`w/token`, `w/user/token/generate`): another token of the same context. */
  #renewContext(auth: Authed, context: SubaccountContext, body: Record<string, unknown>, now: number): Reply {
    const grant = tokenGrant(auth.caps ?? null, body);
    if (!grant.ok) return fail(ERROR_CODES.PARAMS, grant.msg, 400);
    const caps = context.readOnly ? READ_ONLY_CAPS : grant.caps;
    return ok([this.#mint(auth.userId, context, caps, now, grant.ttlMs ?? TOKEN_EXPIRY_MS)]);
  }

  /**
   * `w/token/del` of the credential itself: a context's logout ends the master's session with it
   * (acting as a sub-account is a way of being signed in as the master); a master's logout ends
   * the contexts minted in that session. Other deletions are rest-auth's own.
   */
  #logout(auth: Authed, body: Record<string, unknown>): Reply | null {
    if (body["token"] !== auth.token || auth.token === undefined) return null;
    if (auth.context) {
      const { masterId, session } = auth.context;
      this.gate.accounts.revokeToken(auth.token);
      this.gate.accounts.revokeSessions(masterId, (s) => s === session);
      return ok([1]);
    }
    if (auth.caps === undefined && auth.keyId === undefined) {
      const session = this.gate.accounts.sessionOfToken(auth.token);
      if (session !== null) this.#endContexts(auth.userId, session);
    }
    return null;
  }

  #mint(
    userId: number,
    context: SubaccountContext,
    caps: readonly string[] | null,
    now: number,
    ttlMs: number,
  ): string {
    const token = randomBytes(24).toString("hex");
    const held = context.readOnly ? READ_ONLY_CAPS : caps;
    this.db
      .prepare(
        "INSERT INTO tokens (token, user_id, expires_at, caps, session_id, context_master, context_read_only) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        token,
        userId,
        now + ttlMs,
        JSON.stringify(held),
        context.session,
        context.masterId,
        context.readOnly ? 1 : 0,
      );
    return token;
  }

  #endContexts(masterId: number, session: number): void {
    const rows = this.db
      .prepare("SELECT token FROM tokens WHERE context_master = ? AND session_id = ?")
      .all(masterId, session) as { token: string }[];
    for (const r of rows) this.gate.accounts.revokeToken(r.token);
  }

  /** Contexts of `masterId` whose session has no token of the master left: deleted, sockets told. */
  #sweep(masterId: number): void {
    const rows = this.db
      .prepare(
        `SELECT c.token FROM tokens c WHERE c.context_master = ? AND NOT EXISTS
           (SELECT 1 FROM tokens m WHERE m.user_id = c.context_master AND m.session_id = c.session_id AND m.context_master IS NULL)`,
      )
      .all(masterId) as { token: string }[];
    for (const r of rows) this.gate.accounts.revokeToken(r.token);
  }
}

/**
 * A sub-account's address: under the reserved `.invalid` domain (RFC 2606), so it can never be
 * anyone's mailbox nor collide with an address someone signs up with. `w/transfer`'s `email_dst`
 * takes it.
 */
function addressOf(username: string, masterId: number): string {
  return `${username.toLowerCase()}@sub-${masterId}.invalid`;
}
