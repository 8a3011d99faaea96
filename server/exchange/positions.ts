/**
 * Margin positions on the embedded exchange. Margin orders (the bare types: LIMIT, MARKET, STOP, …)
 * trade against the `margin` wallet of the pair's quote currency, netted into one position per
 * account and symbol: a buy against a short reduces it, a fill larger than the position flips it.
 *
 * Margin model (cross margin per quote currency, values like Bitfinex's 10x pairs):
 * - initial margin 10 % of the opening notional is reserved from the margin wallet as the
 *   position's collateral (leverage 10x); an order reserves it (plus the taker fee) when placed;
 * - maintenance margin 5 %: when the wallet balance plus the unrealized P/L of the currency's
 *   positions falls below 5 % of their marked notional, the worst position is liquidated at the
 *   mark (the last trade price) — status LIQUIDATED, a row on `liq:global`;
 * - realized P/L settles into the margin wallet on every reduce/close; a loss never takes the
 *   wallet below zero (nor below what open orders and other positions hold).
 * Every change happens inside the transaction of the order or fill that caused it (events.ts), its
 * wallet moves through balances.ts. The REST calls and `calc` records are margin-api.ts.
 *
 * One file over the usual size because it is one model: opening, settling, valuing (P/L, the
 * liquidation price, margin info) and liquidating positions use the same margin arithmetic over
 * the same open positions, and each would otherwise reach into the others' state.
 */
import {
  balanceCodec,
  DEFAULT_LEVERAGE,
  DERIV_MAINTENANCE_MARGIN,
  derivLiquidationPrice,
  encodeMarginInfo,
  isDerivativeSymbol,
  LEVERAGE_MAX,
  encodePositionIncreaseInfo,
  ORDER_FLAGS,
  parseSymbol,
  positionCodec,
  TAKER_FEE_RATE,
  type Position,
  type WalletType,
} from "../../src/protocol/index.ts";
import { addColumns, fromUnits, nextIdFrom, toUnits, type Db } from "../store/db.ts";
import { fxRate, settlementPrice } from "./derived.ts";
import type { Batch, Exchange } from "./exchange.ts";
import type { Side } from "./engine.ts";
import type { Balances } from "./balances.ts";
import type { AccountEvents } from "./events.ts";
import { migratePositionHistory } from "./position-history.ts";
import { isPaperAccount } from "./paper-accounts.ts";
import { marginRefusal } from "./verification.ts";

/** How far from the mid the book's depth counts toward the most an increase may add. */
const INCREASE_DEPTH_BAND = 0.02;

export const INITIAL_MARGIN = 0.1;
export const MAINTENANCE_MARGIN = 0.05;
/** Reserved with the margin for the fee: the taker rate, the most a fill can cost. */
export const FEE_RESERVE = TAKER_FEE_RATE;
/** Mark-to-market `pu` at most this often per position (about the ticker's rate). */
export const MARK_INTERVAL_MS = 1000;

export interface PositionRow {
  id: number;
  user_id: number;
  symbol: string;
  status: string;
  /** Signed, units of 1e-8: positive long, negative short. */
  amount: number;
  base_price: number;
  /** Units of the quote currency reserved in the margin wallet. */
  collateral: number;
  /** Interest its loans have charged, units of the quote currency (funding-loans.ts). */
  swap: number;
  /** The largest size it reached, signed, units of 1e-8: what a closed one reports (position-history.ts). */
  peak: number;
  /** P/L settled into the margin wallet so far, units of the quote currency. */
  pl_realized: number;
  mts_create: number;
  mts_update: number;
  open: number;
}

/**
 * What backs positions with funding (funding-loans.ts): told of every change of an open position's
 * size and of its close, inside the transaction that made it.
 */
export interface PositionFunding {
  /** The position opened, grew, shrank or flipped: borrow or repay to match its need. */
  resized(pos: PositionRow): void;
  /** The position is about to close (closed, liquidated, claimed): its loans are repaid. */
  closed(pos: PositionRow): void;
  /** Interest accrued and not yet charged, units of the position's quote currency. */
  accrued(pos: PositionRow): number;
}

/**
 * The perpetuals' side of the model (derivatives.ts, attached by venue.ts). A derivative position
 * (docs/product-rules.md#derivatives) is isolated: its own collateral, reserved in the derivatives
 * wallet (`margin`, USTF0) at the leverage of the orders that opened it, valued at the mark price
 * of its spot index, liquidated on its own — outside the cross margin of the margin pairs, and
 * never backed by funding loans.
 */
export interface DerivativeMargin {
  /** The mark price a perpetual's positions are valued at. */
  mark(symbol: string): number | null;
  /** Stores the leverage an order on a perpetual is placed with (inside its transaction). */
  remember(orderId: number, leverage: number): void;
  /** The leverage an order on a perpetual was placed with. */
  leverageOf(orderId: number): number;
}

export type Prepared =
  | { readonly ok: true; readonly size: number; readonly side: Side; readonly reserve: number }
  | { readonly ok: false; readonly msg: string };

const round8 = (v: number): number => Math.round(v * 1e8) / 1e8;

export class Positions {
  readonly #db: Db;
  readonly #ex: Exchange;
  readonly #now: () => number;
  readonly #balances: Balances;
  readonly #events: AccountEvents;
  readonly #nextId: () => number;
  /** Open positions by `${userId}|${symbol}`. */
  readonly #open = new Map<string, PositionRow>();
  readonly #lastMark = new Map<number, number>();
  /** Funding behind the positions (venue.ts attaches it; without it positions borrow nothing). */
  funding: PositionFunding | null = null;
  /** Told when a position shrank or went outside trading (reduce-only orders may now be too large). */
  shrank: (symbol: string) => void = () => {};
  /** The perpetuals' mark prices and orders' leverage (venue.ts attaches derivatives.ts). */
  derivatives: DerivativeMargin | null = null;

  constructor(db: Db, exchange: Exchange, now: () => number, balances: Balances, events: AccountEvents) {
    addColumns(db, [
      ["positions", "swap", "INTEGER NOT NULL DEFAULT 0"],
      ["positions", "peak", "INTEGER NOT NULL DEFAULT 0"],
      ["positions", "pl_realized", "INTEGER NOT NULL DEFAULT 0"],
    ]);
    migratePositionHistory(db);
    this.#db = db;
    this.#ex = exchange;
    this.#now = now;
    this.#balances = balances;
    this.#events = events;
    this.#nextId = nextIdFrom(db, "position", 0);
    exchange.liquidations.persist(db);
    const rows = db.prepare("SELECT * FROM positions WHERE open = 1").all() as PositionRow[];
    for (const r of rows) this.#open.set(`${r.user_id}|${r.symbol}`, r);
  }

  static quoteOf(symbol: string): string | null {
    const info = parseSymbol(symbol);
    return info && info.kind === "trading" && !info.derivative ? info.quote : null;
  }

  /** The currency a position's collateral is held in: the quote, for margin pairs and perpetuals alike. */
  static collateralOf(symbol: string): string | null {
    const info = parseSymbol(symbol);
    return info && info.kind === "trading" ? info.quote : null;
  }

  /** The open positions on one symbol (derivatives.ts marks, funds and liquidates a perpetual's). */
  openOn(symbol: string): PositionRow[] {
    return [...this.#open.values()].filter((r) => r.symbol === symbol);
  }

  get(userId: number, symbol: string): PositionRow | undefined {
    return this.#open.get(`${userId}|${symbol}`);
  }

  openOf(userId: number): PositionRow[] {
    return [...this.#open.values()].filter((r) => r.user_id === userId);
  }

  /** The margin wallet's balance of a currency, units. */
  marginBalance(userId: number, currency: string): number {
    return this.#balances.wallet(userId, "margin", currency).balance;
  }

  /** Interest charged for the position's loans (units of its quote currency). */
  addSwap(pos: PositionRow, units: number): void {
    pos.swap += units;
    this.#save(pos);
  }

  /** Sends the position's current record (after a change its funding made). */
  touch(pos: PositionRow): void {
    if (pos.open === 1) this.#events.emit(pos.user_id, "pu", this.wire(pos));
  }

  /** The margin wallet's free balance of a currency, units. */
  #free(userId: number, currency: string): number {
    return this.#balances.available(userId, "margin", currency);
  }

  /** A margin pair's mark is its last trade; a perpetual's its mark price (derivatives.ts). */
  #mark(symbol: string): number | null {
    if (this.derivatives && isDerivativeSymbol(symbol)) return this.derivatives.mark(symbol);
    return this.#ex.markets.get(symbol)?.lastPrice() ?? null;
  }

  /** A changed position's loans follow its size; a derivative position borrows nothing. */
  #resized(pos: PositionRow): void {
    if (!isDerivativeSymbol(pos.symbol)) this.funding?.resized(pos);
  }

  /**
   * Order entry: the reduce-only (1024) and close (512) rules, and what the order reserves in the
   * margin wallet — initial margin on the part that would open or increase the position, plus the
   * taker fee on all of it. `price` is the limit, or an estimate for market and stop orders;
   * `already` what the order reserves now (an update). On a perpetual the initial margin is one
   * over the order's `leverage`, reserved in the derivatives wallet.
   */
  prepare(
    userId: number,
    symbol: string,
    amount: number,
    price: number,
    flags: number,
    already = 0,
    leverage = DEFAULT_LEVERAGE,
  ): Prepared {
    const derivative = isDerivativeSymbol(symbol);
    const quote = derivative ? Positions.collateralOf(symbol) : Positions.quoteOf(symbol);
    if (!quote) return { ok: false, msg: "Invalid order: symbol" };
    const initial = derivative ? 1 / leverage : INITIAL_MARGIN;
    const pos = this.get(userId, symbol);
    const held = pos ? fromUnits(pos.amount) : 0;
    let signed = amount;
    const close = (flags & ORDER_FLAGS.CLOSE) !== 0;
    const reduceOnly = close || (flags & ORDER_FLAGS.REDUCE_ONLY) !== 0;
    if (close) {
      if (held === 0) return { ok: false, msg: "Invalid order: no position to close" };
      // The close flag closes the whole position whatever the amount says, in the closing direction.
      signed = -held;
    }
    if (reduceOnly && (held === 0 || Math.sign(signed) === Math.sign(held) || Math.abs(signed) > Math.abs(held) + 1e-9))
      return { ok: false, msg: "Invalid order: reduce-only order would increase the position" };
    const size = round8(Math.abs(signed));
    const closing = Math.sign(signed) === -Math.sign(held) ? Math.min(size, Math.abs(held)) : 0;
    const opening = size - closing;
    const reserve = toUnits(opening * price * initial + size * price * FEE_RESERVE);
    if (this.#free(userId, quote) + already < reserve)
      return {
        ok: false,
        msg: `Invalid order: not enough tradable balance for ${signed} ${symbol} at ${price}`,
      };
    return { ok: true, size, side: signed > 0 ? "buy" : "sell", reserve };
  }

  /**
   * A margin fill: `base` signed units, `fee` units of quote paid, `released` what the order had
   * reserved for this part, `orderId` the order filled (a perpetual's collateral is taken at its
   * leverage). Runs inside settlement's transaction (settlement.ts).
   */
  fill(
    userId: number,
    symbol: string,
    base: number,
    price: number,
    fee: number,
    released: number,
    orderId?: number,
  ): void {
    const derivative = isDerivativeSymbol(symbol);
    const quote = derivative ? Positions.collateralOf(symbol) : Positions.quoteOf(symbol);
    if (!quote || base === 0) return;
    const leverage =
      derivative && orderId !== undefined && this.derivatives ? this.derivatives.leverageOf(orderId) : DEFAULT_LEVERAGE;
    if (released > 0) this.#balances.move(userId, "margin", quote, 0, -released, null);
    this.#applyFill(userId, symbol, quote, base, price, fee, derivative ? 1 / leverage : INITIAL_MARGIN);
    if (!derivative) this.#emitMargin(userId, symbol);
  }

  #applyFill(
    userId: number,
    symbol: string,
    quote: string,
    base: number,
    price: number,
    fee: number,
    initial = INITIAL_MARGIN,
  ): void {
    const free = (): number => this.#free(userId, quote);
    const pay = Math.min(fee, Math.max(0, free()));
    const qty = fromUnits(Math.abs(base));
    if (pay > 0)
      this.#balances.move(
        userId,
        "margin",
        quote,
        -pay,
        0,
        `Trading fees for ${qty} ${symbol.slice(1)} (margin) @ ${price}`,
      );
    const now = this.#now();
    let pos = this.get(userId, symbol);
    let left = base;
    if (pos && Math.sign(pos.amount) === -Math.sign(base)) {
      const closed = Math.min(Math.abs(base), Math.abs(pos.amount));
      const share = closed / Math.abs(pos.amount);
      const colRel = Math.round(pos.collateral * share);
      const pl = Math.round(fromUnits(closed) * (price - pos.base_price) * Math.sign(pos.amount) * 1e8);
      this.#balances.move(userId, "margin", quote, 0, -colRel, null);
      pos.collateral -= colRel;
      this.#settlePl(userId, quote, pl, pos, price);
      pos.amount += Math.sign(base) * closed;
      left = base - Math.sign(base) * closed;
      pos.mts_update = now;
      if (pos.amount === 0) {
        this.#close(pos, "CLOSED");
        pos = undefined;
      } else {
        this.#save(pos);
        this.#resized(pos);
        this.#events.emit(userId, "pu", this.wire(pos));
      }
    }
    if (left === 0) return;
    const take = Math.min(Math.round(fromUnits(Math.abs(left)) * price * initial * 1e8), Math.max(0, free()));
    if (take > 0) this.#balances.move(userId, "margin", quote, 0, take, null);
    if (pos) {
      const total = Math.abs(pos.amount) + Math.abs(left);
      pos.base_price = (Math.abs(pos.amount) * pos.base_price + Math.abs(left) * price) / total;
      pos.amount += left;
      if (Math.abs(pos.amount) > Math.abs(pos.peak)) pos.peak = pos.amount;
      pos.collateral += take;
      pos.mts_update = now;
      this.#save(pos);
      this.#resized(pos);
      this.#events.emit(userId, "pu", this.wire(pos));
    } else {
      const row: PositionRow = {
        id: this.#nextId(),
        user_id: userId,
        symbol,
        status: "ACTIVE",
        amount: left,
        base_price: price,
        collateral: take,
        swap: 0,
        peak: left,
        pl_realized: 0,
        mts_create: now,
        mts_update: now,
        open: 1,
      };
      this.#open.set(`${userId}|${symbol}`, row);
      this.#save(row);
      this.#resized(row);
      this.#events.emit(userId, "pn", this.wire(row));
    }
  }

  /** Realized P/L into the margin wallet: a loss takes at most what is free there. */
  #settlePl(userId: number, quote: string, pl: number, pos: PositionRow, price: number): void {
    if (pl === 0) return;
    const text = `Position #${pos.id} ${pos.symbol.slice(1)} P/L @ ${price}`;
    if (pl > 0) {
      this.#balances.move(userId, "margin", quote, pl, 0, text);
      pos.pl_realized += pl;
    } else {
      const x = this.#balances.wallet(userId, "margin", quote);
      const loss = Math.min(-pl, Math.max(0, x.balance - x.reserved));
      if (loss > 0) this.#balances.move(userId, "margin", quote, -loss, 0, text);
      pos.pl_realized -= loss;
    }
  }

  #close(pos: PositionRow, status: "CLOSED" | "LIQUIDATED"): void {
    // Loans first: their last interest is part of what the closed position reports.
    this.funding?.closed(pos);
    if (pos.collateral > 0) {
      this.#balances.move(
        pos.user_id,
        "margin",
        Positions.collateralOf(pos.symbol) as string,
        0,
        -pos.collateral,
        null,
      );
      pos.collateral = 0;
    }
    pos.status = status;
    pos.open = 0;
    pos.mts_update = this.#now();
    this.#open.delete(`${pos.user_id}|${pos.symbol}`);
    this.#lastMark.delete(pos.id);
    this.#save(pos);
    this.#events.emit(pos.user_id, "pc", this.wire(pos));
  }

  #save(r: PositionRow): void {
    this.#db
      .prepare(
        `INSERT INTO positions (id, user_id, symbol, status, amount, base_price, collateral, swap, peak, pl_realized, mts_create, mts_update, open)
         VALUES (@id, @user_id, @symbol, @status, @amount, @base_price, @collateral, @swap, @peak, @pl_realized, @mts_create, @mts_update, @open)
         ON CONFLICT(id) DO UPDATE SET status = excluded.status, amount = excluded.amount, base_price = excluded.base_price,
           collateral = excluded.collateral, swap = excluded.swap, peak = excluded.peak, pl_realized = excluded.pl_realized,
           mts_update = excluded.mts_update, open = excluded.open`,
      )
      .run(r);
  }

  // --- valuation -----------------------------------------------------------------------------

  #pl(r: PositionRow, mark: number | null): number {
    return mark === null ? 0 : fromUnits(r.amount) * (mark - r.base_price);
  }

  #ofCurrency(userId: number, quote: string): PositionRow[] {
    return [...this.#open.values()].filter((r) => r.user_id === userId && Positions.quoteOf(r.symbol) === quote);
  }

  /**
   * The unrealized P/L and the maintenance requirement of a user's positions in `quote` (`except`
   * left out), each marked at its last price (or its base price before the market has traded).
   */
  #exposure(userId: number, quote: string, except?: PositionRow): { pl: number; req: number } {
    let pl = 0;
    let req = 0;
    for (const o of this.#ofCurrency(userId, quote)) {
      if (o === except) continue;
      const m = this.#mark(o.symbol) ?? o.base_price;
      pl += this.#pl(o, m);
      req += Math.abs(fromUnits(o.amount)) * m * MAINTENANCE_MARGIN;
    }
    return { pl, req };
  }

  /** The mark at which this position's currency would reach maintenance, the others' marks fixed. */
  #liqPrice(r: PositionRow): number | null {
    if (isDerivativeSymbol(r.symbol))
      return derivLiquidationPrice(fromUnits(r.amount), r.base_price, fromUnits(r.collateral));
    const quote = Positions.quoteOf(r.symbol) as string;
    const balance = fromUnits(this.#balances.wallet(r.user_id, "margin", quote).balance);
    const { pl: otherPl, req: otherReq } = this.#exposure(r.user_id, quote, r);
    const a = fromUnits(r.amount);
    if (a === 0) return null;
    // balance + otherPl + a·(L − base) = |a|·L·MM + otherReq, solved for L.
    const l = (a * r.base_price + otherReq - balance - otherPl) / (a * (1 - Math.sign(a) * MAINTENANCE_MARGIN));
    return l > 0 && Number.isFinite(l) ? Number(l.toPrecision(8)) : 0;
  }

  wire(r: PositionRow): unknown[] {
    const active = r.open === 1;
    const mark = this.#mark(r.symbol);
    const amount = fromUnits(r.amount);
    const pl = active ? round8(this.#pl(r, mark)) : 0;
    const notional = Math.abs(amount) * r.base_price;
    const collateral = fromUnits(r.collateral);
    const derivative = isDerivativeSymbol(r.symbol);
    const limits = active && derivative ? this.collateralLimits(r) : null;
    const p: Position = {
      pair: r.symbol,
      status: r.status,
      amount: active ? amount : 0,
      basePrice: r.base_price,
      // A cost, so negative: what the loans charged plus what they have accrued since.
      swap: 0 - round8(fromUnits(r.swap + (active ? (this.funding?.accrued(r) ?? 0) : 0))),
      swapType: 0,
      pl,
      plPercent: active && notional > 0 ? Number(((pl / notional) * 100).toFixed(4)) : 0,
      liqPrice: active ? this.#liqPrice(r) : null,
      leverage: active && collateral > 0 ? Number((notional / collateral).toFixed(4)) : null,
      id: r.id,
      mtsCreate: r.mts_create,
      mtsUpdate: r.mts_update,
      posType: derivative ? 1 : 0,
      collateral,
      minCollateral: limits
        ? fromUnits(limits.min)
        : active && mark !== null
          ? round8(Math.abs(amount) * mark * MAINTENANCE_MARGIN)
          : 0,
      maxCollateral: limits ? fromUnits(limits.max) : null,
    };
    return positionCodec.encode(p);
  }

  /**
   * What a derivative position's collateral may be set to, units: at least 1/100 of its notional at
   * the mark (the highest leverage) plus its unrealized loss — so a position never sets itself within
   * reach of its liquidation — and at most what it holds plus the derivatives wallet's free balance.
   */
  collateralLimits(r: PositionRow): { min: number; max: number } {
    const mark = this.#mark(r.symbol) ?? r.base_price;
    const notional = Math.abs(fromUnits(r.amount)) * mark;
    const loss = Math.max(0, -this.#pl(r, mark));
    const min = Math.ceil((notional / LEVERAGE_MAX + loss) * 1e8);
    const free = Math.max(0, this.#free(r.user_id, Positions.collateralOf(r.symbol) as string));
    return { min, max: Math.max(min, r.collateral + free) };
  }

  /** Sets a derivative position's collateral (derivatives.ts checked it against its limits), units. */
  setCollateral(r: PositionRow, units: number): void {
    this.#events.atomically(() => {
      this.#balances.move(
        r.user_id,
        "margin",
        Positions.collateralOf(r.symbol) as string,
        0,
        units - r.collateral,
        null,
      );
      r.collateral = units;
      r.mts_update = this.#now();
      this.#save(r);
      this.#events.emit(r.user_id, "pu", this.wire(r));
    });
  }

  /**
   * A funding payment on a derivative position (derivatives.ts), `units` received (positive) or
   * owed (negative), with its ledger text. What is owed comes out of the derivatives wallet's free
   * balance first, then out of the position's collateral; never more than both (the insurance fund
   * stands for the rest). Returns the units that moved, signed. Inside the caller's transaction.
   */
  payFunding(r: PositionRow, units: number, text: string): number {
    const quote = Positions.collateralOf(r.symbol) as string;
    let moved = units;
    if (units > 0) this.#balances.move(r.user_id, "margin", quote, units, 0, text);
    else if (units < 0) {
      const free = Math.max(0, this.#free(r.user_id, quote));
      const fromCollateral = Math.min(r.collateral, Math.max(0, -units - free));
      const paid = Math.min(-units, free + fromCollateral);
      if (fromCollateral > 0) {
        this.#balances.move(r.user_id, "margin", quote, 0, -fromCollateral, null);
        r.collateral -= fromCollateral;
      }
      if (paid > 0) this.#balances.move(r.user_id, "margin", quote, -paid, 0, text);
      moved = -paid;
    }
    // The position's MARGIN_FUNDING carries the funding it has paid (positive) or received, as
    // Bitfinex's derivative positions do: the desk shows it on the row and in the status widget.
    r.swap -= moved;
    r.mts_update = this.#now();
    this.#save(r);
    this.#events.emit(r.user_id, "pu", this.wire(r));
    return moved;
  }

  /** Whether a derivative position's mark has reached its liquidation price. */
  belowMaintenance(r: PositionRow): boolean {
    const mark = this.#mark(r.symbol);
    if (mark === null || r.open !== 1) return false;
    const equity = fromUnits(r.collateral) + this.#pl(r, mark);
    return equity < Math.abs(fromUnits(r.amount)) * mark * DERIV_MAINTENANCE_MARGIN;
  }

  /**
   * Liquidates a derivative position at its mark (inside the caller's transaction): the whole
   * collateral leaves the derivatives wallet, the position closes LIQUIDATED, a row goes to
   * `liq:global`. Returns what the insurance fund takes over, units: the collateral plus the
   * position's P/L at the mark — a gain while the collateral covered the loss, a loss beyond it.
   */
  liquidateIsolated(r: PositionRow): number {
    const mark = this.#mark(r.symbol) ?? r.base_price;
    const quote = Positions.collateralOf(r.symbol) as string;
    const liqPrice = this.#liqPrice(r);
    const amount = fromUnits(r.amount);
    const pl = Math.round(amount * (mark - r.base_price) * 1e8);
    const collateral = r.collateral;
    if (collateral > 0)
      this.#balances.move(
        r.user_id,
        "margin",
        quote,
        -collateral,
        -collateral,
        `Position #${r.id} ${r.symbol.slice(1)} liquidated @ ${mark}`,
      );
    r.collateral = 0;
    r.pl_realized -= collateral;
    this.#close(r, "LIQUIDATED");
    this.shrank(r.symbol);
    this.#publishLiquidation(r, amount, liqPrice);
    return collateral + pl;
  }

  /** The `ps` snapshot and REST `r/positions`: the open positions. */
  wireAll(userId: number): unknown[][] {
    return [...this.#open.values()].filter((r) => r.user_id === userId).map((r) => this.wire(r));
  }

  /** `miu` base: [USER_PL, USER_SWAPS, MARGIN_BALANCE, MARGIN_NET, MARGIN_MIN] in USD. */
  marginBase(userId: number, quote = "USD"): unknown[] {
    const balance = fromUnits(this.#balances.wallet(userId, "margin", quote).balance);
    const { pl, req } = this.#exposure(userId, quote);
    let swaps = 0;
    for (const r of this.#ofCurrency(userId, quote)) swaps -= fromUnits(r.swap + (this.funding?.accrued(r) ?? 0));
    return encodeMarginInfo({
      kind: "base",
      pl: round8(pl),
      swap: round8(swaps),
      balance: round8(balance),
      net: round8(balance + pl),
      required: round8(req),
    });
  }

  /**
   * What may leave a wallet of `currency` (a withdrawal, a transfer, a conversion), units. Outside
   * margin it is the balance less what orders reserve; in margin the open positions' unrealized
   * loss in that currency comes off too (the free amount margin info shows): otherwise collateral
   * backing a losing position could leave, and the loss beyond what stays is never collected
   * (`#settlePl` takes at most what is free).
   */
  spendable(userId: number, wallet: WalletType, currency: string): number {
    const available = this.#balances.available(userId, wallet, currency);
    if (wallet !== "margin") return available;
    let pl = 0;
    for (const r of this.#ofCurrency(userId, currency)) pl += this.#pl(r, this.#mark(r.symbol));
    // A loss rounds up to the next unit: what stays behind must cover all of it.
    return Math.max(0, available - (pl < 0 ? Math.ceil(-pl * 1e8) : 0));
  }

  /** `miu` sym: [TRADABLE_BALANCE, GROSS_BALANCE, BUY, SELL] (buy/sell in base, closing included). */
  marginSym(userId: number, symbol: string): unknown[] | null {
    const quote = Positions.quoteOf(symbol);
    const market = this.#ex.markets.get(symbol);
    if (!quote || !market) return null;
    const w = this.#balances.wallet(userId, "margin", quote);
    let pl = 0;
    for (const r of this.#ofCurrency(userId, quote)) pl += this.#pl(r, this.#mark(r.symbol));
    const free = Math.max(0, fromUnits(w.balance - w.reserved) + Math.min(0, pl));
    const tradable = free / (INITIAL_MARGIN + FEE_RESERVE);
    const held = fromUnits(this.get(userId, symbol)?.amount ?? 0);
    const ask = market.engine.bestAsk() ?? market.lastPrice();
    const bid = market.engine.bestBid() ?? market.lastPrice();
    const buy = (ask ? tradable / ask : 0) + Math.max(0, -held);
    const sell = (bid ? tradable / bid : 0) + Math.max(0, held);
    return encodeMarginInfo({
      kind: "sym",
      symbol,
      net: round8(tradable),
      gross: round8(fromUnits(w.balance) + pl),
      buy: round8(buy),
      sell: round8(sell),
    });
  }

  /**
   * Margin info pushed without a `calc` (after auth, and after each margin fill): the base record
   * and one per margin pair, so a client knows what it can trade before asking.
   */
  marginInfoAll(userId: number): unknown[][] {
    const syms = [...this.#ex.markets.keys()].filter((s) => Positions.quoteOf(s) !== null);
    return [this.marginBase(userId), ...syms.map((s) => this.marginSym(userId, s) as unknown[])];
  }

  #emitMargin(userId: number, symbol: string): void {
    this.#events.emit(userId, "miu", this.marginBase(userId));
    const sym = this.marginSym(userId, symbol);
    if (sym) this.#events.emit(userId, "miu", sym);
  }

  /**
   * The margin wallet of `currency` changed outside trading (a transfer): the `miu` base record
   * and the records of the pairs quoted in it, as after a margin fill.
   */
  marginChanged(userId: number, currency: string): void {
    this.#events.atomically(() => {
      this.#events.emit(userId, "miu", this.marginBase(userId));
      for (const s of this.#ex.markets.keys()) {
        if (Positions.quoteOf(s) !== currency) continue;
        const sym = this.marginSym(userId, s);
        if (sym) this.#events.emit(userId, "miu", sym);
      }
    });
  }

  /**
   * `w/position/claim {id, amount?}` (docs/protocol.md#authenticated-calls): settles (part of) a
   * position with the margin wallet's own funds instead of trading it — a long pays `amount × base
   * price` of the quote currency and receives `amount` of the base currency, a short the reverse;
   * the collateral of the claimed part is released first, no P/L is realized (it is in the asset
   * now held), and the position's loans shrink or close with it. Refused when the wallet cannot pay.
   */
  claim(
    userId: number,
    id: unknown,
    amount: unknown,
  ): { ok: true; mts: number; position: unknown[] } | { ok: false; msg: string } {
    const pos = [...this.#open.values()].find((r) => r.id === id && r.user_id === userId);
    const info = pos ? parseSymbol(pos.symbol) : null;
    if (!pos || !info || info.kind !== "trading") return { ok: false, msg: "Position not found." };
    // A perpetual has no asset to take delivery of: it is closed by trading it.
    if (info.derivative) return { ok: false, msg: "Invalid position: a derivative position cannot be claimed" };
    const held = Math.abs(pos.amount);
    const asked = amount === undefined || amount === null ? Number.NaN : Math.abs(Number(amount));
    const units = Number.isNaN(asked) ? held : toUnits(asked);
    if (!(units > 0) || units > held) return { ok: false, msg: "amount: invalid" };
    const long = pos.amount > 0;
    const cost = Math.round(fromUnits(units) * pos.base_price * 1e8);
    const colRel = Math.round((pos.collateral * units) / held);
    const free = (ccy: string): number => this.#free(userId, ccy);
    const payable = long ? free(info.quote) + colRel >= cost : free(info.base) >= units;
    if (!payable) return { ok: false, msg: "Invalid position: not enough balance in the margin wallet to claim it" };
    const now = this.#now();
    this.#events.atomically(() => {
      if (colRel > 0) {
        this.#balances.move(userId, "margin", info.quote, 0, -colRel, null);
        pos.collateral -= colRel;
      }
      const text = `Position #${pos.id} claimed @ ${pos.base_price}`;
      if (long) {
        this.#balances.move(userId, "margin", info.quote, -cost, 0, text);
        this.#balances.move(userId, "margin", info.base, units, 0, text);
      } else {
        this.#balances.move(userId, "margin", info.base, -units, 0, text);
        this.#balances.move(userId, "margin", info.quote, cost, 0, text);
      }
      pos.amount -= Math.sign(pos.amount) * units;
      pos.mts_update = now;
      if (pos.amount === 0) this.#close(pos, "CLOSED");
      else {
        this.#save(pos);
        this.#resized(pos);
        this.#events.emit(userId, "pu", this.wire(pos));
      }
      this.#emitMargin(userId, pos.symbol);
      // Reduce-only orders larger than what is left have nothing left to reduce.
      this.shrank(pos.symbol);
    });
    return { ok: true, mts: now, position: this.wire(pos) };
  }

  /**
   * How much `w/position/increase` may add to the user's position in `symbol` now, in base units
   * (positive): a long takes the base currency from the margin wallet (at most what is free there),
   * a short pays `amount × mark` of the quote currency and reserves the initial margin on top. Null
   * when the symbol has no margin market or no price yet.
   */
  #increaseRoom(userId: number, symbol: string, long: boolean): { max: number; mark: number } | null {
    const info = parseSymbol(symbol);
    const market = this.#ex.markets.get(symbol);
    // Priced at the book's guarded mid, never at the last trade: one account's print through a
    // thin book must not set the price the house trades a whole wallet at (derived.ts).
    const mark = market ? settlementPrice(market) : "refused";
    if (!info || info.kind !== "trading" || !Positions.quoteOf(symbol) || !market || mark === "refused") return null;
    const wallet = long
      ? fromUnits(this.#free(userId, info.base))
      : fromUnits(this.#free(userId, info.quote)) / (mark * (1 + INITIAL_MARGIN));
    // No larger than the book could take back near the mid: the position an increase makes can be
    // closed at about the price it was opened at.
    const side = long ? market.engine.bids : market.engine.asks;
    const depth = side.liquidityTo(long ? mark * (1 - INCREASE_DEPTH_BAND) : mark * (1 + INCREASE_DEPTH_BAND), userId);
    const max = Math.min(wallet, depth);
    return { max: Math.max(0, Math.floor(max * 1e8) / 1e8), mark };
  }

  /**
   * `r/position/increase/info {symbol, amount}`: the most `w/position/increase` takes in the
   * amount's direction, the current position, and the margin wallet's balances behind it. The
   * embedded exchange backs an increase with the wallet's own funds, so no funding is required.
   */
  increaseInfo(userId: number, symbol: unknown, amount: unknown): unknown[] | null {
    if (typeof symbol !== "string") return null;
    const info = parseSymbol(symbol);
    const a = Number(amount);
    const room = this.#increaseRoom(userId, symbol, !(a < 0));
    if (!info || info.kind !== "trading" || !room) return null;
    const free = (ccy: string): number => fromUnits(this.#free(userId, ccy));
    const balance = (ccy: string): number => fromUnits(this.#balances.wallet(userId, "margin", ccy).balance);
    return encodePositionIncreaseInfo({
      maxPos: room.max,
      currentPos: fromUnits(this.get(userId, symbol)?.amount ?? 0),
      baseBalance: balance(info.base),
      fundingAvail: 0,
      tradableQuote: round8(free(info.quote)),
      tradableQuoteTotal: round8(balance(info.quote)),
      tradableBase: round8(free(info.base)),
      tradableBaseTotal: round8(balance(info.base)),
      fundingValue: 0,
      fundingRequired: 0,
      fundingValueCurrency: info.quote,
      fundingRequiredCurrency: info.base,
    });
  }

  /**
   * `w/position/increase {symbol, amount}` (docs/protocol.md#authenticated-calls): the reverse of
   * a claim — a position opened or grown at the mark from the margin wallet's own funds instead of
   * by trading. A long of `amount` gives `amount` of the base currency and receives `amount × mark`
   * of the quote currency; a short pays that and receives the base; then the initial margin is
   * reserved as for a fill. Refused (nothing written) when the amount is not a positive size in
   * the position's direction within the room `increaseInfo` reports, or the account may not trade
   * on margin.
   */
  increase(
    userId: number,
    symbol: unknown,
    amount: number,
  ): { ok: true; mts: number; position: unknown[] } | { ok: false; msg: string } {
    if (typeof symbol !== "string" || !Positions.quoteOf(symbol) || !this.#ex.markets.has(symbol))
      return { ok: false, msg: "symbol: invalid" };
    const info = parseSymbol(symbol);
    if (!info || info.kind !== "trading") return { ok: false, msg: "symbol: invalid" };
    // A paper account's positions are on TEST pairs only, a live one's never (as for orders).
    if (info.paper !== isPaperAccount(this.#db, userId)) return { ok: false, msg: "symbol: invalid" };
    const units = toUnits(Math.abs(amount));
    if (!Number.isFinite(amount) || units <= 0 || Math.abs(round8(amount) - amount) > 1e-12)
      return { ok: false, msg: "amount: invalid" };
    const long = amount > 0;
    const held = this.get(userId, symbol)?.amount ?? 0;
    if (held !== 0 && Math.sign(held) !== Math.sign(amount))
      return { ok: false, msg: "amount: an increase cannot reduce the position" };
    const refused = marginRefusal(this.#db, userId, symbol);
    if (refused) return { ok: false, msg: refused };
    const room = this.#increaseRoom(userId, symbol, long);
    if (!room) return { ok: false, msg: "symbol: no price to increase at" };
    if (units > toUnits(room.max))
      return { ok: false, msg: `amount: at most ${room.max} ${info.base} can be added now` };
    const value = Math.round(fromUnits(units) * room.mark * 1e8);
    const text = `Position ${symbol.slice(1)} increased by ${long ? "" : "-"}${fromUnits(units)} @ ${room.mark}`;
    const now = this.#now();
    this.#events.atomically(() => {
      if (long) {
        this.#balances.move(userId, "margin", info.base, -units, 0, text);
        this.#balances.move(userId, "margin", info.quote, value, 0, text);
      } else {
        this.#balances.move(userId, "margin", info.quote, -value, 0, text);
        this.#balances.move(userId, "margin", info.base, units, 0, text);
      }
      this.#applyFill(userId, symbol, info.quote, long ? units : -units, room.mark, 0);
      this.#emitMargin(userId, symbol);
    });
    return { ok: true, mts: now, position: this.wire(this.get(userId, symbol) as PositionRow) };
  }

  /**
   * `bu` `[AUM, AUM_NET]` (the `calc` input's `balance`): every wallet's balance in USD at the
   * markets' last prices, and the same with the open positions' unrealized P/L.
   */
  balanceRecord(userId: number, wallets: readonly unknown[][]): unknown[] {
    let aum = 0;
    for (const w of wallets) {
      const rate = fxRate(this.#ex, String(w[1]), "USD");
      if (rate !== null && typeof w[2] === "number") aum += w[2] * rate;
    }
    let pl = 0;
    for (const r of this.openOf(userId)) {
      const quote = Positions.collateralOf(r.symbol) as string;
      pl += this.#pl(r, this.#mark(r.symbol)) * (fxRate(this.#ex, quote, "USD") ?? 0);
    }
    return balanceCodec.encode({ aum: round8(aum), aumNet: round8(aum + pl) });
  }

  // --- marking and liquidation ---------------------------------------------------------------

  /** After a batch is settled: liquidation below maintenance, and the marks (`pu`, at most once a second). */
  mark(b: Batch): void {
    if (b.trades.length === 0) return;
    const symbol = b.market.symbol;
    // Perpetuals are marked by their spot index and liquidated one by one (derivatives.ts).
    if (isDerivativeSymbol(symbol)) return;
    const touched = [...this.#open.values()].filter((r) => r.symbol === symbol);
    if (touched.length === 0) return;
    this.#events.atomically(() => {
      const users = new Set(touched.map((r) => r.user_id));
      const quote = Positions.quoteOf(symbol) as string;
      for (const u of users) this.#checkMaintenance(u, quote);
      const now = this.#now();
      for (const r of touched) {
        if (r.open !== 1) continue;
        if (now - (this.#lastMark.get(r.id) ?? 0) < MARK_INTERVAL_MS) continue;
        this.#lastMark.set(r.id, now);
        this.#events.emit(r.user_id, "pu", this.wire(r));
      }
    });
  }

  /** Liquidates the currency's worst positions while equity is below maintenance. */
  #checkMaintenance(userId: number, quote: string): void {
    for (;;) {
      const open = this.#ofCurrency(userId, quote);
      if (open.length === 0) return;
      const balance = fromUnits(this.#balances.wallet(userId, "margin", quote).balance);
      let equity = balance;
      let req = 0;
      for (const r of open) {
        const m = this.#mark(r.symbol) ?? r.base_price;
        equity += this.#pl(r, m);
        req += Math.abs(fromUnits(r.amount)) * m * MAINTENANCE_MARGIN;
      }
      if (equity >= req) return;
      const worst = open.reduce((a, r) =>
        this.#pl(r, this.#mark(r.symbol)) < this.#pl(a, this.#mark(a.symbol)) ? r : a,
      );
      this.#liquidate(worst);
    }
  }

  #liquidate(r: PositionRow): void {
    const mark = this.#mark(r.symbol) ?? r.base_price;
    const quote = Positions.quoteOf(r.symbol) as string;
    const liqPrice = this.#liqPrice(r);
    const amount = fromUnits(r.amount);
    const pl = Math.round(amount * (mark - r.base_price) * 1e8);
    const collateral = r.collateral;
    if (collateral > 0) {
      this.#balances.move(r.user_id, "margin", quote, 0, -collateral, null);
      r.collateral = 0;
    }
    this.#settlePl(r.user_id, quote, pl, r, mark);
    this.#close(r, "LIQUIDATED");
    this.#emitMargin(r.user_id, r.symbol);
    this.shrank(r.symbol);
    this.#publishLiquidation(r, amount, liqPrice);
  }

  /**
   * A liquidated position on the public `liq:global` feed, taken over by the system; seen there
   * once the liquidating transaction has committed (a rolled-back one never is).
   */
  #publishLiquidation(r: PositionRow, amount: number, liqPrice: number | null): void {
    this.#ex.liquidations.publish(
      {
        kind: "pos",
        posId: r.id,
        mts: this.#now(),
        symbol: r.symbol,
        amount,
        basePrice: r.base_price,
        isMatch: false,
        isMarketSold: true,
        liquidationPrice: liqPrice,
      },
      (fn) => this.#events.afterCommit(fn),
    );
  }
}
