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
import type { HttpReply } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

/** Rows per page of the table. */
export const REPORT_PAGE = 50;

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
export interface LedgerCursor {
  readonly end: number;
  readonly endId: number;
}

export type FilterProblem = "from-date" | "to-date" | "range";

export type QueryResult =
  | { readonly ok: true; readonly path: string; readonly body: Record<string, number> }
  | { readonly ok: false; readonly problem: FilterProblem };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first millisecond of a YYYY-MM-DD day in the reader's time zone; null when not a date. */
export function dayStart(text: string): number | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(y, mo - 1, d);
  return t.getFullYear() === y && t.getMonth() === mo - 1 && t.getDate() === d ? t.getTime() : null;
}

/** The last millisecond of that day (a "to" date includes the whole day). */
export function dayEnd(text: string): number | null {
  const start = dayStart(text);
  if (start === null) return null;
  const next = new Date(start);
  next.setDate(next.getDate() + 1);
  return next.getTime() - 1;
}

/**
 * The filters as the exchange's call: `r/ledgers[/CCY]/hist` (or `/export`) with `start`, `end`,
 * `category` and, past the first page, the cursor. A date that is not one, or a range that ends
 * before it starts, is refused here: nothing is asked of the exchange.
 */
export function ledgerQuery(
  filters: ReportFilters,
  kind: "hist" | "export",
  cursor: LedgerCursor | null = null,
): QueryResult {
  const start = filters.from === "" ? null : dayStart(filters.from);
  if (start === null && filters.from !== "") return { ok: false, problem: "from-date" };
  const end = filters.to === "" ? null : dayEnd(filters.to);
  if (end === null && filters.to !== "") return { ok: false, problem: "to-date" };
  if (start !== null && end !== null && start > end) return { ok: false, problem: "range" };
  const body: Record<string, number> = {};
  if (start !== null) body["start"] = start;
  if (end !== null) body["end"] = end;
  if (cursor) {
    body["end"] = cursor.end;
    body["end_id"] = cursor.endId;
  }
  if (filters.category !== null) body["category"] = filters.category;
  if (kind === "hist") body["limit"] = REPORT_PAGE;
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

export type ExportResult =
  | { readonly ok: true; readonly blob: Blob; readonly filename: string; readonly rows: number }
  | { readonly ok: false; readonly error: ApiErrorKind };

/**
 * Runs the export: a POST with the session's token in its header (never in an address, which
 * would land in logs and history), the streamed CSV read chunk by chunk — `onRows` hears how many
 * rows have arrived — and kept as the file's parts until the stream ends.
 */
export async function exportLedger(
  fetchImpl: typeof fetch,
  url: string,
  token: string,
  body: Record<string, number>,
  onRows: (rows: number) => void,
): Promise<ExportResult> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json", "bfx-token": token },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, error: "unreachable" };
  }
  if (res.status !== 200 || !res.body) {
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      parsed = null;
    }
    return { ok: false, error: apiErrorKind(res.status, parsed) };
  }
  const parts: BlobPart[] = [];
  const reader = res.body.getReader();
  let lines = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A copy on a plain ArrayBuffer: a Blob takes no view of a shared one.
      parts.push(new Uint8Array(value));
      for (const byte of value) if (byte === 10) lines++;
      // The first line is the header; a description's own line breaks may count, which only
      // makes the progress run slightly ahead.
      onRows(Math.max(0, lines - 1));
    }
  } catch {
    // The stream broke midway: a partial file would look whole, so there is none.
    return { ok: false, error: "unreachable" };
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "ledgers.csv";
  return { ok: true, blob: new Blob(parts, { type: "text/csv" }), filename: name, rows: Math.max(0, lines - 1) };
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
