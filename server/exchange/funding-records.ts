/**
 * What the funding modules store and send: the funding tables (offers, credits, loans, own funding
 * trades, auto-renew settings), their rows, and each row's wire record through src/protocol's
 * codecs — shared by funding-offers.ts, funding-credits.ts, funding-loans.ts and funding-api.ts.
 */
import {
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  FUNDING_RATE_MAX,
  ORDER_FLAGS,
} from "../../src/protocol/index.ts";
import { addColumns, fromUnits, type Db } from "../store/db.ts";

export const DAY = 86_400_000;
/** Highest daily rate the real API accepts (7 % a day). */
export const MAX_RATE = FUNDING_RATE_MAX;

/** The funding tables, created on any database file that lacks them (their migration step). */
const FUNDING_TABLES = `
CREATE TABLE IF NOT EXISTS funding_offers (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  symbol TEXT NOT NULL,
  type TEXT NOT NULL,
  amount_orig INTEGER NOT NULL,
  remaining INTEGER NOT NULL,
  rate REAL NOT NULL,
  rate_real REAL NOT NULL,
  period INTEGER NOT NULL,
  flags INTEGER NOT NULL DEFAULT 0,
  status TEXT NOT NULL,
  mts_create INTEGER NOT NULL,
  mts_update INTEGER NOT NULL,
  open INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS funding_offers_open ON funding_offers(open) WHERE open = 1;
CREATE TABLE IF NOT EXISTS funding_credits (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  symbol TEXT NOT NULL,
  offer_id INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  rate REAL NOT NULL,
  period INTEGER NOT NULL,
  status TEXT NOT NULL,
  position_pair TEXT,
  mts_create INTEGER NOT NULL,
  mts_update INTEGER NOT NULL,
  open INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS funding_trades (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  trade_id INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users(id),
  symbol TEXT NOT NULL,
  offer_id INTEGER NOT NULL,
  mts INTEGER NOT NULL,
  amount INTEGER NOT NULL,
  rate REAL NOT NULL,
  period INTEGER NOT NULL,
  maker INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS funding_loans (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  symbol TEXT NOT NULL,
  offer_id INTEGER,
  credit_id INTEGER,
  amount INTEGER NOT NULL,
  rate REAL NOT NULL,
  rate_type TEXT NOT NULL,
  period INTEGER NOT NULL,
  status TEXT NOT NULL,
  position_pair TEXT,
  auto INTEGER NOT NULL,
  renew INTEGER NOT NULL DEFAULT 0,
  charged INTEGER NOT NULL DEFAULT 0,
  mts_create INTEGER NOT NULL,
  mts_update INTEGER NOT NULL,
  mts_last_payout INTEGER NOT NULL,
  open INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS funding_loans_open ON funding_loans(open) WHERE open = 1;
CREATE TABLE IF NOT EXISTS funding_auto (
  user_id INTEGER NOT NULL REFERENCES users(id),
  currency TEXT NOT NULL,
  amount INTEGER NOT NULL,
  rate REAL NOT NULL,
  period INTEGER NOT NULL,
  PRIMARY KEY (user_id, currency)
);
`;

/** Columns added with loans and renewal (a credit's daily payments, its loan, variable rates). */
const FUNDING_COLUMNS: readonly (readonly [string, string, string])[] = [
  ["funding_offers", "renew", "INTEGER NOT NULL DEFAULT 0"],
  ["funding_credits", "mts_last_payout", "INTEGER"],
  ["funding_credits", "loan_id", "INTEGER"],
  ["funding_credits", "rate_type", "TEXT NOT NULL DEFAULT 'FIXED'"],
  ["funding_credits", "rate_delta", "REAL"],
];

/** Creates the funding tables and columns a database file lacks. */
export function createFundingTables(db: Db): void {
  db.exec(FUNDING_TABLES);
  addColumns(db, FUNDING_COLUMNS);
}

export interface OfferRow {
  id: number;
  user_id: number;
  symbol: string;
  type: string;
  /** Signed units: positive lends, negative borrows (as the wire's AMOUNT). */
  amount_orig: number;
  remaining: number;
  rate: number;
  rate_real: number;
  period: number;
  flags: number;
  status: string;
  mts_create: number;
  mts_update: number;
  open: number;
  renew: number;
}

export interface CreditRow {
  id: number;
  user_id: number;
  symbol: string;
  offer_id: number;
  amount: number;
  rate: number;
  period: number;
  status: string;
  position_pair: string | null;
  mts_create: number;
  mts_update: number;
  open: number;
  mts_last_payout: number | null;
  loan_id: number | null;
  rate_type: string;
  rate_delta: number | null;
}

/** A borrow offer's fill, as the loan it opens needs it. */
export interface BorrowFill {
  userId: number;
  symbol: string;
  offerId: number;
  units: number;
  rate: number;
  period: number;
  renew: boolean;
}

/** What funding-loans.ts does for a borrow offer's fill. */
export interface LoanOpener {
  fromOffer(o: BorrowFill): number;
  /** The loan's lender is an account: its credit. */
  linkCredit(loanId: number, creditId: number): void;
}

export interface LoanRow {
  id: number;
  user_id: number;
  symbol: string;
  offer_id: number | null;
  credit_id: number | null;
  amount: number;
  rate: number;
  rate_type: string;
  period: number;
  status: string;
  position_pair: string | null;
  auto: number;
  renew: number;
  /** Interest charged so far, units of the loan's currency. */
  charged: number;
  mts_create: number;
  mts_update: number;
  mts_last_payout: number;
  open: number;
}

export interface FundingTradeRow {
  trade_id: number;
  symbol: string;
  offer_id: number;
  mts: number;
  amount: number;
  rate: number;
  period: number;
  maker: number;
}

/** A lend offer (positive amount); a borrow offer is negative. */
export const lends = (r: OfferRow): boolean => r.amount_orig > 0;

/** "500.0", "0.25": an amount as the real notifications print it (at least one decimal). */
export function amountText(v: number): string {
  const s = String(v);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

export function offerWire(r: OfferRow): unknown[] {
  return fundingOfferCodec.encode({
    id: r.id,
    symbol: r.symbol,
    mtsCreate: r.mts_create,
    mtsUpdate: r.mts_update,
    amount: fromUnits(r.remaining),
    amountOrig: fromUnits(r.amount_orig),
    type: r.type,
    flags: r.flags,
    status: r.status,
    rate: r.rate,
    period: r.period,
    notify: false,
    hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
    renew: r.renew === 1,
    rateReal: r.type === "LIMIT" ? null : r.rate_real,
  });
}

/** A credit (side 1, the lender's) or a loan (side −1, the borrower's): the same record but a credit's pair. */
function creditOrLoan(r: CreditRow | LoanRow, side: 1 | -1) {
  return {
    id: r.id,
    symbol: r.symbol,
    side,
    mtsCreate: r.mts_create,
    mtsUpdate: r.mts_update,
    amount: fromUnits(r.amount),
    flags: 0,
    status: r.status,
    type: r.rate_type,
    rate: r.rate,
    period: r.period,
    mtsOpening: r.mts_create,
    mtsLastPayout: r.mts_last_payout,
    notify: false,
    hidden: false,
    renew: "renew" in r && r.renew === 1,
    rateReal: null,
    noClose: false,
  };
}

export function creditWire(c: CreditRow): unknown[] {
  return fundingCreditCodec.encode({ ...creditOrLoan(c, 1), positionPair: c.position_pair });
}

export function loanWire(l: LoanRow): unknown[] {
  return fundingLoanCodec.encode(creditOrLoan(l, -1));
}

export function fundingTradeWire(t: FundingTradeRow): unknown[] {
  return fundingTradeCodec.encode({
    id: t.trade_id,
    symbol: t.symbol,
    mts_create: t.mts,
    offer_id: t.offer_id,
    amount: fromUnits(t.amount),
    rate: t.rate,
    period: t.period,
    maker: t.maker,
  });
}

export function saveOffer(db: Db, r: OfferRow): void {
  db.prepare(
    `INSERT INTO funding_offers (id, user_id, symbol, type, amount_orig, remaining, rate, rate_real, period, flags, status, mts_create, mts_update, open, renew)
       VALUES (@id, @user_id, @symbol, @type, @amount_orig, @remaining, @rate, @rate_real, @period, @flags, @status, @mts_create, @mts_update, @open, @renew)
       ON CONFLICT(id) DO UPDATE SET remaining = excluded.remaining, rate_real = excluded.rate_real, status = excluded.status, mts_update = excluded.mts_update, open = excluded.open`,
  ).run(r);
}

export function saveCredit(db: Db, c: CreditRow): void {
  db.prepare(
    `INSERT INTO funding_credits (id, user_id, symbol, offer_id, amount, rate, period, status, position_pair, mts_create, mts_update, open, mts_last_payout, loan_id, rate_type, rate_delta)
       VALUES (@id, @user_id, @symbol, @offer_id, @amount, @rate, @period, @status, @position_pair, @mts_create, @mts_update, @open, @mts_last_payout, @loan_id, @rate_type, @rate_delta)
       ON CONFLICT(id) DO UPDATE SET amount = excluded.amount, rate = excluded.rate, status = excluded.status, position_pair = excluded.position_pair,
         mts_update = excluded.mts_update, open = excluded.open, mts_last_payout = excluded.mts_last_payout, loan_id = excluded.loan_id`,
  ).run(c);
}

export function saveLoan(db: Db, l: LoanRow): void {
  db.prepare(
    `INSERT INTO funding_loans (id, user_id, symbol, offer_id, credit_id, amount, rate, rate_type, period, status, position_pair, auto, renew, charged, mts_create, mts_update, mts_last_payout, open)
       VALUES (@id, @user_id, @symbol, @offer_id, @credit_id, @amount, @rate, @rate_type, @period, @status, @position_pair, @auto, @renew, @charged, @mts_create, @mts_update, @mts_last_payout, @open)
       ON CONFLICT(id) DO UPDATE SET credit_id = excluded.credit_id, amount = excluded.amount, rate = excluded.rate, status = excluded.status,
         position_pair = excluded.position_pair, charged = excluded.charged, mts_update = excluded.mts_update,
         mts_last_payout = excluded.mts_last_payout, open = excluded.open`,
  ).run(l);
}
