/**
 * The withdrawal address book and whitelist (docs/product-rules.md#withdrawal-addresses,
 * docs/protocol.md#address-book): `POST /v1/account_address_book_entries {action, …}` and
 * `POST /v1/ui_check_address`, and the check `w/withdraw` makes (exchange/withdrawals.ts asks `withdrawalGate`).
 *
 * - An entry is a currency's address (and payment id) on one network with a label and its
 *   beneficiary (the account holder or a named third party). Addresses are checked by
 *   src/protocol's validators, the ones the page checks as the owner types.
 * - Adding needs the owner's proof — the password, and the current authenticator code when the
 *   account has one (good once) — and turns the currency's whitelist on. A new entry receives
 *   nothing until the owner opens the link mailed to the account's address: a 32-byte random token,
 *   stored as its SHA-256 only, working once within ADDRESS_CONFIRM_TTL_MS, and only for the account
 *   that added it. A mailed link rather than a waiting time: whoever stole the password and the
 *   second factor still needs the mailbox, and the owner learns of the attempt at once.
 * - Loosening — the whitelist off, a currency's withdrawals on again — needs the same proof and
 *   then waits for the owner's mailbox, like a new address: the request is stored as pending and
 *   applies only when the owner's signed-in session opens the mailed link (`?apply=TOKEN`, the
 *   same single-use, hash-stored, expiring token). Password and code alone are what a thief may
 *   hold; the mailbox is what they lack. The page, or a tightening of the same switch, cancels it.
 *   Tightening (whitelist on, withdrawals off, deleting an entry) needs only the session: it is what
 *   someone who sees a stranger in the account reaches for first.
 * - Only a session's own token may use the book: an API key or a token limited to capabilities may
 *   not add where its holder withdraws to.
 *
 * Every write runs in one transaction with its mail: a refusal writes nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  ADDRESS_BOOK_LIMITS,
  addressBookCodec,
  addressCheckCodec,
  addressKey,
  checkAddress,
  checkPaymentId,
  ERROR_CODES,
  labelValid,
  readBeneficiary,
  reviewAddressRows,
  WITHDRAWAL_CURRENCIES,
  WITHDRAWAL_NETWORKS,
  withdrawalNetwork,
  WITHDRAWALS_DISABLED_MARKER,
  type AddressBookEntry,
  type AddressEntryStatus,
  type AddressRow,
  type Beneficiary,
  type WithdrawalMethod,
} from "../src/protocol/index.ts";
import { sendMail } from "./mail.ts";
import { proveOwner } from "./owner-proof.ts";
import { fail, ok, type Reply } from "./reply.ts";
import type { Accounts, UserRow } from "./store/accounts.ts";
import type { Db } from "./store/db.ts";

export const ADDRESS_BOOK_PATH = "/v1/account_address_book_entries";
export const CHECK_ADDRESS_PATH = "/v1/ui_check_address";

/** How long a mailed confirmation link works. */
export const ADDRESS_CONFIRM_TTL_MS = 60 * 60_000;

/** The page the mailed links open (src/pages/AddressBookPage.tsx), with `?confirm=` or `?apply=TOKEN`. */
export const ADDRESS_BOOK_PAGE = "/security/addresses";

const refuse = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);

interface EntryRow {
  readonly id: number;
  readonly currency: string;
  readonly method: string;
  readonly label: string;
  readonly address: string;
  readonly payment_id: string;
  readonly beneficiary: string;
  readonly beneficiary_name: string | null;
  readonly beneficiary_country: string | null;
  readonly created_at: number;
  readonly confirm_expires: number | null;
  readonly confirmed_at: number | null;
}

/**
 * The address book's tables, created on any database that lacks them. Called by the book and by
 * funds.ts, so a withdrawal can be checked on a venue that never served the book.
 */
export function addressBookTables(db: Db): void {
  db.exec(`
CREATE TABLE IF NOT EXISTS address_book (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  method TEXT NOT NULL,
  label TEXT NOT NULL,
  address TEXT NOT NULL,
  address_key TEXT NOT NULL,
  payment_id TEXT NOT NULL DEFAULT '',
  beneficiary TEXT NOT NULL,
  beneficiary_name TEXT,
  beneficiary_country TEXT,
  created_at INTEGER NOT NULL,
  confirm_hash TEXT,
  confirm_expires INTEGER,
  confirmed_at INTEGER,
  UNIQUE (user_id, address_key)
);
CREATE INDEX IF NOT EXISTS address_book_confirm ON address_book(confirm_hash) WHERE confirm_hash IS NOT NULL;
CREATE TABLE IF NOT EXISTS withdrawal_settings (
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  whitelist INTEGER NOT NULL DEFAULT 0,
  disabled INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, currency)
);
-- A loosening waiting for the owner's mailed link: one row per currency, the rows of one request
-- sharing the token's SHA-256. state: pending, applied, cancelled (the page, or the switch
-- tightened again), replaced (a newer request for the same currency and kind).
CREATE TABLE IF NOT EXISTS withdrawal_changes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('whitelist_off', 'enable')),
  token_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  decided_at INTEGER
);
CREATE INDEX IF NOT EXISTS withdrawal_changes_token ON withdrawal_changes(token_hash);
CREATE INDEX IF NOT EXISTS withdrawal_changes_user ON withdrawal_changes(user_id, currency, kind, state);`);
}

/** A loosening of a currency's withdrawals that waits for the mailed link. */
export type WithdrawalChangeKind = "whitelist_off" | "enable";

/** Ends what waits for `kind` on these currencies (`state`: why), so its link stops working. */
function endPending(
  db: Db,
  userId: number,
  currencies: readonly string[],
  kind: WithdrawalChangeKind,
  state: "cancelled" | "replaced",
  now: number,
): number {
  const end = db.prepare(
    "UPDATE withdrawal_changes SET state = ?, decided_at = ? WHERE user_id = ? AND currency = ? AND kind = ? AND state = 'pending'",
  );
  let n = 0;
  for (const c of currencies) n += end.run(state, now, userId, c, kind).changes;
  return n;
}

function settingsOf(db: Db, userId: number, currency: string): { whitelist: boolean; disabled: boolean } {
  const row = db
    .prepare("SELECT whitelist, disabled FROM withdrawal_settings WHERE user_id = ? AND currency = ?")
    .get(userId, currency) as { whitelist: number; disabled: number } | undefined;
  return { whitelist: row?.whitelist === 1, disabled: row?.disabled === 1 };
}

function setSettings(db: Db, userId: number, currency: string, change: { whitelist?: boolean; disabled?: boolean }) {
  const now = settingsOf(db, userId, currency);
  const whitelist = change.whitelist ?? now.whitelist;
  const disabled = change.disabled ?? now.disabled;
  db.prepare(
    "INSERT INTO withdrawal_settings (user_id, currency, whitelist, disabled) VALUES (?, ?, ?, ?) ON CONFLICT(user_id, currency) DO UPDATE SET whitelist = excluded.whitelist, disabled = excluded.disabled",
  ).run(userId, currency, whitelist ? 1 : 0, disabled ? 1 : 0);
}

/**
 * What the account's settings say to a withdrawal of `currency` on `method` to `address`: `disabled`
 * (the currency's withdrawals are off), `whitelist` (its whitelist is on and the destination —
 * address and payment id — is not a confirmed entry of the book), or null. The address is already
 * known to be valid.
 */
export function withdrawalGate(
  db: Db,
  userId: number,
  currency: string,
  method: WithdrawalMethod,
  address: string,
  paymentId: string,
): "disabled" | "whitelist" | null {
  const s = settingsOf(db, userId, currency);
  if (s.disabled) return "disabled";
  if (!s.whitelist) return null;
  const listed = db
    .prepare("SELECT 1 FROM address_book WHERE user_id = ? AND address_key = ? AND confirmed_at IS NOT NULL")
    .get(userId, addressKey(method, address, paymentId));
  return listed ? null : "whitelist";
}

/**
 * The confirmed book entry of `address` on `method` (any payment id; the travel rule's lookup), with
 * its label and permitted beneficiary, or null.
 */
export function confirmedEntryOf(
  db: Db,
  userId: number,
  method: WithdrawalMethod,
  address: string,
): { label: string; beneficiary: Beneficiary } | null {
  const key = addressKey(method, address, "");
  const rows = db
    .prepare(
      "SELECT label, address, beneficiary, beneficiary_name, beneficiary_country FROM address_book WHERE user_id = ? AND method = ? AND confirmed_at IS NOT NULL ORDER BY id",
    )
    .all(userId, method) as Pick<
    EntryRow,
    "label" | "address" | "beneficiary" | "beneficiary_name" | "beneficiary_country"
  >[];
  const row = rows.find((r) => addressKey(method, r.address, "") === key);
  if (!row) return null;
  return {
    label: row.label,
    beneficiary:
      row.beneficiary === "third_party"
        ? { type: "third_party", name: row.beneficiary_name ?? "", country: row.beneficiary_country ?? "" }
        : { type: "self" },
  };
}

const digest = (token: string): string => createHash("sha256").update(token).digest("hex");

export class AddressBook {
  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
  ) {
    addressBookTables(accounts.db);
  }

  get #db(): Db {
    return this.accounts.db;
  }

  /**
   * The book's calls for `userId`; null for any other path. `caps` null: a session's own token, the
   * only credential the book answers (the address check answers any).
   */
  handle(userId: number, path: string, body: Record<string, unknown>, caps: readonly string[] | null): Reply | null {
    if (path === CHECK_ADDRESS_PATH) return this.#check(body);
    if (path !== ADDRESS_BOOK_PATH) return null;
    if (caps !== null) return fail(ERROR_CODES.AUTH_FAILED, "address book: a session token is required");
    const user = this.accounts.byId(userId);
    if (!user) return fail(ERROR_CODES.AUTH_FAILED, "token: invalid");
    const action = body["action"] ?? "list";
    switch (action) {
      case "list":
        return this.#list(userId);
      case "add":
        return this.#add(user, body);
      case "update":
        return this.#update(userId, body);
      case "delete":
        return this.#delete(userId, body);
      case "confirm":
        return this.#confirm(userId, body);
      case "whitelist":
        return this.#whitelist(user, body);
      case "withdrawals":
        return this.#withdrawals(user, body);
      case "apply":
        return this.#apply(userId, body);
      case "cancel":
        return this.#cancel(userId, body);
      default:
        return refuse("action: invalid");
    }
  }

  /** `/v1/ui_check_address {currency, method?, address, payment_id?}`: valid, or the reason. */
  #check(body: Record<string, unknown>): Reply {
    const network = networkOf(body);
    if (!network) return refuse("method: invalid");
    const address = typeof body["address"] === "string" ? body["address"] : "";
    const paymentId = typeof body["payment_id"] === "string" ? body["payment_id"] : "";
    const checked = checkAddress(network.method, address);
    if (!checked.ok) return ok(addressCheckCodec.encode({ valid: false, reason: checked.problem }));
    const pid = checkPaymentId(network.method, paymentId);
    return ok(
      addressCheckCodec.encode(
        pid === null ? { valid: true, address: checked.address } : { valid: false, reason: pid },
      ),
    );
  }

  #list(userId: number): Reply {
    const now = this.now();
    const rows = this.#db
      .prepare("SELECT * FROM address_book WHERE user_id = ? ORDER BY currency, created_at, id")
      .all(userId) as EntryRow[];
    const entries = rows.flatMap((r): AddressBookEntry[] => {
      const network = withdrawalNetwork(r.method);
      if (!network) return [];
      const beneficiary: Beneficiary =
        r.beneficiary === "third_party"
          ? { type: "third_party", name: r.beneficiary_name ?? "", country: r.beneficiary_country ?? "" }
          : { type: "self" };
      const status: AddressEntryStatus =
        r.confirmed_at !== null ? "confirmed" : (r.confirm_expires ?? 0) > now ? "pending" : "expired";
      return [
        {
          id: r.id,
          currency: r.currency,
          method: network.method,
          label: r.label,
          address: r.address,
          paymentId: r.payment_id,
          beneficiary,
          status,
          mtsCreate: r.created_at,
          mtsConfirm: r.confirmed_at,
        },
      ];
    });
    const waiting = this.#db
      .prepare(
        "SELECT currency, kind, expires_at FROM withdrawal_changes WHERE user_id = ? AND state = 'pending' AND expires_at > ?",
      )
      .all(userId, now) as { currency: string; kind: WithdrawalChangeKind; expires_at: number }[];
    const until = (currency: string, kind: WithdrawalChangeKind): number | null =>
      waiting.find((w) => w.currency === currency && w.kind === kind)?.expires_at ?? null;
    const currencies = WITHDRAWAL_CURRENCIES.map((currency) => ({
      currency,
      ...settingsOf(this.#db, userId, currency),
      pendingWhitelistOff: until(currency, "whitelist_off"),
      pendingEnable: until(currency, "enable"),
    }));
    return ok(addressBookCodec.encode({ entries, currencies }));
  }

  #add(user: UserRow, body: Record<string, unknown>): Reply {
    const currency = typeof body["currency"] === "string" ? body["currency"].toUpperCase() : "";
    if (!WITHDRAWAL_CURRENCIES.includes(currency)) return refuse("currency: invalid");
    const raw = Array.isArray(body["addresses"]) ? (body["addresses"] as unknown[]) : null;
    if (raw === null || raw.length === 0 || raw.length > ADDRESS_BOOK_LIMITS.rows) return refuse("addresses: invalid");
    const rows: AddressRow[] = [];
    for (const r of raw) {
      if (typeof r !== "object" || r === null) return refuse("addresses: invalid");
      const o = r as Record<string, unknown>;
      const address = o["address"];
      const paymentId = o["payment_id"] ?? "";
      if (typeof address !== "string" || typeof paymentId !== "string") return refuse("addresses: invalid");
      rows.push({ address, paymentId });
    }
    // The disabled marker (docs/product-rules.md#withdrawal-addresses): the currency's withdrawals
    // off, no entry stored. Tightening, so no proof.
    if (rows.length === 1 && rows[0]?.address.trim() === WITHDRAWALS_DISABLED_MARKER) {
      this.#db.transaction(() => setSettings(this.#db, user.id, currency, { disabled: true }))();
      return this.#list(user.id);
    }
    const network = networkOf(body);
    if (!network || network.currency !== currency) return refuse("method: invalid");
    const label = typeof body["label"] === "string" ? body["label"].trim() : "";
    if (!labelValid(label)) return refuse("label: invalid");
    const beneficiary = readBeneficiary(body["beneficiary"]);
    if (typeof beneficiary === "string") return refuse(`beneficiary ${beneficiary}: invalid`);
    const book = this.#db
      .prepare("SELECT address, payment_id FROM address_book WHERE user_id = ? AND method = ?")
      .all(user.id, network.method) as { address: string; payment_id: string }[];
    const reviewed = reviewAddressRows(
      network.method,
      rows,
      book.map((b) => ({ address: b.address, paymentId: b.payment_id })),
    );
    const flawed = reviewed.findIndex((r) => r.problem !== null);
    if (flawed >= 0) return refuse(`addresses[${flawed}]: ${reviewed[flawed]?.problem ?? "invalid"}`);
    const count = this.#db.prepare("SELECT COUNT(*) AS n FROM address_book WHERE user_id = ?").get(user.id) as {
      n: number;
    };
    if (count.n + reviewed.length > ADDRESS_BOOK_LIMITS.entries)
      return refuse(`entries: at most ${ADDRESS_BOOK_LIMITS.entries}`);
    // Proof last: a form with a mistake does not spend the owner's one-time code.
    const proof = proveOwner(this.accounts, user, body, this.now());
    if (proof !== null) return refuse(proof);
    const now = this.now();
    const token = randomBytes(32).toString("hex");
    this.#db.transaction(() => {
      const insert = this.#db.prepare(
        `INSERT INTO address_book (user_id, currency, method, label, address, address_key, payment_id, beneficiary,
           beneficiary_name, beneficiary_country, created_at, confirm_hash, confirm_expires)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      for (const r of reviewed)
        insert.run(
          user.id,
          currency,
          network.method,
          label,
          r.address,
          addressKey(network.method, r.address, r.paymentId),
          r.paymentId,
          beneficiary.type,
          beneficiary.type === "third_party" ? beneficiary.name : null,
          beneficiary.type === "third_party" ? beneficiary.country : null,
          now,
          digest(token),
          now + ADDRESS_CONFIRM_TTL_MS,
        );
      // Adding an address whitelists the currency at once (a tightening); its withdrawals come back
      // on only when the entry is confirmed (#confirm): lifting "off" is a loosening, which waits for
      // the mailbox whoever holds the password and code lacks.
      setSettings(this.#db, user.id, currency, { whitelist: true });
      const listed = reviewed.map((r) => `  ${r.address}${r.paymentId ? ` (tag ${r.paymentId})` : ""}`).join("\n");
      sendMail(
        this.#db,
        user.email,
        "Confirm a new withdrawal address",
        `These ${currency} withdrawal addresses (${network.name}, "${label}") were added to your Orderflow account:\n` +
          `${listed}\n\nThey receive nothing until you confirm them: sign in and open ` +
          `${ADDRESS_BOOK_PAGE}?confirm=${token} within one hour. If this was not you, do not open it; ` +
          "change your password and freeze your account.",
        now,
      );
    })();
    return this.#list(user.id);
  }

  #update(userId: number, body: Record<string, unknown>): Reply {
    const label = typeof body["label"] === "string" ? body["label"].trim() : "";
    if (!labelValid(label)) return refuse("label: invalid");
    const id = body["id"];
    if (typeof id !== "number" || !Number.isSafeInteger(id)) return refuse("id: invalid");
    const changed = this.#db
      .prepare("UPDATE address_book SET label = ? WHERE id = ? AND user_id = ?")
      .run(label, id, userId).changes;
    return changed === 1 ? this.#list(userId) : refuse("entry: not found");
  }

  #delete(userId: number, body: Record<string, unknown>): Reply {
    const id = body["id"];
    if (typeof id !== "number" || !Number.isSafeInteger(id)) return refuse("id: invalid");
    const changed = this.#db.prepare("DELETE FROM address_book WHERE id = ? AND user_id = ?").run(id, userId).changes;
    return changed === 1 ? this.#list(userId) : refuse("entry: not found");
  }

  /**
   * Opening the mailed link: every entry added with it is confirmed, by its own account only. A bad
   * link is `link: invalid`, never a message naming a token: the app takes an invalid-token message
   * for a dead session and signs out (docs/product-rules.md#errors).
   */
  #confirm(userId: number, body: Record<string, unknown>): Reply {
    const token = body["token"];
    if (typeof token !== "string" || !/^[0-9a-f]{64}$/.test(token)) return refuse("link: invalid");
    const now = this.now();
    const changed = this.#db.transaction(() => {
      const currencies = this.#db
        .prepare(
          "SELECT DISTINCT currency FROM address_book WHERE user_id = ? AND confirm_hash = ? AND confirm_expires > ?",
        )
        .all(userId, digest(token), now) as { currency: string }[];
      const n = this.#db
        .prepare(
          "UPDATE address_book SET confirmed_at = ?, confirm_hash = NULL, confirm_expires = NULL WHERE user_id = ? AND confirm_hash = ? AND confirm_expires > ?",
        )
        .run(now, userId, digest(token), now).changes;
      // The added address turns its currency's withdrawals back on now that the mailbox confirmed it.
      for (const c of currencies) setSettings(this.#db, userId, c.currency, { disabled: false });
      return n;
    })();
    return changed > 0 ? this.#list(userId) : refuse("link: invalid");
  }

  /** `{currency, on}`: the whitelist on (session only) or off (the owner's proof, and a mail). */
  #whitelist(user: UserRow, body: Record<string, unknown>): Reply {
    const currency = typeof body["currency"] === "string" ? body["currency"].toUpperCase() : "";
    if (!WITHDRAWAL_CURRENCIES.includes(currency)) return refuse("currency: invalid");
    const on = body["on"];
    if (typeof on !== "boolean") return refuse("on: invalid");
    if (on) {
      // Tightening: at once, and whatever waited to turn it off is dropped with its link.
      this.#db.transaction(() => {
        setSettings(this.#db, user.id, currency, { whitelist: true });
        endPending(this.#db, user.id, [currency], "whitelist_off", "cancelled", this.now());
      })();
      return this.#list(user.id);
    }
    const proof = proveOwner(this.accounts, user, body, this.now());
    if (proof !== null) return refuse(proof);
    if (!settingsOf(this.#db, user.id, currency).whitelist) return this.#list(user.id);
    this.#request(
      user,
      [currency],
      "whitelist_off",
      `Confirm turning the ${currency} withdrawal whitelist off`,
      `Someone signed in to your Orderflow account asked to turn the ${currency} withdrawal whitelist off: ` +
        `${currency} withdrawals could then go to any address.`,
    );
    return this.#list(user.id);
  }

  /**
   * Stores a loosening of `currencies` as pending under one new token (replacing what waited for
   * the same kind) and mails its link, in one transaction.
   */
  #request(user: UserRow, currencies: readonly string[], kind: WithdrawalChangeKind, subject: string, what: string) {
    const now = this.now();
    const token = randomBytes(32).toString("hex");
    this.#db.transaction(() => {
      endPending(this.#db, user.id, currencies, kind, "replaced", now);
      const insert = this.#db.prepare(
        "INSERT INTO withdrawal_changes (user_id, currency, kind, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      );
      for (const c of currencies) insert.run(user.id, c, kind, digest(token), now, now + ADDRESS_CONFIRM_TTL_MS);
      sendMail(
        this.#db,
        user.email,
        subject,
        `${what} It takes effect only when you confirm it: sign in and open ${ADDRESS_BOOK_PAGE}?apply=${token} ` +
          "within one hour (the link works once). If this was not you, do not open it: cancel it on the " +
          "withdrawal addresses page, change your password and freeze your account.",
        now,
      );
    })();
  }

  /**
   * Opening the mailed link of a loosening: every change of its request applies, for its own
   * account only, once, within the hour. The same `link: invalid` as an address's link.
   */
  #apply(userId: number, body: Record<string, unknown>): Reply {
    const token = body["token"];
    if (typeof token !== "string" || !/^[0-9a-f]{64}$/.test(token)) return refuse("link: invalid");
    const now = this.now();
    const applied = this.#db.transaction((): boolean => {
      const rows = this.#db
        .prepare(
          "SELECT id, currency, kind FROM withdrawal_changes WHERE user_id = ? AND token_hash = ? AND state = 'pending' AND expires_at > ?",
        )
        .all(userId, digest(token), now) as { id: number; currency: string; kind: WithdrawalChangeKind }[];
      if (rows.length === 0) return false;
      const done = this.#db.prepare("UPDATE withdrawal_changes SET state = 'applied', decided_at = ? WHERE id = ?");
      for (const r of rows) {
        setSettings(
          this.#db,
          userId,
          r.currency,
          r.kind === "whitelist_off" ? { whitelist: false } : { disabled: false },
        );
        done.run(now, r.id);
      }
      return true;
    })();
    return applied ? this.#list(userId) : refuse("link: invalid");
  }

  /** `{currency, kind}`: drops the loosening waiting for the mail (session only: it tightens). */
  #cancel(userId: number, body: Record<string, unknown>): Reply {
    const currency = typeof body["currency"] === "string" ? body["currency"].toUpperCase() : "";
    if (!WITHDRAWAL_CURRENCIES.includes(currency)) return refuse("currency: invalid");
    const kind = body["kind"];
    if (kind !== "whitelist_off" && kind !== "enable") return refuse("kind: invalid");
    const dropped = endPending(this.#db, userId, [currency], kind, "cancelled", this.now());
    return dropped > 0 ? this.#list(userId) : refuse("pending: none");
  }

  /**
   * `{enabled, currency?}`: one currency's withdrawals, or every currency's without `currency`, off
   * (session only, at once) or on again (the owner's proof, then the mailed link).
   */
  #withdrawals(user: UserRow, body: Record<string, unknown>): Reply {
    const enabled = body["enabled"];
    if (typeof enabled !== "boolean") return refuse("enabled: invalid");
    const one = body["currency"];
    const currency = typeof one === "string" ? one.toUpperCase() : null;
    if (one !== undefined && (currency === null || !WITHDRAWAL_CURRENCIES.includes(currency)))
      return refuse("currency: invalid");
    const which = currency === null ? WITHDRAWAL_CURRENCIES : [currency];
    if (!enabled) {
      // Tightening: at once, and whatever waited to turn them on again is dropped with its link.
      this.#db.transaction(() => {
        for (const c of which) setSettings(this.#db, user.id, c, { disabled: true });
        endPending(this.#db, user.id, which, "enable", "cancelled", this.now());
      })();
      return this.#list(user.id);
    }
    const proof = proveOwner(this.accounts, user, body, this.now());
    if (proof !== null) return refuse(proof);
    const off = which.filter((c) => settingsOf(this.#db, user.id, c).disabled);
    if (off.length === 0) return this.#list(user.id);
    this.#request(
      user,
      off,
      "enable",
      "Confirm turning withdrawals on",
      `Someone signed in to your Orderflow account asked to turn withdrawals of ${off.join(", ")} on again.`,
    );
    return this.#list(user.id);
  }
}

/** The network a request names by `method`, else its currency's one network; undefined if neither. */
function networkOf(body: Record<string, unknown>) {
  const method = body["method"];
  if (typeof method === "string") return withdrawalNetwork(method);
  const currency = typeof body["currency"] === "string" ? body["currency"].toUpperCase() : "";
  return WITHDRAWAL_NETWORKS.find((n) => n.currency === currency);
}
