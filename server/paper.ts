/**
 * Paper trading (docs/product-rules.md#paper-trading): every user may open one paper account, an
 * account of its own funded with TEST currencies only, and act as it the way a master acts as a
 * sub-account — a context token of the owner's sign-in session (server/subaccounts.ts), so it dies
 * with that session, and switching back to live is the sub-accounts' `w/subaccounts/context` with
 * the owner's id.
 *
 * Paths (src/protocol/paper.ts):
 * - `w/paper/open {}` — the caller's paper account, opened and funded on the first call and the
 *   same record on every later one, `paperAccountCodec`;
 * - `w/paper/context {}` — enters it, answered `[TOKEN]`.
 *
 * What a paper account may not do is refused elsewhere: the live pairs at order entry
 * (exchange/orders.ts), the live-only calls in exchange/rest-auth.ts (`paperLiveOnly`). Margin is
 * never gated for it (exchange/verification.ts: the TEST pairs are not).
 */
import { randomBytes } from "node:crypto";
import {
  ERROR_CODES,
  PAPER_ACCOUNT_TYPE,
  PAPER_CONTEXT_PATH,
  PAPER_NOT_ALLOWED_MESSAGE,
  PAPER_OPEN_PATH,
  PAPER_OPENING_BALANCES,
  paperAccountCodec,
  type PaperAccount,
  type UserInfo,
} from "../src/protocol/index.ts";
import type { AccountGateway } from "./exchange/account-gateway.ts";
import { paperOwnerOf, paperTables } from "./exchange/paper-accounts.ts";
import { fail, ok, type Reply } from "./reply.ts";
import { hashPassword, type AuthCheck } from "./store/accounts.ts";
import { toUnits, type Db } from "./store/db.ts";
import { subaccountsOf } from "./subaccounts.ts";

type Authed = Extract<AuthCheck, { ok: true }>;

/** The ledger text of the opening balances. */
const OPENING_TEXT = "Paper trading opening balance";

const refuse = (): Reply => fail(ERROR_CODES.GENERIC, PAPER_NOT_ALLOWED_MESSAGE);

/** User info's fields for a paper account (exchange/rest-auth.ts `userInfo`); none for a live one. */
export function paperInfo(db: Db, userId: number): Partial<UserInfo> {
  const owner = paperOwnerOf(db, userId);
  return owner === null ? {} : { subaccountType: PAPER_ACCOUNT_TYPE, groupId: owner, isGroupMaster: false };
}

const instances = new WeakMap<AccountGateway, Paper>();

/** The one Paper of an account gateway. */
export function paperOf(gate: AccountGateway): Paper {
  let p = instances.get(gate);
  if (!p) {
    p = new Paper(gate);
    instances.set(gate, p);
  }
  return p;
}

export class Paper {
  readonly db: Db;

  constructor(readonly gate: AccountGateway) {
    this.db = gate.accounts.db;
    paperTables(this.db);
  }

  /** The paper calls; null for any other path. Runs after authentication (exchange/rest-auth.ts). */
  handle(auth: Authed, path: string, now: number): Reply | null {
    if (path === PAPER_OPEN_PATH) return this.#open(auth, now);
    if (path === PAPER_CONTEXT_PATH) return this.#enter(auth, now);
    return null;
  }

  /** The paper account of `ownerId`, when it has opened one. */
  accountOf(ownerId: number): PaperAccount | null {
    const row = this.db
      .prepare(
        "SELECT p.user_id, p.owner_id, p.created_at, u.username FROM paper_accounts p JOIN users u ON u.id = p.user_id WHERE p.owner_id = ?",
      )
      .get(ownerId) as { user_id: number; owner_id: number; created_at: number; username: string } | undefined;
    return row ? { id: row.user_id, username: row.username, mtsCreate: row.created_at, ownerId: row.owner_id } : null;
  }

  #open(auth: Authed, now: number): Reply {
    // The owner's own session only: not a key, not a context (a sub-account or the paper account
    // itself opens none — rest-auth refuses the paper account first with the live-only answer).
    const owner = auth.context ? null : subaccountsOf(this.gate).masterOf(auth);
    if (owner === null || owner !== auth.userId) return refuse();
    const known = this.accountOf(owner);
    if (known) return ok(paperAccountCodec.encode(known));
    const o = this.gate.accounts.byId(owner);
    if (!o) return refuse();
    // Hashed before the transaction (scrypt is slow); nobody ever signs in with it: the paper
    // account is reached through its owner's session only.
    const unusable = hashPassword(randomBytes(32).toString("hex"));
    this.gate.events.atomically(() => {
      // Two tabs opening at once: the second finds the first's row inside its own transaction.
      if (this.accountOf(owner)) return;
      const r = this.db
        .prepare(
          `INSERT INTO users (email, username, password_hash, created_at, email_verified, verification_level, locale)
           VALUES (?, ?, ?, ?, 1, ?, ?)`,
        )
        // A "~" never passes the sign-up's username rule, so no one can take the name first; the
        // address is under the reserved `.invalid` domain, no one's mailbox.
        .run(`paper-${owner}@paper.invalid`, `${o.username}~paper`, unusable, now, o.verification_level, o.locale);
      const id = Number(r.lastInsertRowid);
      this.db
        .prepare("INSERT INTO paper_accounts (user_id, owner_id, created_at) VALUES (?, ?, ?)")
        .run(id, owner, now);
      for (const b of PAPER_OPENING_BALANCES)
        this.gate.balances.move(id, b.wallet, b.currency, toUnits(b.amount), 0, OPENING_TEXT);
    });
    const opened = this.accountOf(owner);
    return opened ? ok(paperAccountCodec.encode(opened)) : refuse();
  }

  #enter(auth: Authed, now: number): Reply {
    const token = subaccountsOf(this.gate).enter(auth, (master) => this.accountOf(master)?.id ?? null, now);
    return token === null ? refuse() : ok([token]);
  }
}
