/**
 * The stop (trigger) book: STOP, STOP LIMIT and TRAILING STOP orders wait here, off the matching
 * engine's book, until the last trade price crosses their trigger (a buy stop at or above it, a sell
 * stop at or below); a trailing stop's trigger follows the best price by its distance. A crossed
 * stop goes to the engine as a market order, or a limit order at its `price_aux_limit`; the stop
 * leg of an OCO pair takes its limit leg off the book as it fires.
 */
import { fromUnits } from "../store/db.ts";
import { logError } from "../log.ts";
import { notice } from "../reply.ts";
import type { Balances } from "./balances.ts";
import type { AccountEvents } from "./events.ts";
import type { Batch, Exchange } from "./exchange.ts";
import { isMargin, isPendingStop, reserveOf, type OrderRow, type OrderStore } from "./order-store.ts";

/** Stop order types and what they become when they trigger. */
export const STOP_TYPES: ReadonlyMap<string, "MARKET" | "LIMIT"> = new Map([
  ["EXCHANGE STOP", "MARKET"],
  ["EXCHANGE STOP LIMIT", "LIMIT"],
  ["EXCHANGE TRAILING STOP", "MARKET"],
  ["STOP", "MARKET"],
  ["STOP LIMIT", "LIMIT"],
  ["TRAILING STOP", "MARKET"],
]);

export class StopBook {
  constructor(
    readonly store: OrderStore,
    readonly balances: Balances,
    readonly exchange: Exchange,
    readonly events: AccountEvents,
  ) {}

  /** After every batch with trades: move trailing triggers, and fire the stops that were crossed. */
  check(batch: Batch): void {
    const last = batch.trades[batch.trades.length - 1]?.price;
    if (last === undefined) return;
    const fired: OrderRow[] = [];
    for (const r of this.store.open.values()) {
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
   * is logged (its transaction rolled back) and the others still fire.
   */
  #fire(rows: OrderRow[]): void {
    for (const r of rows) {
      try {
        this.#fireOne(r);
      } catch (e) {
        logError(`stop ${r.id} (${r.symbol})`, e);
      }
    }
  }

  #fireOne(r: OrderRow): void {
    if (r.open !== 1 || !isPendingStop(r)) return;
    const limit = STOP_TYPES.get(r.type) === "LIMIT";
    this.events.atomically(() => {
      // Marked first: the OCO limit's cancellation below must not take this stop with it.
      r.triggered = 1;
      const peer = r.oco_peer !== null ? this.store.open.get(r.oco_peer) : undefined;
      if (peer && peer.open === 1) {
        // The stop side of an OCO acted: it takes over the pair's reservation, the limit goes.
        r.reserved += peer.reserved;
        peer.reserved = 0;
        this.exchange.cancel(peer.symbol, peer.id);
      }
      r.mts_update = this.store.now();
      // A stop that becomes a market buy reserved at its trigger (plus 5 %), but the market may
      // be far above it: what it can spend is its reservation and the wallet's free balance.
      // Checked before matching, so the engine never fills what settlement could not book; one
      // that cannot be paid in full is cancelled unfilled, as the real exchange refuses it.
      let quoteBudget: number | undefined;
      const where = reserveOf(r.symbol, r.type, r.side);
      if (!limit && r.side === "buy" && !isMargin(r.type)) {
        quoteBudget = r.reserved + (where ? this.balances.available(r.user_id, where.wallet, where.currency) : 0);
        const need = this.exchange.markets.get(r.symbol)?.engine.buyCost(fromUnits(r.remaining), r.user_id) ?? null;
        if (need !== null && need > quoteBudget) {
          const wire = this.store.closeOffBook(r, "INSUFFICIENT BALANCE");
          const text = `Invalid order: not enough exchange balance for ${fromUnits(r.remaining)} ${r.symbol} at market (needs ${fromUnits(need)} ${where?.currency ?? ""}, ${fromUnits(quoteBudget)} available)`;
          this.events.emit(r.user_id, "n", notice(this.store.now(), "on-req", wire, "ERROR", text));
          return;
        }
      }
      this.store.save(r);
      this.exchange.placeOrder(r.symbol, {
        id: r.id,
        owner: r.user_id,
        side: r.side,
        type: limit ? "LIMIT" : "MARKET",
        price: limit ? (r.aux_price as number) : Number.NaN,
        amount: fromUnits(r.remaining),
        cid: r.cid,
        ...(quoteBudget !== undefined ? { quoteBudget } : {}),
      });
    });
  }
}
