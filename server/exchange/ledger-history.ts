/**
 * Reading the ledgers (docs/protocol.md#ledger-history): the `r/ledgers[/{ccy}]/hist` pages and
 * the streamed CSV export `r/ledgers/export`. Both walk the same order — MTS, then ID, descending —
 * with a keyset cursor `(mts, id)`, so rows sharing a millisecond are neither repeated nor skipped
 * and the export reads SQLite a page at a time, never the whole range at once.
 */
import {
  LEDGER_CATEGORY_NAME,
  LEDGER_CSV_HEADER,
  csvRecord,
  ledgerCategoryOf,
  ledgerCodec,
  ledgerReconciliationCodec,
  unitsToDecimal,
  type LedgerQuery,
} from "../../src/protocol/index.ts";
import { addColumns, fromUnits, type Db } from "../store/db.ts";

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

/** Rows the export reads from SQLite per query (and writes per chunk). */
const EXPORT_PAGE = 500;

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
  const where = ["user_id = ?"];
  const args: (number | string)[] = [userId];
  if (currency !== null) {
    where.push("currency = ?");
    args.push(currency);
  }
  if (q.category !== null) {
    where.push("category = ?");
    args.push(q.category);
  }
  if (q.wallet !== null) {
    where.push("wallet = ?");
    args.push(q.wallet);
  }
  if (q.start !== null) {
    where.push("mts >= ?");
    args.push(q.start);
  }
  if (q.end !== null && q.endId !== null) {
    where.push("(mts < ? OR (mts = ? AND id < ?))");
    args.push(q.end, q.end, q.endId);
  } else if (q.end !== null) {
    where.push("mts <= ?");
    args.push(q.end);
  }
  if (maxId !== null) {
    where.push("id <= ?");
    args.push(maxId);
  }
  return db
    .prepare(`SELECT * FROM ledgers WHERE ${where.join(" AND ")} ORDER BY mts DESC, id DESC LIMIT ?`)
    .all(...args, q.limit) as LedgerRow[];
}

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
 * A streamed answer of the authenticated host (server/api-server.ts writes its chunks as they come,
 * waiting for the socket to drain between them) instead of a JSON body.
 */
export class StreamedBody {
  constructor(
    readonly contentType: string,
    readonly filename: string,
    readonly chunks: () => Iterator<string>,
  ) {}
}

/**
 * The CSV export of a user's ledger over `q`'s range (its `limit` ignored): a header record, then
 * every matching row newest first, in chunks of one SQLite page each. The rows are those that
 * existed when the export began: one written while it streams is left out, so the file is one
 * consistent snapshot.
 */
export function ledgerCsv(db: Db, userId: number, currency: string | null, q: LedgerQuery, now: number): StreamedBody {
  const day = new Date(now).toISOString().slice(0, 10);
  return new StreamedBody("text/csv; charset=utf-8", `ledgers-${currency ?? "all"}-${day}.csv`, function* () {
    const top = db.prepare("SELECT MAX(id) AS id FROM ledgers").get() as { id: number | null };
    yield csvRecord(LEDGER_CSV_HEADER);
    if (top.id === null) return;
    let cursor: LedgerQuery = { ...q, limit: EXPORT_PAGE };
    for (;;) {
      const rows = ledgerPage(db, userId, currency, cursor, top.id);
      if (rows.length === 0) return;
      yield rows.map(csvLine).join("");
      if (rows.length < EXPORT_PAGE) return;
      const last = rows[rows.length - 1] as LedgerRow;
      cursor = { ...cursor, end: last.mts, endId: last.id };
    }
  });
}

function csvLine(l: LedgerRow): string {
  const category = LEDGER_CATEGORY_NAME[l.category as keyof typeof LEDGER_CATEGORY_NAME] ?? String(l.category);
  return csvRecord([
    String(l.id),
    new Date(l.mts).toISOString(),
    l.currency,
    l.wallet,
    category,
    unitsToDecimal(l.amount),
    unitsToDecimal(l.balance),
    l.description,
  ]);
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
    let balance = 0;
    let rows = 0;
    let broken: { id: number; mts: number; expected: number; found: number } | null = null;
    for (const r of walk.iterate(userId, w.currency, w.wallet) as Iterable<Omit<LedgerRow, "currency">>) {
      rows++;
      if (broken === null && r.balance !== balance + r.amount)
        broken = { id: r.id, mts: r.mts, expected: balance + r.amount, found: r.balance };
      balance = r.balance;
    }
    return ledgerReconciliationCodec.encode({
      currency: w.currency,
      wallet: w.wallet,
      balance: fromUnits(w.balance),
      rows,
      chained: broken === null && balance === w.balance,
      breakId: broken?.id ?? null,
      breakTime: broken?.mts ?? null,
      expected: broken ? fromUnits(broken.expected) : null,
      found: broken ? fromUnits(broken.found) : null,
    });
  });
}
