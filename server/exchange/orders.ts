/**
 * Account orders on the embedded exchange: entry (limit, market, IOC, FOK, OCO, and the stop types
 * that wait in stop-book.ts), updates and cancellation, each validated, reserved and submitted in
 * one transaction with what matching did (settlement.ts), so a killed process loses nothing it
 * confirmed. A spot order reserves what it can spend in the exchange wallet (never more than is
 * free), a margin order its initial margin (positions.ts). Every request answers with its `*-req`
 * notification, SUCCESS or ERROR, ahead of the order events it caused. The REST and socket forms of
 * these requests are orders-api.ts.
 */
import {
  DEFAULT_LEVERAGE,
  DERIV_REFUSALS,
  ERROR_CODES,
  isDerivativeSymbol,
  isExchangeOrderType,
  ORDER_FLAGS,
  orderLeverage,
  parseSymbol,
  type WalletType,
} from "../../src/protocol/index.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import { notice, num } from "../reply.ts";
import type { Balances } from "./balances.ts";
import type { EngineOrderType, Side } from "./engine.ts";
import type { AccountEvents } from "./events.ts";
import type { Batch, Exchange } from "./exchange.ts";
import { tradePage, tradeWire } from "./order-history.ts";
import { isMargin, isPendingStop, type OrderRow, type OrderStore } from "./order-store.ts";
import { isPaperAccount } from "./paper-accounts.ts";
import type { Positions } from "./positions.ts";
import { STOP_TYPES } from "./stop-book.ts";
import { marginRefusal } from "./verification.ts";
import { derivativesRefusal } from "./derivatives.ts";

export interface OrderInput {
  readonly type?: unknown;
  readonly symbol?: unknown;
  readonly amount?: unknown;
  readonly price?: unknown;
  readonly cid?: unknown;
  /** Group id (int32): `oc_multi {gid}` cancels the group. */
  readonly gid?: unknown;
  readonly flags?: unknown;
  /** OCO orders: the stop leg's price. */
  readonly price_oco_stop?: unknown;
  /** STOP LIMIT: the limit once triggered; TRAILING STOP: the distance its trigger keeps. */
  readonly price_aux_limit?: unknown;
  readonly price_trailing?: unknown;
  /** Perpetuals: the leverage, 1–100 (default 10); the initial margin is one over it. */
  readonly lev?: unknown;
}

export type PlaceResult =
  | { readonly ok: true; readonly order: unknown[]; readonly legs?: unknown[][] }
  | { readonly ok: false; readonly code: number; readonly msg: string };

const ENGINE_TYPES: ReadonlyMap<string, EngineOrderType> = new Map([
  ["EXCHANGE LIMIT", "LIMIT"],
  ["EXCHANGE MARKET", "MARKET"],
  ["EXCHANGE IOC", "IOC"],
  ["EXCHANGE FOK", "FOK"],
  ["LIMIT", "LIMIT"],
  ["MARKET", "MARKET"],
  ["IOC", "IOC"],
  ["FOK", "FOK"],
]);

const { GENERIC } = ERROR_CODES;

const validPrice = (p: number): boolean => Number.isFinite(p) && p > 0 && p < 1e12;

/**
 * The smallest order, in the base currency, on every pair (what `pub:info:pair` publishes as the
 * minimum order size). Below it an order could reserve nothing at all: 1e-8 BTC at 1 USD is 0 cents.
 */
export const MIN_ORDER_SIZE = 0.00001;
/**
 * Open orders one account may hold at once (stops waiting to trigger included): each reserves
 * funds and costs every matching pass, so the number is bounded, as on the real venue.
 */
export const MAX_OPEN_ORDERS = 1000;

export class Orders {
  constructor(
    readonly store: OrderStore,
    readonly balances: Balances,
    readonly positions: Positions,
    readonly exchange: Exchange,
    readonly events: AccountEvents,
    readonly nextOrderId: () => number,
  ) {}

  get #db(): Db {
    return this.store.db;
  }

  /** A request's notification (`on-req`, `oc-req`, …) to the user. */
  notify(userId: number, type: string, data: unknown, status: "SUCCESS" | "ERROR", text: string): void {
    this.events.emit(userId, "n", notice(this.store.now(), type, data, status, text));
  }

  /**
   * Whether a margin order can open or grow a position, which is what the verification gate is on
   * (docs/product-rules.md#compliance-gates: margin trading): a close or reduce-only order, or one
   * no larger than the opposite position it trades against, only shrinks what is held.
   */
  #opens(userId: number, symbol: string, amount: number, flags: number): boolean {
    if ((flags & (ORDER_FLAGS.CLOSE | ORDER_FLAGS.REDUCE_ONLY)) !== 0) return false;
    const held = fromUnits(this.positions.get(userId, symbol)?.amount ?? 0);
    return Math.abs(held + amount) > Math.abs(held) + 1e-9;
  }

  /** Why an order may not open or grow a position: the margin verification gate, and the perpetuals' own. */
  #gate(userId: number, symbol: string): string | null {
    return (
      marginRefusal(this.#db, userId, symbol) ??
      (isDerivativeSymbol(symbol) ? derivativesRefusal(this.#db, userId, this.store.now()) : null)
    );
  }

  /** What a margin order reserves, or why it is refused (the verification gate, then positions.ts). */
  #marginReserve(userId: number, symbol: string, amount: number, ref: number, flags: number, leverage: number) {
    const refused = this.#opens(userId, symbol, amount, flags) ? this.#gate(userId, symbol) : null;
    return refused
      ? ({ ok: false, msg: refused } as const)
      : this.positions.prepare(userId, symbol, amount, ref, flags, 0, leverage);
  }

  #newRow(userId: number, input: OrderInput, o: Pick<OrderRow, "symbol" | "type" | "side" | "price" | "flags">) {
    const now = this.store.now();
    return (size: number, reserve: number, stop: Partial<OrderRow> = {}): OrderRow => ({
      id: this.nextOrderId(),
      user_id: userId,
      cid: typeof input.cid === "number" && Number.isSafeInteger(input.cid) ? input.cid : null,
      gid: groupId(input.gid),
      ...o,
      amount_orig: toUnits(size),
      remaining: toUnits(size),
      avg_price: 0,
      status: "ACTIVE",
      reserved: reserve,
      mts_create: now,
      mts_update: now,
      open: 1,
      trigger_price: null,
      aux_price: null,
      trail: null,
      triggered: 0,
      oco_peer: null,
      ...stop,
    });
  }

  /** `on`: validates, reserves, submits, settles — all in one transaction. */
  place(userId: number, input: OrderInput): PlaceResult {
    const fail = (code: number, msg: string): PlaceResult => {
      this.notify(userId, "on-req", null, "ERROR", msg);
      return { ok: false, code, msg };
    };
    const type = typeof input.type === "string" ? input.type : "";
    const engineType = ENGINE_TYPES.get(type);
    if (!engineType && !STOP_TYPES.has(type)) return fail(GENERIC, "Invalid order: type");
    const symbol = typeof input.symbol === "string" ? input.symbol : "";
    const info = parseSymbol(symbol);
    const market = this.exchange.markets.get(symbol);
    if (!info || info.kind !== "trading" || !market) return fail(GENERIC, "Invalid order: symbol");
    // A perpetual trades with the margin types only, at the order's leverage (docs/product-rules.md#derivatives).
    if (info.derivative && isExchangeOrderType(type)) return fail(GENERIC, DERIV_REFUSALS.orderType);
    const leverage = info.derivative ? orderLeverage(input.lev) : DEFAULT_LEVERAGE;
    if (leverage === null) return fail(GENERIC, DERIV_REFUSALS.lev);
    // A paper account trades the TEST pairs only and a live one never does (paper-accounts.ts):
    // to either, the other side's pairs are not there, so it gets the unknown symbol's answer.
    if (info.paper !== isPaperAccount(this.#db, userId)) return fail(GENERIC, "Invalid order: symbol");
    const amount = num(input.amount);
    if (!Number.isFinite(amount) || amount === 0 || Math.abs(amount) > 1e9 || Math.abs(amount) < 1e-8)
      return fail(GENERIC, "Invalid order: amount");
    if (Math.abs(amount) < MIN_ORDER_SIZE)
      return fail(GENERIC, `Invalid order: amount below the minimum order size ${MIN_ORDER_SIZE}`);
    if (this.store.openOf(userId).length >= MAX_OPEN_ORDERS)
      return fail(GENERIC, `Invalid order: at most ${MAX_OPEN_ORDERS} open orders per account`);
    const flags = typeof input.flags === "number" && Number.isInteger(input.flags) ? input.flags : 0;
    if (!engineType) return this.#placeStop(userId, type, symbol, amount, flags, leverage, input, fail);
    const price = engineType === "MARKET" ? Number.NaN : num(input.price);
    if (engineType !== "MARKET" && !validPrice(price)) return fail(GENERIC, "Invalid order: price");
    let side: Side = amount > 0 ? "buy" : "sell";
    let size = Math.abs(amount);
    const margin = isMargin(type);
    const walletType: WalletType = margin ? "margin" : "exchange";
    // Reserve what the order can spend: quote for a buy (at its limit, or the book walk plus 2 %
    // for a market buy), base for a sell; a margin order its initial margin (positions.ts).
    const reserveCcy = margin || side === "buy" ? info.quote : info.base;
    let reserve: number;
    if (margin) {
      if ((flags & ORDER_FLAGS.OCO) !== 0) return fail(GENERIC, "Invalid order: OCO needs an exchange limit order");
      const ref = engineType === "MARKET" ? (market.lastPrice() ?? Number.NaN) * 1.02 : price;
      const refused = this.#opens(userId, symbol, amount, flags) ? this.#gate(userId, symbol) : null;
      if (refused) return fail(GENERIC, refused);
      if (!Number.isFinite(ref)) return fail(GENERIC, "Invalid order: no market price");
      const prep = this.positions.prepare(userId, symbol, amount, ref, flags, 0, leverage);
      if (!prep.ok) return fail(GENERIC, prep.msg);
      ({ side, size, reserve } = prep);
    } else if (side === "sell") reserve = toUnits(size);
    else if (engineType !== "MARKET") reserve = toUnits(size * price);
    else {
      const est = this.#marketBuyCost(symbol, size);
      if (est === null) return fail(GENERIC, "Invalid order: not enough liquidity");
      reserve = toUnits(est * 1.02);
    }
    const free = this.balances.available(userId, walletType, reserveCcy);
    if (!margin && free < reserve) {
      const at = engineType === "MARKET" ? "market" : price;
      return fail(GENERIC, `Invalid order: not enough exchange balance for ${amount} ${symbol} at ${at}`);
    }
    const newRow = this.#newRow(userId, input, {
      symbol,
      type,
      side,
      price: engineType === "MARKET" ? null : price,
      flags,
    });
    const row = newRow(size, reserve);
    // OCO: the limit plus a stop at `price_oco_stop` for the same amount. Only one of them can
    // execute, so the pair reserves once — the stop holds only what it could need beyond the limit.
    let stop: OrderRow | null = null;
    if ((flags & ORDER_FLAGS.OCO) !== 0) {
      if (engineType !== "LIMIT") return fail(GENERIC, "Invalid order: OCO needs an exchange limit order");
      const stopPrice = num(input.price_oco_stop);
      const last = market.lastPrice();
      if (!validPrice(stopPrice)) return fail(GENERIC, "Invalid order: price_oco_stop");
      if (last !== null && (side === "sell" ? stopPrice >= last : stopPrice <= last))
        return fail(
          GENERIC,
          `Invalid order: price_oco_stop must be ${side === "sell" ? "below" : "above"} the last price`,
        );
      const stopReserve = side === "sell" ? toUnits(size) : toUnits(size * stopPrice * 1.05);
      const extra = Math.max(0, stopReserve - reserve);
      if (free < reserve + extra)
        return fail(GENERIC, `Invalid order: not enough exchange balance for ${amount} ${symbol} (OCO)`);
      const id = this.nextOrderId();
      stop = { ...row, id, type: "EXCHANGE STOP", price: stopPrice, reserved: extra, trigger_price: stopPrice };
      stop.oco_peer = row.id;
      row.oco_peer = id;
    }
    let batch: Batch | null = null;
    // The request's notification goes first, then what the order did (on, te, wu, …), though it
    // carries the order as matching left it; an OCO's notification carries both legs.
    const text = `Submitting ${stop ? "OCO " : ""}${type.toLowerCase()} ${side} order for ${size} ${info.base}.`;
    this.events.atomically(() => {
      const note = this.events.reserve(userId, "n");
      this.balances.move(userId, walletType, reserveCcy, 0, reserve + (stop?.reserved ?? 0), null);
      this.store.open.set(row.id, row);
      this.store.save(row);
      // Before matching: a fill takes the position's collateral at this leverage.
      if (info.derivative) this.positions.derivatives?.remember(row.id, leverage);
      if (stop) {
        this.store.open.set(stop.id, stop);
        this.store.save(stop);
        this.events.emit(userId, "on", this.store.wire(stop));
      }
      batch = this.exchange.placeOrder(symbol, {
        id: row.id,
        owner: userId,
        side,
        type: engineType,
        price,
        amount: size,
        cid: row.cid,
        hidden: (flags & ORDER_FLAGS.HIDDEN) !== 0,
        postOnly: (flags & ORDER_FLAGS.POST_ONLY) !== 0,
        // The reservation is an estimate (the P0 book plus 2 %); the engine may walk further (own
        // orders skipped): it never spends more than the wallet holds free plus this reservation.
        ...(!margin && side === "buy" && engineType === "MARKET" ? { quoteBudget: free } : {}),
      });
      // On the socket the notification carries the order itself (the recorded on-req frame); REST
      // wraps it in a list (w/order/submit's reply is built from `order` in orders-api.ts).
      const wire = this.store.wire(row);
      note(notice(this.store.now(), "on-req", stop ? [wire, this.store.wire(stop)] : wire, "SUCCESS", text));
    });
    const wire = this.store.wire(row);
    if (batch === null) return { ok: false, code: GENERIC, msg: "Invalid order" };
    return stop ? { ok: true, order: wire, legs: [wire, this.store.wire(stop)] } : { ok: true, order: wire };
  }

  /**
   * STOP, STOP LIMIT and TRAILING STOP: validated and reserved here, then kept in the stop book
   * (stop-book.ts) until their trigger is crossed. A trailing stop starts at the last price less
   * (sells) or plus (buys) its distance.
   */
  #placeStop(
    userId: number,
    type: string,
    symbol: string,
    amount: number,
    flags: number,
    leverage: number,
    input: OrderInput,
    fail: (code: number, msg: string) => PlaceResult,
  ): PlaceResult {
    let side: Side = amount > 0 ? "buy" : "sell";
    let size = Math.round(Math.abs(amount) * 1e8) / 1e8;
    const last = this.exchange.markets.get(symbol)?.lastPrice() ?? null;
    if (last === null) return fail(GENERIC, "Invalid order: no market price");
    let trigger: number;
    let trail: number | null = null;
    if (type.endsWith("TRAILING STOP")) {
      trail = num(input.price_trailing);
      if (!(Number.isFinite(trail) && trail > 0 && trail < last)) return fail(GENERIC, "Invalid order: price_trailing");
      trigger = side === "sell" ? last - trail : last + trail;
    } else {
      trigger = num(input.price);
      if (!validPrice(trigger)) return fail(GENERIC, "Invalid order: price");
    }
    const aux = type.endsWith("STOP LIMIT") ? num(input.price_aux_limit) : null;
    if (aux !== null && !validPrice(aux)) return fail(GENERIC, "Invalid order: price_aux_limit");
    // A buy reserves quote for the worst it can pay: its limit, or the trigger plus 5 % slippage.
    const margin = isMargin(type);
    const info = parseSymbol(symbol);
    if (!info || info.kind !== "trading") return fail(GENERIC, "Invalid order: symbol");
    const walletType: WalletType = margin ? "margin" : "exchange";
    const reserveCcy = margin || side === "buy" ? info.quote : info.base;
    let reserve = side === "sell" ? toUnits(size) : toUnits(size * (aux ?? trigger * 1.05));
    if (margin) {
      const prep = this.#marginReserve(userId, symbol, amount, aux ?? trigger * 1.05, flags, leverage);
      if (!prep.ok) return fail(GENERIC, prep.msg);
      ({ side, size, reserve } = prep);
    }
    if (!margin && this.balances.available(userId, walletType, reserveCcy) < reserve)
      return fail(GENERIC, `Invalid order: not enough exchange balance for ${amount} ${symbol}`);
    const newRow = this.#newRow(userId, input, { symbol, type, side, price: trigger, flags });
    const row = newRow(size, reserve, { trigger_price: trigger, aux_price: aux, trail });
    const wire = this.store.wire(row);
    const text = `Submitting ${type.toLowerCase()} ${side} order for ${size} ${info.base}.`;
    this.events.atomically(() => {
      this.notify(userId, "on-req", wire, "SUCCESS", text);
      this.balances.move(userId, walletType, reserveCcy, 0, reserve, null);
      this.store.open.set(row.id, row);
      this.store.save(row);
      if (info.derivative) this.positions.derivatives?.remember(row.id, leverage);
      this.events.emit(userId, "on", wire);
    });
    return { ok: true, order: wire };
  }

  #marketBuyCost(symbol: string, size: number): number | null {
    const book = this.exchange.markets.get(symbol)?.books.get("P0");
    if (!book) return null;
    let left = size;
    let cost = 0;
    for (let i = 0; i < book.asks.size && left > 0; i++) {
      const take = Math.min(left, Math.abs(book.asks.amount[i] as number));
      cost += take * (book.asks.k1[i] as number);
      left -= take;
    }
    return left > 1e-12 ? null : cost;
  }

  /** `oc`: cancels an open order of this user. */
  cancel(userId: number, id: number): PlaceResult {
    const row = this.store.open.get(id);
    if (!row || row.user_id !== userId || row.open !== 1) {
      this.notify(userId, "oc-req", null, "ERROR", "Order not found.");
      return { ok: false, code: GENERIC, msg: "Order not found." };
    }
    this.events.atomically(() => {
      const text = `Submitted for cancellation; waiting for confirmation (ID: ${id}).`;
      this.notify(userId, "oc-req", this.store.wire(row), "SUCCESS", text);
      if (isPendingStop(row)) {
        // A stop not yet triggered is not on the book: close it here (and its OCO limit with it).
        this.store.closeOffBook(row, "CANCELED");
        const peer = row.oco_peer !== null ? this.store.open.get(row.oco_peer) : undefined;
        if (peer && peer.open === 1) this.exchange.cancel(peer.symbol, peer.id);
      }
      // Cancelling an OCO's limit takes its pending stop too (settlement closes it with the limit).
      else this.exchange.cancel(row.symbol, id);
    });
    return { ok: true, order: this.store.wire(row) };
  }

  cancelAll(userId: number): number {
    const ids = this.store.openOf(userId).map((r) => r.id);
    // An OCO leg may already have gone with its peer.
    for (const id of ids) if (this.store.open.get(id)?.open === 1) this.cancel(userId, id);
    return ids.length;
  }

  /**
   * Updates a resting limit order's price and/or amount (`ou`, `w/order/update`): `amount` is the
   * new total (signed like the order), `delta` a change to it. The order leaves the book and comes
   * back under the same id (losing its time priority, as on the real exchange), with its
   * reservation resized first so the balance never goes negative.
   */
  update(userId: number, input: Record<string, unknown>): PlaceResult {
    const fail = (msg: string): PlaceResult => {
      this.notify(userId, "ou-req", null, "ERROR", msg);
      return { ok: false, code: GENERIC, msg };
    };
    const id = input["id"];
    const row = typeof id === "number" ? this.store.open.get(id) : undefined;
    if (!row || row.user_id !== userId || row.open !== 1) return fail("Order not found.");
    if ((row.type !== "EXCHANGE LIMIT" && row.type !== "LIMIT") || row.price === null)
      return fail("Invalid order: only limit orders on the book can be updated");
    if (row.oco_peer !== null)
      return fail("Invalid order: an OCO pair cannot be updated; cancel it and place it again");
    const info = parseSymbol(row.symbol);
    if (!info || info.kind !== "trading") return fail("Invalid order: symbol");
    const sign = row.side === "buy" ? 1 : -1;
    const filled = row.amount_orig - row.remaining;
    let total = row.amount_orig;
    if (input["amount"] !== undefined) {
      const a = num(input["amount"]);
      if (!Number.isFinite(a) || Math.sign(a) !== sign || Math.abs(a) > 1e9) return fail("Invalid order: amount");
      total = toUnits(Math.abs(a));
    }
    if (input["delta"] !== undefined) {
      const d = num(input["delta"]);
      if (!Number.isFinite(d) || Math.abs(d) > 1e9) return fail("Invalid order: delta");
      total += toUnits(d * sign);
    }
    if (total - filled < 1) return fail("Invalid order: amount must stay above what has filled");
    let price = row.price;
    if (input["price"] !== undefined) {
      price = num(input["price"]);
      if (!validPrice(price)) return fail("Invalid order: price");
    }
    const remaining = total - filled;
    const margin = isMargin(row.type);
    const walletType: WalletType = margin ? "margin" : "exchange";
    const reserveCcy = margin || row.side === "buy" ? info.quote : info.base;
    let reserve = row.side === "buy" ? Math.round(fromUnits(remaining) * price * 1e8) : remaining;
    if (margin) {
      // The close flag sized the order when placed; an update sizes it explicitly.
      const flags = row.flags & ~ORDER_FLAGS.CLOSE;
      const leverage = this.positions.derivatives?.leverageOf(row.id) ?? DEFAULT_LEVERAGE;
      const prep = this.positions.prepare(
        userId,
        row.symbol,
        sign * fromUnits(remaining),
        price,
        flags,
        row.reserved,
        leverage,
      );
      if (!prep.ok) return fail(prep.msg);
      reserve = prep.reserve;
    }
    if (!margin && this.balances.available(userId, walletType, reserveCcy) + row.reserved < reserve)
      return fail(`Invalid order: not enough exchange balance to update order ${row.id}`);
    const now = this.store.now();
    const before = this.store.wire(row);
    const amend = { phase: "off" as "off" | "on", filled, avg: row.avg_price };
    this.store.amending.set(row.id, amend);
    try {
      this.events.atomically(() => {
        this.notify(userId, "ou-req", before, "SUCCESS", `Submitting update to order ${row.id}.`);
        this.exchange.cancel(row.symbol, row.id);
        this.balances.move(userId, walletType, reserveCcy, 0, reserve - row.reserved, null);
        row.reserved = reserve;
        row.price = price;
        row.amount_orig = total;
        row.remaining = remaining;
        row.mts_update = now;
        this.store.save(row);
        amend.phase = "on";
        this.exchange.placeOrder(row.symbol, {
          id: row.id,
          owner: userId,
          side: row.side,
          type: "LIMIT",
          price,
          amount: fromUnits(remaining),
          cid: row.cid,
          hidden: (row.flags & ORDER_FLAGS.HIDDEN) !== 0,
          postOnly: (row.flags & ORDER_FLAGS.POST_ONLY) !== 0,
        });
      });
    } finally {
      this.store.amending.delete(row.id);
    }
    return { ok: true, order: this.store.wire(row) };
  }

  /** The `os` snapshot and REST `r/orders`: the user's open orders. */
  openOrdersWire(userId: number): unknown[][] {
    return this.store.openOf(userId).map((r) => this.store.wire(r));
  }

  /** Own trades, newest first (order-history.ts pages them for REST `r/trades/hist`). */
  tradesWire(userId: number, symbol: string | null, limit: number): unknown[][] {
    return tradePage(this.#db, userId, symbol, { start: null, end: null, endId: null, limit }).map(tradeWire);
  }
}

/** The `on` input's group id: an int32, else none. */
function groupId(v: unknown): number | null {
  return typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v : null;
}
