/**
 * Moving money on the embedded exchange (docs/protocol.md#authenticated-calls): transfers between an account's wallets,
 * and the routing of deposit addresses (deposits.ts), withdrawals (withdrawals.ts: request,
 * confirmation, cancel and their life on the clock) and the movements history. Deposits are the
 * demo account's opening balances and those sent to the addresses deposits.ts issues; deposits and
 * withdrawals appear in `r/movements` as the real API lists them. Every change commits with its
 * wallet moves in one transaction before the reply (balances.ts `funds`).
 */
import { createHash } from "node:crypto";
import { fromUnits, historyRows, toUnits, type Db } from "../store/db.ts";
import {
  ERROR_CODES,
  isTransferRequestId,
  checkTransferAmount,
  transferCodec,
  TRANSFER_REFUSALS,
  REQUEST_WALLETS,
} from "../../src/protocol/index.ts";
import type { Accounts } from "../store/accounts.ts";
import type { Balances } from "./balances.ts";
import type { Positions } from "./positions.ts";
import { Deposits, movementWire, type MovementDbRow } from "./deposits.ts";
import { Withdrawals, type Caller } from "./withdrawals.ts";
import { addressBookTables } from "../address-book.ts";
import { fail, notice, num, ok, own, type Reply } from "../reply.ts";

const err = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg);
/** Malformed input (an unknown wallet, method, currency or amount) is the client's error: 400. */
const bad = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg, 400);

export class Funds {
  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly positions: Positions,
    readonly now: () => number,
    /** What withdrawals need beyond the wallets: the accounts (second factors) and USD rates. */
    parts: { readonly accounts: Accounts; readonly usdRate: (currency: string) => number | null },
  ) {
    db.exec(`
CREATE TABLE IF NOT EXISTS movements (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  mts_started INTEGER NOT NULL,
  mts_updated INTEGER NOT NULL,
  status TEXT NOT NULL,
  amount INTEGER NOT NULL,
  fees INTEGER NOT NULL DEFAULT 0,
  address TEXT,
  tx_id TEXT,
  note TEXT
);
CREATE TABLE IF NOT EXISTS transfer_requests (
  user_id INTEGER NOT NULL REFERENCES users(id),
  request_id TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  reply TEXT NOT NULL,
  mts INTEGER NOT NULL,
  PRIMARY KEY (user_id, request_id)
);`);
    // The whitelist a withdrawal is checked against, on a venue that never served the book too.
    addressBookTables(db);
    this.deposits = new Deposits(db, balances, now);
    this.withdrawals = new Withdrawals(db, balances, parts.accounts, parts.usdRate, now, positions);
  }

  /** Withdrawal requests, their confirmation and cancel, and their life on the clock (withdrawals.ts). */
  readonly withdrawals: Withdrawals;

  /** Deposit destinations, arriving deposits and their confirmations (deposits.ts). */
  readonly deposits: Deposits;

  /** A completed deposit into the exchange wallet, recorded as a movement (the demo's opening balances). */
  deposit(userId: number, currency: string, amount: number, text: string): void {
    const now = this.now();
    this.balances.funds((move) => {
      move(userId, "exchange", currency, toUnits(amount), text);
      const txId = this.#txId(`deposit:${userId}:${currency}:${amount}:${now}`);
      this.db
        .prepare(
          "INSERT INTO movements (user_id, currency, mts_started, mts_updated, status, amount, tx_id) VALUES (?, ?, ?, ?, 'COMPLETED', ?, ?)",
        )
        .run(userId, currency, now, now, toUnits(amount), txId);
    });
  }

  /**
   * Authenticated funds calls; null when the path is not one of them. `caller`: the credential
   * (a withdrawal asks a session for its second factor, and only a session confirms one).
   */
  handle(userId: number, path: string, body: Record<string, unknown>, caller: Caller): Reply | null {
    let m: RegExpExecArray | null;
    if (path === "/v2/auth/w/transfer") return this.#transfer(userId, body);
    if (path === "/v2/auth/w/deposit/address") return this.deposits.address(userId, body);
    const withdrawal = this.withdrawals.handle(userId, path, body, caller);
    if (withdrawal) return withdrawal;
    if ((m = /^\/v2\/auth\/r\/movements(?:\/([A-Z0-9]+))?\/hist$/.exec(path))) {
      const limit = Math.min(1000, Math.max(1, Number(body["limit"] ?? 25) || 25));
      return ok(this.movementsWire(userId, m[1] ?? null, limit));
    }
    return null;
  }

  /**
   * `w/transfer` (docs/product-rules.md#transfers-between-wallets): the amount by the rules the
   * dialog checks (src/protocol transfers.ts), both wallets and both ledger rows in one transaction.
   * With a `request_id`, the transfer happens once: a repeat of the same request answers the first
   * one's notification and moves nothing; the id reused for a different transfer is refused.
   */
  #transfer(userId: number, body: Record<string, unknown>): Reply {
    const from = own(REQUEST_WALLETS, body["from"]);
    const to = own(REQUEST_WALLETS, body["to"]);
    const currency = typeof body["currency"] === "string" ? body["currency"] : "";
    const currencyTo = typeof body["currency_to"] === "string" ? body["currency_to"] : currency;
    const requestId = body["request_id"];
    if (!from) return bad(TRANSFER_REFUSALS.from);
    if (!to) return bad(TRANSFER_REFUSALS.to);
    if (requestId !== undefined && !isTransferRequestId(requestId)) return bad(TRANSFER_REFUSALS.requestId);
    const dst = this.#destination(userId, body);
    if (typeof dst === "object") return dst;
    if (from === to && dst === userId) return err(TRANSFER_REFUSALS.sameWallet);
    if (!/^[A-Z0-9]{2,10}$/.test(currency)) return bad(TRANSFER_REFUSALS.currency);
    // Conversion on transfer is only offered between USDt and its derivatives collateral form.
    if (currencyTo !== currency && !(currency === "UST" && currencyTo === "USTF0"))
      return err(TRANSFER_REFUSALS.currencyTo);
    const problem = checkTransferAmount(body["amount"], currency);
    if (problem === "invalid") return bad(TRANSFER_REFUSALS.amount);
    if (problem === "precision") return bad(TRANSFER_REFUSALS.precision);
    const units = toUnits(num(body["amount"]));
    // What makes two requests the same transfer: everything that decides what moves where.
    const fingerprint = JSON.stringify([from, to, currency, currencyTo, units, dst]);
    if (typeof requestId === "string") {
      const seen = this.db
        .prepare("SELECT fingerprint, reply FROM transfer_requests WHERE user_id = ? AND request_id = ?")
        .get(userId, requestId) as { fingerprint: string; reply: string } | undefined;
      if (seen)
        return seen.fingerprint === fingerprint ? ok(JSON.parse(seen.reply)) : err(TRANSFER_REFUSALS.requestReused);
    }
    // Out of margin, collateral backing a losing position stays (Positions.spendable).
    if (this.positions.spendable(userId, from, currency) < units) return err(TRANSFER_REFUSALS.insufficient);
    const now = this.now();
    const transfer = transferCodec.encode({
      mts: now,
      walletFrom: from,
      walletTo: to,
      currency,
      currencyTo,
      amount: fromUnits(units),
    });
    const reply = notice(
      now,
      "acc_tf",
      transfer,
      "SUCCESS",
      `${fromUnits(units)} ${currency} transferred from ${from} to ${to}`,
    );
    this.balances.funds((move) => {
      // Between two accounts (a master and its sub-account) each side's ledger names the other.
      const text =
        dst === userId
          ? `Transfer of ${fromUnits(units)} ${currency} from wallet ${from} to ${to}`
          : `Transfer of ${fromUnits(units)} ${currency} from wallet ${from} (account ${userId}) to wallet ${to} (account ${dst})`;
      move(userId, from, currency, -units, text);
      move(dst, to, currencyTo, units, text);
      // In the same transaction as the moves: the id is taken exactly when the money moved.
      if (typeof requestId === "string")
        this.db
          .prepare(
            "INSERT INTO transfer_requests (user_id, request_id, fingerprint, reply, mts) VALUES (?, ?, ?, ?, ?)",
          )
          .run(userId, requestId, fingerprint, JSON.stringify(reply), now);
    });
    // What the margin wallet can trade changed: margin info follows, as after a margin fill.
    if (from === "margin") this.positions.marginChanged(userId, currency);
    if (to === "margin") this.positions.marginChanged(dst, currencyTo);
    return ok(reply);
  }

  /**
   * The account a transfer credits: the caller's own, or — with `user_id_dst` or `email_dst`, as
   * Bitfinex's transfer to a sub-account takes — another account of its group: a master's
   * sub-account, or a sub-account's master, never a sibling or a stranger (server/subaccounts.ts;
   * docs/product-rules.md#sub-accounts). A refusal when the destination is malformed or not allowed.
   */
  #destination(userId: number, body: Record<string, unknown>): number | Reply {
    const byId = body["user_id_dst"];
    const byEmail = body["email_dst"];
    if (byId === undefined && byEmail === undefined) return userId;
    let dst: number | undefined;
    if (byId !== undefined) {
      if (typeof byId !== "number" || !Number.isSafeInteger(byId)) return bad("account: invalid");
      dst = byId;
    } else {
      if (typeof byEmail !== "string" || byEmail.length > 254) return bad("account: invalid");
      const row = this.db.prepare("SELECT id FROM users WHERE email = ?").get(byEmail.trim().toLowerCase()) as
        { id: number } | undefined;
      dst = row?.id;
    }
    const linked =
      dst !== undefined &&
      dst !== userId &&
      this.db
        .prepare("SELECT 1 FROM subaccounts WHERE (user_id = ? AND master_id = ?) OR (user_id = ? AND master_id = ?)")
        .get(dst, userId, userId, dst) !== undefined;
    // An unknown account and one outside the group answer alike: the call tells nobody who exists.
    return linked && dst !== undefined ? dst : err("account: not-allowed");
  }

  /**
   * Movements newest first, in the 22-field layout `movementRowCodec` decodes (deposits.ts
   * `movementWire`: a deposit's confirmations in two reserved slots, its payment id in field 17).
   */
  movementsWire(userId: number, currency: string | null, limit: number): unknown[][] {
    const rows = historyRows<MovementDbRow>(
      this.db,
      "movements WHERE user_id = ?",
      userId,
      ["currency", currency],
      "id DESC",
      limit,
    );
    return rows.map(movementWire);
  }

  #txId(seed: string): string {
    return createHash("sha256").update(seed).digest("hex");
  }
}
