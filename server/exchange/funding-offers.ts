/**
 * Account funding (PROTOCOL.md 4.2–4.3, 6): lend offers (`fon`/`foc` on the socket,
 * `w/funding/offer/submit|cancel|cancel/all` over REST), reserved against the funding wallet so its
 * balance never goes negative, matched on the funding markets against the simulated borrowers. A
 * matched amount becomes a credit (side 1, lender) that keeps its reservation while it runs and,
 * when its period is over, closes (`fcc`) and pays its interest into the funding wallet; own
 * funding trades go out as `fte`/`ftu`. Channel 0 carries `fos fon fou foc`, `fcs fcn fcu fcc`,
 * `fls` (always empty: borrowing is margin's, see below) and the `fon-req`/`foc-req` notifications.
 * Every change is committed to SQLite before its events go out (Trading's rule), and open offers go
 * back on their books after a restart.
 *
 * Borrow offers (negative amounts) are refused: on Bitfinex borrowed funds back margin positions,
 * which this module does not open.
 */
import {
  fundingCreditCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  ORDER_FLAGS,
  walletCodec,
} from "../../src/protocol/index.ts";
import { fromUnits, nextIdFrom, toUnits, type Db } from "../store/db.ts";
import type { FundingBatch, FundingExchange, FundingFill } from "./funding-market.ts";
import { MAX_PERIOD, MIN_PERIOD } from "./funding-market.ts";
import { num, type AccountEmit } from "./trading.ts";

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
`;

const DAY = 86_400_000;
/** The platform's share of a lender's interest (the real API's 15 %). */
export const LENDER_FEE = 0.15;
/** The real API's smallest funding offer, in USD or its equivalent. */
export const MIN_OFFER_USD = 150;
/** Highest daily rate the real API accepts (7 % a day). */
export const MAX_RATE = 0.07;
const TYPES = new Set(["LIMIT", "FRRDELTAVAR", "FRRDELTAFIX"]);

interface OfferRow {
  id: number;
  user_id: number;
  symbol: string;
  type: string;
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

export class FundingOffers {
  readonly #rows = new Map<number, OfferRow>();
  readonly #queue: [number, string, unknown][] = [];
  readonly #nextOfferId: () => number;
  readonly #nextCreditId: () => number;
  /** When the next credit runs out (checked on every funding batch, so a quiet DB is not polled). */
  #nextExpiry = Number.POSITIVE_INFINITY;

  constructor(
    readonly db: Db,
    readonly fx: FundingExchange,
    readonly now: () => number,
    readonly send: AccountEmit,
  ) {
    db.exec(FUNDING_TABLES);
    this.#nextOfferId = nextIdFrom(db, "funding_offer", 0);
    this.#nextCreditId = nextIdFrom(db, "funding_credit", 0);
    fx.onBatch((b) => {
      if (this.now() >= this.#nextExpiry) this.#expire();
      this.#settle(b);
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
        side: "lend",
        rate: r.rate_real,
        period: r.period,
        hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
        mtsCreate: r.mts_create,
        remaining: fromUnits(r.remaining),
        original: fromUnits(r.amount_orig),
      });
    }
    const next = this.db
      .prepare("SELECT MIN(mts_create + period * ?) AS t FROM funding_credits WHERE open = 1")
      .get(DAY) as { t: number | null };
    this.#nextExpiry = next.t ?? Number.POSITIVE_INFINITY;
  }

  /**
   * Closes the credits whose period has run out: the lent amount is free again and the interest
   * (amount × daily rate × days, less the platform's share) is paid into the funding wallet.
   */
  #expire(): void {
    const now = this.now();
    const due = this.db
      .prepare("SELECT * FROM funding_credits WHERE open = 1 AND mts_create + period * ? <= ? ORDER BY id")
      .all(DAY, now) as CreditRow[];
    this.db.transaction(() => {
      for (const c of due) {
        const currency = c.symbol.slice(1);
        const interest = Math.floor(c.amount * c.rate * c.period * (1 - LENDER_FEE));
        const w = this.#wallet(c.user_id, currency);
        const balance = w.balance + interest;
        const reserved = Math.max(0, w.reserved - c.amount);
        this.db
          .prepare(
            "UPDATE wallets SET balance = ?, reserved = ? WHERE user_id = ? AND type = 'funding' AND currency = ?",
          )
          .run(balance, reserved, c.user_id, currency);
        if (interest > 0)
          this.db
            .prepare(
              "INSERT INTO ledgers (user_id, currency, wallet, mts, amount, balance, description) VALUES (?, ?, 'funding', ?, ?, ?, ?)",
            )
            .run(c.user_id, currency, now, interest, balance, "Margin Funding Payment on wallet funding");
        c.open = 0;
        c.status = "CLOSED (expired)";
        c.mts_update = now;
        this.db
          .prepare("UPDATE funding_credits SET open = 0, status = ?, mts_update = ? WHERE id = ?")
          .run(c.status, now, c.id);
        this.#emit(c.user_id, "fcc", this.#creditWire(c));
        this.#emit(c.user_id, "wu", this.#walletWire(currency, balance, reserved));
      }
      const next = this.db
        .prepare("SELECT MIN(mts_create + period * ?) AS t FROM funding_credits WHERE open = 1")
        .get(DAY) as { t: number | null };
      this.#nextExpiry = next.t ?? Number.POSITIVE_INFINITY;
    })();
    this.#flush();
  }

  #emit(userId: number, type: string, payload: unknown): void {
    this.#queue.push([userId, type, payload]);
  }

  #flush(): void {
    if (this.db.inTransaction) return;
    for (const [u, t, p] of this.#queue.splice(0)) this.send(u, t, p);
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
      renew: false,
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
      type: "FIXED",
      rate: c.rate,
      period: c.period,
      mtsOpening: c.mts_create,
      mtsLastPayout: null,
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
        `INSERT INTO funding_offers (id, user_id, symbol, type, amount_orig, remaining, rate, rate_real, period, flags, status, mts_create, mts_update, open)
         VALUES (@id, @user_id, @symbol, @type, @amount_orig, @remaining, @rate, @rate_real, @period, @flags, @status, @mts_create, @mts_update, @open)
         ON CONFLICT(id) DO UPDATE SET remaining = excluded.remaining, status = excluded.status, mts_update = excluded.mts_update, open = excluded.open`,
      )
      .run(r);
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
   * amount-weighted daily rate and days left of the active credits (there are no loans).
   */
  infoWire(userId: number, symbol: string): unknown[] {
    const rows = this.db
      .prepare("SELECT * FROM funding_credits WHERE user_id = ? AND symbol = ? AND open = 1")
      .all(userId, symbol) as CreditRow[];
    const now = this.now();
    let amount = 0;
    let rate = 0;
    let days = 0;
    for (const c of rows) {
      amount += c.amount;
      rate += c.amount * c.rate;
      days += c.amount * Math.max(0, (c.mts_create + c.period * DAY - now) / DAY);
    }
    return ["sym", symbol, [0, amount ? rate / amount : 0, 0, amount ? days / amount : 0]];
  }

  /** `calc` requests for `funding_sym_fUSD`: a `fiu` each (other requests are not funding's). */
  calc(userId: number, payload: unknown): void {
    if (!Array.isArray(payload)) return;
    for (const req of payload.slice(0, 30)) {
      const name = Array.isArray(req) ? req[0] : null;
      const m = typeof name === "string" ? /^funding_sym_(f[A-Z0-9]+)$/.exec(name) : null;
      if (m && this.fx.markets.has(m[1] as string)) this.send(userId, "fiu", this.infoWire(userId, m[1] as string));
    }
  }

  /** The channel-0 snapshots after `auth`. */
  snapshots(userId: number): [string, unknown][] {
    return [
      ["fos", this.offersWire(userId)],
      ["fcs", this.creditsWire(userId)],
      ["fls", []],
    ];
  }

  // --- inputs ----------------------------------------------------------------------------------

  /** `fon` / `w/funding/offer/submit`: validates, reserves, submits — in one transaction. */
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
    if (amount < 0) return fail("Invalid offer: borrowing is only available for margin positions");
    if (amount * market.listing.usd < MIN_OFFER_USD)
      return fail(`Invalid offer: incorrect amount, minimum is ${MIN_OFFER_USD} dollar or equivalent in USD`);
    const rate = num(input["rate"]);
    const frr = market.frr();
    if (!Number.isFinite(rate)) return fail("rate: invalid", 10020);
    if (type === "LIMIT" ? !(rate > 0) || rate > MAX_RATE : type === "FRRDELTAVAR" ? rate < 0 : false)
      return fail("Invalid offer: incorrect rate");
    // FRR offers rest at the FRR plus their delta as it stands when they are placed.
    const rateReal = type === "LIMIT" ? rate : Number((frr + rate).toPrecision(8));
    if (!(rateReal > 0) || rateReal > MAX_RATE) return fail("Invalid offer: incorrect rate");
    const period = num(input["period"]);
    if (!Number.isInteger(period) || period < MIN_PERIOD || period > MAX_PERIOD)
      return fail(`Invalid offer: incorrect period, must be between ${MIN_PERIOD} and ${MAX_PERIOD} days`);
    const flags = input["flags"] === undefined ? 0 : num(input["flags"]);
    if (!Number.isInteger(flags) || flags < 0) return fail("flags: invalid", 10020);
    const currency = market.currency;
    const units = toUnits(amount);
    const w = this.#wallet(userId, currency);
    if (w.balance - w.reserved < units) return fail("Invalid offer: not enough balance");

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
    };
    this.db.transaction(() => {
      this.#reserve(userId, currency, units);
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
      row.status = row.remaining < row.amount_orig ? "CANCELED was: PARTIALLY FILLED" : "CANCELED";
      row.mts_update = this.now();
      this.#save(row);
      this.#rows.delete(row.id);
      this.#reserve(userId, row.symbol.slice(1), -row.remaining);
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

  // --- fills -----------------------------------------------------------------------------------

  #settle(b: FundingBatch): void {
    const mine = b.result.fills.filter((f) => this.#rows.has(f.maker.id) || this.#rows.has(f.taker.id));
    if (mine.length === 0) return;
    this.db.transaction(() => {
      for (const f of mine) {
        for (const o of [f.maker, f.taker]) {
          const row = this.#rows.get(o.id);
          if (row && row.user_id === o.owner) this.#fill(row, f, o === f.maker);
        }
      }
    })();
    this.#flush();
  }

  #fill(row: OfferRow, f: FundingFill, maker: boolean): void {
    const now = this.now();
    const units = toUnits(f.amount);
    row.remaining = Math.max(0, row.remaining - units);
    row.mts_update = now;
    const at = `at ${(f.rate * 100).toFixed(4)}% (${amountText(fromUnits(row.amount_orig - row.remaining))})`;
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
      .run(f.tradeId, row.user_id, row.symbol, row.id, now, units, f.rate, f.period, maker ? 1 : -1);
    const trade = fundingTradeCodec.encode({
      id: f.tradeId,
      symbol: row.symbol,
      mts_create: now,
      offer_id: row.id,
      amount: f.amount,
      rate: f.rate,
      period: f.period,
      maker: maker ? 1 : -1,
    });
    this.#emit(row.user_id, "fte", trade);
    this.#emit(row.user_id, "ftu", trade);
    this.#emit(row.user_id, row.open === 1 ? "fou" : "foc", this.#offerWire(row));
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
    };
    this.db
      .prepare(
        `INSERT INTO funding_credits (id, user_id, symbol, offer_id, amount, rate, period, status, position_pair, mts_create, mts_update, open)
         VALUES (@id, @user_id, @symbol, @offer_id, @amount, @rate, @period, @status, @position_pair, @mts_create, @mts_update, @open)`,
      )
      .run(credit);
    this.#emit(row.user_id, "fcn", this.#creditWire(credit));
    this.#nextExpiry = Math.min(this.#nextExpiry, credit.mts_create + credit.period * DAY);
  }

  // --- REST ------------------------------------------------------------------------------------

  /** The `/v2/auth/…/funding/…` routes; null for any other path. */
  handle(userId: number, path: string, body: Record<string, unknown>): FundingRestReply | null {
    const now = this.now();
    const err = (code: number, msg: string): FundingRestReply => ({ status: 500, body: ["error", code, msg] });
    const limit = Math.min(2500, Math.max(1, Number(body["limit"] ?? 25) || 25));
    let m: RegExpExecArray | null;
    if ((m = /^\/v2\/auth\/r\/funding\/offers(?:\/(f[A-Z0-9]+))?$/.exec(path)))
      return { status: 200, body: this.offersWire(userId, m[1] ?? null) };
    if ((m = /^\/v2\/auth\/r\/funding\/credits(?:\/(f[A-Z0-9]+))?$/.exec(path)))
      return { status: 200, body: this.creditsWire(userId, m[1] ?? null) };
    if (/^\/v2\/auth\/r\/funding\/loans(?:\/f[A-Z0-9]+)?(?:\/hist)?$/.test(path)) return { status: 200, body: [] };
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
    return null;
  }
}
