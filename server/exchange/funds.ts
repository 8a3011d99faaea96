/**
 * Moving money on the embedded exchange (docs/protocol.md#authenticated-calls): transfers between an account's wallets,
 * deposit addresses, withdrawals and the movements history. There is no blockchain here, so a
 * withdrawal completes at once with a transaction id derived from its record, and deposits are the
 * ones the exchange itself makes (the demo account's opening balances); both appear in
 * `r/movements` as the real API lists them. Every change commits with its wallet moves in one
 * transaction before the reply (balances.ts `funds`).
 */
import { createHash } from "node:crypto";
import { fromUnits, historyRows, toUnits, type Db } from "../store/db.ts";
import {
  depositAddressCodec,
  ERROR_CODES,
  movementCodec,
  transferCodec,
  withdrawalCodec,
  type WalletType,
} from "../../src/protocol/index.ts";
import type { Balances } from "./balances.ts";
import type { Positions } from "./positions.ts";
import { depositRefusal, withdrawRefusal } from "./verification.ts";
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
  /** What a destination address on this network looks like. */
  readonly address: RegExp;
}

const BASE58 = "[1-9A-HJ-NP-Za-km-z]";
const METHODS: Readonly<Record<string, Method>> = {
  bitcoin: {
    currency: "BTC",
    name: "Bitcoin",
    fee: 0.0004,
    address: new RegExp(`^(?:bc1[02-9ac-hj-np-z]{11,71}|[13]${BASE58}{25,34})$`),
  },
  ethereum: { currency: "ETH", name: "Ethereum", fee: 0.0024, address: /^0x[0-9a-fA-F]{40}$/ },
  litecoin: {
    currency: "LTC",
    name: "Litecoin",
    fee: 0.001,
    address: new RegExp(`^(?:ltc1[02-9ac-hj-np-z]{11,71}|[LM3]${BASE58}{26,33})$`),
  },
  ripple: { currency: "XRP", name: "Ripple", fee: 0.1, address: new RegExp(`^r${BASE58}{24,34}$`) },
  solana: { currency: "SOL", name: "Solana", fee: 0.01, address: new RegExp(`^${BASE58}{32,44}$`) },
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

interface MovementRow {
  id: number;
  currency: string;
  mts_started: number;
  mts_updated: number;
  status: string;
  amount: number;
  fees: number;
  address: string | null;
  tx_id: string | null;
  note: string | null;
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
CREATE TABLE IF NOT EXISTS deposit_addresses (
  user_id INTEGER NOT NULL REFERENCES users(id),
  method TEXT NOT NULL,
  wallet TEXT NOT NULL,
  address TEXT NOT NULL,
  mts INTEGER NOT NULL,
  PRIMARY KEY (user_id, method, wallet)
);`);
  }

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
    if (path === "/v2/auth/w/deposit/address") return this.#depositAddress(userId, body);
    if (path === "/v2/auth/w/withdraw") return this.#withdraw(userId, body);
    if ((m = /^\/v2\/auth\/r\/movements(?:\/([A-Z0-9]+))?\/hist$/.exec(path))) {
      const limit = Math.min(1000, Math.max(1, Number(body["limit"] ?? 25) || 25));
      return ok(this.movementsWire(userId, m[1] ?? null, limit));
    }
    return null;
  }

  #transfer(userId: number, body: Record<string, unknown>): Reply {
    const from = own(WALLETS, body["from"]);
    const to = own(WALLETS, body["to"]);
    const currency = typeof body["currency"] === "string" ? body["currency"] : "";
    const currencyTo = typeof body["currency_to"] === "string" ? body["currency_to"] : currency;
    const amount = amountOf(body["amount"]);
    if (!from) return bad("from: invalid");
    if (!to) return bad("to: invalid");
    const dst = this.#destination(userId, body);
    if (typeof dst === "object") return dst;
    if (from === to && dst === userId) return err("to: must differ from the source wallet");
    if (!/^[A-Z0-9]{2,10}$/.test(currency)) return bad("currency: invalid");
    // Conversion on transfer is only offered between USDt and its derivatives collateral form.
    if (currencyTo !== currency && !(currency === "UST" && currencyTo === "USTF0")) return err("currency_to: invalid");
    if (Number.isNaN(amount)) return bad("amount: invalid");
    if (!withinPrecision(amount)) return bad("amount: below the currency's precision (8 decimals)");
    const units = toUnits(amount);
    if (this.balances.available(userId, from, currency) < units)
      return err("amount: insufficient balance in the source wallet");
    const now = this.now();
    this.balances.funds((move) => {
      // Between two accounts (a master and its sub-account) each side's ledger names the other.
      const text =
        dst === userId
          ? `Transfer of ${fromUnits(units)} ${currency} from wallet ${from} to ${to}`
          : `Transfer of ${fromUnits(units)} ${currency} from wallet ${from} (account ${userId}) to wallet ${to} (account ${dst})`;
      move(userId, from, currency, -units, text);
      move(dst, to, currencyTo, units, text);
    });
    // What the margin wallet can trade changed: margin info follows, as after a margin fill.
    if (from === "margin") this.positions.marginChanged(userId, currency);
    if (to === "margin") this.positions.marginChanged(dst, currencyTo);
    const transfer = transferCodec.encode({
      mts: now,
      walletFrom: from,
      walletTo: to,
      currency,
      currencyTo,
      amount: fromUnits(units),
    });
    return ok(
      notice(now, "acc_tf", transfer, "SUCCESS", `${fromUnits(units)} ${currency} transferred from ${from} to ${to}`),
    );
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

  #depositAddress(userId: number, body: Record<string, unknown>): Reply {
    const wallet = own(WALLETS, body["wallet"]);
    const methodName = typeof body["method"] === "string" ? body["method"].toLowerCase() : "";
    const method = own(METHODS, methodName);
    if (!wallet) return bad("wallet: invalid");
    if (!method) return bad("method: invalid");
    // Deposits need basic-plus (docs/product-rules.md#compliance-gates): no address below it.
    const refused = method.currency.startsWith("TEST") ? null : depositRefusal(this.db, userId);
    if (refused) return err(refused);
    const now = this.now();
    const existing = this.db
      .prepare("SELECT address FROM deposit_addresses WHERE user_id = ? AND method = ? AND wallet = ?")
      .get(userId, methodName, wallet) as { address: string } | undefined;
    let address = existing?.address;
    if (!address || body["op_renew"] === 1) {
      address = this.#address(methodName, `${userId}:${methodName}:${wallet}:${now}`);
      this.db
        .prepare(
          "INSERT INTO deposit_addresses (user_id, method, wallet, address, mts) VALUES (?, ?, ?, ?, ?) ON CONFLICT(user_id, method, wallet) DO UPDATE SET address = excluded.address, mts = excluded.mts",
        )
        .run(userId, methodName, wallet, address, now);
    }
    const deposit = depositAddressCodec.encode({
      method: methodName,
      currency: method.currency,
      address,
      poolAddress: null,
    });
    return ok(notice(now, "acc_dep", deposit, "SUCCESS", null));
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
    if (!method.address.test(address)) return err("address: invalid");
    const gated = withdrawRefusal(this.db, userId);
    if (gated) return err(gated);
    const units = toUnits(amount);
    if (this.balances.available(userId, wallet, method.currency) < units)
      return err("amount: insufficient balance in the wallet");
    const now = this.now();
    const feeUnits = toUnits(method.fee);
    const note = typeof body["note"] === "string" ? body["note"].slice(0, 140) : null;
    const id = this.balances.funds((move) => {
      move(userId, wallet, method.currency, -units, `${method.name} withdrawal to ${address}`);
      const r = this.db
        .prepare(
          "INSERT INTO movements (user_id, currency, mts_started, mts_updated, status, amount, fees, address, note) VALUES (?, ?, ?, ?, 'COMPLETED', ?, ?, ?, ?)",
        )
        .run(userId, method.currency, now, now, -(units - feeUnits), -feeUnits, address, note);
      const wid = Number(r.lastInsertRowid);
      this.db.prepare("UPDATE movements SET tx_id = ? WHERE id = ?").run(this.#txId(`withdraw:${wid}`), wid);
      return wid;
    });
    const withdrawal = withdrawalCodec.encode({
      id,
      method: methodName,
      paymentId: null,
      wallet,
      amount: fromUnits(units),
      fee: method.fee,
    });
    const text = `Your withdrawal request of ${fromUnits(units)} ${method.currency} has been submitted.`;
    return ok(notice(now, "acc_wd-req", withdrawal, "SUCCESS", text));
  }

  /** Movements newest first, in the 22-field layout `movementCodec` decodes. */
  movementsWire(userId: number, currency: string | null, limit: number): unknown[][] {
    const rows = historyRows<MovementRow>(
      this.db,
      "movements WHERE user_id = ?",
      userId,
      ["currency", currency],
      "id DESC",
      limit,
    );
    return rows.map((r) =>
      movementCodec.encode({
        id: r.id,
        currency: r.currency,
        currencyName: Object.values(METHODS).find((x) => x.currency === r.currency)?.name ?? r.currency,
        mtsStarted: r.mts_started,
        mtsUpdated: r.mts_updated,
        status: r.status,
        amount: fromUnits(r.amount),
        fees: fromUnits(r.fees),
        destinationAddress: r.address,
        txId: r.tx_id,
        withdrawNote: r.note,
      }),
    );
  }

  #txId(seed: string): string {
    return createHash("sha256").update(seed).digest("hex");
  }

  /** A well-formed address for the method, derived from the seed (no key exists behind it). */
  #address(method: string, seed: string): string {
    const h = createHash("sha256").update(seed).digest();
    const b58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    const base58 = (n: number): string => Array.from(h.subarray(0, n), (b) => b58[b % 58]).join("");
    switch (method) {
      case "ethereum":
        return `0x${h.toString("hex").slice(0, 40)}`;
      case "bitcoin":
        return `bc1q${Array.from(h.subarray(0, 30), (b) => "qpzry9x8gf2tvdw0s3jn54khce6mua7l"[b % 32]).join("")}`;
      case "litecoin":
        return `L${base58(32)}`;
      case "ripple":
        return `r${base58(30)}`;
      default:
        return base58(32) + base58(12);
    }
  }
}
