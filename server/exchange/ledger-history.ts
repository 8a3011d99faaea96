/**
 * Reading the ledgers (docs/protocol.md#ledger-history): the `r/ledgers[/{ccy}]/hist` pages and
 * the streamed CSV export `r/ledgers/export`. Both walk the same order — MTS, then ID, descending —
 * with a keyset cursor `(mts, id)` (history-pages.ts), so rows sharing a millisecond are neither
 * repeated nor skipped and the export reads SQLite a page at a time, never the whole range at once.
 */
import {
  LEDGER_CATEGORY,
  LEDGER_CATEGORY_NAME,
  LEDGER_CSV_HEADER,
  ledgerCategoryOf,
  ledgerCodec,
  ledgerReconciliationCodec,
  reconciliationOf,
  unitsToDecimal,
  walkChain,
  type LedgerQuery,
} from "../../src/protocol/index.ts";
import { addColumns, fromUnits, type Db } from "../store/db.ts";
import { csvExport, exportName, keysetPage, StreamedBody, type Condition, type KeysetSource } from "./history-pages.ts";

// The streamed answer's class lives with the other history pieces; api-server.ts knows it from here.
export { StreamedBody };

export interface LedgerRow {
  readonly id: number;
  readonly currency: string;
  readonly wallet: string;
  readonly mts: number;
  readonly amount: number;
  readonly balance: number;
  readonly description: string;
  readonly category: number;
}

/**
 * The ledgers' own migration: the `category` column (read from each description by the rule in
 * src/protocol/ledgers.ts, so rows written before it existed get theirs too) and the index the
 * newest-first walk uses.
 */
export function migrateLedgers(db: Db): void {
  addColumns(db, [["ledgers", "category", "INTEGER"]]);
  const untagged = db.prepare("SELECT id, description FROM ledgers WHERE category IS NULL").all() as {
    id: number;
    description: string;
  }[];
  if (untagged.length > 0) {
    const set = db.prepare("UPDATE ledgers SET category = ? WHERE id = ?");
    db.transaction(() => {
      for (const r of untagged) set.run(ledgerCategoryOf(r.description), r.id);
    })();
  }
  // Rows tagged before the codes followed Bitfinex's table: adjustments were written as 31 (Bitfinex's
  // derivatives settlement, which this exchange never writes) and refunds of cancelled withdrawals
  // as 104. Idempotent: nothing writes 31 any more, and a refund's description says what it is.
  db.exec(`UPDATE ledgers SET category = ${LEDGER_CATEGORY.ADJUSTMENT} WHERE category = 31`);
  db.prepare("UPDATE ledgers SET category = ? WHERE category = ? AND description LIKE 'Canceled withdrawal%'").run(
    LEDGER_CATEGORY.CANCELED_WITHDRAWAL,
    LEDGER_CATEGORY.WITHDRAWAL,
  );
  db.exec("CREATE INDEX IF NOT EXISTS ledgers_user_mts ON ledgers (user_id, mts DESC, id DESC)");
}

/** One page of a user's ledger rows matching `q`, newest first (`q.limit` rows at most). */
export function ledgerPage(
  db: Db,
  userId: number,
  currency: string | null,
  q: LedgerQuery,
  /** The export's snapshot: no row written after it began (a larger id) joins it. */
  maxId: number | null = null,
): LedgerRow[] {
  const conditions: Condition[] = [["user_id = ?", userId]];
  if (currency !== null) conditions.push(["currency = ?", currency]);
  if (q.category !== null) conditions.push(["category = ?", q.category]);
  if (q.wallet !== null) conditions.push(["wallet = ?", q.wallet]);
  if (maxId !== null) conditions.push(["id <= ?", maxId]);
  return keysetPage<LedgerRow>(db, LEDGERS, conditions, q);
}

const LEDGERS: KeysetSource = { table: "ledgers", time: "mts", id: "id" };

export function ledgerWire(l: LedgerRow): unknown[] {
  return ledgerCodec.encode({
    id: l.id,
    currency: l.currency,
    wallet: l.wallet,
    time: l.mts,
    amount: fromUnits(l.amount),
    balance: fromUnits(l.balance),
    description: l.description,
  });
}

/**
 * The CSV export of a user's ledger over `q`'s range (its `limit` ignored): a header record, then
 * every matching row newest first, in chunks of one SQLite page each (history-pages.ts). The rows
 * are those that existed when the export began: one written while it streams is left out, so the
 * file is one consistent snapshot.
 */
export function ledgerCsv(db: Db, userId: number, currency: string | null, q: LedgerQuery, now: number): StreamedBody {
  let top: number | null = null;
  return csvExport<LedgerRow>({
    filename: exportName("ledgers", currency, now),
    header: LEDGER_CSV_HEADER,
    q,
    begin: () => {
      top = (db.prepare("SELECT MAX(id) AS id FROM ledgers").get() as { id: number | null }).id;
      return top !== null;
    },
    page: (page) => ledgerPage(db, userId, currency, { ...q, ...page }, top),
    cursor: (l) => ({ end: l.mts, endId: l.id }),
    line: csvLine,
  });
}

function csvLine(l: LedgerRow): string[] {
  const category = LEDGER_CATEGORY_NAME[l.category as keyof typeof LEDGER_CATEGORY_NAME] ?? String(l.category);
  return [
    String(l.id),
    new Date(l.mts).toISOString(),
    l.currency,
    l.wallet,
    category,
    unitsToDecimal(l.amount),
    unitsToDecimal(l.balance),
    l.description,
  ];
}

/**
 * Every wallet's reconciliation (docs/protocol.md#ledger-reconciliation): its ledger rows walked in
 * the order they were written (ID ascending: the balance of each was computed from the one before,
 * whatever the clock said), one row at a time, in integer units so the comparison is exact.
 */
export function reconcileLedgers(db: Db, userId: number): unknown[][] {
  const wallets = db
    .prepare(
      `SELECT w.currency, w.type AS wallet, w.balance FROM wallets w WHERE w.user_id = ?
       UNION SELECT DISTINCT l.currency, l.wallet, 0 FROM ledgers l WHERE l.user_id = ?
         AND NOT EXISTS (SELECT 1 FROM wallets w WHERE w.user_id = l.user_id AND w.type = l.wallet AND w.currency = l.currency)
       ORDER BY 1, 2`,
    )
    .all(userId, userId) as { currency: string; wallet: string; balance: number }[];
  const walk = db.prepare(
    "SELECT id, mts, amount, balance FROM ledgers WHERE user_id = ? AND currency = ? AND wallet = ? ORDER BY id",
  );
  return wallets.map((w) => {
    const steps = walk.iterate(userId, w.currency, w.wallet) as Iterable<Omit<LedgerRow, "currency">>;
    return ledgerReconciliationCodec.encode(reconciliationOf(w.currency, w.wallet, w.balance, walkChain(steps)));
  });
}
