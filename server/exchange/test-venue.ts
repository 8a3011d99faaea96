/**
 * For the trading tests: an in-memory database, one tBTCUSD market on a clock the test moves,
 * Trading with every account event recorded, and one signed-up user (not yet funded).
 */
import { Accounts } from "../store/accounts.ts";
import { nextIdFrom, openDb, type Db } from "../store/db.ts";
import { Exchange } from "./exchange.ts";
import { Trading } from "./trading.ts";

export const TEST_SYMBOL = "tBTCUSD";

export interface TestVenue {
  readonly db: Db;
  readonly exchange: Exchange;
  readonly trading: Trading;
  readonly user: number;
  /** Every account event Trading emitted, as [user, type, payload]. */
  readonly events: [number, string, unknown][];
  /** Moves the clock on by `ms`; returns the new time. */
  tick(ms: number): number;
}

export function testVenue(email: string, username: string): TestVenue {
  const db = openDb(":memory:");
  let now = 1_700_000_000_000;
  const exchange = new Exchange({ now: () => now, seed: 3, markets: [{ symbol: TEST_SYMBOL, start: 30_000 }] });
  const events: [number, string, unknown][] = [];
  const trading = new Trading(
    db,
    exchange,
    () => now,
    (u, t, p) => events.push([u, t, p]),
    nextIdFrom(db, "order", 0),
  );
  const accounts = new Accounts(db);
  const user = accounts.createUser(email, username, "pw-123456", now, true);
  return { db, exchange, trading, user, events, tick: (ms: number) => (now += ms) };
}
