/**
 * The exchange-wide liquidation feed behind the public `liq:global` status channel: every
 * liquidated margin position is published here as the row Bitfinex sends (PROTOCOL.md 5,
 * `["pos", POS_ID, MTS, null, SYMBOL, AMOUNT, BASE_PRICE, null, IS_MATCH, IS_MARKET_SOLD, null,
 * LIQ_PRICE]`). It lives on the Exchange, not on the account side, because the public host serves
 * the channel without any account wiring.
 */
import { liquidationCodec, type Liquidation } from "../../src/protocol/index.ts";

export class LiquidationFeed {
  readonly #listeners = new Set<(row: unknown[]) => void>();
  /** The most recent rows, newest first (REST `liquidations/hist`); not kept across restarts. */
  readonly recent: unknown[][] = [];

  on(listener: (row: unknown[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(l: Liquidation): void {
    const row = liquidationCodec.encode(l);
    this.recent.unshift(row);
    if (this.recent.length > 100) this.recent.length = 100;
    for (const fn of this.#listeners) fn(row);
  }
}
