/**
 * Account funding offers (docs/protocol.md#funding-offers), matched on the funding markets.
 *
 * - A lend offer (positive amount) is reserved against the funding wallet so its balance never goes
 *   negative; a matched amount becomes a credit (funding-credits.ts) that keeps the reservation.
 * - A borrow offer (negative amount) reserves nothing: a matched amount becomes a loan (side −1),
 *   kept by funding-loans.ts, which also borrows automatically for margin positions. When both
 *   sides of a funding trade are accounts, the credit and the loan are linked.
 * - FRR offers (`FRRDELTAVAR`, `FRRDELTAFIX`: rate = delta over the FRR) float: while they rest
 *   they are re-placed at the FRR plus their delta whenever the FRR has moved by more than 0.1 %.
 *
 * Channel 0 carries `fos fon fou foc`, own funding trades `fte`/`ftu` and the `fon-req`/`foc-req`
 * notifications; the requests' REST and socket forms are funding-api.ts. Every change commits
 * before its events go out (events.ts), and open offers go back on their books after a restart.
 */
import { ERROR_CODES, ORDER_FLAGS } from "../../src/protocol/index.ts";
import { guarded } from "../log.ts";
import { notice, num } from "../reply.ts";
import { fromUnits, nextIdFrom, toUnits, type Db } from "../store/db.ts";
import type { Balances } from "./balances.ts";
import type { AccountEvents } from "./events.ts";
import { MIN_OFFER_USD, type FundingCredits } from "./funding-credits.ts";
import type { FundingFill } from "./funding-engine.ts";
import { migrateFundingHistory } from "./funding-history.ts";
import type { FundingBatch, FundingExchange, FundingMarket } from "./funding-market.ts";
import { MAX_PERIOD, MIN_PERIOD } from "./funding-market.ts";
import {
  amountText,
  createFundingTables,
  fundingTradeWire,
  lends,
  MAX_RATE,
  offerWire,
  saveOffer,
  type FundingTradeRow,
  type LoanOpener,
  type OfferRow,
} from "./funding-records.ts";

/** A resting FRR offer is re-placed when the FRR has moved by more than this fraction. */
export const FRR_REPEG = 0.001;
const TYPES = new Set(["LIMIT", "FRRDELTAVAR", "FRRDELTAFIX"]);
const { GENERIC, PARAMS } = ERROR_CODES;

export type FundingResult =
  | { readonly ok: true; readonly offer: unknown[] }
  | { readonly ok: false; readonly code: number; readonly msg: string };

export class FundingOffers {
  readonly #rows = new Map<number, OfferRow>();
  readonly #nextOfferId: () => number;
  /** The FRR each market's FRR offers were last placed at. */
  readonly #peggedAt = new Map<string, number>();
  #repegging = false;
  readonly #repegQueued = new Set<FundingMarket>();
  /** The borrower's side (venue.ts attaches it). */
  loans: LoanOpener | null = null;

  constructor(
    readonly db: Db,
    readonly fx: FundingExchange,
    readonly balances: Balances,
    readonly credits: FundingCredits,
    readonly events: AccountEvents,
    readonly now: () => number,
  ) {
    createFundingTables(db);
    migrateFundingHistory(db);
    this.#nextOfferId = nextIdFrom(db, "funding_offer", 0);
    credits.renew = (userId, input) => void this.submit(userId, input);
    fx.onBatch((b) => {
      credits.accrueIfDue();
      this.#settle(b);
      // Re-pegs place offers, and so make funding batches of their own: they wait for a microtask,
      // so that this batch reaches every listener before the one it causes.
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
    // A trade id names one funding trade for ever: new ones continue after the stored ones.
    const last = db.prepare("SELECT MAX(trade_id) AS id FROM funding_trades").get() as { id: number | null };
    fx.resumeTradeIds(last.id ?? 0);
    const rows = db.prepare("SELECT * FROM funding_offers WHERE open = 1 ORDER BY id").all() as OfferRow[];
    for (const r of rows) {
      this.#rows.set(r.id, r);
      fx.restore(r.symbol, {
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
  }

  #notify(userId: number, type: string, data: unknown, status: "SUCCESS" | "ERROR", text: string): void {
    this.events.emit(userId, "n", notice(this.now(), type, data, status, text));
  }

  /** The user's open offers (`fos`, REST `r/funding/offers[/SYM]`). */
  offersWire(userId: number, symbol: string | null = null): unknown[][] {
    return [...this.#rows.values()]
      .filter((r) => r.user_id === userId && r.open === 1 && (symbol === null || r.symbol === symbol))
      .map((r) => offerWire(r));
  }

  /** `fon` / `w/funding/offer/submit`: validates, reserves (lending), submits — in one transaction. */
  submit(userId: number, input: Record<string, unknown>): FundingResult {
    const fail = (msg: string, code: number = GENERIC): FundingResult => {
      this.#notify(userId, "fon-req", null, "ERROR", msg);
      return { ok: false, code, msg };
    };
    const type = typeof input["type"] === "string" ? input["type"] : "";
    if (!TYPES.has(type)) return fail("Invalid offer type");
    const symbol = typeof input["symbol"] === "string" ? input["symbol"] : "";
    const market = this.fx.markets.get(symbol);
    if (!market) return fail("symbol: invalid", PARAMS);
    const amount = Math.round(num(input["amount"]) * 1e8) / 1e8;
    if (!Number.isFinite(amount) || amount === 0) return fail("amount: invalid", PARAMS);
    if (Math.abs(amount) * market.listing.usd < MIN_OFFER_USD)
      return fail(`Invalid offer: incorrect amount, minimum is ${MIN_OFFER_USD} dollar or equivalent in USD`);
    const rate = num(input["rate"]);
    const frr = market.frr();
    if (!Number.isFinite(rate)) return fail("rate: invalid", PARAMS);
    if (type === "LIMIT" ? !(rate > 0) || rate > MAX_RATE : type === "FRRDELTAVAR" ? rate < 0 : false)
      return fail("Invalid offer: incorrect rate");
    // FRR offers rest at the FRR plus their delta, re-placed as the FRR moves (#repeg).
    const rateReal = type === "LIMIT" ? rate : Number((frr + rate).toPrecision(8));
    if (!(rateReal > 0) || rateReal > MAX_RATE) return fail("Invalid offer: incorrect rate");
    const period = num(input["period"]);
    if (!Number.isInteger(period) || period < MIN_PERIOD || period > MAX_PERIOD)
      return fail(`Invalid offer: incorrect period, must be between ${MIN_PERIOD} and ${MAX_PERIOD} days`);
    const flags = input["flags"] === undefined ? 0 : num(input["flags"]);
    if (!Number.isInteger(flags) || flags < 0) return fail("flags: invalid", PARAMS);
    const renew = input["renew"] === 1 || input["renew"] === true || input["renew"] === "1" ? 1 : 0;
    const currency = market.currency;
    const units = toUnits(amount);
    if (units > 0 && this.balances.available(userId, "funding", currency) < units)
      return fail("Invalid offer: not enough balance");
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
    this.events.atomically(() => {
      if (units > 0) this.balances.move(userId, "funding", currency, 0, units, null);
      saveOffer(this.db, row);
      this.#rows.set(row.id, row);
      const wire = offerWire(row);
      const text = `Submitting funding offer of ${amountText(amount)} ${currency} at ${(rateReal * 100).toFixed(3)} for ${period} days.`;
      this.#notify(userId, "fon-req", wire, "SUCCESS", text);
      this.events.emit(userId, "fon", wire);
      this.fx.place(symbol, { id: row.id, owner: userId, amount, rate: rateReal, period, hidden: row.flags !== 0 });
    });
    this.#peggedAt.set(symbol, this.#peggedAt.get(symbol) ?? frr);
    return { ok: true, offer: offerWire(row) };
  }

  /** `foc` / `w/funding/offer/cancel`. */
  cancel(userId: number, id: unknown): FundingResult {
    const row = typeof id === "number" ? this.#rows.get(id) : undefined;
    if (!row || row.user_id !== userId || row.open !== 1) {
      this.#notify(userId, "foc-req", null, "ERROR", "Offer not found.");
      return { ok: false, code: GENERIC, msg: "Offer not found." };
    }
    this.events.atomically(() => {
      this.fx.cancel(row.symbol, row.id);
      row.open = 0;
      row.status = Math.abs(row.remaining) < Math.abs(row.amount_orig) ? "CANCELED was: PARTIALLY FILLED" : "CANCELED";
      row.mts_update = this.now();
      saveOffer(this.db, row);
      this.#rows.delete(row.id);
      if (lends(row)) this.balances.move(userId, "funding", row.symbol.slice(1), 0, -row.remaining, null);
      const wire = offerWire(row);
      const text = `Submitted for cancellation; waiting for confirmation (ID: ${row.id}).`;
      this.#notify(userId, "foc-req", wire, "SUCCESS", text);
      this.events.emit(userId, "foc", wire);
    });
    return { ok: true, offer: offerWire(row) };
  }

  cancelAll(userId: number, currency: string | null): number {
    let n = 0;
    for (const r of [...this.#rows.values()])
      if (r.user_id === userId && (currency === null || r.symbol === `f${currency}`) && this.cancel(userId, r.id).ok)
        n++;
    return n;
  }

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
        this.events.atomically(() => {
          saveOffer(this.db, r);
          this.events.emit(r.user_id, "fou", offerWire(r));
        });
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

  #settle(b: FundingBatch): void {
    this.credits.creditByTrade.clear();
    const mine = b.result.fills.filter((f) => this.#rows.has(f.maker.id) || this.#rows.has(f.taker.id));
    if (mine.length === 0) return;
    this.events.atomically(() => {
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
        if (credit !== null && loan !== null) this.loans?.linkCredit(loan, credit);
      }
    });
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
    saveOffer(this.db, row);
    const t: FundingTradeRow = {
      trade_id: f.tradeId,
      symbol: row.symbol,
      offer_id: row.id,
      mts: now,
      amount: sign * units,
      rate: f.rate,
      period: f.period,
      maker: maker ? 1 : -1,
    };
    this.db
      .prepare(
        "INSERT INTO funding_trades (trade_id, user_id, symbol, offer_id, mts, amount, rate, period, maker) VALUES (@trade_id, @user_id, @symbol, @offer_id, @mts, @amount, @rate, @period, @maker)",
      )
      .run({ ...t, user_id: row.user_id });
    const trade = fundingTradeWire(t);
    this.events.emit(row.user_id, "fte", trade);
    this.events.emit(row.user_id, "ftu", trade);
    this.events.emit(row.user_id, row.open === 1 ? "fou" : "foc", offerWire(row));
    if (lends(row)) return this.credits.open(row, f.tradeId, units, f.rate, f.period);
    const borrow = { userId: row.user_id, symbol: row.symbol, offerId: row.id, units, rate: f.rate, period: f.period };
    return this.loans?.fromOffer({ ...borrow, renew: row.renew === 1 }) ?? 0;
  }
}
