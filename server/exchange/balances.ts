/**
 * The one owner of account balances: the `wallets` table and the `ledgers` that chain each wallet
 * to its balance. Every change of a balance, or of what open orders and offers reserve of it, goes
 * through `move`: the wallet row and its ledger row are written in one SQLite transaction (the
 * caller's, when one is open), the balance never goes below what is reserved nor what is reserved
 * below zero, and the wallet's `wu` goes out through the event queue after COMMIT. Amounts are
 * integer units of 1e-8 (store/db.ts).
 */
import { LEDGER_LIMIT_MAX, ledgerCategoryOf, walletCodec, type WalletType } from "../../src/protocol/index.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import type { AccountEvents } from "./events.ts";
import { ledgerPage, ledgerWire, migrateLedgers } from "./ledger-history.ts";

export interface WalletUnits {
  readonly balance: number;
  readonly reserved: number;
}

/** A balance change inside `funds`: `dUnits` added to the balance, with its ledger text. */
export type Move = (userId: number, type: WalletType, currency: string, dUnits: number, text: string) => void;

export class Balances {
  constructor(
    readonly db: Db,
    readonly events: AccountEvents,
    readonly now: () => number,
  ) {
    migrateLedgers(db);
  }

  wallet(userId: number, type: WalletType, currency: string): WalletUnits {
    const row = this.db
      .prepare("SELECT balance, reserved FROM wallets WHERE user_id = ? AND type = ? AND currency = ?")
      .get(userId, type, currency) as WalletUnits | undefined;
    return row ?? { balance: 0, reserved: 0 };
  }

  /** A wallet's free balance in units (balance less what open orders and offers reserve). */
  available(userId: number, type: WalletType, currency: string): number {
    const w = this.wallet(userId, type, currency);
    return w.balance - w.reserved;
  }

  /**
   * Changes a wallet by `dBalance` and its reservation by `dReserved` (units). A balance change with
   * a `description` gets its ledger row; a change that would break balance ≥ reserved ≥ 0 throws,
   * which rolls back the transaction it is part of.
   */
  move(
    userId: number,
    type: WalletType,
    currency: string,
    dBalance: number,
    dReserved: number,
    description: string | null,
  ): void {
    const apply = (): void => {
      const w = this.wallet(userId, type, currency);
      const balance = w.balance + dBalance;
      const reserved = w.reserved + dReserved;
      if (balance < 0 || reserved < 0 || reserved > balance)
        throw new Error(`wallet invariant broken for ${type} ${currency}`);
      this.db
        .prepare(
          "INSERT INTO wallets (user_id, type, currency, balance, reserved) VALUES (?, ?, ?, ?, ?) ON CONFLICT(user_id, type, currency) DO UPDATE SET balance = excluded.balance, reserved = excluded.reserved",
        )
        .run(userId, type, currency, balance, reserved);
      if (dBalance !== 0 && description)
        this.db
          .prepare(
            "INSERT INTO ledgers (user_id, currency, wallet, mts, amount, balance, description, category) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          )
          .run(userId, currency, type, this.now(), dBalance, balance, description, ledgerCategoryOf(description));
      this.events.emit(userId, "wu", walletWire(type, currency, balance, reserved));
    };
    if (this.db.inTransaction) apply();
    else this.events.atomically(apply);
  }

  /** Runs `fn` in one transaction with the balance changes it makes (transfers, deposits, withdrawals). */
  funds<T>(fn: (move: Move) => T): T {
    return this.events.atomically(() =>
      fn((userId, type, currency, dUnits, text) => this.move(userId, type, currency, dUnits, 0, text)),
    );
  }

  /** Adds `amount` to the exchange wallet (a deposit without a movement record). */
  credit(userId: number, currency: string, amount: number, description: string): void {
    this.move(userId, "exchange", currency, toUnits(amount), 0, description);
  }

  /** The `ws` snapshot and REST `r/wallets`. */
  walletsWire(userId: number): unknown[][] {
    const rows = this.db
      .prepare("SELECT type, currency, balance, reserved FROM wallets WHERE user_id = ? ORDER BY type, currency")
      .all(userId) as { type: WalletType; currency: string; balance: number; reserved: number }[];
    return rows.map((r) => walletWire(r.type, r.currency, r.balance, r.reserved));
  }

  /** One wallet's record, as `wu` carries it (the `calc` input's `wallet_<type>_<currency>`). */
  walletOf(userId: number, type: WalletType, currency: string): unknown[] {
    const w = this.wallet(userId, type, currency);
    return walletWire(type, currency, w.balance, w.reserved);
  }

  /** The newest ledger entries (server/exchange/ledger-history.ts reads the filtered pages). */
  ledgersWire(userId: number, currency: string | null, limit: number): unknown[][] {
    const q = {
      start: null,
      end: null,
      endId: null,
      category: null,
      wallet: null,
      limit: Math.min(limit, LEDGER_LIMIT_MAX),
    };
    return ledgerPage(this.db, userId, currency, q).map(ledgerWire);
  }
}

function walletWire(type: WalletType, currency: string, balance: number, reserved: number): unknown[] {
  return walletCodec.encode({
    type,
    currency,
    balance: fromUnits(balance),
    interest: 0,
    availableRaw: fromUnits(balance - reserved),
    description: null,
    meta: null,
  });
}
