/**
 * The history pages' date range and paging (docs/product-rules.md#reports and #archive),
 * framework-free so it tests in Node: "from" is the first millisecond of its day in the reader's
 * time zone, "to" the last; a date that is not one, or a range that ends before it starts, is a
 * problem found here, before anything is asked of the exchange. Pages continue with the exchange's
 * `(end, end_id)` cursor (docs/protocol.md#history-paging).
 */

/** Rows per page of a history table. */
export const HISTORY_PAGE = 50;

export type RangeProblem = "from-date" | "to-date" | "range";

/** Where the next page starts: after the oldest row shown (its time and id). */
export interface HistoryCursor {
  readonly end: number;
  readonly endId: number;
}

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

export type RangeBody =
  { readonly ok: true; readonly body: Record<string, number> } | { readonly ok: false; readonly problem: RangeProblem };

/**
 * Dates as an `<input type="date">` gives them ("" for open) as a history call's `start`/`end`,
 * with the cursor's `end`/`end_id` past the first page and `limit` when it is a page.
 */
export function rangeBody(from: string, to: string, cursor: HistoryCursor | null, limit: number | null): RangeBody {
  const start = from === "" ? null : dayStart(from);
  if (start === null && from !== "") return { ok: false, problem: "from-date" };
  const end = to === "" ? null : dayEnd(to);
  if (end === null && to !== "") return { ok: false, problem: "to-date" };
  if (start !== null && end !== null && start > end) return { ok: false, problem: "range" };
  const body: Record<string, number> = {};
  if (start !== null) body["start"] = start;
  if (end !== null) body["end"] = end;
  if (cursor) {
    body["end"] = cursor.end;
    body["end_id"] = cursor.endId;
  }
  if (limit !== null) body["limit"] = limit;
  return { ok: true, body };
}
