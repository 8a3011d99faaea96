/**
 * A history export's file (docs/product-rules.md#reports): the exchange streams the CSV, the page
 * collects it and only then offers it as a file.
 */
import type { ApiErrorKind } from "../shell/api-notice";
import { apiErrorKind } from "../shell/api-notice";

export type ExportResult =
  | { readonly ok: true; readonly blob: Blob; readonly filename: string; readonly rows: number }
  | { readonly ok: false; readonly error: ApiErrorKind };

/**
 * Runs an export: a POST with the session's token in its header (never in an address, which
 * would land in logs and history), the streamed CSV read chunk by chunk — `onRows` hears how many
 * rows have arrived — and kept as the file's parts until the stream ends. `fallbackName` names the
 * file when the answer does not.
 */
export async function streamCsv(
  fetchImpl: typeof fetch,
  url: string,
  token: string,
  body: Record<string, number>,
  onRows: (rows: number) => void,
  fallbackName: string,
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
      // The first line is the header; a field's own line breaks may count, which only makes the
      // progress run slightly ahead.
      onRows(Math.max(0, lines - 1));
    }
  } catch {
    // The stream broke midway: a partial file would look whole, so there is none.
    return { ok: false, error: "unreachable" };
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallbackName;
  return { ok: true, blob: new Blob(parts, { type: "text/csv" }), filename: name, rows: Math.max(0, lines - 1) };
}
