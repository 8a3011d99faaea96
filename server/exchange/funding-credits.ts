/**
 * Funding credits: the lender's side of a matched lend offer (side 1). A credit keeps its amount
 * reserved in the funding wallet while it runs, pays its interest (amount × daily rate, less the
 * platform's 15 %) into that wallet once a simulated day and for the last part of a day when it
 * ends, and closes (`fcc`) at the end of its period ("CLOSED (expired)"), when its borrower repays
 * it ("CLOSED (used)") or when the lender takes it back (`w/funding/close`, "CLOSED (closed)"). What
 * comes back is offered again when its offer had `renew: 1` or the currency has auto-renew on
 * (`w/funding/auto`); a credit from an `FRRDELTAVAR` offer is variable (`VAR`) and takes the FRR
 * plus its delta at each daily payment. Channel 0: `fcs fcn fcu fcc`.
 */
import { encodeFundingInfo, FUNDING_MIN_OFFER_USD } from "../../src/protocol/index.ts";
import { guarded } from "../log.ts";
import { fromUnits, nextIdFrom, type Db } from "../store/db.ts";
import type { Balances } from "./balances.ts";
import type { AccountEvents } from "./events.ts";
import type { FundingExchange } from "./funding-market.ts";
import {
  createFundingTables,
  creditWire,
  DAY,
  MAX_RATE,
  saveCredit,
  type CreditRow,
  type OfferRow,
} from "./funding-records.ts";

/** The platform's share of a lender's interest (the real API's 15 %). */
export const LENDER_FEE = 0.15;
/** The real API's smallest funding offer, in USD or its equivalent: smaller returns are not renewed. */
export const MIN_OFFER_USD = FUNDING_MIN_OFFER_USD;

/** A currency's auto-renew settings: up to `amount` units (0: all) at `rate` (0: at the FRR) for `period` days. */
export interface AutoRenew {
  readonly amount: number;
  readonly rate: number;
  readonly period: number;
}

export class FundingCredits {
  readonly #nextId: () => number;
  /** When the next credit payment or expiry is due (checked on every funding batch). */
  #nextDue = Number.POSITIVE_INFINITY;
  /** Credits opened by the trade ids of the batch being settled (for the loans they fund). */
  readonly creditByTrade = new Map<number, number>();
  /**
   * The length of the exchange's funding day: payments fall due, and periods run, in these. A real
   * day unless `FUNDING_DAY_MS` shortens it (server/README.md), so an end-to-end journey sees a
   * credit pay interest within seconds; interest stays the daily rate for each such day.
   */
  #day = DAY;
  /** Places an offer again (funding-offers.ts submits it; venue.ts attaches it). */
  renew: (userId: number, input: Record<string, unknown>) => void = () => {};

  constructor(
    readonly db: Db,
    readonly fx: FundingExchange,
    readonly balances: Balances,
    readonly events: AccountEvents,
    readonly now: () => number,
  ) {
    createFundingTables(db);
    this.#nextId = nextIdFrom(db, "funding_credit", 0);
    this.#planNext();
  }

  get dayMs(): number {
    return this.#day;
  }

  set dayMs(ms: number) {
    this.#day = ms;
    this.#planNext();
  }

  #planNext(): void {
    const next = this.db
      .prepare(
        "SELECT MIN(MIN(COALESCE(mts_last_payout, mts_create) + ?, mts_create + period * ?)) AS t FROM funding_credits WHERE open = 1",
      )
      .get(this.#day, this.#day) as { t: number | null };
    this.#nextDue = next.t ?? Number.POSITIVE_INFINITY;
  }

  /**
   * The clock's work, on a funding batch outside any other transaction (payments move wallets and
   * must commit on their own): a payment for every whole day since the last one, and the credits
   * whose period has run out closed (paid up to their end; the lent amount free again).
   */
  accrueIfDue(): void {
    const now = this.now();
    if (this.db.inTransaction || now < this.#nextDue) return;
    const due = this.db
      .prepare(
        "SELECT * FROM funding_credits WHERE open = 1 AND (COALESCE(mts_last_payout, mts_create) + ? <= ? OR mts_create + period * ? <= ?) ORDER BY id",
      )
      .all(this.#day, now, this.#day, now) as CreditRow[];
    this.events.atomically(() => {
      for (const c of due) {
        const end = c.mts_create + c.period * this.#day;
        if (now >= end) {
          this.#close(c, "CLOSED (expired)", end);
          continue;
        }
        const last = c.mts_last_payout ?? c.mts_create;
        this.#pay(c, last + Math.floor((now - last) / this.#day) * this.#day);
        if (c.rate_type === "VAR") c.rate = this.#floating(c.symbol, c.rate_delta ?? 0, c.rate);
        this.#update(c);
      }
      this.#planNext();
    });
  }

  /** FRR plus a delta, within the accepted range; `fallback` when that is out of it. */
  #floating(symbol: string, delta: number, fallback: number): number {
    const frr = this.fx.markets.get(symbol)?.frr() ?? 0;
    const r = Number((frr + delta).toPrecision(8));
    return r > 0 && r <= MAX_RATE ? r : fallback;
  }

  #update(c: CreditRow): void {
    saveCredit(this.db, c);
    this.events.emit(c.user_id, "fcu", creditWire(c));
  }

  /** Pays a credit's interest from its last payment up to `upTo` into the funding wallet. */
  #pay(c: CreditRow, upTo: number): void {
    const last = c.mts_last_payout ?? c.mts_create;
    if (upTo <= last) return;
    const interest = Math.floor(c.amount * c.rate * ((upTo - last) / this.#day) * (1 - LENDER_FEE));
    c.mts_last_payout = upTo;
    c.mts_update = this.now();
    if (interest > 0)
      this.balances.move(
        c.user_id,
        "funding",
        c.symbol.slice(1),
        interest,
        0,
        "Margin Funding Payment on wallet funding",
      );
  }

  /** Frees `units` of the lent amount reserved in the funding wallet (never below nothing reserved). */
  #free(c: CreditRow, units: number): void {
    const reserved = this.balances.wallet(c.user_id, "funding", c.symbol.slice(1)).reserved;
    this.balances.move(c.user_id, "funding", c.symbol.slice(1), 0, -Math.min(reserved, units), null);
  }

  /** Pays what is due, frees the lent amount, closes the credit and offers it again if renewed. */
  #close(c: CreditRow, status: string, upTo = this.now()): void {
    this.#pay(c, Math.min(upTo, c.mts_create + c.period * this.#day));
    c.open = 0;
    c.status = status;
    c.mts_update = this.now();
    saveCredit(this.db, c);
    this.events.emit(c.user_id, "fcc", creditWire(c));
    this.#free(c, c.amount);
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
      const auto = this.autoRenew(c.user_id, market.currency);
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
    // Renewals place offers again, so they wait for the commit that returned the funds; and for a
    // microtask, so that a funding batch reaches every listener before the one it causes (a nested
    // batch would reach the public feeds ahead of the one that caused it, its book diff out of order).
    const renewal = input;
    if (renewal && fromUnits(units) * market.listing.usd >= MIN_OFFER_USD)
      this.events.afterCommit(guarded("funding renewals", () => this.renew(c.user_id, renewal)));
  }

  /** A lend offer's fill became a credit (the lent amount stays reserved while it runs). */
  open(offer: OfferRow, tradeId: number, units: number, rate: number, period: number): number {
    const now = this.now();
    const credit: CreditRow = {
      id: this.#nextId(),
      user_id: offer.user_id,
      symbol: offer.symbol,
      offer_id: offer.id,
      amount: units,
      rate,
      period,
      status: "ACTIVE",
      position_pair: offer.symbol === "fBTC" || offer.symbol === "fETH" ? `t${offer.symbol.slice(1)}USD` : "tBTCUSD",
      mts_create: now,
      mts_update: now,
      open: 1,
      mts_last_payout: null,
      loan_id: null,
      rate_type: offer.type === "FRRDELTAVAR" ? "VAR" : "FIXED",
      rate_delta: offer.type === "FRRDELTAVAR" ? offer.rate : null,
    };
    saveCredit(this.db, credit);
    this.events.emit(offer.user_id, "fcn", creditWire(credit));
    this.#nextDue = Math.min(this.#nextDue, credit.mts_create + this.#day);
    this.creditByTrade.set(tradeId, credit.id);
    return credit.id;
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
    this.#update(c);
  }

  /** The borrower repaid `units` of the credit (all of it closes the credit: "CLOSED (used)"). */
  repayCredit(creditId: number, units: number): void {
    const c = this.#credit(creditId);
    if (!c) return;
    this.events.atomically(() => {
      if (units >= c.amount) {
        this.#close(c, "CLOSED (used)");
        return;
      }
      this.#pay(c, Math.min(this.now(), c.mts_create + c.period * this.#day));
      c.amount -= units;
      c.mts_update = this.now();
      this.#update(c);
      this.#free(c, units);
      this.#returned(c, units);
    });
  }

  /** A credit closed early by its lender; null when the id is not one of the user's open credits. */
  closeByLender(userId: number, id: number): unknown[] | null {
    const c = this.#credit(id);
    if (!c || c.user_id !== userId) return null;
    // A borrowing account keeps its loan: the simulated lenders take the credit's place.
    this.events.atomically(() => this.#close(c, "CLOSED (closed)"));
    this.#planNext();
    return creditWire(c);
  }

  /** The user's open credits, newest first (`fcs`, REST `r/funding/credits[/SYM]`). */
  creditsWire(userId: number, symbol: string | null = null): unknown[][] {
    const rows = this.db
      .prepare("SELECT * FROM funding_credits WHERE user_id = ? AND open = 1 ORDER BY id DESC")
      .all(userId) as CreditRow[];
    return rows.filter((c) => symbol === null || c.symbol === symbol).map((c) => creditWire(c));
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
        days += c.amount * Math.max(0, (c.mts_create + c.period * this.#day - now) / this.#day);
      }
      return amount ? [rate / amount, days / amount] : [0, 0];
    };
    const open = (table: string) =>
      this.db
        .prepare(`SELECT amount, rate, mts_create, period FROM ${table} WHERE user_id = ? AND symbol = ? AND open = 1`)
        .all(userId, symbol) as { amount: number; rate: number; mts_create: number; period: number }[];
    const [yieldLend, durationLend] = weigh(open("funding_credits"));
    const [yieldLoan, durationLoan] = weigh(open("funding_loans"));
    return encodeFundingInfo({
      symbol,
      yieldLoan: yieldLoan ?? 0,
      yieldLend: yieldLend ?? 0,
      durationLoan: durationLoan ?? 0,
      durationLend: durationLend ?? 0,
    });
  }

  /** A currency's auto-renew settings, or undefined when it is off. */
  autoRenew(userId: number, currency: string): AutoRenew | undefined {
    return this.db
      .prepare("SELECT amount, rate, period FROM funding_auto WHERE user_id = ? AND currency = ?")
      .get(userId, currency) as AutoRenew | undefined;
  }

  /** Turns auto-renew on with `settings` (amount in units), or off with null. */
  setAutoRenew(userId: number, currency: string, settings: AutoRenew | null): void {
    if (!settings) {
      this.db.prepare("DELETE FROM funding_auto WHERE user_id = ? AND currency = ?").run(userId, currency);
      return;
    }
    this.db
      .prepare(
        "INSERT INTO funding_auto (user_id, currency, amount, rate, period) VALUES (?, ?, ?, ?, ?) ON CONFLICT(user_id, currency) DO UPDATE SET amount = excluded.amount, rate = excluded.rate, period = excluded.period",
      )
      .run(userId, currency, settings.amount, settings.rate, settings.period);
  }
}
