/**
 * The history calls' common query (docs/protocol.md#history-paging): `start`, `end`, `end_id` and
 * `limit`, as the ledgers, orders, trades and closed positions read them, and the CSV columns of
 * the archive's exports (docs/protocol.md#history-exports).
 */

/** Bitfinex's most rows a history page may ask for. */
export const HISTORY_LIMIT_MAX = 2500;
export const HISTORY_LIMIT_DEFAULT = 25;

/**
 * A history query, read: rows with `start ≤ time ≤ end`, newest first (time, then id, descending).
 * `endId` continues a page: with `end` set to the oldest row's time it skips the rows of that
 * millisecond up to and including that row's id, so rows sharing a millisecond are neither
 * repeated nor skipped across pages.
 */
export interface RangeQuery {
  readonly start: number | null;
  readonly end: number | null;
  readonly endId: number | null;
  readonly limit: number;
}

export type RangeQueryResult =
  { readonly ok: true; readonly query: RangeQuery } | { readonly ok: false; readonly message: string };

const INTEGER = /^\d+$/;

/** A non-negative integer from a number or plain digits; undefined when absent, NaN when malformed. */
export function wholeNumber(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === "number") return Number.isSafeInteger(v) && v >= 0 ? v : Number.NaN;
  if (typeof v === "string" && INTEGER.test(v)) {
    const n = Number(v);
    return Number.isSafeInteger(n) ? n : Number.NaN;
  }
  return Number.NaN;
}

/**
 * Reads a request body's `start`, `end`, `end_id` and `limit`; the message of the first bad one
 * otherwise (the exchange answers it as a 10020 error). `maxLimit` is null for a CSV export, which
 * has no page size.
 */
export function parseRangeQuery(
  body: Readonly<Record<string, unknown>>,
  maxLimit: number | null = HISTORY_LIMIT_MAX,
): RangeQueryResult {
  const start = wholeNumber(body["start"]);
  if (Number.isNaN(start)) return { ok: false, message: "start: invalid" };
  const end = wholeNumber(body["end"]);
  if (Number.isNaN(end)) return { ok: false, message: "end: invalid" };
  if (start !== undefined && end !== undefined && start > end)
    return { ok: false, message: "start: must not be after end" };
  const endId = wholeNumber(body["end_id"]);
  if (Number.isNaN(endId) || endId === 0) return { ok: false, message: "end_id: invalid" };
  if (endId !== undefined && end === undefined) return { ok: false, message: "end_id: needs end" };
  let limit = HISTORY_LIMIT_DEFAULT;
  if (maxLimit !== null) {
    const l = wholeNumber(body["limit"]);
    if (l !== undefined && (Number.isNaN(l) || l < 1 || l > maxLimit))
      return { ok: false, message: `limit: must be 1 to ${maxLimit}` };
    limit = l ?? HISTORY_LIMIT_DEFAULT;
  }
  return { ok: true, query: { start: start ?? null, end: end ?? null, endId: endId ?? null, limit } };
}

/** The orders export's columns, in order (docs/protocol.md#history-exports). */
export const ORDER_CSV_HEADER = [
  "id",
  "created",
  "updated",
  "pair",
  "type",
  "side",
  "amount",
  "filled",
  "price",
  "average price",
  "status",
];

/** The trades export's columns, in order (docs/protocol.md#history-exports). */
export const TRADE_CSV_HEADER = [
  "id",
  "date",
  "pair",
  "order id",
  "side",
  "amount",
  "price",
  "fee",
  "fee currency",
  "liquidity",
];

/** The closed positions export's columns, in order (docs/protocol.md#history-exports). */
export const POSITION_CSV_HEADER = [
  "id",
  "opened",
  "closed",
  "pair",
  "side",
  "amount",
  "base price",
  "profit/loss",
  "currency",
  "status",
];

/** The funding offers', credits' and loans' export columns, in order (docs/protocol.md#history-exports). */
export const FUNDING_CSV_HEADER = ["id", "opened", "closed", "currency", "amount", "rate", "period", "status"];

/** The funding trades' export columns, in order (docs/protocol.md#history-exports). */
export const FUNDING_TRADE_CSV_HEADER = ["id", "date", "currency", "offer id", "amount", "rate", "period", "liquidity"];
