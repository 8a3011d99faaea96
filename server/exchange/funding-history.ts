/**
 * The account's funding history (docs/protocol.md#history-paging and #history-exports): closed
 * offers, credits and loans (`r/funding/offers|credits|loans[/SYM]/hist`, walked by the time each
 * closed, then its id) and funding trades (`r/funding/trades[/SYM]/hist`, by time and trade id —
 * the funding book never matches an account with itself, so a trade id is one row per account),
 * and their streamed CSV exports `…/export`. Paging and streaming are history-pages.ts's.
 */
import {
  FUNDING_CSV_HEADER,
  FUNDING_TRADE_CSV_HEADER,
  unitsToDecimal,
  type RangeQuery,
} from "../../src/protocol/index.ts";
import type { Db } from "../store/db.ts";
import {
  csvExport,
  exportName,
  keysetPage,
  type Condition,
  type KeysetSource,
  type StreamedBody,
} from "./history-pages.ts";
import {
  creditWire,
  fundingTradeWire,
  loanWire,
  offerWire,
  type CreditRow,
  type FundingTradeRow,
  type LoanRow,
  type OfferRow,
} from "./funding-records.ts";

export type FundingKind = "offers" | "credits" | "loans" | "trades";

const CLOSED: Readonly<Record<Exclude<FundingKind, "trades">, KeysetSource>> = {
  offers: { table: "funding_offers", time: "mts_update", id: "id" },
  credits: { table: "funding_credits", time: "mts_update", id: "id" },
  loans: { table: "funding_loans", time: "mts_update", id: "id" },
};
const TRADES: KeysetSource = { table: "funding_trades", time: "mts", id: "trade_id" };

/** The indexes the newest-first walks use (created with the funding tables' first history call). */
export function migrateFundingHistory(db: Db): void {
  db.exec(`CREATE INDEX IF NOT EXISTS funding_offers_user_hist ON funding_offers (user_id, mts_update DESC, id DESC) WHERE open = 0;
    CREATE INDEX IF NOT EXISTS funding_credits_user_hist ON funding_credits (user_id, mts_update DESC, id DESC) WHERE open = 0;
    CREATE INDEX IF NOT EXISTS funding_loans_user_hist ON funding_loans (user_id, mts_update DESC, id DESC) WHERE open = 0;
    CREATE INDEX IF NOT EXISTS funding_trades_user_mts ON funding_trades (user_id, mts DESC, trade_id DESC);`);
}

type ClosedRow = OfferRow | CreditRow | LoanRow;

function scope(userId: number, symbol: string | null): Condition[] {
  return symbol === null
    ? [["user_id = ?", userId]]
    : [
        ["user_id = ?", userId],
        ["symbol = ?", symbol],
      ];
}

function closedPage(
  db: Db,
  kind: Exclude<FundingKind, "trades">,
  userId: number,
  symbol: string | null,
  q: RangeQuery,
) {
  return keysetPage<ClosedRow>(db, CLOSED[kind], [...scope(userId, symbol), ["open = 0"]], q);
}

function tradePage(db: Db, userId: number, symbol: string | null, q: RangeQuery): FundingTradeRow[] {
  return keysetPage<FundingTradeRow>(db, TRADES, scope(userId, symbol), q);
}

/** One page of a funding history, as the wire has its records. */
export function fundingPage(
  db: Db,
  kind: FundingKind,
  userId: number,
  symbol: string | null,
  q: RangeQuery,
): unknown[][] {
  switch (kind) {
    case "trades":
      return tradePage(db, userId, symbol, q).map(fundingTradeWire);
    case "offers":
      return (closedPage(db, kind, userId, symbol, q) as OfferRow[]).map(offerWire);
    case "credits":
      return (closedPage(db, kind, userId, symbol, q) as CreditRow[]).map(creditWire);
    default:
      return (closedPage(db, kind, userId, symbol, q) as LoanRow[]).map(loanWire);
  }
}

/** The amount a closed record reports: an offer its original amount (signed: negative borrows). */
function amountOf(r: ClosedRow): number {
  return "amount_orig" in r ? r.amount_orig : r.amount;
}

/** A funding history's CSV over `q`'s range (history-pages.ts streams it). */
export function fundingCsv(
  db: Db,
  kind: FundingKind,
  userId: number,
  symbol: string | null,
  q: RangeQuery,
  now: number,
): StreamedBody {
  const filename = exportName(`funding-${kind}`, symbol, now);
  if (kind === "trades")
    return csvExport<FundingTradeRow>({
      filename,
      header: FUNDING_TRADE_CSV_HEADER,
      q,
      page: (page) => tradePage(db, userId, symbol, page),
      cursor: (t) => ({ end: t.mts, endId: t.trade_id }),
      line: (t) => [
        String(t.trade_id),
        new Date(t.mts).toISOString(),
        t.symbol.slice(1),
        String(t.offer_id),
        unitsToDecimal(t.amount),
        String(t.rate),
        String(t.period),
        t.maker === 1 ? "maker" : "taker",
      ],
    });
  return csvExport<ClosedRow>({
    filename,
    header: FUNDING_CSV_HEADER,
    q,
    page: (page) => closedPage(db, kind, userId, symbol, page),
    cursor: (r) => ({ end: r.mts_update, endId: r.id }),
    line: (r) => [
      String(r.id),
      new Date(r.mts_create).toISOString(),
      new Date(r.mts_update).toISOString(),
      r.symbol.slice(1),
      unitsToDecimal(amountOf(r)),
      String(r.rate),
      String(r.period),
      r.status,
    ],
  });
}
