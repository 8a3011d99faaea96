/**
 * Perpetual derivatives traded by accounts (docs/product-rules.md#derivatives): what positions.ts
 * does not know about a perpetual. Its mark price is its spot index (the spot market it tracks, at
 * its last trade); each order's leverage is kept (`deriv_orders`) so a fill takes the position's
 * collateral at it; funding is paid on the exchange's clock between the positions and the
 * insurance fund, which stands for the simulated traders on the other side; a position whose mark
 * reaches its liquidation price is liquidated, the fund taking over what is left of its collateral
 * (or the loss beyond it). The fund's balance, the funding clock and every payment are in SQLite,
 * each funding event and each liquidation written in one transaction.
 *
 * The collateral calls are derivatives-api.ts; the public status row derived.ts builds from
 * `status` here.
 */
import {
  DEFAULT_LEVERAGE,
  DERIV_REFUSALS,
  SPAIN_DERIVATIVES_BLOCK_FROM,
  DERIV_FUNDING_CLAMP,
  DERIV_FUNDING_INTERVAL_MS,
  DERIV_FUNDING_STEPS,
  isDerivativeSymbol,
  spotIndexOf,
} from "../../src/protocol/index.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import type { AccountEvents } from "./events.ts";
import type { Batch, DerivativeFigures, DerivativeStatusFigures, Exchange } from "./exchange.ts";
import { Positions, type DerivativeMargin } from "./positions.ts";
import { price5, TAKER } from "./simulator.ts";

/** The insurance fund of a fresh database, per collateral currency (USTF0). */
export const INSURANCE_FUND_START = 1_000_000;
/** A position's record is pushed (`pu`, its P/L at the new mark) at most this often. */
const MARK_PUSH_MS = 1000;

/**
 * A place inside a transaction where the process kills itself (SIGKILL), for the crash tests:
 * `DERIV_CRASH_AT=funding` after the first payment of a funding event is written, `liquidation`
 * after a liquidation has closed the position but before the insurance fund takes it over. The
 * transaction never commits, so a restart must find the event or the liquidation not applied at all.
 */
export type CrashPoint = "funding" | "liquidation";

interface Accrual {
  /** Sum and count of the clamped premium samples since the last funding event. */
  sum: number;
  count: number;
  nextSample: number;
}

const round8 = (v: number): number => Math.round(v * 1e8) / 1e8;
const clamp = (v: number): number => Math.max(-DERIV_FUNDING_CLAMP, Math.min(DERIV_FUNDING_CLAMP, v));

export class Derivatives implements DerivativeMargin, DerivativeFigures {
  /** The funding interval (`DERIV_FUNDING_MS`; 8 hours by default). */
  fundingMs = DERIV_FUNDING_INTERVAL_MS;
  /** Test only: where to die mid-transaction (`DERIV_CRASH_AT`). */
  crashAt: CrashPoint | null = null;
  readonly #db: Db;
  readonly #ex: Exchange;
  readonly #positions: Positions;
  readonly #events: AccountEvents;
  readonly #now: () => number;
  readonly #leverage = new Map<number, number>();
  readonly #accrual = new Map<string, Accrual>();
  readonly #lastPush = new Map<number, number>();
  /** The listed perpetuals. */
  readonly perpetuals: readonly string[];

  constructor(db: Db, exchange: Exchange, positions: Positions, events: AccountEvents, now: () => number) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS deriv_orders (order_id INTEGER PRIMARY KEY, lev INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS deriv_insurance (currency TEXT PRIMARY KEY, balance INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS deriv_clock (symbol TEXT PRIMARY KEY, last_event INTEGER NOT NULL, rate REAL NOT NULL DEFAULT 0);
      CREATE TABLE IF NOT EXISTS deriv_funding (symbol TEXT NOT NULL, mts INTEGER NOT NULL, rate REAL NOT NULL,
        mark REAL NOT NULL, PRIMARY KEY (symbol, mts));
      CREATE TABLE IF NOT EXISTS deriv_funding_payments (symbol TEXT NOT NULL, mts INTEGER NOT NULL,
        position_id INTEGER NOT NULL, user_id INTEGER NOT NULL, amount INTEGER NOT NULL, PRIMARY KEY (symbol, mts, position_id));
    `);
    this.#db = db;
    this.#ex = exchange;
    this.#positions = positions;
    this.#events = events;
    this.#now = now;
    this.perpetuals = [...exchange.markets.keys()].filter(isDerivativeSymbol);
    positions.derivatives = this;
    exchange.derivatives = this;
    exchange.onBatch((b) => this.#marked(b));
  }

  // --- orders and marks --------------------------------------------------------------------

  remember(orderId: number, leverage: number): void {
    this.#db.prepare("INSERT OR REPLACE INTO deriv_orders (order_id, lev) VALUES (?, ?)").run(orderId, leverage);
    this.#leverage.set(orderId, leverage);
  }

  leverageOf(orderId: number): number {
    const known = this.#leverage.get(orderId);
    if (known !== undefined) return known;
    const row = this.#db.prepare("SELECT lev FROM deriv_orders WHERE order_id = ?").get(orderId) as
      { lev: number } | undefined;
    return row?.lev ?? DEFAULT_LEVERAGE;
  }

  /** The spot index's last trade; the perpetual's own last trade while its index has none. */
  mark(symbol: string): number | null {
    const index = spotIndexOf(symbol);
    const spot = index ? (this.#ex.markets.get(index)?.lastPrice() ?? null) : null;
    return spot ?? this.#ex.markets.get(symbol)?.lastPrice() ?? null;
  }

  /**
   * How far the perpetual trades above (positive) or below its mark, clamped: the mid of its book
   * (its last trade while a side is empty) over the mark, less one.
   */
  #premium(symbol: string): number | null {
    const market = this.#ex.markets.get(symbol);
    const mark = this.mark(symbol);
    if (!market || mark === null || !(mark > 0)) return null;
    const bid = market.engine.bestBid();
    const ask = market.engine.bestAsk();
    const price = bid !== undefined && ask !== undefined ? (bid + ask) / 2 : market.lastPrice();
    return price === null ? null : clamp(price / mark - 1);
  }

  // --- the status row ----------------------------------------------------------------------

  insuranceFund(currency: string): number {
    const row = this.#db.prepare("SELECT balance FROM deriv_insurance WHERE currency = ?").get(currency) as
      { balance: number } | undefined;
    return row?.balance ?? toUnits(INSURANCE_FUND_START);
  }

  #addToFund(currency: string, units: number): void {
    this.#db
      .prepare(
        "INSERT INTO deriv_insurance (currency, balance) VALUES (?, ?) ON CONFLICT(currency) DO UPDATE SET balance = balance + ?",
      )
      .run(currency, toUnits(INSURANCE_FUND_START) + units, units);
  }

  #clock(symbol: string): { last_event: number; rate: number } | undefined {
    return this.#db.prepare("SELECT last_event, rate FROM deriv_clock WHERE symbol = ?").get(symbol) as
      { last_event: number; rate: number } | undefined;
  }

  /** The funding rate due at the next event: the average of this interval's samples (now's premium before any). */
  accrued(symbol: string): number | null {
    const a = this.#accrual.get(symbol);
    return a && a.count > 0 ? round8(clamp(a.sum / a.count)) : this.#premium(symbol);
  }

  status(symbol: string, now: number): DerivativeStatusFigures | null {
    const mark = this.mark(symbol);
    const currency = Positions.collateralOf(symbol);
    if (mark === null || currency === null) return null;
    const last = this.#clock(symbol);
    const openInterest = this.#positions.openOn(symbol).reduce((n, r) => n + Math.abs(r.amount), 0);
    const boundary = Math.floor(now / this.fundingMs) * this.fundingMs;
    return {
      markPrice: mark,
      insuranceFundBalance: fromUnits(this.insuranceFund(currency)),
      nextFundingEvtMts: Math.max(boundary, last?.last_event ?? boundary) + this.fundingMs,
      fundingAccruedNext: round8(this.accrued(symbol) ?? 0),
      fundingStep: this.#accrual.get(symbol)?.count ?? 0,
      fundingAccruedCurrent: round8(last?.rate ?? 0),
      openInterest: fromUnits(openInterest),
      clampMin: -DERIV_FUNDING_CLAMP,
      clampMax: DERIV_FUNDING_CLAMP,
    };
  }

  // --- the funding clock -------------------------------------------------------------------

  /**
   * The clock (the host's timer; tests call it after moving theirs): samples the premium every
   * interval / DERIV_FUNDING_STEPS, and pays each funding event when its time has come. Events
   * fall on whole multiples of the interval; one that passed while the exchange was stopped is paid
   * at the first tick after the restart (only the latest: those before it lapse).
   */
  tick(): void {
    const now = this.#now();
    const boundary = Math.floor(now / this.fundingMs) * this.fundingMs;
    for (const symbol of this.perpetuals) {
      const clock = this.#clock(symbol);
      if (!clock) {
        // A perpetual's first tick starts its clock: nothing has accrued before it to pay.
        this.#db.prepare("INSERT INTO deriv_clock (symbol, last_event, rate) VALUES (?, ?, 0)").run(symbol, boundary);
      } else if (boundary > clock.last_event) this.#fund(symbol, boundary);
      this.#sample(symbol, now);
    }
  }

  #sample(symbol: string, now: number): void {
    const a = this.#accrual.get(symbol) ?? { sum: 0, count: 0, nextSample: now };
    this.#accrual.set(symbol, a);
    if (now < a.nextSample) return;
    const premium = this.#premium(symbol);
    if (premium !== null) {
      a.sum += premium;
      a.count += 1;
    }
    a.nextSample = now + this.fundingMs / DERIV_FUNDING_STEPS;
  }

  /**
   * A funding event (one transaction): every open position on the perpetual pays or receives
   * amount × mark × rate — a long pays a positive rate, a short receives it — and the insurance
   * fund takes the other side of what moved. Then the next interval accrues from nothing.
   */
  #fund(symbol: string, mts: number, scheduled = true): void {
    const rate = this.accrued(symbol) ?? 0;
    const mark = this.mark(symbol);
    const currency = Positions.collateralOf(symbol) as string;
    this.#events.atomically(() => {
      let net = 0;
      let paid = 0;
      if (mark !== null)
        for (const r of this.#positions.openOn(symbol)) {
          const owed = Math.round(fromUnits(r.amount) * mark * rate * 1e8);
          if (owed === 0) continue;
          const text = `Position #${r.id} ${symbol.slice(1)} funding ${owed > 0 ? "cost" : "payment"} @ ${mark} (rate ${rate})`;
          const moved = this.#positions.payFunding(r, -owed, text);
          this.#db
            .prepare(
              "INSERT INTO deriv_funding_payments (symbol, mts, position_id, user_id, amount) VALUES (?, ?, ?, ?, ?)",
            )
            .run(symbol, mts, r.id, r.user_id, moved);
          net += moved;
          if (++paid === 1 && this.crashAt === "funding") process.kill(process.pid, "SIGKILL");
        }
      this.#addToFund(currency, -net);
      this.#db
        .prepare("INSERT INTO deriv_funding (symbol, mts, rate, mark) VALUES (?, ?, ?, ?)")
        .run(symbol, mts, rate, mark ?? 0);
      if (scheduled)
        this.#db.prepare("UPDATE deriv_clock SET last_event = ?, rate = ? WHERE symbol = ?").run(mts, rate, symbol);
      else this.#db.prepare("UPDATE deriv_clock SET rate = ? WHERE symbol = ?").run(rate, symbol);
    });
    this.#accrual.delete(symbol);
  }

  /**
   * A funding event now, off the clock (the development endpoint `POST /dev/deriv/funding`): paid
   * as a scheduled one, at the rate accrued so far; the clock's next event stays where it was.
   * False for a symbol that is not a listed perpetual.
   */
  fundNow(symbol: string): boolean {
    if (!this.perpetuals.includes(symbol)) return false;
    const now = this.#now();
    const clock = this.#clock(symbol);
    if (!clock)
      this.#db
        .prepare("INSERT INTO deriv_clock (symbol, last_event, rate) VALUES (?, ?, 0)")
        .run(symbol, Math.floor(now / this.fundingMs) * this.fundingMs);
    // Two events at the same millisecond would be one row: the second waits a millisecond.
    const taken = this.#db.prepare("SELECT 1 FROM deriv_funding WHERE symbol = ? AND mts = ?").get(symbol, now);
    this.#fund(symbol, taken ? now + 1 : now, false);
    return true;
  }

  // --- marking and liquidation -------------------------------------------------------------

  /**
   * After a batch on a perpetual or on the spot market it tracks: every position there whose mark
   * reached its liquidation price is liquidated, and the others' records pushed (at most once a
   * second each) with their P/L at the new mark.
   */
  #marked(b: Batch): void {
    if (b.trades.length === 0) return;
    const moved = b.market.symbol;
    for (const symbol of this.perpetuals) {
      if (symbol !== moved && spotIndexOf(symbol) !== moved) continue;
      const open = this.#positions.openOn(symbol);
      if (open.length === 0) continue;
      const now = this.#now();
      this.#events.atomically(() => {
        for (const r of open) {
          if (this.#positions.belowMaintenance(r)) this.#liquidate(r);
          else if (now - (this.#lastPush.get(r.id) ?? 0) >= MARK_PUSH_MS) {
            this.#lastPush.set(r.id, now);
            this.#positions.touch(r);
          }
        }
      });
    }
  }

  /** One liquidation, in one transaction: the position closed, the insurance fund taking it over. */
  #liquidate(r: Parameters<Positions["liquidateIsolated"]>[0]): void {
    const currency = Positions.collateralOf(r.symbol) as string;
    this.#events.atomically(() => {
      const taken = this.#positions.liquidateIsolated(r);
      if (this.crashAt === "liquidation") process.kill(process.pid, "SIGKILL");
      this.#addToFund(currency, taken);
      this.#lastPush.delete(r.id);
    });
  }
}

/**
 * Why an account may not open a derivative position, or null: residents of Spain are refused from
 * the date the rule took effect (docs/product-rules.md#derivatives), as declared in their
 * verification (the residence country of their KYC submission).
 */
export function derivativesRefusal(db: Db, userId: number, now: number): string | null {
  if (now < SPAIN_DERIVATIVES_BLOCK_FROM) return null;
  const row = db.prepare("SELECT data FROM kyc_submissions WHERE user_id = ?").get(userId) as
    { data: string } | undefined;
  if (!row) return null;
  let country: unknown = null;
  try {
    country = (JSON.parse(row.data) as Record<string, unknown>)["resid_country"];
  } catch {
    // Unreadable data declares no residence.
  }
  return country === "ES" ? DERIV_REFUSALS.spain : null;
}

/**
 * For the development endpoint `POST /dev/price` (server/README.md): moves a simulated spot market
 * to `price` — its simulated quotes withdrawn and placed again around the new mid, and a trade
 * printed there — and every perpetual tracking it by the same ratio, so their mark and their
 * positions follow (a liquidation can be provoked). Null when the symbol is not a listed spot
 * market with a price.
 */
export function moveMarket(ex: Exchange, symbol: string, price: number): { symbol: string; price: number }[] | null {
  const market = ex.markets.get(symbol);
  const last = market?.lastPrice() ?? null;
  if (!market || isDerivativeSymbol(symbol) || last === null || !(price > 0) || !Number.isFinite(price)) return null;
  const ratio = price / last;
  const moved: { symbol: string; price: number }[] = [];
  const followers = [...ex.markets.keys()].filter((s) => spotIndexOf(s) === symbol);
  for (const s of [symbol, ...followers]) {
    const to = s === symbol ? price5(price) : price5((ex.markets.get(s)?.lastPrice() ?? price) * ratio);
    ex.simulator.recentre(s, to);
    // A small print at the new price: the tape, the ticker and the marks move to it at once.
    ex.printTrade(s, TAKER, to, ratio >= 1 ? 0.001 : -0.001);
    moved.push({ symbol: s, price: to });
  }
  return moved;
}
