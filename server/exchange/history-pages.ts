/**
 * What every history call shares (docs/protocol.md#history-paging): a keyset walk newest first —
 * time, then id, descending — continued by the `(end, end_id)` cursor, so rows sharing a
 * millisecond are neither repeated nor skipped; and the streamed CSV export that walks the same
 * order a page at a time instead of reading a whole range at once. The ledgers
 * (ledger-history.ts), orders and trades (order-history.ts) use them.
 */
import { csvRecord, type RangeQuery } from "../../src/protocol/index.ts";
import type { Db } from "../store/db.ts";

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

/** A table walked newest first: its name and the columns of the time and the tie-breaking id. */
export interface KeysetSource {
  readonly table: string;
  readonly time: string;
  readonly id: string;
}

/** A condition of the walk besides the range: SQL text with `?` and its arguments. */
export type Condition = readonly [sql: string, ...args: (number | string)[]];

/** One page of `source`'s rows matching the conditions and `q`'s range, newest first. */
export function keysetPage<T>(db: Db, source: KeysetSource, conditions: readonly Condition[], q: RangeQuery): T[] {
  const { table, time, id } = source;
  const where: string[] = [];
  const args: (number | string)[] = [];
  const add = ([sql, ...values]: Condition): void => {
    where.push(sql);
    args.push(...values);
  };
  for (const c of conditions) add(c);
  if (q.start !== null) add([`${time} >= ?`, q.start]);
  if (q.end !== null && q.endId !== null) add([`(${time} < ? OR (${time} = ? AND ${id} < ?))`, q.end, q.end, q.endId]);
  else if (q.end !== null) add([`${time} <= ?`, q.end]);
  const sql = `SELECT * FROM ${table} WHERE ${where.length > 0 ? where.join(" AND ") : "1"} ORDER BY ${time} DESC, ${id} DESC LIMIT ?`;
  return db.prepare(sql).all(...args, q.limit) as T[];
}

/** Rows a streamed export reads from SQLite per query (and writes per chunk). */
export const EXPORT_PAGE = 500;

/**
 * A CSV export over `q`'s range (its `limit` ignored): a header record, then every row `page`
 * gives, newest first, one SQLite page per chunk, each page continued after the previous one's
 * oldest row (`cursor`). `begin` runs once when the stream starts, before the first page (the
 * ledger takes its snapshot there).
 */
export function csvExport<T>(o: {
  readonly filename: string;
  readonly header: readonly string[];
  readonly q: RangeQuery;
  readonly page: (q: RangeQuery) => T[];
  readonly cursor: (row: T) => { readonly end: number; readonly endId: number };
  readonly line: (row: T) => readonly string[];
  readonly begin?: () => boolean;
}): StreamedBody {
  return new StreamedBody("text/csv; charset=utf-8", o.filename, function* () {
    const go = o.begin ? o.begin() : true;
    yield csvRecord(o.header);
    if (!go) return;
    let q: RangeQuery = { ...o.q, limit: EXPORT_PAGE };
    for (;;) {
      const rows = o.page(q);
      if (rows.length === 0) return;
      yield rows.map((r) => csvRecord(o.line(r))).join("");
      if (rows.length < EXPORT_PAGE) return;
      const { end, endId } = o.cursor(rows[rows.length - 1] as T);
      q = { ...q, end, endId };
    }
  });
}

/** The export's file name: `{kind}-{what or all}-{UTC day}.csv`. */
export function exportName(kind: string, what: string | null, now: number): string {
  return `${kind}-${what ?? "all"}-${new Date(now).toISOString().slice(0, 10)}.csv`;
}
