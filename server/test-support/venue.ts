/**
 * For the trading tests: an in-memory database, one tBTCUSD market on a clock the test moves,
 * account trading (venue.ts `openTrading`) with every account event recorded, and one signed-up
 * user (not yet funded).
 */
import { Accounts } from "../store/accounts.ts";
import { openDb, type Db } from "../store/db.ts";
import { Exchange } from "../exchange/exchange.ts";
import { openTrading, type Trading } from "../exchange/venue.ts";

export const TEST_SYMBOL = "tBTCUSD";

export interface TestVenue extends Omit<Trading, "events"> {
  readonly db: Db;
  readonly exchange: Exchange;
  readonly user: number;
  /** Every account event sent, as [user, type, payload]. */
  readonly events: [number, string, unknown][];
  /** Moves the clock on by `ms`; returns the new time. */
  tick(ms: number): number;
}

export function testVenue(email: string, username: string): TestVenue {
  const db = openDb(":memory:");
  let now = 1_700_000_000_000;
  const exchange = new Exchange({ now: () => now, seed: 3, markets: [{ symbol: TEST_SYMBOL, start: 30_000 }] });
  const events: [number, string, unknown][] = [];
  const trading = openTrading(db, exchange, () => now);
  trading.events.onEvent((u, t, p) => events.push([u, t, p]));
  const accounts = new Accounts(db);
  const user = accounts.createUser(email, username, "pw-123456", now, true);
  return { ...trading, db, exchange, user, events, tick: (ms: number) => (now += ms) };
}
