/**
 * Deposits on the embedded exchange (docs/product-rules.md#deposits): the destinations it issues
 * (addresses of their network, or a pool address or bank account with the account's destination
 * tag or reference), deposits that arrive at them (sent through `POST /dev/deposit` on this
 * machine, there being no blockchain), and their confirmations on the exchange's clock until they
 * are credited.
 *
 * A deposit's confirmation count is derived from the clock, one per simulated block since it
 * arrived (`blockMs`), so nothing but its arrival time needs storing for it to rise: after a restart
 * the next `tick` carries every pending deposit on from SQLite. Crediting is one transaction — the
 * wallet, its ledger row, the movement's COMPLETED status (written only while it is still pending,
 * which makes the credit happen once) and the mail — and its `n` goes out after COMMIT.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  DEPOSIT_NOTIFICATIONS,
  depositAddressCodec,
  depositMethod,
  ERROR_CODES,
  movementRowCodec,
  WIRE_ACCOUNTS,
  XRP_POOL_ADDRESS,
  depositDestination,
  type DepositMethod,
  type WalletType,
  REQUEST_WALLETS,
} from "../../src/protocol/index.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import { sendMail } from "../mail.ts";
import { logError } from "../log.ts";
import { wantsMail } from "../notification-prefs.ts";
import { fail, notice, num, ok, own, type Reply } from "../reply.ts";
import type { Balances } from "./balances.ts";
import { depositRefusal } from "./verification.ts";

/** The simulated block interval when none is configured (`DEPOSIT_BLOCK_MS`). */
const DEFAULT_BLOCK_MS = 2000;

/** Addresses one account may hold per method and wallet: a "new address" beyond it is refused. */
const MAX_ADDRESSES = 50;

const bad = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg, 400);

interface PendingRow {
  id: number;
  user_id: number;
  currency: string;
  method: string;
  wallet: WalletType;
  mts_started: number;
  amount: number;
  confirmations: number;
  confirmations_required: number;
}

interface MovementDbRow {
  id: number;
  currency: string;
  mts_started: number;
  mts_updated: number;
  status: string;
  amount: number;
  fees: number;
  address: string | null;
  payment_id: string | null;
  tx_id: string | null;
  note: string | null;
  confirmations: number | null;
  confirmations_required: number | null;
}

/** What `POST /dev/deposit` answers: the movement's id, or why nothing was recorded. */
export type SimulatedDeposit =
  | { readonly status: number; readonly body: { readonly id: number; readonly state: string } }
  | {
      readonly status: number;
      readonly body: { readonly id: null; readonly state: "IGNORED"; readonly reason: string };
    };

export class Deposits {
  /** The simulated block interval: one confirmation per `blockMs` since arrival. */
  blockMs = DEFAULT_BLOCK_MS;

  constructor(
    readonly db: Db,
    readonly balances: Balances,
    readonly now: () => number,
  ) {
    // The movements table is funds.ts's; a deposit adds its method, wallet, payment id and counts.
    const columns = new Set(
      (db.prepare("PRAGMA table_info(movements)").all() as { name: string }[]).map((c) => c.name),
    );
    for (const [name, type] of [
      ["method", "TEXT"],
      ["wallet", "TEXT"],
      ["payment_id", "TEXT"],
      ["confirmations", "INTEGER"],
      ["confirmations_required", "INTEGER"],
    ] as const)
      if (!columns.has(name)) db.exec(`ALTER TABLE movements ADD COLUMN ${name} ${type}`);
    db.exec(`
CREATE TABLE IF NOT EXISTS deposit_destinations (
  method TEXT NOT NULL,
  destination TEXT NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id),
  wallet TEXT NOT NULL,
  seq INTEGER NOT NULL,
  mts INTEGER NOT NULL,
  PRIMARY KEY (method, destination)
);
CREATE INDEX IF NOT EXISTS deposit_destinations_owner ON deposit_destinations (user_id, method, wallet, seq);
CREATE INDEX IF NOT EXISTS movements_pending ON movements (status) WHERE status IN ('PENDING', 'CONFIRMING');`);
    // One deposit per transaction of a network: a transaction replayed (the same tx id sent again)
    // must not credit twice. `simulate` checks first and answers the repeat; the index makes the
    // rule hold for any writer. A database holding repeats from before it stays readable: the index
    // is skipped there (logged) and the check alone holds from now on.
    const repeats = db
      .prepare(
        "SELECT 1 FROM movements WHERE method IS NOT NULL AND tx_id IS NOT NULL GROUP BY method, tx_id HAVING COUNT(*) > 1 LIMIT 1",
      )
      .get();
    if (repeats) logError("deposits: movements hold repeated tx ids; the unique index is not created", null);
    else
      db.exec(
        "CREATE UNIQUE INDEX IF NOT EXISTS movements_deposit_tx ON movements (method, tx_id) WHERE method IS NOT NULL AND tx_id IS NOT NULL",
      );
  }

  /**
   * `w/deposit/address {wallet, method, op_renew}`: the account's current destination for the
   * method and wallet, made on first use; `op_renew: 1` makes a fresh one (older ones still credit).
   * An `acc_dep` notification whose ADDRESS is the address — or, for a pooled method or a wire,
   * the destination tag or reference with POOL_ADDRESS the shared address or bank account.
   */
  address(userId: number, body: Record<string, unknown>): Reply {
    const wallet = own(REQUEST_WALLETS, body["wallet"]);
    const method = typeof body["method"] === "string" ? depositMethod(body["method"]) : undefined;
    if (!wallet) return bad("wallet: invalid");
    if (!method) return bad("method: invalid");
    // Deposits need basic-plus (docs/product-rules.md#compliance-gates): no destination below it.
    const refused = depositRefusal(this.db, userId);
    if (refused) return fail(ERROR_CODES.GENERIC, refused);
    const now = this.now();
    const current = this.db
      .prepare(
        "SELECT destination, seq FROM deposit_destinations WHERE user_id = ? AND method = ? AND wallet = ? ORDER BY seq DESC LIMIT 1",
      )
      .get(userId, method.method, wallet) as { destination: string; seq: number } | undefined;
    let destination = current?.destination;
    if (!current || body["op_renew"] === 1) {
      const seq = (current?.seq ?? 0) + 1;
      if (seq > MAX_ADDRESSES) return fail(ERROR_CODES.GENERIC, "address: too many addresses for this method");
      destination = this.#issue(userId, method, wallet, seq, now);
    }
    const data = depositAddressCodec.encode({
      method: method.method,
      currency: method.currency,
      address: destination ?? "",
      poolAddress: poolOf(method),
    });
    return ok(notice(now, "acc_dep", data, "SUCCESS", null));
  }

  /** Stores the `seq`th destination: derived from the account, method, wallet and seq (a collision takes the next salt). */
  #issue(userId: number, method: DepositMethod, wallet: WalletType, seq: number, now: number): string {
    for (let salt = 0; ; salt++) {
      const seed = createHash("sha256").update(`deposit:${userId}:${method.method}:${wallet}:${seq}:${salt}`).digest();
      const destination = depositDestination(method, seed);
      const taken = this.db
        .prepare("SELECT 1 FROM deposit_destinations WHERE method = ? AND destination = ?")
        .get(method.method, destination);
      if (taken) continue;
      this.db
        .prepare(
          "INSERT INTO deposit_destinations (method, destination, user_id, wallet, seq, mts) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .run(method.method, destination, userId, wallet, seq, now);
      return destination;
    }
  }

  /**
   * A deposit arriving (`POST /dev/deposit {method, address, payment_id?, amount, tx_id?}`; a wire
   * `{method, reference, amount}`). To a destination nobody holds it is ignored; below the method's
   * minimum it is recorded as BELOW MINIMUM and never credited; otherwise PENDING with its
   * confirmations to come. Its `n` and the "deposit arrived" mail follow the commit.
   */
  simulate(body: Record<string, unknown>): SimulatedDeposit {
    const method = typeof body["method"] === "string" ? depositMethod(body["method"]) : undefined;
    if (!method) return { status: 400, body: { id: null, state: "IGNORED", reason: "method: invalid" } };
    const amount = num(body["amount"]);
    if (!Number.isFinite(amount) || amount <= 0 || amount >= 1e12 || toUnits(amount) < 1)
      return { status: 400, body: { id: null, state: "IGNORED", reason: "amount: invalid" } };
    const text = (k: string): string => {
      const v = body[k];
      return typeof v === "string" ? v.trim() : "";
    };
    const address = method.kind === "wire" ? "" : text("address");
    // Where the tag or reference is what names the account; the shared address must match too.
    const key = method.kind === "address" ? address : method.kind === "wire" ? text("reference") : text("payment_id");
    if (method.kind === "pooled" && address !== XRP_POOL_ADDRESS)
      return { status: 200, body: { id: null, state: "IGNORED", reason: "address: unknown" } };
    // An Ethereum address is one account whatever its letters' case.
    const owner = this.db
      .prepare(
        method.addressRules === "ethereum"
          ? "SELECT user_id, wallet, destination FROM deposit_destinations WHERE method = ? AND lower(destination) = lower(?)"
          : "SELECT user_id, wallet, destination FROM deposit_destinations WHERE method = ? AND destination = ?",
      )
      .get(method.method, key) as { user_id: number; wallet: WalletType; destination: string } | undefined;
    if (!owner) return { status: 200, body: { id: null, state: "IGNORED", reason: "address: unknown" } };
    const now = this.now();
    const units = toUnits(amount);
    const below = units < toUnits(method.minimum);
    const status = below ? "BELOW MINIMUM" : "PENDING";
    // A transaction id as a chain shows one (64 hex digits) unless the sender names its own.
    const txId = /^[0-9a-fA-F]{64}$/.test(text("tx_id"))
      ? text("tx_id").toLowerCase()
      : randomBytes(32).toString("hex");
    const id = this.balances.events.atomically((): number | null => {
      // Checked inside the write: nothing can slip in between the check and the insert.
      const seen = this.db.prepare("SELECT 1 FROM movements WHERE method = ? AND tx_id = ?").get(method.method, txId);
      if (seen) return null;
      const r = this.db
        .prepare(
          `INSERT INTO movements (user_id, currency, mts_started, mts_updated, status, amount, address, payment_id, tx_id, method, wallet, confirmations, confirmations_required)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?)`,
        )
        .run(
          owner.user_id,
          method.currency,
          now,
          now,
          status,
          units,
          method.kind === "address" ? owner.destination : poolOf(method),
          method.kind === "address" ? null : owner.destination,
          txId,
          method.method,
          owner.wallet,
          method.confirmations,
        );
      const movementId = Number(r.lastInsertRowid);
      const row = this.#row(movementId);
      const shown = `${fromUnits(units)} ${method.currency}`;
      const message = below
        ? `Deposit of ${shown} is below the ${method.minimum} ${method.currency} minimum and will not be credited.`
        : `Deposit of ${shown} arrived; it is credited after ${method.confirmations} confirmations.`;
      this.balances.events.emit(
        owner.user_id,
        "n",
        notice(now, DEPOSIT_NOTIFICATIONS.arrived, row, below ? "ERROR" : "SUCCESS", message),
      );
      if (wantsMail(this.db, owner.user_id, "deposit_arrived"))
        this.#mail(owner.user_id, "Deposit arrived", message, now);
      return movementId;
    });
    if (id === null) return { status: 409, body: { id: null, state: "IGNORED", reason: "tx_id: already received" } };
    return { status: 200, body: { id, state: status } };
  }

  /**
   * Moves every pending deposit on to the confirmations the clock gives it, and credits those that
   * reached their count. Called on the host's timer; safe to call at any rate. A PENDING withdrawal
   * (a negative amount, withdrawals.ts) is not a deposit and is left to its own tick.
   */
  tick(): void {
    const now = this.now();
    const pending = this.db
      .prepare(
        "SELECT id, user_id, currency, method, wallet, mts_started, amount, confirmations, confirmations_required FROM movements WHERE status IN ('PENDING', 'CONFIRMING') AND amount > 0",
      )
      .all() as PendingRow[];
    for (const d of pending) {
      const reached = Math.min(d.confirmations_required, Math.floor((now - d.mts_started) / Math.max(1, this.blockMs)));
      if (reached <= d.confirmations) continue;
      if (reached < d.confirmations_required) {
        this.db
          .prepare(
            "UPDATE movements SET confirmations = ?, status = 'CONFIRMING', mts_updated = ? WHERE id = ? AND status IN ('PENDING', 'CONFIRMING')",
          )
          .run(reached, now, d.id);
        continue;
      }
      this.#credit(d, now);
    }
  }

  /** The credit: wallet and ledger, the movement COMPLETED, the mail, in one transaction; `n` after it. */
  #credit(d: PendingRow, now: number): void {
    const method = depositMethod(d.method);
    const shown = `${fromUnits(d.amount)} ${d.currency}`;
    const message = `Deposit of ${shown} completed and credited to your ${d.wallet} wallet.`;
    this.balances.funds((move) => {
      const done = this.db
        .prepare(
          "UPDATE movements SET status = 'COMPLETED', confirmations = confirmations_required, mts_updated = ? WHERE id = ? AND status IN ('PENDING', 'CONFIRMING')",
        )
        .run(now, d.id);
      // Already credited (another tick got there first): nothing moves twice.
      if (done.changes !== 1) return;
      move(d.user_id, d.wallet, d.currency, d.amount, `Deposit (${method?.network ?? d.method}) #${d.id}`);
      this.balances.events.emit(
        d.user_id,
        "n",
        notice(now, DEPOSIT_NOTIFICATIONS.completed, this.#row(d.id), "SUCCESS", message),
      );
      if (wantsMail(this.db, d.user_id, "deposit_completed")) this.#mail(d.user_id, "Deposit completed", message, now);
    });
  }

  #mail(userId: number, subject: string, text: string, now: number): void {
    const user = this.db.prepare("SELECT email FROM users WHERE id = ?").get(userId) as { email: string } | undefined;
    if (user) sendMail(this.db, user.email, subject, text, now);
  }

  #row(id: number): unknown[] {
    const r = this.db
      .prepare(
        "SELECT id, currency, mts_started, mts_updated, status, amount, fees, address, payment_id, tx_id, note, confirmations, confirmations_required FROM movements WHERE id = ?",
      )
      .get(id) as MovementDbRow;
    return movementWire(r);
  }
}

/** The shared destination of a pooled method or a wire (the XRP pool address, the bank account); null otherwise. */
function poolOf(method: DepositMethod): string | null {
  if (method.kind === "pooled") return XRP_POOL_ADDRESS;
  if (method.kind === "wire") return WIRE_ACCOUNTS[method.currency]?.account ?? null;
  return null;
}

/** Currency names for the movement row's CURRENCY_NAME (proper names, as `pub:map:currency:label`). */
const CURRENCY_NAMES: Readonly<Record<string, string>> = {
  BTC: "Bitcoin",
  ETH: "Ethereum",
  LTC: "Litecoin",
  XRP: "XRP",
  SOL: "Solana",
  UST: "Tether USDt",
  USD: "US Dollar",
  EUR: "Euro",
};

function currencyName(currency: string): string {
  return CURRENCY_NAMES[currency] ?? currency;
}

/** A movement as `r/movements` and the deposit notifications carry it (`movementRowCodec`). */
export function movementWire(r: MovementDbRow): unknown[] {
  return movementRowCodec.encode({
    id: r.id,
    currency: r.currency,
    currencyName: currencyName(r.currency),
    mtsStarted: r.mts_started,
    mtsUpdated: r.mts_updated,
    confirmations: r.confirmations,
    confirmationsRequired: r.confirmations_required,
    status: r.status,
    amount: fromUnits(r.amount),
    fees: fromUnits(r.fees),
    destinationAddress: r.address,
    paymentId: r.payment_id,
    txId: r.tx_id,
    withdrawNote: r.note,
  });
}

export type { MovementDbRow };
