/**
 * Account trading on the embedded exchange: order entry for exchange (spot) orders, balance
 * reservation (never negative), settlement of fills with maker/taker fees, and the account events
 * the authenticated socket sends (`os`/`on`/`ou`/`oc`, `te`/`tu`, `ws`/`wu`, `n`). Every change is
 * written to SQLite in one transaction before it is acknowledged, so a killed process loses nothing
 * it confirmed; open orders go back on the book at start.
 */
import { authTradeCodec, ORDER_FLAGS, orderCodec, parseSymbol, type Order } from "../../src/protocol/index.ts";
import { fromUnits, toUnits, type Db } from "../store/db.ts";
import type { EngineOrder, EngineOrderType, Side } from "./engine.ts";
import type { Batch, Exchange } from "./exchange.ts";
import { Positions } from "./positions.ts";
import { marginRefusal } from "./verification.ts";
import { guarded, logError } from "../log.ts";

export const MAKER_FEE = 0.001;
export const TAKER_FEE = 0.002;

export interface FeeRates {
  readonly maker: number;
  readonly taker: number;
}
const STANDARD_FEES: FeeRates = { maker: MAKER_FEE, taker: TAKER_FEE };
const NO_FEES: FeeRates = { maker: 0, taker: 0 };

/**
 * What settlement charges on a pair. The paper-trading TEST pairs trade free; `pub:info:pair:fee:ovr`
 * publishes every pair whose rates differ from the standard ones, from this same function.
 */
export function feeRates(symbol: string): FeeRates {
  return symbol.startsWith("tTEST") ? NO_FEES : STANDARD_FEES;
}

/** The wallets an account holds; spot trading settles in `exchange`. */
export type WalletType = "exchange" | "margin" | "funding";

export type AccountEmit = (userId: number, type: string, payload: unknown) => void;

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
}

export type PlaceResult =
  | { readonly ok: true; readonly order: unknown[]; readonly legs?: unknown[][] }
  | { readonly ok: false; readonly code: number; readonly msg: string };

interface OrderRow {
  id: number;
  user_id: number;
  cid: number | null;
  /** The order's group id, or null. */
  gid: number | null;
  symbol: string;
  type: string;
  side: Side;
  price: number | null;
  amount_orig: number;
  remaining: number;
  avg_price: number;
  status: string;
  flags: number;
  reserved: number;
  mts_create: number;
  mts_update: number;
  open: number;
  /** Stop orders: the trigger price, the limit after triggering (STOP LIMIT), the trail distance. */
  trigger_price: number | null;
  aux_price: number | null;
  trail: number | null;
  /** 1 once a stop has triggered and gone to the book. */
  triggered: number;
  /** The other leg of an OCO pair (a limit and a stop): whichever acts first closes the other. */
  oco_peer: number | null;
}

/** Stop order types and what they become when they trigger. */
const STOP_TYPES: Record<string, "MARKET" | "LIMIT"> = {
  "EXCHANGE STOP": "MARKET",
  "EXCHANGE STOP LIMIT": "LIMIT",
  "EXCHANGE TRAILING STOP": "MARKET",
  STOP: "MARKET",
  "STOP LIMIT": "LIMIT",
  "TRAILING STOP": "MARKET",
};

const ENGINE_TYPES: Record<string, EngineOrderType> = {
  "EXCHANGE LIMIT": "LIMIT",
  "EXCHANGE MARKET": "MARKET",
  "EXCHANGE IOC": "IOC",
  "EXCHANGE FOK": "FOK",
  LIMIT: "LIMIT",
  MARKET: "MARKET",
  IOC: "IOC",
  FOK: "FOK",
};

/** The bare types trade on margin (positions.ts); the EXCHANGE ones in the exchange wallet. */
const isMargin = (type: string): boolean => !type.startsWith("EXCHANGE ");

/** A number from JSON input, where the API accepts numbers and numeric strings alike; else NaN. */
export function num(v: unknown): number {
  return typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
}

export class Trading {
  readonly #db: Db;
  readonly #ex: Exchange;
  readonly #now: () => number;
  readonly #send: AccountEmit;
  /**
   * Account events wait here until their transaction has committed: a frame written to a socket
   * before COMMIT could reach the client and then be lost with a killed process (the durability
   * test caught exactly that — Node writes to the socket synchronously when it can).
   */
  readonly #queue: [number, string, unknown][] = [];
  readonly #rows = new Map<number, OrderRow>();
  /**
   * Orders being updated (`ou`): taken off the book and put back under the same id. Settlement
   * skips the take-off, and reports the put-back as `ou` with the fills it had before kept.
   */
  readonly #amending = new Map<number, { phase: "off" | "on"; filled: number; avg: number }>();
  readonly #nextOrderId: () => number;
  /** Margin positions, settled from this class's fills and transactions. */
  readonly positions: Positions;

  /** The markets these accounts trade on (the account summary values volumes in USD through them). */
  get exchange(): Exchange {
    return this.#ex;
  }

  constructor(db: Db, exchange: Exchange, now: () => number, emit: AccountEmit, nextOrderId: () => number) {
    this.#db = db;
    this.#ex = exchange;
    this.#now = now;
    this.#send = emit;
    this.#nextOrderId = nextOrderId;
    exchange.onBatch((b) => {
      this.#settle(b);
      this.#checkStops(b);
    });
    // After the listener above: positions are marked once a batch's fills are settled.
    this.positions = new Positions(db, exchange, now, {
      wallet: (u, ccy) => this.#wallet(u, ccy, "margin"),
      move: (u, ccy, dBalance, dReserved, text) => this.#moveWallet(u, ccy, dBalance, dReserved, text, "margin"),
      emit: (u, t, p) => this.#emit(u, t, p),
      atomically: (fn) => {
        if (this.#db.inTransaction) fn();
        else {
          this.#db.transaction(fn)();
          this.#flush();
        }
      },
      liquidated: (symbol) => queueMicrotask(guarded("reduce-only trim", () => this.#cancelExcessReduceOnly(symbol))),
    });
  }

  /** Puts every open order back on its book (after a restart). */
  restore(): number {
    const rows = this.#db.prepare("SELECT * FROM orders WHERE open = 1 ORDER BY id").all() as OrderRow[];
    for (const r of rows) {
      const market = this.#ex.markets.get(r.symbol);
      if (!market) continue;
      if (r.trigger_price !== null && r.triggered === 0) {
        // A stop waiting for its trigger is not on the book.
        this.#rows.set(r.id, r);
        continue;
      }
      const restingPrice = r.type.endsWith("STOP LIMIT") ? r.aux_price : r.price;
      const engineOrder: EngineOrder = {
        id: r.id,
        owner: r.user_id,
        cid: r.cid,
        side: r.side,
        type: "LIMIT",
        price: restingPrice ?? Number.NaN,
        remaining: fromUnits(r.remaining),
        original: fromUnits(r.amount_orig),
        hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
        postOnly: false,
        mtsCreate: r.mts_create,
        mtsUpdate: r.mts_update,
        status: r.status,
        avgPrice: r.avg_price,
        filled: fromUnits(r.amount_orig - r.remaining),
      };
      market.engine.restore(engineOrder);
      market.applyLevels(
        engineOrder.hidden
          ? []
          : [{ side: r.side, price: engineOrder.price, deltaAmount: engineOrder.remaining, deltaCount: 1 }],
      );
      this.#rows.set(r.id, r);
    }
    return rows.length;
  }

  #emit(userId: number, type: string, payload: unknown): void {
    this.#queue.push([userId, type, payload]);
  }

  /** Sends the queued events; only once no transaction is open. */
  #flush(): void {
    if (this.#db.inTransaction) return;
    const events = this.#queue.splice(0);
    for (const [u, t, p] of events) this.#send(u, t, p);
  }

  // --- wallets -------------------------------------------------------------------------------

  #wallet(userId: number, currency: string, type: WalletType = "exchange"): { balance: number; reserved: number } {
    const row = this.#db
      .prepare("SELECT balance, reserved FROM wallets WHERE user_id = ? AND type = ? AND currency = ?")
      .get(userId, type, currency) as { balance: number; reserved: number } | undefined;
    return row ?? { balance: 0, reserved: 0 };
  }

  #moveWallet(
    userId: number,
    currency: string,
    dBalance: number,
    dReserved: number,
    description: string | null,
    type: WalletType = "exchange",
  ): void {
    const w = this.#wallet(userId, currency, type);
    const balance = w.balance + dBalance;
    const reserved = w.reserved + dReserved;
    if (balance < 0 || reserved < 0 || reserved > balance) throw new Error(`wallet invariant broken for ${currency}`);
    this.#db
      .prepare(
        "INSERT INTO wallets (user_id, type, currency, balance, reserved) VALUES (?, ?, ?, ?, ?) ON CONFLICT(user_id, type, currency) DO UPDATE SET balance = excluded.balance, reserved = excluded.reserved",
      )
      .run(userId, type, currency, balance, reserved);
    if (dBalance !== 0 && description) {
      this.#db
        .prepare(
          "INSERT INTO ledgers (user_id, currency, wallet, mts, amount, balance, description) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .run(userId, currency, type, this.#now(), dBalance, balance, description);
    }
    this.#emit(userId, "wu", this.#walletWire(currency, balance, reserved, type));
  }

  #walletWire(currency: string, balance: number, reserved: number, type: WalletType = "exchange"): unknown[] {
    return [type, currency, fromUnits(balance), 0, fromUnits(balance - reserved), null, null];
  }

  credit(userId: number, currency: string, amount: number, description: string): void {
    this.#db.transaction(() => this.#moveWallet(userId, currency, toUnits(amount), 0, description))();
    this.#flush();
  }

  walletsWire(userId: number): unknown[][] {
    const rows = this.#db
      .prepare("SELECT type, currency, balance, reserved FROM wallets WHERE user_id = ? ORDER BY type, currency")
      .all(userId) as {
      type: WalletType;
      currency: string;
      balance: number;
      reserved: number;
    }[];
    return rows.map((r) => this.#walletWire(r.currency, r.balance, r.reserved, r.type));
  }

  /** One wallet's record, as `wu` carries it (the `calc` input's `wallet_<type>_<currency>`). */
  walletOf(userId: number, type: WalletType, currency: string): unknown[] {
    const w = this.#wallet(userId, currency, type);
    return this.#walletWire(currency, w.balance, w.reserved, type);
  }

  /** Releases what an open order still reserves, from the wallet it reserved in. */
  #release(r: OrderRow): void {
    if (r.reserved <= 0) return;
    const info = parseSymbol(r.symbol);
    if (!info || info.kind !== "trading") return;
    const margin = isMargin(r.type);
    const ccy = margin || r.side === "buy" ? info.quote : info.base;
    this.#moveWallet(r.user_id, ccy, 0, -r.reserved, null, margin ? "margin" : "exchange");
    r.reserved = 0;
  }

  /** A wallet's free balance in units (balance less what open orders reserve). */
  available(userId: number, type: WalletType, currency: string): number {
    const w = this.#wallet(userId, currency, type);
    return w.balance - w.reserved;
  }

  /**
   * Runs a funds operation (transfer, withdrawal, deposit) in one transaction with the wallet moves
   * it makes, then sends their `wu` events — the same commit-then-tell rule as order entry.
   */
  funds<T>(
    fn: (move: (userId: number, type: WalletType, currency: string, dUnits: number, text: string) => void) => T,
  ): T {
    const result = this.#db.transaction(() =>
      fn((userId, type, currency, dUnits, text) => this.#moveWallet(userId, currency, dUnits, 0, text, type)),
    )();
    this.#flush();
    return result;
  }

  // --- orders --------------------------------------------------------------------------------

  #orderWire(r: OrderRow): unknown[] {
    const sign = r.side === "buy" ? 1 : -1;
    const order: Omit<Order, "isOco" | "type_value"> = {
      id: r.id,
      group_id: r.gid,
      client_id: r.cid,
      symbol: r.symbol,
      mts_create: r.mts_create,
      mts_update: r.mts_update,
      amount: sign * fromUnits(r.remaining),
      original_amount: sign * fromUnits(r.amount_orig),
      type: r.type,
      type_prev: null,
      mts_tif: null,
      flags: r.flags,
      status: r.status,
      price: r.price,
      price_average: r.avg_price,
      price_trailing: r.trail ?? 0,
      price_aux_limit: r.aux_price ?? 0,
      notify: false,
      hidden: (r.flags & ORDER_FLAGS.HIDDEN) !== 0,
      placed_id: r.oco_peer,
      routing: "BFX",
      meta: null,
    };
    return orderCodec.encode(order);
  }

  openOrdersWire(userId: number): unknown[][] {
    return [...this.#rows.values()].filter((r) => r.user_id === userId && r.open === 1).map((r) => this.#orderWire(r));
  }

  #saveOrder(r: OrderRow): void {
    this.#db
      .prepare(
        `INSERT INTO orders (id, user_id, cid, gid, symbol, type, side, price, amount_orig, remaining, avg_price, status, flags, reserved, mts_create, mts_update, open, trigger_price, aux_price, trail, triggered)
         VALUES (@id, @user_id, @cid, @gid, @symbol, @type, @side, @price, @amount_orig, @remaining, @avg_price, @status, @flags, @reserved, @mts_create, @mts_update, @open, @trigger_price, @aux_price, @trail, @triggered)
         ON CONFLICT(id) DO UPDATE SET price = excluded.price, remaining = excluded.remaining, avg_price = excluded.avg_price, status = excluded.status,
           reserved = excluded.reserved, amount_orig = excluded.amount_orig, mts_update = excluded.mts_update, open = excluded.open, trigger_price = excluded.trigger_price, triggered = excluded.triggered`,
      )
      .run(r);
  }

  /**
   * Whether a margin order can open or grow a position, which is what the verification gate is on
   * (SPEC section 6: margin trading): a close or reduce-only order, or one no larger than the
   * opposite position it trades against, only shrinks what is held and is never gated.
   */
  #opens(userId: number, symbol: string, amount: number, flags: number): boolean {
    if ((flags & (ORDER_FLAGS.CLOSE | ORDER_FLAGS.REDUCE_ONLY)) !== 0) return false;
    const held = fromUnits(this.positions.get(userId, symbol)?.amount ?? 0);
    return Math.abs(held + amount) > Math.abs(held) + 1e-9;
  }

  #notify(userId: number, type: string, data: unknown, status: "SUCCESS" | "ERROR", text: string): void {
    this.#emit(userId, "n", [this.#now(), type, null, null, data, null, status, text]);
  }

  /** `on`: validates, reserves, submits, settles — all in one transaction. */
  place(userId: number, input: OrderInput): PlaceResult {
    const fail = (code: number, msg: string): PlaceResult => {
      this.#notify(userId, "on-req", null, "ERROR", msg);
      this.#flush();
      return { ok: false, code, msg };
    };
    const type = typeof input.type === "string" ? input.type : "";
    if (type in STOP_TYPES) return this.#placeStop(userId, type, input, fail);
    const engineType = ENGINE_TYPES[type];
    if (!engineType) return fail(10001, "Invalid order: type");
    const symbol = typeof input.symbol === "string" ? input.symbol : "";
    const info = parseSymbol(symbol);
    const market = this.#ex.markets.get(symbol);
    if (!info || info.kind !== "trading" || !market || info.derivative) return fail(10001, "Invalid order: symbol");
    const amount = num(input.amount);
    if (!Number.isFinite(amount) || amount === 0 || Math.abs(amount) > 1e9 || Math.abs(amount) < 1e-8)
      return fail(10001, "Invalid order: amount");
    const price = engineType === "MARKET" ? Number.NaN : num(input.price);
    if (engineType !== "MARKET" && !(Number.isFinite(price) && price > 0 && price < 1e12))
      return fail(10001, "Invalid order: price");
    const flags = typeof input.flags === "number" && Number.isInteger(input.flags) ? input.flags : 0;
    const cid = typeof input.cid === "number" && Number.isSafeInteger(input.cid) ? input.cid : null;
    let side: Side = amount > 0 ? "buy" : "sell";
    let size = Math.abs(amount);
    const margin = isMargin(type);
    const walletType: WalletType = margin ? "margin" : "exchange";
    // Reserve what the order can spend: quote for a buy (at its limit, or the book walk plus 2 %
    // for a market buy), base for a sell; a margin order its initial margin (positions.ts).
    const reserveCcy = margin || side === "buy" ? info.quote : info.base;
    let reserve: number;
    if (margin) {
      if ((flags & ORDER_FLAGS.OCO) !== 0) return fail(10001, "Invalid order: OCO needs an exchange limit order");
      const refused = this.#opens(userId, symbol, amount, flags) ? marginRefusal(this.#db, userId, symbol) : null;
      if (refused) return fail(10001, refused);
      const ref = engineType === "MARKET" ? (market.lastPrice() ?? Number.NaN) * 1.02 : price;
      if (!Number.isFinite(ref)) return fail(10001, "Invalid order: no market price");
      const prep = this.positions.prepare(userId, symbol, amount, ref, flags);
      if (!prep.ok) return fail(10001, prep.msg);
      ({ side, size, reserve } = prep);
    } else if (side === "sell") reserve = toUnits(size);
    else if (engineType !== "MARKET") reserve = toUnits(size * price);
    else {
      const est = this.#marketBuyCost(symbol, size);
      if (est === null) return fail(10001, "Invalid order: not enough liquidity");
      reserve = toUnits(est * 1.02);
    }
    const w = this.#wallet(userId, reserveCcy, walletType);
    if (!margin && w.balance - w.reserved < reserve) {
      return fail(
        10001,
        `Invalid order: not enough exchange balance for ${amount} ${symbol} at ${engineType === "MARKET" ? "market" : price}`,
      );
    }
    const now = this.#now();
    const row: OrderRow = {
      id: this.#nextOrderId(),
      user_id: userId,
      cid,
      gid: groupId(input.gid),
      symbol,
      type,
      side,
      price: engineType === "MARKET" ? null : price,
      amount_orig: toUnits(size),
      remaining: toUnits(size),
      avg_price: 0,
      status: "ACTIVE",
      flags,
      reserved: reserve,
      mts_create: now,
      mts_update: now,
      open: 1,
      trigger_price: null,
      aux_price: null,
      trail: null,
      triggered: 0,
      oco_peer: null,
    };
    // OCO: the limit plus a stop at `price_oco_stop` for the same amount. Only one of them can
    // execute, so the pair reserves once — the stop holds only what it could need beyond the limit.
    let stop: OrderRow | null = null;
    if ((flags & ORDER_FLAGS.OCO) !== 0) {
      if (engineType !== "LIMIT") return fail(10001, "Invalid order: OCO needs an exchange limit order");
      const stopPrice = num(input.price_oco_stop);
      const last = market.lastPrice();
      if (!(Number.isFinite(stopPrice) && stopPrice > 0 && stopPrice < 1e12))
        return fail(10001, "Invalid order: price_oco_stop");
      if (last !== null && (side === "sell" ? stopPrice >= last : stopPrice <= last))
        return fail(
          10001,
          `Invalid order: price_oco_stop must be ${side === "sell" ? "below" : "above"} the last price`,
        );
      const stopReserve = side === "sell" ? toUnits(size) : toUnits(size * stopPrice * 1.05);
      const extra = Math.max(0, stopReserve - reserve);
      if (w.balance - w.reserved < reserve + extra)
        return fail(10001, `Invalid order: not enough exchange balance for ${amount} ${symbol} (OCO)`);
      stop = {
        ...row,
        id: this.#nextOrderId(),
        type: "EXCHANGE STOP",
        price: stopPrice,
        reserved: extra,
        trigger_price: stopPrice,
        oco_peer: row.id,
      };
      row.oco_peer = stop.id;
    }
    let batch: Batch | null = null;
    this.#db.transaction(() => {
      this.#moveWallet(userId, reserveCcy, 0, reserve + (stop?.reserved ?? 0), null, walletType);
      this.#rows.set(row.id, row);
      this.#saveOrder(row);
      if (stop) {
        this.#rows.set(stop.id, stop);
        this.#saveOrder(stop);
        this.#emit(userId, "on", this.#orderWire(stop));
      }
      batch = this.#ex.placeOrder(symbol, {
        id: row.id,
        owner: userId,
        side,
        type: engineType,
        price,
        amount: size,
        cid,
        hidden: (flags & ORDER_FLAGS.HIDDEN) !== 0,
        postOnly: (flags & ORDER_FLAGS.POST_ONLY) !== 0,
        // The reservation is an estimate (the P0 book plus 2 %); the engine may walk further (own
        // orders skipped): it never spends more than the wallet holds free plus this reservation.
        ...(!margin && side === "buy" && engineType === "MARKET" ? { quoteBudget: w.balance - w.reserved } : {}),
      });
    })();
    const wire = this.#orderWire(row);
    // The request's notification goes first, then what the order did (on, te, wu, …); an OCO's
    // notification carries both legs.
    const text = `Submitting ${stop ? "OCO " : ""}${type.toLowerCase()} ${side} order for ${size} ${info.base}.`;
    // On the socket the notification carries the order itself (the recorded on-req frame); REST
    // wraps it in a list (w/order/submit's reply is built from `order` in rest-auth).
    const legs = stop ? [wire, this.#orderWire(stop)] : null;
    const data = legs ?? wire;
    this.#queue.unshift([userId, "n", [now, "on-req", null, null, data, null, "SUCCESS", text]]);
    this.#flush();
    if (batch === null) return { ok: false, code: 10001, msg: "Invalid order" };
    return legs ? { ok: true, order: wire, legs } : { ok: true, order: wire };
  }

  /**
   * STOP, STOP LIMIT and TRAILING STOP: kept off the book until the last trade price crosses the
   * trigger (a buy stop at or above it, a sell stop at or below), then sent as a market order, or a
   * limit order at `price_aux_limit`. A trailing stop's trigger follows the best price by
   * `price_trailing`.
   */
  #placeStop(
    userId: number,
    type: string,
    input: OrderInput & { price_aux_limit?: unknown; price_trailing?: unknown },
    fail: (code: number, msg: string) => PlaceResult,
  ): PlaceResult {
    const symbol = typeof input.symbol === "string" ? input.symbol : "";
    const info = parseSymbol(symbol);
    if (!info || info.kind !== "trading" || !this.#ex.markets.has(symbol) || info.derivative) {
      return fail(10001, "Invalid order: symbol");
    }
    const amount = num(input.amount);
    if (!Number.isFinite(amount) || amount === 0 || Math.abs(amount) > 1e9 || Math.abs(amount) < 1e-8) {
      return fail(10001, "Invalid order: amount");
    }
    let side: Side = amount > 0 ? "buy" : "sell";
    let size = Math.round(Math.abs(amount) * 1e8) / 1e8;
    const last = this.#ex.markets.get(symbol)?.lastPrice() ?? null;
    if (last === null) return fail(10001, "Invalid order: no market price");
    let trigger: number;
    let trail: number | null = null;
    if (type.endsWith("TRAILING STOP")) {
      trail = num(input.price_trailing);
      if (!(Number.isFinite(trail) && trail > 0 && trail < last)) return fail(10001, "Invalid order: price_trailing");
      trigger = side === "sell" ? last - trail : last + trail;
    } else {
      trigger = num(input.price);
      if (!(Number.isFinite(trigger) && trigger > 0 && trigger < 1e12)) return fail(10001, "Invalid order: price");
    }
    const aux = type.endsWith("STOP LIMIT") ? num(input.price_aux_limit) : null;
    if (aux !== null && !(Number.isFinite(aux) && aux > 0 && aux < 1e12)) {
      return fail(10001, "Invalid order: price_aux_limit");
    }
    // A buy reserves quote for the worst it can pay: its limit, or the trigger plus 5 % slippage.
    const margin = isMargin(type);
    const flags = typeof input.flags === "number" && Number.isInteger(input.flags) ? input.flags : 0;
    const reserveCcy = margin || side === "buy" ? info.quote : info.base;
    let reserve = side === "sell" ? toUnits(size) : toUnits(size * (aux ?? trigger * 1.05));
    if (margin) {
      const refused = this.#opens(userId, symbol, amount, flags) ? marginRefusal(this.#db, userId, symbol) : null;
      if (refused) return fail(10001, refused);
      const prep = this.positions.prepare(userId, symbol, amount, aux ?? trigger * 1.05, flags);
      if (!prep.ok) return fail(10001, prep.msg);
      ({ side, size, reserve } = prep);
    }
    const w = this.#wallet(userId, reserveCcy, margin ? "margin" : "exchange");
    if (!margin && w.balance - w.reserved < reserve)
      return fail(10001, `Invalid order: not enough exchange balance for ${amount} ${symbol}`);
    const now = this.#now();
    const row: OrderRow = {
      id: this.#nextOrderId(),
      user_id: userId,
      cid: typeof input.cid === "number" && Number.isSafeInteger(input.cid) ? input.cid : null,
      gid: groupId(input.gid),
      symbol,
      type,
      side,
      price: trigger,
      amount_orig: toUnits(size),
      remaining: toUnits(size),
      avg_price: 0,
      status: "ACTIVE",
      flags,
      reserved: reserve,
      mts_create: now,
      mts_update: now,
      open: 1,
      trigger_price: trigger,
      aux_price: aux,
      trail,
      triggered: 0,
      oco_peer: null,
    };
    this.#db.transaction(() => {
      this.#moveWallet(userId, reserveCcy, 0, reserve, null, margin ? "margin" : "exchange");
      this.#rows.set(row.id, row);
      this.#saveOrder(row);
    })();
    const wire = this.#orderWire(row);
    const text = `Submitting ${type.toLowerCase()} ${side} order for ${size} ${info.base}.`;
    this.#queue.unshift([userId, "n", [now, "on-req", null, null, wire, null, "SUCCESS", text]]);
    this.#emit(userId, "on", wire);
    this.#flush();
    return { ok: true, order: wire };
  }

  /** After every batch with trades: move trailing triggers, and fire the stops that were crossed. */
  #checkStops(batch: Batch): void {
    const last = batch.trades[batch.trades.length - 1]?.price;
    if (last === undefined) return;
    const fired: OrderRow[] = [];
    for (const r of this.#rows.values()) {
      if (r.symbol !== batch.market.symbol || r.trigger_price === null || r.triggered === 1 || r.open !== 1) continue;
      if (r.trail !== null) {
        const moved =
          r.side === "sell" ? Math.max(r.trigger_price, last - r.trail) : Math.min(r.trigger_price, last + r.trail);
        if (moved !== r.trigger_price) {
          r.trigger_price = moved;
          r.price = moved;
        }
      }
      if (r.side === "buy" ? last >= r.trigger_price : last <= r.trigger_price) fired.push(r);
    }
    // Fire once this batch has been handled everywhere: a stop's own order is a new batch.
    if (fired.length > 0) queueMicrotask(() => this.#fire(fired));
  }

  /**
   * Sends crossed stops to the book. Runs on a microtask, outside any request: a stop that throws
   * is logged and the others still fire (nothing may escape into the process).
   */
  #fire(rows: OrderRow[]): void {
    for (const r of rows) {
      try {
        this.#fireOne(r);
      } catch (e) {
        this.#queue.length = 0;
        logError(`stop ${r.id} (${r.symbol})`, e);
      }
    }
  }

  #fireOne(r: OrderRow): void {
    if (r.open !== 1 || r.triggered === 1) return;
    const limit = STOP_TYPES[r.type] === "LIMIT";
    this.#db.transaction(() => {
      // Marked first: the OCO limit's cancellation below must not take this stop with it.
      r.triggered = 1;
      const peer = r.oco_peer !== null ? this.#rows.get(r.oco_peer) : undefined;
      if (peer && peer.open === 1) {
        // The stop side of an OCO acted: it takes over the pair's reservation, the limit goes.
        r.reserved += peer.reserved;
        peer.reserved = 0;
        this.#ex.cancel(peer.symbol, peer.id);
      }
      r.mts_update = this.#now();
      // A stop that becomes a market buy reserved at its trigger (plus 5 %), but the market may
      // be far above it: what it can spend is its reservation and the wallet's free balance.
      // Checked before matching, so the engine never fills what settlement could not book; one
      // that cannot be paid in full is cancelled unfilled, as the real exchange refuses it.
      let quoteBudget: number | undefined;
      if (!limit && r.side === "buy" && !isMargin(r.type)) {
        const ccy = parseSymbol(r.symbol);
        const w = ccy?.kind === "trading" ? this.#wallet(r.user_id, ccy.quote) : { balance: 0, reserved: 0 };
        quoteBudget = r.reserved + w.balance - w.reserved;
        const need = this.#ex.markets.get(r.symbol)?.engine.buyCost(fromUnits(r.remaining), r.user_id) ?? null;
        if (need !== null && need > quoteBudget) {
          this.#closeUnpaid(r, need, quoteBudget);
          return;
        }
      }
      this.#saveOrder(r);
      this.#ex.placeOrder(r.symbol, {
        id: r.id,
        owner: r.user_id,
        side: r.side,
        type: limit ? "LIMIT" : "MARKET",
        price: limit ? (r.aux_price as number) : Number.NaN,
        amount: fromUnits(r.remaining),
        cid: r.cid,
        ...(quoteBudget !== undefined ? { quoteBudget } : {}),
      });
    })();
    this.#flush();
  }

  /** A triggered stop the account cannot pay for: closed unfilled, its reservation released. */
  #closeUnpaid(r: OrderRow, need: number, budget: number): void {
    r.open = 0;
    r.status = "INSUFFICIENT BALANCE";
    this.#release(r);
    this.#saveOrder(r);
    const wire = this.#orderWire(r);
    this.#emit(r.user_id, "oc", wire);
    const info = parseSymbol(r.symbol);
    const ccy = info?.kind === "trading" ? info.quote : "";
    this.#notify(
      r.user_id,
      "on-req",
      wire,
      "ERROR",
      `Invalid order: not enough exchange balance for ${fromUnits(r.remaining)} ${r.symbol} at market (needs ${fromUnits(need)} ${ccy}, ${fromUnits(budget)} available)`,
    );
    this.#rows.delete(r.id);
  }

  #marketBuyCost(symbol: string, size: number): number | null {
    const book = this.#ex.markets.get(symbol)?.books.get("P0");
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
    const row = this.#rows.get(id);
    if (!row || row.user_id !== userId || row.open !== 1) {
      this.#notify(userId, "oc-req", null, "ERROR", "Order not found.");
      this.#flush();
      return { ok: false, code: 10001, msg: "Order not found." };
    }
    this.#notify(
      userId,
      "oc-req",
      this.#orderWire(row),
      "SUCCESS",
      `Submitted for cancellation; waiting for confirmation (ID: ${id}).`,
    );
    if (row.trigger_price !== null && row.triggered === 0) {
      // A stop not yet triggered is not on the book: close it here (and its OCO limit with it).
      this.#db.transaction(() => {
        this.#closePendingStop(row);
        const peer = row.oco_peer !== null ? this.#rows.get(row.oco_peer) : undefined;
        if (peer && peer.open === 1) this.#ex.cancel(peer.symbol, peer.id);
      })();
      this.#flush();
      return { ok: true, order: this.#orderWire(row) };
    }
    // Cancelling an OCO's limit takes its pending stop too (settlement closes it with the limit).
    this.#db.transaction(() => this.#ex.cancel(row.symbol, id))();
    this.#flush();
    return { ok: true, order: this.#orderWire(row) };
  }

  /**
   * Updates a resting limit order's price and/or amount (`ou`, `w/order/update`): `amount` is the
   * new total (signed like the order), `delta` a change to it. The order leaves the book and comes
   * back under the same id (losing its time priority, as on the real exchange), with its
   * reservation resized first so the balance never goes negative.
   */
  update(userId: number, input: Record<string, unknown>): PlaceResult {
    const fail = (msg: string): PlaceResult => {
      this.#notify(userId, "ou-req", null, "ERROR", msg);
      this.#flush();
      return { ok: false, code: 10001, msg };
    };
    const id = input["id"];
    const row = typeof id === "number" ? this.#rows.get(id) : undefined;
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
      if (!(Number.isFinite(price) && price > 0 && price < 1e12)) return fail("Invalid order: price");
    }
    const remaining = total - filled;
    const margin = isMargin(row.type);
    const walletType: WalletType = margin ? "margin" : "exchange";
    const reserveCcy = margin || row.side === "buy" ? info.quote : info.base;
    let reserve = row.side === "buy" ? Math.round(fromUnits(remaining) * price * 1e8) : remaining;
    if (margin) {
      // The close flag sized the order when placed; an update sizes it explicitly.
      const flags = row.flags & ~ORDER_FLAGS.CLOSE;
      const prep = this.positions.prepare(userId, row.symbol, sign * fromUnits(remaining), price, flags, row.reserved);
      if (!prep.ok) return fail(prep.msg);
      reserve = prep.reserve;
    }
    const w = this.#wallet(userId, reserveCcy, walletType);
    if (!margin && w.balance - w.reserved + row.reserved < reserve)
      return fail(`Invalid order: not enough exchange balance to update order ${row.id}`);
    const now = this.#now();
    this.#notify(userId, "ou-req", this.#orderWire(row), "SUCCESS", `Submitting update to order ${row.id}.`);
    const amend = { phase: "off" as "off" | "on", filled, avg: row.avg_price };
    this.#amending.set(row.id, amend);
    try {
      this.#db.transaction(() => {
        this.#ex.cancel(row.symbol, row.id);
        this.#moveWallet(userId, reserveCcy, 0, reserve - row.reserved, null, walletType);
        row.reserved = reserve;
        row.price = price;
        row.amount_orig = total;
        row.remaining = remaining;
        row.mts_update = now;
        this.#saveOrder(row);
        amend.phase = "on";
        this.#ex.placeOrder(row.symbol, {
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
      })();
    } finally {
      this.#amending.delete(row.id);
    }
    this.#flush();
    return { ok: true, order: this.#orderWire(row) };
  }

  /** Closes a stop that has not triggered (it is not on the book), releasing what it reserved. */
  #closePendingStop(row: OrderRow): void {
    row.open = 0;
    row.status = "CANCELED";
    row.mts_update = this.#now();
    this.#release(row);
    this.#saveOrder(row);
    this.#emit(row.user_id, "oc", this.#orderWire(row));
    this.#rows.delete(row.id);
  }

  /**
   * `oc` / `w/order/cancel` (PROTOCOL.md 4.3, 6): `{id}`, or `{cid, cid_date: "YYYY-MM-DD"}` — the
   * open order with that client id created on that UTC day. Anything else is answered with an
   * `oc-req` ERROR notification (a client waits for one) and 10020.
   */
  cancelInput(userId: number, input: Record<string, unknown>): PlaceResult {
    const id = input["id"];
    if (typeof id === "number" && Number.isSafeInteger(id)) return this.cancel(userId, id);
    const cid = input["cid"];
    const date = input["cid_date"];
    if (id === undefined && typeof cid === "number" && Number.isSafeInteger(cid) && isCidDate(date)) {
      const row = [...this.#rows.values()].find(
        (r) => r.user_id === userId && r.open === 1 && r.cid === cid && utcDay(r.mts_create) === date,
      );
      if (row) return this.cancel(userId, row.id);
      this.#notify(userId, "oc-req", null, "ERROR", "Order not found.");
      this.#flush();
      return { ok: false, code: 10001, msg: "Order not found." };
    }
    const msg = "Invalid cancel: id, or cid and cid_date (YYYY-MM-DD), required";
    this.#notify(userId, "oc-req", null, "ERROR", msg);
    this.#flush();
    return { ok: false, code: 10020, msg };
  }

  /**
   * `oc_multi` / `w/order/cancel/multi` (PROTOCOL.md 4.3, 6): the user's open orders picked by
   * `{id: [...]}`, `{cid: [[CID, "YYYY-MM-DD"], ...]}` (the UTC day the order was created),
   * `{gid: [...]}` (the `on` input's group id) or `{all: 1}`, cancelled; returns them as they
   * closed (the reply's array of orders), or null for a request that names none of these (an
   * `oc_multi-req` ERROR notification is sent).
   */
  cancelMulti(userId: number, input: Record<string, unknown>): unknown[][] | null {
    const out: unknown[][] = [];
    if (input["all"] !== 1 && Array.isArray(input["id"])) {
      // Every id asked for gets its answer (an oc-req notification), found or not: a client waits
      // for one per id, and an OCO leg cancelled with its peer is answered "not found".
      for (const id of input["id"]) {
        if (typeof id !== "number") continue;
        const res = this.cancel(userId, id);
        if (res.ok) out.push(res.order);
      }
      return out;
    }
    const open = [...this.#rows.values()].filter((r) => r.user_id === userId && r.open === 1);
    let picked: OrderRow[];
    if (input["all"] === 1) picked = open;
    else if (Array.isArray(input["cid"])) {
      const keys = new Set(
        input["cid"].flatMap((c: unknown) => (Array.isArray(c) ? [`${String(c[0])}|${String(c[1])}`] : [])),
      );
      picked = open.filter((r) => r.cid !== null && keys.has(`${r.cid}|${utcDay(r.mts_create)}`));
    } else if (Array.isArray(input["gid"])) {
      const gids = new Set(input["gid"].filter((g): g is number => typeof g === "number"));
      picked = open.filter((r) => r.gid !== null && gids.has(r.gid));
    } else {
      this.#notify(userId, "oc_multi-req", null, "ERROR", "Invalid cancel: id, cid, gid or all required");
      this.#flush();
      return null;
    }
    // An OCO leg may already have gone with its peer.
    for (const r of picked) {
      if (this.#rows.get(r.id)?.open !== 1) continue;
      const res = this.cancel(userId, r.id);
      if (res.ok) out.push(res.order);
    }
    return out;
  }

  cancelAll(userId: number): number {
    const ids = [...this.#rows.values()].filter((r) => r.user_id === userId && r.open === 1).map((r) => r.id);
    // An OCO leg may already have gone with its peer.
    for (const id of ids) if (this.#rows.get(id)?.open === 1) this.cancel(userId, id);
    return ids.length;
  }

  /** Closed orders, newest first (REST r/orders/hist). */
  orderHistoryWire(userId: number, symbol: string | null, limit: number): unknown[][] {
    const rows = this.#db
      .prepare(
        `SELECT * FROM orders WHERE user_id = ? AND open = 0 ${symbol ? "AND symbol = ?" : ""} ORDER BY mts_update DESC LIMIT ?`,
      )
      .all(...(symbol ? [userId, symbol, limit] : [userId, limit])) as OrderRow[];
    return rows.map((r) => this.#orderWire(r));
  }

  /** Own trades, newest first (REST r/trades/hist), 12-field records with fees. */
  tradesWire(userId: number, symbol: string | null, limit: number): unknown[][] {
    const rows = this.#db
      .prepare(`SELECT * FROM trades WHERE user_id = ? ${symbol ? "AND symbol = ?" : ""} ORDER BY id DESC LIMIT ?`)
      .all(...(symbol ? [userId, symbol, limit] : [userId, limit])) as {
      trade_id: number;
      symbol: string;
      mts: number;
      order_id: number;
      amount: number;
      price: number;
      order_type: string;
      order_price: number | null;
      maker: number;
      fee: number;
      fee_currency: string;
    }[];
    return rows.map((t) => [
      t.trade_id,
      t.symbol,
      t.mts,
      t.order_id,
      fromUnits(t.amount),
      t.price,
      t.order_type,
      t.order_price,
      t.maker ? 1 : -1,
      fromUnits(t.fee),
      t.fee_currency,
      null,
    ]);
  }

  /** Ledger entries, newest first: [ID, CCY, WALLET, MTS, null, AMOUNT, BALANCE, null, DESCRIPTION]. */
  ledgersWire(userId: number, currency: string | null, limit: number): unknown[][] {
    const rows = this.#db
      .prepare(`SELECT * FROM ledgers WHERE user_id = ? ${currency ? "AND currency = ?" : ""} ORDER BY id DESC LIMIT ?`)
      .all(...(currency ? [userId, currency, limit] : [userId, limit])) as {
      id: number;
      currency: string;
      wallet: string;
      mts: number;
      amount: number;
      balance: number;
      description: string;
    }[];
    return rows.map((l) => [
      l.id,
      l.currency,
      l.wallet,
      l.mts,
      null,
      fromUnits(l.amount),
      fromUnits(l.balance),
      null,
      l.description,
    ]);
  }

  // --- settlement ----------------------------------------------------------------------------

  #settle(batch: Batch): void {
    const { result } = batch;
    const involved =
      result.order.owner > 0 || result.fills.some((f) => f.maker.owner > 0) || result.touched.some((o) => o.owner > 0);
    if (!involved) return;
    const run = (): void => {
      const info = parseSymbol(batch.market.symbol);
      if (!info || info.kind !== "trading") return;
      const fees = feeRates(batch.market.symbol);
      // Margin orders release their reservation pro rata over what is left of them.
      const left = new Map<number, number>();
      for (const f of result.fills) {
        for (const [o, maker] of [
          [f.taker, false],
          [f.maker, true],
        ] as const) {
          if (o.owner <= 0) continue;
          const row = this.#rows.get(o.id);
          if (!row) continue;
          const feeRate = maker ? fees.maker : fees.taker;
          const base = toUnits(f.amount);
          const quote = Math.round(f.amount * f.price * 1e8);
          if (isMargin(row.type)) {
            const before = left.get(row.id) ?? row.remaining;
            const released =
              before > base ? Math.min(row.reserved, Math.round((row.reserved * base) / before)) : row.reserved;
            left.set(row.id, before - base);
            row.reserved -= released;
            const fee = Math.round(quote * feeRate);
            const signed = o.side === "buy" ? base : -base;
            this.positions.fill(o.owner, row.symbol, signed, f.price, fee, released);
            this.#recordTrade(o, row, f.tradeId, f.mts, signed, f.price, maker, -fee, info.quote);
          } else {
            // A buy pays quote and receives base, a sell the reverse; the fee comes out of what is
            // received. A buy releases its reservation at the order's limit (or its share of a
            // market reservation); a sell reserved the base it pays.
            const buy = o.side === "buy";
            const limitPrice =
              row.trigger_price === null ? row.price : row.type === "EXCHANGE STOP LIMIT" ? row.aux_price : null;
            const released = !buy
              ? Math.min(row.reserved, base)
              : limitPrice !== null
                ? Math.min(row.reserved, Math.round(f.amount * limitPrice * 1e8))
                : Math.min(row.reserved, quote);
            const [payCcy, pay, getCcy, get] = buy
              ? [info.quote, quote, info.base, base]
              : [info.base, base, info.quote, quote];
            row.reserved -= released;
            this.#moveWallet(
              o.owner,
              payCcy,
              -pay,
              -released,
              `Exchange ${f.amount} ${info.base} for ${info.quote} @ ${f.price}`,
            );
            const fee = Math.round(get * feeRate);
            this.#moveWallet(o.owner, getCcy, get - fee, 0, `Trading fees for ${f.amount} ${info.base} @ ${f.price}`);
            this.#recordTrade(o, row, f.tradeId, f.mts, buy ? base : -base, f.price, maker, -fee, getCcy);
          }
        }
      }
      for (const o of [result.order, ...result.touched]) {
        if (o.owner <= 0) continue;
        const row = this.#rows.get(o.id);
        if (!row) continue;
        const amend = this.#amending.get(o.id);
        if (amend?.phase === "off") continue;
        // An order self-trade prevention cancelled keeps what was left of it (PROTOCOL.md 4.2: a
        // cancelled order's `oc` carries the leftover), though the engine has zeroed it.
        row.remaining = toUnits(o.leftover ?? o.remaining);
        if (amend) {
          // The put-back order only knows its own fills: blend them with the earlier ones.
          const before = amend.filled;
          const now = row.amount_orig - row.remaining - before;
          row.avg_price = before + now > 0 ? (amend.avg * before + o.avgPrice * now) / (before + now) : 0;
        } else row.avg_price = o.avgPrice;
        row.status = o.status;
        row.mts_update = o.mtsUpdate;
        const closed = o.remaining <= 0 || !(o === result.order ? result.rested || this.#resting(o) : this.#resting(o));
        if (closed && row.open === 1) {
          row.open = 0;
          this.#release(row);
        }
        this.#saveOrder(row);
        this.#emit(
          o.owner,
          row.open === 1 ? (o === result.order && result.fills.length === 0 && !amend ? "on" : "ou") : "oc",
          this.#orderWire(row),
        );
        if (row.open === 0) this.#rows.delete(row.id);
        // An OCO's limit that fills (even in part) or closes takes its pending stop with it.
        const peer = row.oco_peer !== null ? this.#rows.get(row.oco_peer) : undefined;
        if (peer && peer.open === 1 && peer.triggered === 0 && (row.open === 0 || row.remaining < row.amount_orig))
          this.#closePendingStop(peer);
      }
    };
    // Read before settling: settlement forgets the orders it closes.
    const margin = result.fills.some((f) => [f.taker, f.maker].some((o) => o.owner > 0 && this.#marginRow(o.id)));
    // The user's own `place`/`cancel` already runs inside a transaction; simulator-driven fills of
    // a user's resting order get their own.
    if (this.#db.inTransaction) run();
    else {
      this.#db.transaction(run)();
      this.#flush();
    }
    // A position that shrank may leave reduce-only orders larger than it: trimmed once this batch
    // has been handled everywhere (a cancellation is a batch of its own, like a firing stop).
    if (margin) queueMicrotask(guarded("reduce-only trim", () => this.#cancelExcessReduceOnly(batch.market.symbol)));
  }

  #marginRow(id: number): boolean {
    const r = this.#rows.get(id);
    return r !== undefined && isMargin(r.type);
  }

  /** Cancels reduce-only (and close) margin orders that would now open or increase a position. */
  #cancelExcessReduceOnly(symbol: string): void {
    const reduceOnly = ORDER_FLAGS.REDUCE_ONLY | ORDER_FLAGS.CLOSE;
    for (const r of [...this.#rows.values()]) {
      if (r.symbol !== symbol || r.open !== 1 || !isMargin(r.type) || (r.flags & reduceOnly) === 0) continue;
      const held = this.positions.get(r.user_id, symbol)?.amount ?? 0;
      const closing = r.side === "buy" ? -held : held;
      if (closing >= r.remaining) continue;
      if (r.trigger_price !== null && r.triggered === 0) this.#db.transaction(() => this.#closePendingStop(r))();
      else this.#db.transaction(() => this.#ex.cancel(r.symbol, r.id))();
      this.#flush();
    }
  }

  #resting(o: EngineOrder): boolean {
    return this.#ex.markets.get(this.#rows.get(o.id)?.symbol ?? "")?.engine.get(o.id) !== undefined;
  }

  #recordTrade(
    o: EngineOrder,
    row: OrderRow,
    tradeId: number,
    mts: number,
    amount: number,
    price: number,
    maker: boolean,
    fee: number,
    feeCcy: string,
  ): void {
    this.#db
      .prepare(
        "INSERT INTO trades (trade_id, user_id, order_id, symbol, mts, amount, price, order_type, order_price, maker, fee, fee_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(tradeId, o.owner, o.id, row.symbol, mts, amount, price, row.type, row.price, maker ? 1 : 0, fee, feeCcy);
    const te = [
      tradeId,
      row.symbol,
      mts,
      o.id,
      fromUnits(amount),
      price,
      row.type,
      row.price,
      maker ? 1 : -1,
      null,
      null,
      row.cid,
    ];
    this.#emit(o.owner, "te", te);
    const tu = [...te];
    tu[9] = fromUnits(fee);
    tu[10] = feeCcy;
    if (authTradeCodec.decode(tu).ok) this.#emit(o.owner, "tu", tu);
  }
}

/** The `on` input's group id: an int32, else none. */
function groupId(v: unknown): number | null {
  return typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? v : null;
}

/** The UTC day of a timestamp, as `cid_date` names it. */
function utcDay(mts: number): string {
  return new Date(mts).toISOString().slice(0, 10);
}

function isCidDate(v: unknown): v is string {
  return typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v);
}
