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

/** How many rows `recent` (and so `liquidations/hist`) keeps. */
export const LIQUIDATIONS_KEPT = 500;

export class LiquidationFeed {
  readonly #listeners = new Set<(row: unknown[]) => void>();
  /** The most recent rows, newest first (REST `liquidations/hist`). */
  readonly recent: unknown[][] = [];
  #db: Db | null = null;

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
    const rows = db.prepare("SELECT row FROM liquidations ORDER BY id DESC LIMIT ?").all(LIQUIDATIONS_KEPT) as {
      row: string;
    }[];
    this.recent.length = 0;
    for (const r of rows) this.recent.push(JSON.parse(r.row) as unknown[]);
  }

  publish(l: Liquidation): void {
    const row = liquidationCodec.encode(l);
    this.#db?.prepare("INSERT INTO liquidations (mts, row) VALUES (?, ?)").run(l.mts, JSON.stringify(row));
    this.recent.unshift(row);
    if (this.recent.length > LIQUIDATIONS_KEPT) this.recent.length = LIQUIDATIONS_KEPT;
    for (const fn of this.#listeners) fn(row);
  }
}
