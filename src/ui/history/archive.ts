/**
 * The archive's rules and calls, framework-free so they test in Node (docs/product-rules.md#archive):
 * which history each tab reads, the filters as its call, newest-first pages continued with the
 * exchange's `(end, end_id)` cursor, and the pairs the filter offers.
 */
import {
  authTradeCodec,
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  orderCodec,
  positionCodec,
  type AuthTrade,
  type DecodeResult,
  type Order,
  type Position,
} from "../../protocol";
import type { HttpReply } from "../session";
import { apiErrorKind, type ApiErrorKind } from "../shell/api-notice";
import { HISTORY_PAGE, rangeBody, type HistoryCursor, type RangeProblem } from "./range";

export const ARCHIVE_TABS = ["orders", "trades", "positions", "funding"] as const;
export type ArchiveTab = (typeof ARCHIVE_TABS)[number];

/** The funding tab's records: closed offers, credits (lent) and loans (borrowed), funding trades. */
export const FUNDING_KINDS = ["offers", "credits", "loans", "trades"] as const;
export type FundingKind = (typeof FUNDING_KINDS)[number];

/**
 * A funding history row, whichever its record: when it closed (a trade: when it happened), the
 * symbol (`fUSD`), the amount (an offer's original one; negative borrows), the daily rate, the
 * period in days, and the status or, for a trade, whether it was the maker.
 */
export interface FundingRecord {
  readonly id: number;
  readonly time: number;
  readonly symbol: string;
  readonly amount: number;
  readonly rate: number;
  readonly period: number;
  readonly status: string | null;
  readonly maker: boolean | null;
}

export interface ArchiveFilters {
  /** A trading symbol (`tBTCUSD`) — on the funding tab a funding one (`fUSD`) — or "" for all. */
  readonly symbol: string;
  /** Which funding records the funding tab shows. */
  readonly funding: FundingKind;
  /** Dates as an `<input type="date">` gives them (YYYY-MM-DD, the reader's days), "" for open. */
  readonly from: string;
  readonly to: string;
}

export const NO_ARCHIVE_FILTERS: ArchiveFilters = { symbol: "", funding: "offers", from: "", to: "" };

export type ArchiveQuery =
  | { readonly ok: true; readonly path: string; readonly body: Record<string, number> }
  | { readonly ok: false; readonly problem: RangeProblem };

const SYMBOL = /^t[A-Z0-9:]+$/;
const FUNDING_SYMBOL = /^f[A-Z0-9]+$/;

/**
 * The filters as the tab's call: `r/orders[/SYM]/hist` (closed orders), `r/trades[/SYM]/hist` or
 * `r/positions[/SYM]/hist` (closed positions) — or `/export` — with `start`, `end` and, past the first page, the cursor. A bad range is refused
 * here and nothing is asked.
 */
export function archiveQuery(
  tab: ArchiveTab,
  filters: ArchiveFilters,
  kind: "hist" | "export",
  cursor: HistoryCursor | null = null,
): ArchiveQuery {
  const range = rangeBody(filters.from, filters.to, cursor, kind === "hist" ? HISTORY_PAGE : null);
  if (!range.ok) return range;
  if (tab === "funding") {
    const sym = FUNDING_SYMBOL.test(filters.symbol) ? `/${filters.symbol}` : "";
    return { ok: true, path: `/v2/auth/r/funding/${filters.funding}${sym}/${kind}`, body: range.body };
  }
  const sym = SYMBOL.test(filters.symbol) ? `/${filters.symbol}` : "";
  return { ok: true, path: `/v2/auth/r/${tab}${sym}/${kind}`, body: range.body };
}

export type ArchiveRows =
  | { readonly tab: "orders"; readonly rows: readonly Order[] }
  | { readonly tab: "trades"; readonly rows: readonly AuthTrade[] }
  | { readonly tab: "positions"; readonly rows: readonly Position[] }
  | { readonly tab: "funding"; readonly rows: readonly FundingRecord[] };

export type ArchiveReply =
  | { readonly ok: true; readonly page: ArchiveRows; readonly more: boolean }
  | { readonly ok: false; readonly error: ApiErrorKind };

type Call = (path: string, body: unknown) => Promise<HttpReply>;

function decoded<T>(d: DecodeResult<T[]>): T[] | null {
  return d.ok ? d.value : null;
}

/** One page of the tab's history through the session's call, read by its record's codec. */
export async function archivePageOf(
  call: Call,
  tab: ArchiveTab,
  path: string,
  body: Record<string, number>,
  fundingKind: FundingKind = "offers",
): Promise<ArchiveReply> {
  const reply = await call(path, body);
  if (reply.status !== 200) return { ok: false, error: apiErrorKind(reply.status, reply.body) };
  const more = (n: number): boolean => n === (body["limit"] ?? HISTORY_PAGE);
  if (tab === "orders") {
    const rows = decoded(orderCodec.decodeList(reply.body));
    return rows ? { ok: true, page: { tab, rows }, more: more(rows.length) } : { ok: false, error: "server" };
  }
  if (tab === "trades") {
    const rows = decoded(authTradeCodec.decodeList(reply.body));
    return rows ? { ok: true, page: { tab, rows }, more: more(rows.length) } : { ok: false, error: "server" };
  }
  if (tab === "positions") {
    const rows = decoded(positionCodec.decodeList(reply.body));
    return rows ? { ok: true, page: { tab, rows }, more: more(rows.length) } : { ok: false, error: "server" };
  }
  const rows = fundingRecords(fundingKind, reply.body);
  return rows ? { ok: true, page: { tab, rows }, more: more(rows.length) } : { ok: false, error: "server" };
}

/** A funding history page read by its record's codec, as the rows the table shows. */
function fundingRecords(kind: FundingKind, body: unknown): FundingRecord[] | null {
  if (kind === "trades")
    return (
      decoded(fundingTradeCodec.decodeList(body))?.map((t) => ({
        id: t.id,
        time: t.mts_create,
        symbol: t.symbol,
        amount: t.amount,
        rate: t.rate,
        period: t.period,
        status: null,
        maker: t.maker === 1,
      })) ?? null
    );
  const closed = (r: {
    readonly id: number;
    readonly symbol: string;
    readonly mtsUpdate: number | null;
    readonly mtsCreate: number | null;
    readonly amount: number;
    readonly rate: number;
    readonly period: number;
    readonly status: string | null;
  }): FundingRecord => ({
    id: r.id,
    time: r.mtsUpdate ?? r.mtsCreate ?? 0,
    symbol: r.symbol,
    amount: r.amount,
    rate: r.rate,
    period: r.period,
    status: r.status,
    maker: null,
  });
  if (kind === "offers")
    // A closed offer's remaining amount is what was never taken: its original amount is the offer.
    return (
      decoded(fundingOfferCodec.decodeList(body))?.map((o) => closed({ ...o, amount: o.amountOrig ?? o.amount })) ??
      null
    );
  if (kind === "credits") return decoded(fundingCreditCodec.decodeList(body))?.map(closed) ?? null;
  return decoded(fundingLoanCodec.decodeList(body))?.map(closed) ?? null;
}

/** The rows of two pages of the same tab, one after the other. */
export function appendPage(before: ArchiveRows | null, next: ArchiveRows): ArchiveRows {
  if (before === null || before.tab !== next.tab) return next;
  switch (before.tab) {
    case "orders":
      return { tab: "orders", rows: [...before.rows, ...(next.rows as readonly Order[])] };
    case "trades":
      return { tab: "trades", rows: [...before.rows, ...(next.rows as readonly AuthTrade[])] };
    case "positions":
      return { tab: "positions", rows: [...before.rows, ...(next.rows as readonly Position[])] };
    default:
      return { tab: "funding", rows: [...before.rows, ...(next.rows as readonly FundingRecord[])] };
  }
}

/**
 * The cursor after a page: its oldest row — a closed order or position by its last update (when it
 * closed), a trade by its time.
 */
export function archiveCursor(page: ArchiveRows): HistoryCursor | null {
  switch (page.tab) {
    case "orders": {
      const last = page.rows.at(-1);
      return last ? { end: last.mts_update, endId: last.id } : null;
    }
    case "trades": {
      const last = page.rows.at(-1);
      return last ? { end: last.mts_create, endId: last.id } : null;
    }
    case "positions": {
      const last = page.rows.at(-1);
      return last && last.mtsUpdate !== null && last.id !== null ? { end: last.mtsUpdate, endId: last.id } : null;
    }
    default: {
      const last = page.rows.at(-1);
      return last ? { end: last.time, endId: last.id } : null;
    }
  }
}

/**
 * The pairs the filter offers: those of the account's recent trades and closed orders (the newest
 * page of each, as large as the exchange gives), sorted.
 */
export async function tradedPairs(call: Call): Promise<string[]> {
  const pairs = new Set<string>();
  const [orders, trades] = await Promise.all([
    call("/v2/auth/r/orders/hist", { limit: 2500 }),
    call("/v2/auth/r/trades/hist", { limit: 2500 }),
  ]);
  if (orders.status === 200) for (const o of decoded(orderCodec.decodeList(orders.body)) ?? []) pairs.add(o.symbol);
  if (trades.status === 200) for (const t of decoded(authTradeCodec.decodeList(trades.body)) ?? []) pairs.add(t.pair);
  return [...pairs].filter((p) => SYMBOL.test(p)).sort();
}

/**
 * The funding symbols the funding tab's filter offers: those of the account's closed offers and
 * funding trades (the newest page of each, as large as the exchange gives), sorted.
 */
export async function fundingSymbols(call: Call): Promise<string[]> {
  const symbols = new Set<string>();
  const [offers, trades] = await Promise.all([
    call("/v2/auth/r/funding/offers/hist", { limit: 2500 }),
    call("/v2/auth/r/funding/trades/hist", { limit: 2500 }),
  ]);
  if (offers.status === 200)
    for (const o of decoded(fundingOfferCodec.decodeList(offers.body)) ?? []) symbols.add(o.symbol);
  if (trades.status === 200)
    for (const t of decoded(fundingTradeCodec.decodeList(trades.body)) ?? []) symbols.add(t.symbol);
  return [...symbols].filter((p) => FUNDING_SYMBOL.test(p)).sort();
}
