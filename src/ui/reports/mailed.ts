/**
 * Mailed reports from the page's side (docs/product-rules.md#reports): asking the exchange for a
 * report, listing the account's reports, and downloading one — by the mailed link's token or by id
 * from the list — with the session's token in a header, never in an address.
 */
import {
  isReportKind,
  parseApiError,
  REPORT_PATHS,
  reportQueuedCodec,
  reportRefusalOf,
  reportRowCodec,
  type ReportRefusal,
  type ReportRequest,
  type ReportRow,
} from "../../protocol";
import type { HttpReply } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";

export type ReportError =
  | { readonly kind: "refusal"; readonly refusal: ReportRefusal }
  | { readonly kind: "api"; readonly error: ApiErrorKind };

type Call = (path: string, body: unknown) => Promise<HttpReply>;

function errorOf(status: number, body: unknown): ReportError {
  const parsed = parseApiError(body);
  const refusal = parsed ? reportRefusalOf(parsed.message) : null;
  return refusal ? { kind: "refusal", refusal } : { kind: "api", error: apiErrorKind(status, body) };
}

/** Asks for a report; its id once queued. */
export async function requestReport(
  call: Call,
  request: ReportRequest,
): Promise<{ readonly ok: true; readonly id: number } | { readonly ok: false; readonly error: ReportError }> {
  const r = await call(REPORT_PATHS.generate, request);
  if (r.status !== 200) return { ok: false, error: errorOf(r.status, r.body) };
  const q = reportQueuedCodec.decode(r.body);
  return q.ok ? { ok: true, id: q.value.id } : { ok: false, error: { kind: "api", error: "server" } };
}

/** The account's reports, newest first. */
export async function listReports(
  call: Call,
): Promise<{ readonly ok: true; readonly rows: ReportRow[] } | { readonly ok: false; readonly error: ReportError }> {
  const r = await call(REPORT_PATHS.list, {});
  if (r.status !== 200) return { ok: false, error: errorOf(r.status, r.body) };
  const rows = reportRowCodec.decodeList(r.body);
  return rows.ok ? { ok: true, rows: rows.value } : { ok: false, error: { kind: "api", error: "server" } };
}

export type DownloadResult =
  | { readonly ok: true; readonly blob: Blob; readonly filename: string }
  | { readonly ok: false; readonly error: ReportError };

/** Fetches a stored report's file, whole, with the session's token in its header. */
export async function downloadReport(
  fetchImpl: typeof fetch,
  url: string,
  token: string,
  which: { readonly token: string } | { readonly id: number },
): Promise<DownloadResult> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json", "bfx-token": token },
      body: JSON.stringify(which),
    });
  } catch {
    return { ok: false, error: { kind: "api", error: "unreachable" } };
  }
  if (res.status !== 200) {
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {
      // answered as a server error below
    }
    return { ok: false, error: errorOf(res.status, parsed) };
  }
  let blob: Blob;
  try {
    blob = await res.blob();
  } catch {
    // The stream broke midway: a partial file would look whole, so there is none.
    return { ok: false, error: { kind: "api", error: "unreachable" } };
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? "report.csv";
  return { ok: true, blob: new Blob([blob], { type: "text/csv" }), filename };
}

/** Whether the ledger's date range is long enough to suggest a mailed report: over a year. */
export function isLargeRange(fromMs: number | null, toMs: number | null, nowMs: number): boolean {
  if (fromMs === null) return false;
  return (toMs ?? nowMs) - fromMs > 366 * 24 * 60 * 60 * 1000;
}

/** Rows past which a live export is better mailed. */
export const LARGE_EXPORT_ROWS = 10_000;

const EXPORT_PATH =
  /^\/v2\/auth\/r\/(ledgers|orders|trades|positions|funding\/(?:offers|credits|loans|trades))(?:\/([A-Za-z0-9:]+))?\/export$/;

/**
 * The mailed report of a live export: its kind and symbol read from the export's path, its
 * filters the export's body — so the file is the one "Export CSV" would collect. Null for a path
 * that is no export.
 */
export function reportRequestOf(path: string, body: Readonly<Record<string, number>>): ReportRequest | null {
  const m = EXPORT_PATH.exec(path);
  if (!m) return null;
  const kind = (m[1] ?? "").replace("/", "-");
  if (!isReportKind(kind)) return null;
  return { kind, ...(m[2] === undefined ? {} : { symbol: m[2] }), filters: body };
}
