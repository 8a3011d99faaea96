/**
 * Funding loans: the borrower's side of funding (docs/protocol.md#funding-credits-and-loans). A
 * loan (side −1) comes from an account's borrow offer (a negative `fon` amount, see
 * funding-offers.ts) or is taken automatically for a margin position. Its lender is either an
 * account (its credit is linked to the loan) or the simulated lenders.
 *
 * Positions are backed by funding. The rule:
 * - a position's funding need is, for a long, its notional at the base price in the quote currency
 *   (tBTCUSD long 1 @ 30 000: 30 000 USD) and, for a short, its size in the base currency
 *   (short 1: 1 BTC); a currency without a funding market (EUR, JPY, LTC, …) is never borrowed;
 * - the need is met first from the margin wallet's own balance of that currency that no other
 *   position's need already uses, then from the account's unused loans in it (manual borrowing),
 *   and the rest is borrowed at the current FRR: an immediate borrow on the funding book (rate =
 *   FRR, period 2) takes lend offers at or under the FRR — an account's lend offer becomes a
 *   credit linked to the loan — and what the book cannot give, the simulated lenders lend at the
 *   FRR (a variable-rate loan);
 * - whenever the position changes size the borrowed amount is brought to what own funds do not
 *   cover: when that is less, automatic loans are repaid newest first (partly if need be) and
 *   manual loans that are no longer needed go back to unused; when it closes (closed, liquidated or
 *   claimed) its automatic loans close ("CLOSED (used)") and its manual loans are unused again;
 * - interest (amount × daily rate × days) is charged once a day and when a loan shrinks, closes
 *   or changes hands, to the margin wallet: for a position's loan in the position's quote
 *   currency (a base-currency loan converted at the market), for an unused loan in its own
 *   currency; at most what is free there is taken (the rest is written off, the lenders are paid
 *   in full all the same). What a position's loans cost is its `swap` (field 4 of the position
 *   record, negative: a cost), and the sum over open positions is `miu` base USER_SWAPS;
 * - a lender account is paid by its credit (daily, less the platform's 15 %), and its credit
 *   closes when the loan closes or shrinks by it. Automatic loans never expire (daily renewed,
 *   as on Bitfinex); a manual loan closes at the end of its period ("CLOSED (expired)"), and the
 *   position it backed borrows its place at the FRR.
 *
 * Channel 0: `fls fln flu flc`; the REST calls (`r/funding/loans[/SYM][/hist]`, `w/funding/close`)
 * are funding-api.ts. Every change commits, with its wallet moves (balances.ts), before its events
 * go out (events.ts).
 */
import { parseSymbol } from "../../src/protocol/index.ts";
import { fromUnits, nextIdFrom, toUnits, type Db } from "../store/db.ts";
import type { Balances } from "./balances.ts";
import { fxRate } from "./derived.ts";
import type { AccountEvents } from "./events.ts";
import type { Exchange } from "./exchange.ts";
import type { FundingCredits } from "./funding-credits.ts";
import type { FundingOffers } from "./funding-offers.ts";
import { DAY, loanWire, saveLoan, type BorrowFill, type LoanOpener, type LoanRow } from "./funding-records.ts";
import { Positions, type PositionFunding, type PositionRow } from "./positions.ts";

/** The period of an automatic loan (renewed every day while its position is open). */
export const AUTO_PERIOD = 2;
/** Smaller needs (1e-5 of a currency) are not borrowed. */
const DUST = 1000;

export class FundingLoans implements PositionFunding, LoanOpener {
  readonly #nextId: () => number;
  #nextDue = Number.POSITIVE_INFINITY;

  constructor(
    readonly db: Db,
    readonly exchange: Exchange,
    readonly positions: Positions,
    readonly balances: Balances,
    readonly offers: FundingOffers,
    readonly credits: FundingCredits,
    readonly events: AccountEvents,
    readonly now: () => number,
  ) {
    this.#nextId = nextIdFrom(db, "funding_loan", 0);
    offers.loans = this;
    positions.funding = this;
    exchange.funding.onBatch(() => {
      if (!this.db.inTransaction && this.now() >= this.#nextDue) this.#accrue();
    });
    this.#planNext();
  }

  #emit(userId: number, type: string, payload: unknown): void {
    this.events.emit(userId, type, payload);
  }

  #planNext(): void {
    const next = this.db
      .prepare(
        "SELECT MIN(CASE WHEN auto = 0 THEN MIN(mts_last_payout + ?, mts_create + period * ?) ELSE mts_last_payout + ? END) AS t FROM funding_loans WHERE open = 1",
      )
      .get(DAY, DAY, DAY) as { t: number | null };
    this.#nextDue = next.t ?? Number.POSITIVE_INFINITY;
  }

  // --- records ---------------------------------------------------------------------------------

  #open(
    o: Omit<LoanRow, "id" | "status" | "charged" | "mts_create" | "mts_update" | "mts_last_payout" | "open">,
  ): LoanRow {
    const now = this.now();
    const l: LoanRow = {
      ...o,
      id: this.#nextId(),
      status: "ACTIVE",
      charged: 0,
      mts_create: now,
      mts_update: now,
      mts_last_payout: now,
      open: 1,
    };
    saveLoan(this.db, l);
    this.#emit(l.user_id, "fln", loanWire(l));
    this.#nextDue = Math.min(this.#nextDue, now + DAY);
    return l;
  }

  #loan(id: number): LoanRow | undefined {
    const l = this.db.prepare("SELECT * FROM funding_loans WHERE id = ?").get(id) as LoanRow | undefined;
    return l && l.open === 1 ? l : undefined;
  }

  #loansOf(userId: number, pair: string): LoanRow[] {
    return this.db
      .prepare("SELECT * FROM funding_loans WHERE user_id = ? AND position_pair = ? AND open = 1 ORDER BY id")
      .all(userId, pair) as LoanRow[];
  }

  loansWire(userId: number, symbol: string | null = null): unknown[][] {
    const rows = this.db
      .prepare("SELECT * FROM funding_loans WHERE user_id = ? AND open = 1 ORDER BY id DESC")
      .all(userId) as LoanRow[];
    return rows.filter((l) => symbol === null || l.symbol === symbol).map((l) => loanWire(l));
  }

  snapshots(userId: number): [string, unknown][] {
    return [["fls", this.loansWire(userId)]];
  }

  // --- interest --------------------------------------------------------------------------------

  /** Interest from the last charge up to `upTo`, units of the loan's currency (not rounded). */
  #interest(l: LoanRow, upTo: number): number {
    return upTo > l.mts_last_payout ? (l.amount * l.rate * (upTo - l.mts_last_payout)) / DAY : 0;
  }

  /** The position a loan backs, with the rate from the loan's currency to its quote currency. */
  #backed(l: LoanRow): { pos: PositionRow; quote: string; fx: number } | null {
    const pos = l.position_pair ? this.positions.get(l.user_id, l.position_pair) : undefined;
    const quote = pos ? Positions.quoteOf(pos.symbol) : null;
    if (!pos || !quote) return null;
    const fx = fxRate(this.exchange, l.symbol.slice(1), quote) ?? 0;
    return { pos, quote, fx };
  }

  /** Charges the interest due up to `upTo` to the margin wallet (see the file's rule). */
  #charge(l: LoanRow, upTo: number): void {
    const raw = this.#interest(l, upTo);
    l.mts_last_payout = Math.max(l.mts_last_payout, upTo);
    l.mts_update = this.now();
    if (raw <= 0) return;
    l.charged += Math.round(raw);
    const backed = this.#backed(l);
    const currency = backed ? backed.quote : l.symbol.slice(1);
    const cost = Math.round(backed ? raw * backed.fx : raw);
    if (cost <= 0) return;
    const pay = Math.min(cost, Math.max(0, this.balances.available(l.user_id, "margin", currency)));
    if (pay > 0) this.balances.move(l.user_id, "margin", currency, -pay, 0, "Margin Funding Charge on wallet margin");
    if (backed) this.positions.addSwap(backed.pos, cost);
  }

  /** The interest a position's loans have accrued and not yet charged, units of its quote currency. */
  accrued(pos: PositionRow): number {
    const now = this.now();
    let sum = 0;
    for (const l of this.#loansOf(pos.user_id, pos.symbol)) {
      const b = this.#backed(l);
      sum += this.#interest(l, now) * (b ? b.fx : 0);
    }
    return Math.round(sum);
  }

  /** Daily charges, variable rates re-set to the FRR, manual loans at the end of their period. */
  #accrue(): void {
    const now = this.now();
    const due = this.db
      .prepare(
        "SELECT * FROM funding_loans WHERE open = 1 AND (mts_last_payout + ? <= ? OR (auto = 0 AND mts_create + period * ? <= ?)) ORDER BY id",
      )
      .all(DAY, now, DAY, now) as LoanRow[];
    this.events.atomically(() => {
      for (const l of due) {
        const end = l.auto === 1 ? Number.POSITIVE_INFINITY : l.mts_create + l.period * DAY;
        if (now >= end) {
          const pair = l.position_pair;
          this.#close(l, "CLOSED (expired)", end);
          const pos = pair ? this.positions.get(l.user_id, pair) : undefined;
          if (pos) this.resized(pos);
          continue;
        }
        this.#charge(l, l.mts_last_payout + Math.floor((now - l.mts_last_payout) / DAY) * DAY);
        if (l.rate_type === "VAR") l.rate = this.exchange.funding.markets.get(l.symbol)?.frr() ?? l.rate;
        saveLoan(this.db, l);
        this.#emit(l.user_id, "flu", loanWire(l));
        const pos = l.position_pair ? this.positions.get(l.user_id, l.position_pair) : undefined;
        if (pos) this.positions.touch(pos);
      }
      this.#planNext();
    });
  }

  // --- changes ---------------------------------------------------------------------------------

  #close(l: LoanRow, status: string, upTo = this.now()): void {
    this.#charge(l, upTo);
    l.open = 0;
    l.status = status;
    saveLoan(this.db, l);
    this.#emit(l.user_id, "flc", loanWire(l));
    if (l.credit_id !== null) this.credits.repayCredit(l.credit_id, Number.MAX_SAFE_INTEGER);
  }

  #reduce(l: LoanRow, units: number): void {
    this.#charge(l, this.now());
    l.amount -= units;
    saveLoan(this.db, l);
    this.#emit(l.user_id, "flu", loanWire(l));
    if (l.credit_id !== null) this.credits.repayCredit(l.credit_id, units);
  }

  /** A loan now backs `pair` (or, null, nothing): charged up to now for what it backed before. */
  #assign(l: LoanRow, pair: string | null): void {
    this.#charge(l, this.now());
    l.position_pair = pair;
    saveLoan(this.db, l);
    this.#emit(l.user_id, "flu", loanWire(l));
    if (l.credit_id !== null) this.credits.linkCredit(l.credit_id, l.id, pair);
  }

  // --- positions (PositionFunding) -------------------------------------------------------------

  /** What the position must fund: currency and units (see the file's rule); null when nothing. */
  #need(pos: PositionRow): { currency: string; units: number } | null {
    const info = parseSymbol(pos.symbol);
    if (!info || info.kind !== "trading" || pos.open !== 1 || pos.amount === 0) return null;
    const currency = pos.amount > 0 ? info.quote : info.base;
    if (!this.exchange.funding.markets.has(`f${currency}`)) return null;
    const units = pos.amount > 0 ? Math.round(fromUnits(pos.amount) * pos.base_price * 1e8) : -pos.amount;
    return { currency, units };
  }

  /** The margin wallet's own balance of `currency` that other positions' needs do not use. */
  #ownFree(pos: PositionRow, currency: string): number {
    let used = 0;
    for (const q of this.positions.openOf(pos.user_id)) {
      if (q === pos) continue;
      const n = this.#need(q);
      if (!n || n.currency !== currency) continue;
      const borrowed = this.#loansOf(q.user_id, q.symbol).reduce((s, l) => s + l.amount, 0);
      used += Math.max(0, n.units - borrowed);
    }
    return Math.max(0, this.positions.marginBalance(pos.user_id, currency) - used);
  }

  resized(pos: PositionRow): void {
    this.events.atomically(() => {
      const need = this.#need(pos);
      const loans = this.#loansOf(pos.user_id, pos.symbol);
      const borrowed = loans.reduce((s, l) => s + l.amount, 0);
      // Own funds first in both directions: a shrinking position repays what its own funds now cover.
      const target = need ? Math.max(0, need.units - this.#ownFree(pos, need.currency)) : 0;
      if (borrowed > target) this.#release(loans, borrowed - target);
      else if (need && target - borrowed >= DUST) this.#borrow(pos, need.currency, target - borrowed);
    });
  }

  closed(pos: PositionRow): void {
    this.events.atomically(() => {
      for (const l of this.#loansOf(pos.user_id, pos.symbol))
        if (l.auto === 1) this.#close(l, "CLOSED (used)");
        else this.#assign(l, null);
    });
  }

  /** Repays `excess` units: automatic loans newest first, then manual loans no longer needed. */
  #release(loans: readonly LoanRow[], excess: number): void {
    let left = excess;
    for (const l of [...loans].reverse()) {
      if (left <= 0 || l.auto !== 1) continue;
      if (l.amount <= left) {
        left -= l.amount;
        this.#close(l, "CLOSED (used)");
      } else {
        this.#reduce(l, left);
        left = 0;
      }
    }
    for (const l of [...loans].reverse()) {
      if (left <= 0 || l.auto === 1 || l.amount > left) continue;
      left -= l.amount;
      this.#assign(l, null);
    }
  }

  #borrow(pos: PositionRow, currency: string, units: number): void {
    const symbol = `f${currency}`;
    let left = units;
    const unused = this.db
      .prepare(
        "SELECT * FROM funding_loans WHERE user_id = ? AND symbol = ? AND open = 1 AND position_pair IS NULL ORDER BY id",
      )
      .all(pos.user_id, symbol) as LoanRow[];
    for (const l of unused) {
      if (left < DUST) return;
      this.#assign(l, pos.symbol);
      left -= l.amount;
    }
    if (left < DUST) return;
    const market = this.exchange.funding.markets.get(symbol);
    if (!market) return;
    const frr = market.frr();
    const batch = this.exchange.funding.place(symbol, {
      owner: pos.user_id,
      amount: -fromUnits(left),
      rate: frr,
      period: AUTO_PERIOD,
      immediate: true,
    });
    const base = { user_id: pos.user_id, symbol, offer_id: null, position_pair: pos.symbol, auto: 1, renew: 0 };
    for (const f of batch?.result.fills ?? []) {
      left -= toUnits(f.amount);
      const creditId = this.credits.creditByTrade.get(f.tradeId) ?? null;
      const l = this.#open({
        ...base,
        credit_id: creditId,
        amount: toUnits(f.amount),
        rate: f.rate,
        rate_type: "FIXED",
        period: f.period,
      });
      if (creditId !== null) this.credits.linkCredit(creditId, l.id, pos.symbol);
    }
    if (left > 0)
      this.#open({ ...base, credit_id: null, amount: left, rate: frr, rate_type: "VAR", period: AUTO_PERIOD });
  }

  // --- LoanOpener (funding-offers.ts) -----------------------------------------------------------

  fromOffer(o: BorrowFill): number {
    const l = this.#open({
      user_id: o.userId,
      symbol: o.symbol,
      offer_id: o.offerId,
      credit_id: null,
      amount: o.units,
      rate: o.rate,
      rate_type: "FIXED",
      period: o.period,
      position_pair: null,
      auto: 0,
      renew: o.renew ? 1 : 0,
    });
    return l.id;
  }

  linkCredit(loanId: number, creditId: number): void {
    const l = this.#loan(loanId);
    if (!l) return;
    l.credit_id = creditId;
    saveLoan(this.db, l);
    this.credits.linkCredit(creditId, l.id, l.position_pair);
  }

  /**
   * `w/funding/close` of a loan: the borrower repays it, and a position it backed borrows its place
   * at the FRR. Null when `id` is not one of the user's open loans.
   */
  closeByBorrower(userId: number, id: number): unknown[] | null {
    const l = this.#loan(id);
    if (!l || l.user_id !== userId) return null;
    this.events.atomically(() => {
      const pair = l.position_pair;
      this.#close(l, "CLOSED (closed)");
      const pos = pair ? this.positions.get(userId, pair) : undefined;
      if (pos) {
        this.resized(pos);
        this.positions.touch(pos);
      }
      this.#planNext();
    });
    return loanWire(l);
  }
}
