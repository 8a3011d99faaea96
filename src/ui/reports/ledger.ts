/**
 * The reports page's rules and calls, framework-free so they test in Node
 * (docs/product-rules.md#reports): the filters as a ledger query, newest-first pages continued
 * with the exchange's `(end, end_id)` cursor, and the CSV export read from its stream into a file.
 */
import {
  ledgerCodec,
  ledgerReconciliationCodec,
  type LedgerCategory,
  type LedgerEntry,
  type LedgerReconciliation,
} from "../../protocol";
import { streamCsv, type ExportResult } from "../history/csv-download";
import { dayEnd, dayStart, HISTORY_PAGE, rangeBody, type HistoryCursor, type RangeProblem } from "../history/range";
import type { HttpReply } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

/** Rows per page of the table. */
export const REPORT_PAGE = HISTORY_PAGE;

export interface ReportFilters {
  /** A currency code, or "" for every currency. */
  readonly currency: string;
  readonly category: LedgerCategory | null;
  /** Dates as an `<input type="date">` gives them (YYYY-MM-DD, the reader's days), "" for open. */
  readonly from: string;
  readonly to: string;
}

export const NO_FILTERS: ReportFilters = { currency: "", category: null, from: "", to: "" };

/** Where the next page starts: after the oldest row shown (its time and id). */
export type LedgerCursor = HistoryCursor;

export type FilterProblem = RangeProblem;

export type QueryResult =
  | { readonly ok: true; readonly path: string; readonly body: Record<string, number> }
  | { readonly ok: false; readonly problem: FilterProblem };

export { dayEnd, dayStart };

/**
 * The filters as the exchange's call: `r/ledgers[/CCY]/hist` (or `/export`) with `start`, `end`,
 * `category` and, past the first page, the cursor. A date that is not one, or a range that ends
 * before it starts, is refused here (src/ui/history/range.ts): nothing is asked of the exchange.
 */
export function ledgerQuery(
  filters: ReportFilters,
  kind: "hist" | "export",
  cursor: LedgerCursor | null = null,
): QueryResult {
  const range = rangeBody(filters.from, filters.to, cursor, kind === "hist" ? REPORT_PAGE : null);
  if (!range.ok) return range;
  const body = { ...range.body };
  if (filters.category !== null) body["category"] = filters.category;
  const ccy = filters.currency === "" ? "" : `/${filters.currency}`;
  return { ok: true, path: `/v2/auth/r/ledgers${ccy}/${kind}`, body };
}

export type LedgerReply =
  | { readonly ok: true; readonly rows: LedgerEntry[]; readonly more: boolean }
  | { readonly ok: false; readonly error: ApiErrorKind };

/** One page through the session's call, read by the ledger codec. */
export async function ledgerPageOf(
  call: (path: string, body: unknown) => Promise<HttpReply>,
  path: string,
  body: Record<string, number>,
): Promise<LedgerReply> {
  const reply = await call(path, body);
  if (reply.status !== 200) return { ok: false, error: apiErrorKind(reply.status, reply.body) };
  const rows = ledgerCodec.decodeList(reply.body);
  if (!rows.ok) return { ok: false, error: "server" };
  return { ok: true, rows: rows.value, more: rows.value.length === REPORT_PAGE };
}

/** The cursor after a page: its oldest row. */
export function cursorAfter(rows: readonly LedgerEntry[]): LedgerCursor | null {
  const last = rows.at(-1);
  return last ? { end: last.time, endId: last.id } : null;
}

/** Runs the export of the ledger (src/ui/history/csv-download.ts). */
export function exportLedger(
  fetchImpl: typeof fetch,
  url: string,
  token: string,
  body: Record<string, number>,
  onRows: (rows: number) => void,
): Promise<ExportResult> {
  return streamCsv(fetchImpl, url, token, body, onRows, "ledgers.csv");
}

export type ReconcileReply =
  | { readonly ok: true; readonly wallets: LedgerReconciliation[] }
  | { readonly ok: false; readonly error: ApiErrorKind };

/** Whether each wallet's ledger chains to its balance (the exchange walks the rows). */
export async function reconcile(call: (path: string, body: unknown) => Promise<HttpReply>): Promise<ReconcileReply> {
  const reply = await call("/v2/auth/r/ledgers/reconcile", {});
  if (reply.status !== 200) return { ok: false, error: apiErrorKind(reply.status, reply.body) };
  const d = ledgerReconciliationCodec.decodeList(reply.body);
  return d.ok ? { ok: true, wallets: d.value } : { ok: false, error: "server" };
}
