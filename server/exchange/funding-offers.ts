/**
 * Account funding (PROTOCOL.md 4.2–4.3, 6): funding offers (`fon`/`foc` on the socket,
 * `w/funding/offer/submit|cancel|cancel/all` over REST) matched on the funding markets.
 *
 * - A lend offer (positive amount) is reserved against the funding wallet so its balance never goes
 *   negative. A matched amount becomes a credit (side 1, lender) that keeps its reservation while it
 *   runs, pays its interest (amount × daily rate, less the platform's 15 %) into the funding wallet
 *   once a day and for the last part of a day when it ends, and closes (`fcc`) when its period is
 *   over, when the borrower repays it (a margin position closing) or when the lender closes it
 *   (`w/funding/close`).
 * - A borrow offer (negative amount) reserves nothing: a matched amount becomes a loan (side −1,
 *   borrower), kept by `funding-loans.ts`, which also borrows automatically for margin positions.
 *   When both sides of a funding trade are accounts, the credit and the loan are linked.
 * - Renewal: an offer submitted with `renew: 1`, or a currency with auto-renew on
 *   (`w/funding/auto`), offers what comes back from a closed credit again on the same terms (auto:
 *   the stored rate, 0 = at the FRR, and period).
 * - FRR offers (`FRRDELTAVAR`, `FRRDELTAFIX`: rate = delta over the FRR) float: while they rest
 *   they are re-placed at the FRR plus their delta whenever the FRR has moved by more than 0.1 %,
 *   and a credit from an `FRRDELTAVAR` offer is variable (`VAR`): its rate follows the FRR at
 *   every daily payment.
 *
 * Channel 0 carries `fos fon fou foc`, `fcs fcn fcu fcc`, own funding trades `fte`/`ftu` and the
 * `fon-req`/`foc-req` notifications. Every change is committed to SQLite before its events go out
 * (Trading's rule; inside another module's transaction they wait for the next microtask, which runs
 * after that transaction's COMMIT), and open offers go back on their books after a restart.
 */
import {
  fundingCreditCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  ORDER_FLAGS,
  walletCodec,
} from "../../src/protocol/index.ts";
import { addColumns, fromUnits, nextIdFrom, toUnits, type Db } from "../store/db.ts";
import type { FundingBatch, FundingExchange, FundingFill, FundingMarket } from "./funding-market.ts";
import { MAX_PERIOD, MIN_PERIOD } from "./funding-market.ts";
import { CommitOutbox } from "./outbox.ts";
import { num, type AccountEmit } from "./trading.ts";
import { guarded } from "../log.ts";

/** This module's tables, created on any database file that lacks them (its migration step). */
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

export const DAY = 86_400_000;
/** The platform's share of a lender's interest (the real API's 15 %). */
export const LENDER_FEE = 0.15;
/** The real API's smallest funding offer, in USD or its equivalent. */
export const MIN_OFFER_USD = 150;
/** Highest daily rate the real API accepts (7 % a day). */
export const MAX_RATE = 0.07;
/** A resting FRR offer is re-placed when the FRR has moved by more than this fraction. */
export const FRR_REPEG = 0.001;
const TYPES = new Set(["LIMIT", "FRRDELTAVAR", "FRRDELTAFIX"]);

interface OfferRow {
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

interface CreditRow {
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

export type FundingResult =
  | { readonly ok: true; readonly offer: unknown[] }
  | { readonly ok: false; readonly code: number; readonly msg: string };

export interface FundingRestReply {
  readonly status: number;
  readonly body: unknown;
}

/** "500.0", "0.25": an amount as the real notifications print it (at least one decimal). */
function amountText(v: number): string {
  const s = String(v);
  return s.includes(".") || s.includes("e") ? s : `${s}.0`;
}

const lends = (r: OfferRow): boolean => r.amount_orig > 0;

export class FundingOffers {
  readonly #rows = new Map<number, OfferRow>();
  readonly #outbox: CommitOutbox;
  readonly #nextOfferId: () => number;
  readonly #nextCreditId: () => number;
  /** When the next credit payment or expiry is due (checked on every funding batch). */
  #nextDue = Number.POSITIVE_INFINITY;
  /** Credits opened by the trade ids of the batch being settled (for the loans they fund). */
  readonly #creditByTrade = new Map<number, number>();
  /** Offers to place again once the current operation has committed (renewal). */
  readonly #renewals: [number, Record<string, unknown>][] = [];
  /** The FRR each market's FRR offers were last placed at. */
  readonly #peggedAt = new Map<string, number>();
  #repegging = false;
  readonly #repegQueued = new Set<FundingMarket>();
  /** The borrower's side (venue.ts attaches it). */
  loans: LoanOpener | null = null;

  constructor(
    readonly db: Db,
    readonly fx: FundingExchange,
    readonly now: () => number,
    readonly send: AccountEmit,
  ) {
    // Renewals place offers again, so they wait for the commit that returned the funds.
    this.#outbox = new CommitOutbox(db, send, () => {
      if (this.#renewals.length > 0) queueMicrotask(guarded("funding renewals", () => this.#renew()));
    });
    db.exec(FUNDING_TABLES);
    addColumns(db, FUNDING_COLUMNS);
    this.#nextOfferId = nextIdFrom(db, "funding_offer", 0);
    this.#nextCreditId = nextIdFrom(db, "funding_credit", 0);
    fx.onBatch((b) => {
      // A batch inside another module's transaction (an automatic borrow) leaves the clock's work
      // to the next one: payments move wallets and must commit on their own.
      if (!this.db.inTransaction && this.now() >= this.#nextDue) this.#accrue();
      this.#settle(b);
      if (!this.#repegging && !this.#repegQueued.has(b.market)) {
        this.#repegQueued.add(b.market);
        queueMicrotask(
          guarded("funding FRR re-peg", () => {
            this.#repegQueued.delete(b.market);
            this.#repeg(b.market);
          }),
        );
      }
    });
    this.#restore();
  }

  #restore(): void {
    const rows = this.db.prepare("SELECT * FROM funding_offers WHERE open = 1 ORDER BY id").all() as OfferRow[];
    for (const r of rows) {
      this.#rows.set(r.id, r);
      this.fx.restore(r.symbol, {
        id: r.id,
        owner: r.user_id,
        side: lends(r) ? "lend" : "borrow",
        rate: r.rate_real,
        period: r.period,
        hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
        mtsCreate: r.mts_create,
        remaining: fromUnits(Math.abs(r.remaining)),
        original: fromUnits(Math.abs(r.amount_orig)),
      });
    }
    this.#planNext();
  }

  #planNext(): void {
    const next = this.db
      .prepare(
        "SELECT MIN(MIN(COALESCE(mts_last_payout, mts_create) + ?, mts_create + period * ?)) AS t FROM funding_credits WHERE open = 1",
      )
      .get(DAY, DAY) as { t: number | null };
    this.#nextDue = next.t ?? Number.POSITIVE_INFINITY;
  }

  // --- interest --------------------------------------------------------------------------------

  /**
   * The clock's work on credits: a payment for every whole day since the last one, and the credits
   * whose period has run out closed (paid up to their end; the lent amount free again).
   */
  #accrue(): void {
    const now = this.now();
    const due = this.db
      .prepare(
        "SELECT * FROM funding_credits WHERE open = 1 AND (COALESCE(mts_last_payout, mts_create) + ? <= ? OR mts_create + period * ? <= ?) ORDER BY id",
      )
      .all(DAY, now, DAY, now) as CreditRow[];
    this.db.transaction(() => {
      for (const c of due) {
        const end = c.mts_create + c.period * DAY;
        if (now >= end) {
          this.#closeCredit(c, "CLOSED (expired)", end);
          continue;
        }
        const last = c.mts_last_payout ?? c.mts_create;
        this.#pay(c, last + Math.floor((now - last) / DAY) * DAY);
        if (c.rate_type === "VAR") c.rate = this.#floating(c.symbol, c.rate_delta ?? 0, c.rate);
        this.#saveCredit(c);
        this.#emit(c.user_id, "fcu", this.#creditWire(c));
      }
      this.#planNext();
    })();
    this.#flush();
  }

  /** FRR plus a delta, within the accepted range; `fallback` when that is out of it. */
  #floating(symbol: string, delta: number, fallback: number): number {
    const frr = this.fx.markets.get(symbol)?.frr() ?? 0;
    const r = Number((frr + delta).toPrecision(8));
    return r > 0 && r <= MAX_RATE ? r : fallback;
  }

  /** Pays a credit's interest from its last payment up to `upTo` into the funding wallet. */
  #pay(c: CreditRow, upTo: number): void {
    const last = c.mts_last_payout ?? c.mts_create;
    if (upTo <= last) return;
    const currency = c.symbol.slice(1);
    const interest = Math.floor(c.amount * c.rate * ((upTo - last) / DAY) * (1 - LENDER_FEE));
    c.mts_last_payout = upTo;
    c.mts_update = this.now();
    if (interest <= 0) return;
    const w = this.#wallet(c.user_id, currency);
    const balance = w.balance + interest;
    this.db
      .prepare("UPDATE wallets SET balance = ? WHERE user_id = ? AND type = 'funding' AND currency = ?")
      .run(balance, c.user_id, currency);
    this.db
      .prepare(
        "INSERT INTO ledgers (user_id, currency, wallet, mts, amount, balance, description) VALUES (?, ?, 'funding', ?, ?, ?, ?)",
      )
      .run(c.user_id, currency, this.now(), interest, balance, "Margin Funding Payment on wallet funding");
    this.#emit(c.user_id, "wu", this.#walletWire(currency, balance, w.reserved));
  }

  /** Pays what is due, frees the lent amount, closes the credit and offers it again if renewed. */
  #closeCredit(c: CreditRow, status: string, upTo = this.now()): void {
    this.#pay(c, Math.min(upTo, c.mts_create + c.period * DAY));
    const currency = c.symbol.slice(1);
    const w = this.#wallet(c.user_id, currency);
    const reserved = Math.max(0, w.reserved - c.amount);
    this.db
      .prepare("UPDATE wallets SET reserved = ? WHERE user_id = ? AND type = 'funding' AND currency = ?")
      .run(reserved, c.user_id, currency);
    c.open = 0;
    c.status = status;
    c.mts_update = this.now();
    this.#saveCredit(c);
    this.#emit(c.user_id, "fcc", this.#creditWire(c));
    this.#emit(c.user_id, "wu", this.#walletWire(currency, w.balance, reserved));
    this.#returned(c, c.amount);
  }

  /** What came back from a credit, offered again when its offer renews or the currency auto-renews. */
  #returned(c: CreditRow, units: number): void {
    const offer = this.db.prepare("SELECT * FROM funding_offers WHERE id = ?").get(c.offer_id) as OfferRow | undefined;
    const market = this.fx.markets.get(c.symbol);
    if (!market) return;
    let input: Record<string, unknown> | null = null;
    if (offer && offer.renew === 1)
      input = {
        type: offer.type,
        symbol: c.symbol,
        amount: String(fromUnits(units)),
        rate: String(offer.rate),
        period: offer.period,
        flags: offer.flags,
        renew: 1,
      };
    else {
      const auto = this.db
        .prepare("SELECT * FROM funding_auto WHERE user_id = ? AND currency = ?")
        .get(c.user_id, market.currency) as { amount: number; rate: number; period: number } | undefined;
      if (auto) {
        const amount = auto.amount > 0 ? Math.min(units, auto.amount) : units;
        input = {
          type: auto.rate > 0 ? "LIMIT" : "FRRDELTAVAR",
          symbol: c.symbol,
          amount: String(fromUnits(amount)),
          rate: String(auto.rate),
          period: auto.period,
        };
      }
    }
    // Below the minimum the returned amount simply stays in the wallet (no refusal to report).
    if (input && fromUnits(units) * market.listing.usd >= MIN_OFFER_USD) this.#renewals.push([c.user_id, input]);
  }

  // --- events ----------------------------------------------------------------------------------

  #emit(userId: number, type: string, payload: unknown): void {
    this.#outbox.emit(userId, type, payload);
  }

  #flush(): void {
    this.#outbox.flush();
  }

  /**
   * Renewals and FRR re-pegs place offers, and so make funding batches of their own: they wait for
   * a microtask, so that a batch's listeners all see it before the next one (a nested batch would
   * reach the public feeds ahead of the one that caused it, and its book diff out of order).
   */
  #renew(): void {
    for (const [u, input] of this.#renewals.splice(0)) this.submit(u, input);
  }

  #notify(userId: number, type: string, data: unknown, status: "SUCCESS" | "ERROR", text: string): void {
    this.#emit(userId, "n", [this.now(), type, null, null, data, null, status, text]);
  }

  // --- the funding wallet ----------------------------------------------------------------------

  #wallet(userId: number, currency: string): { balance: number; reserved: number } {
    const row = this.db
      .prepare("SELECT balance, reserved FROM wallets WHERE user_id = ? AND type = 'funding' AND currency = ?")
      .get(userId, currency) as { balance: number; reserved: number } | undefined;
    return row ?? { balance: 0, reserved: 0 };
  }

  /** Moves the funding wallet's reservation; the wallet must exist and cover it. */
  #reserve(userId: number, currency: string, dUnits: number): void {
    const w = this.#wallet(userId, currency);
    const reserved = w.reserved + dUnits;
    if (reserved < 0 || reserved > w.balance) throw new Error(`funding reservation broken for ${currency}`);
    this.db
      .prepare("UPDATE wallets SET reserved = ? WHERE user_id = ? AND type = 'funding' AND currency = ?")
      .run(reserved, userId, currency);
    this.#emit(userId, "wu", this.#walletWire(currency, w.balance, reserved));
  }

  #walletWire(currency: string, balance: number, reserved: number): unknown[] {
    return walletCodec.encode({
      type: "funding",
      currency,
      balance: fromUnits(balance),
      interest: 0,
      availableRaw: fromUnits(balance - reserved),
      description: null,
      meta: null,
    });
  }

  // --- records ---------------------------------------------------------------------------------

  #offerWire(r: OfferRow): unknown[] {
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

  #creditWire(c: CreditRow): unknown[] {
    return fundingCreditCodec.encode({
      id: c.id,
      symbol: c.symbol,
      side: 1,
      mtsCreate: c.mts_create,
      mtsUpdate: c.mts_update,
      amount: fromUnits(c.amount),
      flags: 0,
      status: c.status,
      type: c.rate_type,
      rate: c.rate,
      period: c.period,
      mtsOpening: c.mts_create,
      mtsLastPayout: c.mts_last_payout,
      notify: false,
      hidden: false,
      renew: false,
      rateReal: null,
      noClose: false,
      positionPair: c.position_pair,
    });
  }

  #save(r: OfferRow): void {
    this.db
      .prepare(
        `INSERT INTO funding_offers (id, user_id, symbol, type, amount_orig, remaining, rate, rate_real, period, flags, status, mts_create, mts_update, open, renew)
         VALUES (@id, @user_id, @symbol, @type, @amount_orig, @remaining, @rate, @rate_real, @period, @flags, @status, @mts_create, @mts_update, @open, @renew)
         ON CONFLICT(id) DO UPDATE SET remaining = excluded.remaining, rate_real = excluded.rate_real, status = excluded.status, mts_update = excluded.mts_update, open = excluded.open`,
      )
      .run(r);
  }

  #saveCredit(c: CreditRow): void {
    this.db
      .prepare(
        `INSERT INTO funding_credits (id, user_id, symbol, offer_id, amount, rate, period, status, position_pair, mts_create, mts_update, open, mts_last_payout, loan_id, rate_type, rate_delta)
         VALUES (@id, @user_id, @symbol, @offer_id, @amount, @rate, @period, @status, @position_pair, @mts_create, @mts_update, @open, @mts_last_payout, @loan_id, @rate_type, @rate_delta)
         ON CONFLICT(id) DO UPDATE SET amount = excluded.amount, rate = excluded.rate, status = excluded.status, position_pair = excluded.position_pair,
           mts_update = excluded.mts_update, open = excluded.open, mts_last_payout = excluded.mts_last_payout, loan_id = excluded.loan_id`,
      )
      .run(c);
  }

  offersWire(userId: number, symbol: string | null = null): unknown[][] {
    return [...this.#rows.values()]
      .filter((r) => r.user_id === userId && r.open === 1 && (symbol === null || r.symbol === symbol))
      .map((r) => this.#offerWire(r));
  }

  creditsWire(userId: number, symbol: string | null = null): unknown[][] {
    const rows = this.db
      .prepare("SELECT * FROM funding_credits WHERE user_id = ? AND open = 1 ORDER BY id DESC")
      .all(userId) as CreditRow[];
    return rows.filter((c) => symbol === null || c.symbol === symbol).map((c) => this.#creditWire(c));
  }

  tradesWire(userId: number, symbol: string | null, limit: number): unknown[][] {
    const rows = this.db
      .prepare("SELECT * FROM funding_trades WHERE user_id = ? ORDER BY id DESC LIMIT ?")
      .all(userId, limit) as {
      trade_id: number;
      symbol: string;
      offer_id: number;
      mts: number;
      amount: number;
      rate: number;
      period: number;
      maker: number;
    }[];
    return rows
      .filter((t) => symbol === null || t.symbol === symbol)
      .map((t) =>
        fundingTradeCodec.encode({
          id: t.trade_id,
          symbol: t.symbol,
          mts_create: t.mts,
          offer_id: t.offer_id,
          amount: fromUnits(t.amount),
          rate: t.rate,
          period: t.period,
          maker: t.maker,
        }),
      );
  }

  /**
   * Funding info `["sym", SYMBOL, [YIELD_LOAN, YIELD_LEND, DURATION_LOAN, DURATION_LEND]]`: the
   * amount-weighted daily rate and days left of the active credits, and of the active loans.
   */
  infoWire(userId: number, symbol: string): unknown[] {
    const now = this.now();
    const weigh = (rows: readonly { amount: number; rate: number; mts_create: number; period: number }[]) => {
      let amount = 0;
      let rate = 0;
      let days = 0;
      for (const c of rows) {
        amount += c.amount;
        rate += c.amount * c.rate;
        days += c.amount * Math.max(0, (c.mts_create + c.period * DAY - now) / DAY);
      }
      return amount ? [rate / amount, days / amount] : [0, 0];
    };
    const credits = this.db
      .prepare("SELECT * FROM funding_credits WHERE user_id = ? AND symbol = ? AND open = 1")
      .all(userId, symbol) as CreditRow[];
    const loans = this.db
      .prepare(
        "SELECT amount, rate, mts_create, period FROM funding_loans WHERE user_id = ? AND symbol = ? AND open = 1",
      )
      .all(userId, symbol) as { amount: number; rate: number; mts_create: number; period: number }[];
    const [yieldLend, durationLend] = weigh(credits);
    const [yieldLoan, durationLoan] = weigh(loans);
    return ["sym", symbol, [yieldLoan, yieldLend, durationLoan, durationLend]];
  }

  /** `calc` requests for `funding_sym_fUSD`: a `fiu` record each (other requests are not funding's). */
  calcRecords(userId: number, payload: unknown): [string, unknown][] {
    if (!Array.isArray(payload)) return [];
    const out: [string, unknown][] = [];
    for (const req of payload.slice(0, 30)) {
      const name = Array.isArray(req) ? req[0] : null;
      const m = typeof name === "string" ? /^funding_sym_(f[A-Z0-9]+)$/.exec(name) : null;
      if (m && this.fx.markets.has(m[1] as string)) out.push(["fiu", this.infoWire(userId, m[1] as string)]);
    }
    return out;
  }

  /** The channel-0 snapshots after `auth` (the loans' `fls` is funding-loans.ts's). */
  snapshots(userId: number): [string, unknown][] {
    return [
      ["fos", this.offersWire(userId)],
      ["fcs", this.creditsWire(userId)],
    ];
  }

  // --- inputs ----------------------------------------------------------------------------------

  /** `fon` / `w/funding/offer/submit`: validates, reserves (lending), submits — in one transaction. */
  submit(userId: number, input: Record<string, unknown>): FundingResult {
    const fail = (msg: string, code = 10001): FundingResult => {
      this.#notify(userId, "fon-req", null, "ERROR", msg);
      this.#flush();
      return { ok: false, code, msg };
    };
    const type = typeof input["type"] === "string" ? input["type"] : "";
    if (!TYPES.has(type)) return fail("Invalid offer type");
    const symbol = typeof input["symbol"] === "string" ? input["symbol"] : "";
    const market = this.fx.markets.get(symbol);
    if (!market) return fail("symbol: invalid", 10020);
    const amount = Math.round(num(input["amount"]) * 1e8) / 1e8;
    if (!Number.isFinite(amount) || amount === 0) return fail("amount: invalid", 10020);
    if (Math.abs(amount) * market.listing.usd < MIN_OFFER_USD)
      return fail(`Invalid offer: incorrect amount, minimum is ${MIN_OFFER_USD} dollar or equivalent in USD`);
    const rate = num(input["rate"]);
    const frr = market.frr();
    if (!Number.isFinite(rate)) return fail("rate: invalid", 10020);
    if (type === "LIMIT" ? !(rate > 0) || rate > MAX_RATE : type === "FRRDELTAVAR" ? rate < 0 : false)
      return fail("Invalid offer: incorrect rate");
    // FRR offers rest at the FRR plus their delta, re-placed as the FRR moves (#repeg).
    const rateReal = type === "LIMIT" ? rate : Number((frr + rate).toPrecision(8));
    if (!(rateReal > 0) || rateReal > MAX_RATE) return fail("Invalid offer: incorrect rate");
    const period = num(input["period"]);
    if (!Number.isInteger(period) || period < MIN_PERIOD || period > MAX_PERIOD)
      return fail(`Invalid offer: incorrect period, must be between ${MIN_PERIOD} and ${MAX_PERIOD} days`);
    const flags = input["flags"] === undefined ? 0 : num(input["flags"]);
    if (!Number.isInteger(flags) || flags < 0) return fail("flags: invalid", 10020);
    const renew = input["renew"] === 1 || input["renew"] === true || input["renew"] === "1" ? 1 : 0;
    const currency = market.currency;
    const units = toUnits(amount);
    if (units > 0) {
      const w = this.#wallet(userId, currency);
      if (w.balance - w.reserved < units) return fail("Invalid offer: not enough balance");
    }

    const now = this.now();
    const row: OfferRow = {
      id: this.#nextOfferId(),
      user_id: userId,
      symbol,
      type,
      amount_orig: units,
      remaining: units,
      rate,
      rate_real: rateReal,
      period,
      flags: flags & ORDER_FLAGS.HIDDEN,
      status: "ACTIVE",
      mts_create: now,
      mts_update: now,
      open: 1,
      renew,
    };
    this.db.transaction(() => {
      if (units > 0) this.#reserve(userId, currency, units);
      this.#save(row);
      this.#rows.set(row.id, row);
      const wire = this.#offerWire(row);
      this.#notify(
        userId,
        "fon-req",
        wire,
        "SUCCESS",
        `Submitting funding offer of ${amountText(amount)} ${currency} at ${(rateReal * 100).toFixed(3)} for ${period} days.`,
      );
      this.#emit(userId, "fon", wire);
      this.fx.place(symbol, {
        id: row.id,
        owner: userId,
        amount,
        rate: rateReal,
        period,
        hidden: row.flags !== 0,
      });
    })();
    this.#peggedAt.set(symbol, this.#peggedAt.get(symbol) ?? frr);
    this.#flush();
    return { ok: true, offer: this.#offerWire(row) };
  }

  /** `foc` / `w/funding/offer/cancel`. */
  cancel(userId: number, id: unknown): FundingResult {
    const row = typeof id === "number" ? this.#rows.get(id) : undefined;
    if (!row || row.user_id !== userId || row.open !== 1) {
      this.#notify(userId, "foc-req", null, "ERROR", "Offer not found.");
      this.#flush();
      return { ok: false, code: 10001, msg: "Offer not found." };
    }
    this.db.transaction(() => {
      this.fx.cancel(row.symbol, row.id);
      row.open = 0;
      row.status = Math.abs(row.remaining) < Math.abs(row.amount_orig) ? "CANCELED was: PARTIALLY FILLED" : "CANCELED";
      row.mts_update = this.now();
      this.#save(row);
      this.#rows.delete(row.id);
      if (lends(row)) this.#reserve(userId, row.symbol.slice(1), -row.remaining);
      const wire = this.#offerWire(row);
      this.#notify(
        userId,
        "foc-req",
        wire,
        "SUCCESS",
        `Submitted for cancellation; waiting for confirmation (ID: ${row.id}).`,
      );
      this.#emit(userId, "foc", wire);
    })();
    this.#flush();
    return { ok: true, offer: this.#offerWire(row) };
  }

  cancelAll(userId: number, currency: string | null): number {
    let n = 0;
    for (const r of [...this.#rows.values()])
      if (r.user_id === userId && (currency === null || r.symbol === `f${currency}`) && this.cancel(userId, r.id).ok)
        n++;
    return n;
  }

  // --- FRR offers ------------------------------------------------------------------------------

  /** Re-places the market's resting FRR offers at the FRR plus their delta once the FRR has moved. */
  #repeg(market: FundingMarket): void {
    const frr = market.frr();
    const at = this.#peggedAt.get(market.symbol);
    if (at === undefined || Math.abs(frr - at) <= at * FRR_REPEG) return;
    this.#peggedAt.set(market.symbol, frr);
    this.#repegging = true;
    try {
      for (const r of [...this.#rows.values()]) {
        if (r.symbol !== market.symbol || r.type === "LIMIT" || r.open !== 1) continue;
        const rate = Number((frr + r.rate).toPrecision(8));
        if (rate === r.rate_real || !(rate > 0) || rate > MAX_RATE) continue;
        this.fx.cancel(r.symbol, r.id);
        r.rate_real = rate;
        r.mts_update = this.now();
        this.db.transaction(() => this.#save(r))();
        this.#emit(r.user_id, "fou", this.#offerWire(r));
        this.#flush();
        // Placed again under its id: a fill at the new rate settles through #settle as any other.
        this.fx.place(r.symbol, {
          id: r.id,
          owner: r.user_id,
          amount: fromUnits(r.remaining),
          rate,
          period: r.period,
          hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
        });
      }
    } finally {
      this.#repegging = false;
    }
  }

  // --- fills -----------------------------------------------------------------------------------

  #settle(b: FundingBatch): void {
    this.#creditByTrade.clear();
    const mine = b.result.fills.filter((f) => this.#rows.has(f.maker.id) || this.#rows.has(f.taker.id));
    if (mine.length === 0) return;
    this.db.transaction(() => {
      for (const f of mine) {
        let credit: number | null = null;
        let loan: number | null = null;
        for (const o of [f.maker, f.taker]) {
          const row = this.#rows.get(o.id);
          if (!row || row.user_id !== o.owner) continue;
          const made = this.#fill(row, f, o === f.maker);
          if (lends(row)) credit = made;
          else loan = made;
        }
        if (credit !== null) this.#creditByTrade.set(f.tradeId, credit);
        if (credit !== null && loan !== null) this.loans?.linkCredit(loan, credit);
      }
    })();
    this.#flush();
  }

  /** An own offer's fill: the funding trade, the offer's new state, and the credit or the loan. */
  #fill(row: OfferRow, f: FundingFill, maker: boolean): number {
    const now = this.now();
    const units = toUnits(f.amount);
    const sign = lends(row) ? 1 : -1;
    row.remaining = sign * Math.max(0, Math.abs(row.remaining) - units);
    row.mts_update = now;
    const filled = fromUnits(row.amount_orig - row.remaining);
    const at = `at ${(f.rate * 100).toFixed(4)}% (${amountText(filled)})`;
    row.status = row.remaining === 0 ? `EXECUTED ${at}` : `PARTIALLY FILLED ${at}`;
    if (row.remaining === 0) {
      row.open = 0;
      this.#rows.delete(row.id);
    }
    this.#save(row);
    this.db
      .prepare(
        "INSERT INTO funding_trades (trade_id, user_id, symbol, offer_id, mts, amount, rate, period, maker) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(f.tradeId, row.user_id, row.symbol, row.id, now, sign * units, f.rate, f.period, maker ? 1 : -1);
    const trade = fundingTradeCodec.encode({
      id: f.tradeId,
      symbol: row.symbol,
      mts_create: now,
      offer_id: row.id,
      amount: sign * f.amount,
      rate: f.rate,
      period: f.period,
      maker: maker ? 1 : -1,
    });
    this.#emit(row.user_id, "fte", trade);
    this.#emit(row.user_id, "ftu", trade);
    this.#emit(row.user_id, row.open === 1 ? "fou" : "foc", this.#offerWire(row));
    if (!lends(row))
      return (
        this.loans?.fromOffer({
          userId: row.user_id,
          symbol: row.symbol,
          offerId: row.id,
          units,
          rate: f.rate,
          period: f.period,
          renew: row.renew === 1,
        }) ?? 0
      );
    // The lent amount stays reserved in the funding wallet while the credit runs.
    const credit: CreditRow = {
      id: this.#nextCreditId(),
      user_id: row.user_id,
      symbol: row.symbol,
      offer_id: row.id,
      amount: units,
      rate: f.rate,
      period: f.period,
      status: "ACTIVE",
      position_pair: row.symbol === "fBTC" || row.symbol === "fETH" ? `t${row.symbol.slice(1)}USD` : "tBTCUSD",
      mts_create: now,
      mts_update: now,
      open: 1,
      mts_last_payout: null,
      loan_id: null,
      rate_type: row.type === "FRRDELTAVAR" ? "VAR" : "FIXED",
      rate_delta: row.type === "FRRDELTAVAR" ? row.rate : null,
    };
    this.#saveCredit(credit);
    this.#emit(row.user_id, "fcn", this.#creditWire(credit));
    this.#nextDue = Math.min(this.#nextDue, credit.mts_create + DAY);
    return credit.id;
  }

  // --- the borrowers' side (funding-loans.ts) --------------------------------------------------

  /** The credit an account's lend offer opened in the batch just settled, by funding trade id. */
  creditOfTrade(tradeId: number): number | undefined {
    return this.#creditByTrade.get(tradeId);
  }

  #credit(id: number): CreditRow | undefined {
    const c = this.db.prepare("SELECT * FROM funding_credits WHERE id = ?").get(id) as CreditRow | undefined;
    return c && c.open === 1 ? c : undefined;
  }

  /** The credit funds an account's loan (and, through it, a position on `pair`, or none). */
  linkCredit(creditId: number, loanId: number, pair: string | null): void {
    const c = this.#credit(creditId);
    if (!c) return;
    c.loan_id = loanId;
    c.position_pair = pair;
    c.mts_update = this.now();
    this.#saveCredit(c);
    this.#emit(c.user_id, "fcu", this.#creditWire(c));
    this.#flush();
  }

  /** The borrower repaid `units` of the credit (all of it closes the credit: "CLOSED (used)"). */
  repayCredit(creditId: number, units: number): void {
    const c = this.#credit(creditId);
    if (!c) return;
    const run = (): void => {
      if (units >= c.amount) {
        this.#closeCredit(c, "CLOSED (used)");
        return;
      }
      this.#pay(c, Math.min(this.now(), c.mts_create + c.period * DAY));
      const currency = c.symbol.slice(1);
      const w = this.#wallet(c.user_id, currency);
      const reserved = Math.max(0, w.reserved - units);
      this.db
        .prepare("UPDATE wallets SET reserved = ? WHERE user_id = ? AND type = 'funding' AND currency = ?")
        .run(reserved, c.user_id, currency);
      c.amount -= units;
      c.mts_update = this.now();
      this.#saveCredit(c);
      this.#emit(c.user_id, "fcu", this.#creditWire(c));
      this.#emit(c.user_id, "wu", this.#walletWire(currency, w.balance, reserved));
      this.#returned(c, units);
    };
    if (this.db.inTransaction) run();
    else this.db.transaction(run)();
    this.#flush();
  }

  // --- REST ------------------------------------------------------------------------------------

  /** The `/v2/auth/…/funding/…` routes of offers and credits; null for any other path. */
  handle(userId: number, path: string, body: Record<string, unknown>): FundingRestReply | null {
    const now = this.now();
    const err = (code: number, msg: string): FundingRestReply => ({ status: 500, body: ["error", code, msg] });
    const limit = Math.min(2500, Math.max(1, Number(body["limit"] ?? 25) || 25));
    let m: RegExpExecArray | null;
    if ((m = /^\/v2\/auth\/r\/funding\/offers(?:\/(f[A-Z0-9]+))?$/.exec(path)))
      return { status: 200, body: this.offersWire(userId, m[1] ?? null) };
    if ((m = /^\/v2\/auth\/r\/funding\/credits(?:\/(f[A-Z0-9]+))?$/.exec(path)))
      return { status: 200, body: this.creditsWire(userId, m[1] ?? null) };
    if ((m = /^\/v2\/auth\/r\/funding\/offers(?:\/(f[A-Z0-9]+))?\/hist$/.exec(path))) {
      const rows = this.db
        .prepare(
          "SELECT * FROM funding_offers WHERE user_id = ? AND open = 0 ORDER BY mts_update DESC, id DESC LIMIT ?",
        )
        .all(userId, limit) as OfferRow[];
      return { status: 200, body: rows.filter((r) => !m?.[1] || r.symbol === m[1]).map((r) => this.#offerWire(r)) };
    }
    if ((m = /^\/v2\/auth\/r\/funding\/credits(?:\/(f[A-Z0-9]+))?\/hist$/.exec(path))) {
      const rows = this.db
        .prepare(
          "SELECT * FROM funding_credits WHERE user_id = ? AND open = 0 ORDER BY mts_update DESC, id DESC LIMIT ?",
        )
        .all(userId, limit) as CreditRow[];
      return { status: 200, body: rows.filter((c) => !m?.[1] || c.symbol === m[1]).map((c) => this.#creditWire(c)) };
    }
    if ((m = /^\/v2\/auth\/r\/info\/funding\/(f[A-Z0-9]+)$/.exec(path))) {
      if (!this.fx.markets.has(m[1] as string)) return err(10020, "symbol: invalid");
      return { status: 200, body: this.infoWire(userId, m[1] as string) };
    }
    if ((m = /^\/v2\/auth\/r\/funding\/trades(?:\/(f[A-Z0-9]+))?\/hist$/.exec(path)))
      return { status: 200, body: this.tradesWire(userId, m[1] ?? null, limit) };
    if (path === "/v2/auth/w/funding/offer/submit") {
      const r = this.submit(userId, body);
      if (!r.ok) return err(r.code, r.msg);
      const d = fundingOfferCodec.decode(r.offer);
      const text = d.ok
        ? `Submitting funding offer of ${amountText(d.value.amountOrig ?? d.value.amount)} ${d.value.symbol.slice(1)} at ${(d.value.rate * 100).toFixed(3)} for ${d.value.period} days.`
        : "Submitting funding offer.";
      return { status: 200, body: [now, "fon-req", null, null, r.offer, null, "SUCCESS", text] };
    }
    if (path === "/v2/auth/w/funding/offer/cancel") {
      const r = this.cancel(userId, body["id"]);
      return r.ok
        ? { status: 200, body: [now, "foc-req", null, null, r.offer, null, "SUCCESS", "Submitted for cancellation."] }
        : err(r.code, r.msg);
    }
    if (path === "/v2/auth/w/funding/offer/cancel/all") {
      const currency = typeof body["currency"] === "string" ? body["currency"] : null;
      this.cancelAll(userId, currency);
      return {
        status: 200,
        body: [now, "foc_all-req", null, null, null, null, "SUCCESS", "Submitted for cancellation."],
      };
    }
    if (path === "/v2/auth/w/funding/auto") return this.#auto(userId, body);
    return null;
  }

  /** A credit closed early by its lender; null when the id is not one of the user's open credits. */
  closeByLender(userId: number, id: number): unknown[] | null {
    const c = this.#credit(id);
    if (!c || c.user_id !== userId) return null;
    // A borrowing account keeps its loan: the simulated lenders take the credit's place.
    this.db.transaction(() => this.#closeCredit(c, "CLOSED (closed)"))();
    this.#planNext();
    this.#flush();
    return this.#creditWire(c);
  }

  /**
   * `w/funding/auto` `{status: 1|0, currency, amount?, rate?, period?}`: with status 1 what comes
   * back from the currency's credits is offered again (up to `amount`, 0 = all; `rate` 0 = at the
   * FRR; `period` default 2); status 0 turns it off. Answers `[CURRENCY, PERIOD, RATE, AMOUNT]`.
   */
  #auto(userId: number, body: Record<string, unknown>): FundingRestReply {
    const bad = (msg: string): FundingRestReply => ({ status: 500, body: ["error", 10020, msg] });
    const currency = typeof body["currency"] === "string" ? body["currency"] : "";
    if (!this.fx.markets.has(`f${currency}`)) return bad("currency: invalid");
    const status = num(body["status"]);
    const now = this.now();
    if (status === 0) {
      this.db.prepare("DELETE FROM funding_auto WHERE user_id = ? AND currency = ?").run(userId, currency);
      return { status: 200, body: [now, "fa-req", null, null, null, null, "SUCCESS", "Auto-renew disabled."] };
    }
    if (status !== 1) return bad("status: invalid");
    const amount = body["amount"] === undefined ? 0 : num(body["amount"]);
    const rate = body["rate"] === undefined ? 0 : num(body["rate"]);
    const period = body["period"] === undefined ? MIN_PERIOD : num(body["period"]);
    if (!Number.isFinite(amount) || amount < 0) return bad("amount: invalid");
    if (!Number.isFinite(rate) || rate < 0 || rate > MAX_RATE) return bad("rate: invalid");
    if (!Number.isInteger(period) || period < MIN_PERIOD || period > MAX_PERIOD) return bad("period: invalid");
    this.db
      .prepare(
        "INSERT INTO funding_auto (user_id, currency, amount, rate, period) VALUES (?, ?, ?, ?, ?) ON CONFLICT(user_id, currency) DO UPDATE SET amount = excluded.amount, rate = excluded.rate, period = excluded.period",
      )
      .run(userId, currency, toUnits(amount), rate, period);
    return {
      status: 200,
      body: [now, "fa-req", null, null, [currency, period, rate, amount], null, "SUCCESS", "Auto-renew enabled."],
    };
  }
}
