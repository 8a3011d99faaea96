/**
 * Which accounts are paper accounts (docs/product-rules.md#paper-trading): the `paper_accounts`
 * table, one row per owner. The exchange's rules read it here — order entry (orders.ts: a paper
 * account trades the TEST pairs only, a live one never does) and authenticated REST (rest-auth.ts:
 * the live-only calls) — while opening and entering one is server/paper.ts's.
 */
import type { Db } from "../store/db.ts";

const ready = new WeakSet<Db>();

/** Creates the table once per database (an older database file gets it on its first use). */
export function paperTables(db: Db): void {
  if (ready.has(db)) return;
  db.exec(`CREATE TABLE IF NOT EXISTS paper_accounts (
  user_id INTEGER PRIMARY KEY,
  owner_id INTEGER NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);`);
  ready.add(db);
}

/** The owner of the paper account `userId`, or null when `userId` is a live account. */
export function paperOwnerOf(db: Db, userId: number): number | null {
  paperTables(db);
  const row = db.prepare("SELECT owner_id FROM paper_accounts WHERE user_id = ?").get(userId) as
    { owner_id: number } | undefined;
  return row?.owner_id ?? null;
}

export function isPaperAccount(db: Db, userId: number): boolean {
  return paperOwnerOf(db, userId) !== null;
}
