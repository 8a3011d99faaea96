/**
 * Moving money on the embedded exchange (docs/protocol.md#authenticated-calls): transfers between an account's wallets,
 * deposit addresses, withdrawals and the movements history. There is no blockchain here, so a
 * withdrawal completes at once with a transaction id derived from its record; deposits are the
 * demo account's opening balances and those sent to the addresses deposits.ts issues; both appear in
 * `r/movements` as the real API lists them. Every change commits with its wallet moves in one
 * transaction before the reply (balances.ts `funds`).
 */
import { createHash } from "node:crypto";
import { fromUnits, historyRows, toUnits, type Db } from "../store/db.ts";
import {
  ERROR_CODES,
  isTransferRequestId,
  checkAddress,
  checkPaymentId,
  withdrawalNetwork,
  checkTransferAmount,
  transferCodec,
  TRANSFER_REFUSALS,
  withdrawalCodec,
  type WalletType,
} from "../../src/protocol/index.ts";
import type { Balances } from "./balances.ts";
import type { Positions } from "./positions.ts";
import { withdrawRefusal } from "./verification.ts";
import { Deposits, movementWire, type MovementDbRow } from "./deposits.ts";
import { addressBookTables, withdrawalRefusal } from "../address-book.ts";
import { fail, notice, num, ok, own, type Reply } from "../reply.ts";

const WALLETS: Readonly<Record<string, WalletType>> = {
  exchange: "exchange",
  margin: "margin",
  trading: "margin",
  funding: "funding",
  deposit: "funding",
};

/** Withdrawal methods and deposit methods by currency, with the network fee a withdrawal pays. */
interface Method {
  readonly currency: string;
  readonly name: string;
  readonly fee: number;
}

const METHODS: Readonly<Record<string, Method>> = {
  bitcoin: { currency: "BTC", name: "Bitcoin", fee: 0.0004 },
  ethereum: { currency: "ETH", name: "Ethereum", fee: 0.0024 },
  litecoin: { currency: "LTC", name: "Litecoin", fee: 0.001 },
  ripple: { currency: "XRP", name: "Ripple", fee: 0.1 },
  solana: { currency: "SOL", name: "Solana", fee: 0.01 },
};

const err = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg);
/** Malformed input (an unknown wallet, method, currency or amount) is the client's error: 400. */
const bad = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg, 400);

function amountOf(v: unknown): number {
  const n = num(v);
  // Beyond 1e12 a unit count would lose precision; no real transfer is that large.
  return Number.isFinite(n) && n > 0 && n < 1e12 ? n : Number.NaN;
}

/**
 * Whether an amount is a whole number of the smallest unit (1e-8): 1e-9 would be stored as 0 and
 * "succeed" moving nothing, 0.123456789 would move a rounded amount the user did not ask for.
 */
function withinPrecision(n: number): boolean {
  const units = n * 1e8;
  return Math.round(units) >= 1 && Math.abs(units - Math.round(units)) < 1e-6;
}

export class Funds {
  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly positions: Positions,
    readonly now: () => number,
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
  }

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

  /** Authenticated funds calls; null when the path is not one of them. */
  handle(userId: number, path: string, body: Record<string, unknown>): Reply | null {
    let m: RegExpExecArray | null;
    if (path === "/v2/auth/w/transfer") return this.#transfer(userId, body);
    if (path === "/v2/auth/w/deposit/address") return this.deposits.address(userId, body);
    if (path === "/v2/auth/w/withdraw") return this.#withdraw(userId, body);
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
    const from = own(WALLETS, body["from"]);
    const to = own(WALLETS, body["to"]);
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
    if (this.balances.available(userId, from, currency) < units) return err(TRANSFER_REFUSALS.insufficient);
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

  #withdraw(userId: number, body: Record<string, unknown>): Reply {
    const wallet = own(WALLETS, body["wallet"]);
    const methodName = typeof body["method"] === "string" ? body["method"].toLowerCase() : "";
    const method = own(METHODS, methodName);
    const amount = amountOf(body["amount"]);
    const address = typeof body["address"] === "string" ? body["address"].trim() : "";
    if (!wallet) return bad("wallet: invalid");
    if (!method) return bad("method: invalid");
    if (Number.isNaN(amount)) return bad("amount: invalid");
    if (!withinPrecision(amount)) return bad("amount: below the currency's precision (8 decimals)");
    if (amount <= method.fee) return err(`amount: must exceed the ${method.fee} ${method.currency} fee`);
    // The destination by its network's real format and checksum (src/protocol addresses.ts; the
    // reason is `/v1/ui_check_address`'s to tell), then the account's own rules before anything is
    // reserved: the currency's withdrawals off, or its whitelist on (server/address-book.ts).
    const network = withdrawalNetwork(methodName);
    if (!network) return bad("method: invalid");
    const checked = checkAddress(network.method, address);
    if (!checked.ok) return err("address: invalid");
    const paymentId = typeof body["payment_id"] === "string" ? body["payment_id"].trim() : "";
    if (checkPaymentId(network.method, paymentId) !== null) return err("payment_id: invalid");
    const gated =
      withdrawRefusal(this.db, userId) ??
      withdrawalRefusal(this.db, userId, method.currency, network.method, checked.address, paymentId);
    if (gated) return err(gated);
    const units = toUnits(amount);
    if (this.balances.available(userId, wallet, method.currency) < units)
      return err("amount: insufficient balance in the wallet");
    const now = this.now();
    const feeUnits = toUnits(method.fee);
    const note = typeof body["note"] === "string" ? body["note"].slice(0, 140) : null;
    const id = this.balances.funds((move) => {
      move(userId, wallet, method.currency, -units, `${method.name} withdrawal to ${checked.address}`);
      const r = this.db
        .prepare(
          "INSERT INTO movements (user_id, currency, mts_started, mts_updated, status, amount, fees, address, note) VALUES (?, ?, ?, ?, 'COMPLETED', ?, ?, ?, ?)",
        )
        .run(userId, method.currency, now, now, -(units - feeUnits), -feeUnits, checked.address, note);
      const wid = Number(r.lastInsertRowid);
      this.db.prepare("UPDATE movements SET tx_id = ? WHERE id = ?").run(this.#txId(`withdraw:${wid}`), wid);
      return wid;
    });
    const withdrawal = withdrawalCodec.encode({
      id,
      method: methodName,
      paymentId: paymentId === "" ? null : paymentId,
      wallet,
      amount: fromUnits(units),
      fee: method.fee,
    });
    const text = `Your withdrawal request of ${fromUnits(units)} ${method.currency} has been submitted.`;
    return ok(notice(now, "acc_wd-req", withdrawal, "SUCCESS", text));
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
