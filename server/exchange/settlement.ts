/**
 * Settlement of account orders' fills, on every batch of the matching engine: the spot wallet moves
 * with maker/taker fees (a margin fill goes to the position instead, positions.ts), the own trade
 * (`te`, then `tu` with its fee) and its row in the `trades` table, and each order's new state
 * (`on`/`ou`/`oc`); an OCO limit that fills or closes takes its pending stop with it, and a position
 * that shrank trims the reduce-only orders it no longer covers. All in one transaction with the
 * batch's cause (the caller's, or one of its own for a simulator-driven fill).
 */
import { authTradeCodec, MAKER_FEE_RATE, ORDER_FLAGS, parseSymbol, TAKER_FEE_RATE } from "../../src/protocol/index.ts";
import { fromUnits, toUnits } from "../store/db.ts";
import { guarded } from "../log.ts";
import type { Balances } from "./balances.ts";
import type { EngineOrder } from "./engine.ts";
import type { AccountEvents } from "./events.ts";
import type { Batch, Exchange } from "./exchange.ts";
import { isMargin, isPendingStop, type OrderRow, type OrderStore } from "./order-store.ts";
import type { Positions } from "./positions.ts";

export interface FeeRates {
  readonly maker: number;
  readonly taker: number;
}
const STANDARD_FEES: FeeRates = { maker: MAKER_FEE_RATE, taker: TAKER_FEE_RATE };
const NO_FEES: FeeRates = { maker: 0, taker: 0 };

/**
 * What settlement charges on a pair. The paper-trading TEST pairs trade free; `pub:info:pair:fee:ovr`
 * publishes every pair whose rates differ from the standard ones, from this same function.
 */
export function feeRates(symbol: string): FeeRates {
  return symbol.startsWith("tTEST") ? NO_FEES : STANDARD_FEES;
}

export class Settlement {
  constructor(
    readonly store: OrderStore,
    readonly balances: Balances,
    readonly positions: Positions,
    readonly exchange: Exchange,
    readonly events: AccountEvents,
  ) {}

  settle(batch: Batch): void {
    const { result } = batch;
    const involved =
      result.order.owner > 0 || result.fills.some((f) => f.maker.owner > 0) || result.touched.some((o) => o.owner > 0);
    if (!involved) return;
    const info = parseSymbol(batch.market.symbol);
    if (!info || info.kind !== "trading") return;
    // Read before settling: settlement forgets the orders it closes.
    const margin = result.fills.some((f) => [f.taker, f.maker].some((o) => o.owner > 0 && this.#marginOrder(o.id)));
    // The user's own `place`/`cancel` already runs inside a transaction (this is a savepoint in
    // it); simulator-driven fills of a user's resting order get their own.
    this.events.atomically(() => {
      const fees = feeRates(batch.market.symbol);
      // Margin orders release their reservation pro rata over what is left of them.
      const left = new Map<number, number>();
      for (const f of result.fills) {
        for (const [o, maker] of [
          [f.taker, false],
          [f.maker, true],
        ] as const) {
          const row = o.owner > 0 ? this.store.open.get(o.id) : undefined;
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
            this.positions.fill(o.owner, row.symbol, signed, f.price, fee, released, row.id);
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
            const exchanged = `Exchange ${f.amount} ${info.base} for ${info.quote} @ ${f.price}`;
            this.balances.move(o.owner, "exchange", payCcy, -pay, -released, exchanged);
            // What was received and the fee on it are two ledger rows, as Bitfinex writes them: the
            // ledger's categories (src/protocol/ledgers.ts) tell trades from fees.
            const fee = Math.round(get * feeRate);
            this.balances.move(o.owner, "exchange", getCcy, get, 0, exchanged);
            const text = `Trading fees for ${f.amount} ${info.base} (${info.base}${info.quote}) @ ${f.price} on wallet exchange`;
            if (fee > 0) this.balances.move(o.owner, "exchange", getCcy, -fee, 0, text);
            this.#recordTrade(o, row, f.tradeId, f.mts, buy ? base : -base, f.price, maker, -fee, getCcy);
          }
        }
      }
      for (const o of [result.order, ...result.touched]) {
        const row = o.owner > 0 ? this.store.open.get(o.id) : undefined;
        if (row) this.#orderState(row, o, batch);
      }
    });
    // A position that shrank may leave reduce-only orders larger than it: trimmed once this batch
    // has been handled everywhere (a cancellation is a batch of its own, like a firing stop).
    if (margin) this.trimReduceOnly(batch.market.symbol);
  }

  /** An order's state after the batch, stored and sent (`on` when it just rested, `ou`, or `oc`). */
  #orderState(row: OrderRow, o: EngineOrder, batch: Batch): void {
    const { result } = batch;
    const amend = this.store.amending.get(o.id);
    if (amend?.phase === "off") return;
    // An order self-trade prevention cancelled keeps what was left of it (docs/protocol.md#orders: a
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
    const resting = batch.market.engine.get(o.id) !== undefined;
    const closed = o.remaining <= 0 || !(o === result.order ? result.rested || resting : resting);
    if (closed && row.open === 1) {
      row.open = 0;
      this.store.release(row);
    }
    this.store.save(row);
    const type = row.open === 1 ? (o === result.order && result.fills.length === 0 && !amend ? "on" : "ou") : "oc";
    this.events.emit(o.owner, type, this.store.wire(row));
    if (row.open === 0) this.store.open.delete(row.id);
    // An OCO's limit that fills (even in part) or closes takes its pending stop with it.
    const peer = row.oco_peer !== null ? this.store.open.get(row.oco_peer) : undefined;
    if (peer && peer.open === 1 && isPendingStop(peer) && (row.open === 0 || row.remaining < row.amount_orig))
      this.store.closeOffBook(peer, "CANCELED");
  }

  #marginOrder(id: number): boolean {
    const r = this.store.open.get(id);
    return r !== undefined && isMargin(r.type);
  }

  /**
   * Cancels, on a microtask, the reduce-only (and close) margin orders on `symbol` that would now
   * open or increase a position (its position shrank, closed or was liquidated).
   */
  trimReduceOnly(symbol: string): void {
    queueMicrotask(
      guarded("reduce-only trim", () => {
        const reduceOnly = ORDER_FLAGS.REDUCE_ONLY | ORDER_FLAGS.CLOSE;
        for (const r of [...this.store.open.values()]) {
          if (r.symbol !== symbol || r.open !== 1 || !isMargin(r.type) || (r.flags & reduceOnly) === 0) continue;
          const held = this.positions.get(r.user_id, symbol)?.amount ?? 0;
          const closing = r.side === "buy" ? -held : held;
          if (closing >= r.remaining) continue;
          this.events.atomically(() => {
            if (isPendingStop(r)) this.store.closeOffBook(r, "CANCELED");
            else this.exchange.cancel(r.symbol, r.id);
          });
        }
      }),
    );
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
    this.store.db
      .prepare(
        "INSERT INTO trades (trade_id, user_id, order_id, symbol, mts, amount, price, order_type, order_price, maker, fee, fee_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(tradeId, o.owner, o.id, row.symbol, mts, amount, price, row.type, row.price, maker ? 1 : 0, fee, feeCcy);
    // `te` comes before the fee is known on the real exchange; `tu` carries it.
    const trade = {
      id: tradeId,
      pair: row.symbol,
      mts_create: mts,
      order_id: o.id,
      exec_amount: fromUnits(amount),
      exec_price: price,
      order_type: row.type,
      order_price: row.price,
      maker: maker ? 1 : -1,
      fee: null,
      fee_currency: null,
      cid: row.cid,
    };
    this.events.emit(o.owner, "te", authTradeCodec.encode(trade));
    this.events.emit(o.owner, "tu", authTradeCodec.encode({ ...trade, fee: fromUnits(fee), fee_currency: feeCcy }));
  }
}
