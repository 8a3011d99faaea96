/**
 * The exchange-wide liquidation feed behind the public `liq:global` status channel: every
 * liquidated margin position is published here as the row Bitfinex sends (docs/protocol.md#liquidations,
 * `["pos", POS_ID, MTS, null, SYMBOL, AMOUNT, BASE_PRICE, null, IS_MATCH, IS_MARKET_SOLD, null,
 * LIQ_PRICE]`). It lives on the Exchange, not on the account side, because the public host serves
 * the channel without any account wiring. With a database attached (`persist`, done by the
 * positions) every row is stored in the liquidating transaction, and the history REST
 * `liquidations/hist` serves survives a restart.
 */
import { liquidationCodec, type Liquidation } from "../../src/protocol/index.ts";
import type { Db } from "../store/db.ts";

/** Simulated positions' ids start here, far above account positions' (numbered from 1 in storage). */
export const SIMULATED_POSITION_IDS = 1_000_000_000_000;

/** How many rows `recent` keeps (the history beyond them is read from SQLite). */
export const LIQUIDATIONS_KEPT = 500;

export class LiquidationFeed {
  readonly #listeners = new Set<(row: unknown[]) => void>();
  /** The most recent rows, newest first (REST `liquidations/hist`). */
  readonly recent: unknown[][] = [];
  #db: Db | null = null;
  /** Simulated liquidations so far, when no database numbers them. */
  #simulated = 0;

  on(listener: (row: unknown[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stores every row from now on in `db`, and loads the rows stored before (after a restart). */
  persist(db: Db): void {
    if (this.#db === db) return;
    this.#db = db;
    db.exec(
      "CREATE TABLE IF NOT EXISTS liquidations (id INTEGER PRIMARY KEY AUTOINCREMENT, mts INTEGER NOT NULL, row TEXT NOT NULL)",
    );
    db.exec("CREATE INDEX IF NOT EXISTS liquidations_mts ON liquidations(mts)");
    const rows = db.prepare("SELECT row FROM liquidations ORDER BY id DESC LIMIT ?").all(LIQUIDATIONS_KEPT) as {
      row: string;
    }[];
    this.recent.length = 0;
    for (const r of rows) this.recent.push(JSON.parse(r.row) as unknown[]);
  }

  /**
   * A page of the history, newest first: rows with `start <= MTS <= end`, at most `limit`. From
   * SQLite when attached (every row ever stored), else from `recent`.
   */
  page(start: number, end: number, limit: number): unknown[][] {
    if (!this.#db)
      return this.recent.filter((r) => (r[2] as number) >= start && (r[2] as number) <= end).slice(0, limit);
    const rows = this.#db
      .prepare("SELECT row FROM liquidations WHERE mts >= ? AND mts <= ? ORDER BY mts DESC, id DESC LIMIT ?")
      .all(start, end, limit) as { row: string }[];
    return rows.map((r) => JSON.parse(r.row) as unknown[]);
  }

  /**
   * A liquidation of a simulated trader's position (the development hook `POST /dev/liquidation`):
   * there are no simulated positions to mark, so the row is what one at `price` would be — a long
   * opened 8 % higher (a short 8 % lower), taken over by the system. Its id lives above account position ids.
   */
  simulate(symbol: string, amount: number, price: number, now: number): unknown[] {
    const next = this.#db
      ? (this.#db.prepare("SELECT COALESCE(MAX(id), 0) + 1 AS n FROM liquidations").get() as { n: number }).n
      : ++this.#simulated;
    const l: Liquidation = {
      kind: "pos",
      posId: SIMULATED_POSITION_IDS + next,
      mts: now,
      symbol,
      amount,
      basePrice: Math.round(price * (amount > 0 ? 1.08 : 0.92) * 1e8) / 1e8,
      isMatch: false,
      isMarketSold: true,
      liquidationPrice: price,
    };
    this.publish(l);
    return liquidationCodec.encode(l);
  }

  /**
   * Stores the row (in the caller's transaction) and shows it: in `recent` and to the channel's
   * listeners through `afterCommit` — a liquidating transaction passes its events' hook, so a
   * liquidation that rolls back is never seen on `liq:global` (docs/protocol.md#liquidations).
   */
  publish(l: Liquidation, afterCommit: (fn: () => void) => void = (fn) => fn()): void {
    const row = liquidationCodec.encode(l);
    this.#db?.prepare("INSERT INTO liquidations (mts, row) VALUES (?, ?)").run(l.mts, JSON.stringify(row));
    afterCommit(() => {
      this.recent.unshift(row);
      if (this.recent.length > LIQUIDATIONS_KEPT) this.recent.length = LIQUIDATIONS_KEPT;
      for (const fn of this.#listeners) fn(row);
    });
  }
}
