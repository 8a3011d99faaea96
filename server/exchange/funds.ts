/**
 * Moving money on the embedded exchange (PROTOCOL.md 6): transfers between an account's wallets,
 * deposit addresses, withdrawals and the movements history. There is no blockchain here, so a
 * withdrawal completes at once with a transaction id derived from its record, and deposits are the
 * ones the exchange itself makes (the demo account's opening balances); both appear in
 * `r/movements` as the real API lists them. Every change commits with its wallet moves in one
 * transaction before the reply, through Trading's `funds`.
 */
import { createHash } from "node:crypto";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import { num, type Trading, type WalletType } from "./trading.ts";
import { depositRefusal } from "./verification.ts";

export interface FundsReply {
  readonly status: number;
  readonly body: unknown;
}

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

const err = (code: number, msg: string): FundsReply => ({ status: 500, body: ["error", code, msg] });

/**
 * The verification level (`r/info/user` field 5) an account needs to withdraw: 1 comes with a
 * confirmed e-mail, 2 with identity checks (the demo account and accounts created verified have
 * it). Raised on this machine with `POST /dev/verification` (server/README.md).
 */
export const WITHDRAW_LEVEL = 2;

function amountOf(v: unknown): number {
  const n = num(v);
  // Beyond 1e12 a unit count would lose precision; no real transfer is that large.
  return Number.isFinite(n) && n > 0 && n < 1e12 ? n : Number.NaN;
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
    readonly trading: Trading,
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
    this.trading.funds((move) => {
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
  handle(userId: number, path: string, body: Record<string, unknown>): FundsReply | null {
    let m: RegExpExecArray | null;
    if (path === "/v2/auth/w/transfer") return this.#transfer(userId, body);
    if (path === "/v2/auth/w/deposit/address") return this.#depositAddress(userId, body);
    if (path === "/v2/auth/w/withdraw") return this.#withdraw(userId, body);
    if ((m = /^\/v2\/auth\/r\/movements(?:\/([A-Z0-9]+))?\/hist$/.exec(path))) {
      const limit = Math.min(1000, Math.max(1, Number(body["limit"] ?? 25) || 25));
      return { status: 200, body: this.movementsWire(userId, m[1] ?? null, limit) };
    }
    return null;
  }

  #transfer(userId: number, body: Record<string, unknown>): FundsReply {
    const from = WALLETS[String(body["from"])];
    const to = WALLETS[String(body["to"])];
    const currency = typeof body["currency"] === "string" ? body["currency"] : "";
    const currencyTo = typeof body["currency_to"] === "string" ? body["currency_to"] : currency;
    const amount = amountOf(body["amount"]);
    if (!from) return err(10001, "from: invalid");
    if (!to) return err(10001, "to: invalid");
    if (from === to) return err(10001, "to: must differ from the source wallet");
    if (!/^[A-Z0-9]{2,10}$/.test(currency)) return err(10001, "currency: invalid");
    // Conversion on transfer is only offered between USDt and its derivatives collateral form.
    if (currencyTo !== currency && !(currency === "UST" && currencyTo === "USTF0"))
      return err(10001, "currency_to: invalid");
    if (Number.isNaN(amount)) return err(10001, "amount: invalid");
    const units = toUnits(amount);
    if (this.trading.available(userId, from, currency) < units)
      return err(10001, "amount: insufficient balance in the source wallet");
    const now = this.now();
    this.trading.funds((move) => {
      const text = `Transfer of ${fromUnits(units)} ${currency} from wallet ${from} to ${to}`;
      move(userId, from, currency, -units, text);
      move(userId, to, currencyTo, units, text);
    });
    // What the margin wallet can trade changed: margin info follows, as after a margin fill.
    if (from === "margin") this.trading.positions.marginChanged(userId, currency);
    if (to === "margin") this.trading.positions.marginChanged(userId, currencyTo);
    return {
      status: 200,
      body: [
        now,
        "acc_tf",
        null,
        null,
        [now, from, to, null, currency, currencyTo, null, fromUnits(units)],
        null,
        "SUCCESS",
        `${fromUnits(units)} ${currency} transferred from ${from} to ${to}`,
      ],
    };
  }

  #depositAddress(userId: number, body: Record<string, unknown>): FundsReply {
    const wallet = WALLETS[String(body["wallet"])];
    const methodName = typeof body["method"] === "string" ? body["method"].toLowerCase() : "";
    const method = METHODS[methodName];
    if (!wallet) return err(10001, "wallet: invalid");
    if (!method) return err(10001, "method: invalid");
    // Deposits need basic-plus (SPEC section 6): no address below it.
    const refused = method.currency.startsWith("TEST") ? null : depositRefusal(this.db, userId);
    if (refused) return err(10001, refused);
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
    return {
      status: 200,
      body: [
        now,
        "acc_dep",
        null,
        null,
        [null, methodName, method.currency, null, address, null],
        null,
        "SUCCESS",
        null,
      ],
    };
  }

  #withdraw(userId: number, body: Record<string, unknown>): FundsReply {
    const wallet = WALLETS[String(body["wallet"])];
    const methodName = typeof body["method"] === "string" ? body["method"].toLowerCase() : "";
    const method = METHODS[methodName];
    const amount = amountOf(body["amount"]);
    const address = typeof body["address"] === "string" ? body["address"].trim() : "";
    if (!wallet) return err(10001, "wallet: invalid");
    if (!method) return err(10001, "method: invalid");
    if (Number.isNaN(amount)) return err(10001, "amount: invalid");
    if (amount <= method.fee) return err(10001, `amount: must exceed the ${method.fee} ${method.currency} fee`);
    if (!method.address.test(address)) return err(10001, "address: invalid");
    const level =
      (
        this.db.prepare("SELECT verification_level AS v FROM users WHERE id = ?").get(userId) as
          { v: number } | undefined
      )?.v ?? 0;
    if (level < WITHDRAW_LEVEL)
      return err(10001, `verification: level ${WITHDRAW_LEVEL} needed to withdraw (this account has ${level})`);
    const units = toUnits(amount);
    if (this.trading.available(userId, wallet, method.currency) < units)
      return err(10001, "amount: insufficient balance in the wallet");
    const now = this.now();
    const feeUnits = toUnits(method.fee);
    const note = typeof body["note"] === "string" ? body["note"].slice(0, 140) : null;
    const id = this.trading.funds((move) => {
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
    return {
      status: 200,
      body: [
        now,
        "acc_wd-req",
        null,
        null,
        [id, null, methodName, null, wallet, fromUnits(units), null, null, method.fee],
        null,
        "SUCCESS",
        `Your withdrawal request of ${fromUnits(units)} ${method.currency} has been submitted.`,
      ],
    };
  }

  /** Movements newest first, in the 22-field layout `movementCodec` decodes. */
  movementsWire(userId: number, currency: string | null, limit: number): unknown[][] {
    const rows = this.db
      .prepare(
        `SELECT * FROM movements WHERE user_id = ? ${currency ? "AND currency = ?" : ""} ORDER BY id DESC LIMIT ?`,
      )
      .all(...(currency ? [userId, currency, limit] : [userId, limit])) as MovementRow[];
    return rows.map((r) => {
      const row: unknown[] = new Array<unknown>(22).fill(null);
      row[0] = r.id;
      row[1] = r.currency;
      row[2] = Object.values(METHODS).find((x) => x.currency === r.currency)?.name ?? r.currency;
      row[5] = r.mts_started;
      row[6] = r.mts_updated;
      row[9] = r.status;
      row[12] = fromUnits(r.amount);
      row[13] = fromUnits(r.fees);
      row[16] = r.address;
      row[20] = r.tx_id;
      row[21] = r.note;
      return row;
    });
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
