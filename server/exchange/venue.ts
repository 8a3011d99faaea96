/**
 * The exchange's parts wired together: markets, storage, accounts, trading and the account
 * gateway (which trading's events go through). One place for the wiring the host, the tests and
 * the bench all need; the demo account is seeded on a fresh database.
 */
import { Accounts } from "../store/accounts.ts";
import { nextIdFrom, openDb, type Db } from "../store/db.ts";
import { seedDemo } from "../store/seed.ts";
import { AccountGateway } from "./account-gateway.ts";
import { Exchange } from "./exchange.ts";
import { FundingLoans } from "./funding-loans.ts";
import { FundingOffers } from "./funding-offers.ts";
import type { SimulatedMarket } from "./simulator.ts";
import { Trading } from "./trading.ts";

export interface Venue {
  readonly exchange: Exchange;
  readonly db: Db;
  readonly accounts: Accounts;
  readonly trading: Trading;
  readonly gateway: AccountGateway;
  /** The demo account's id when this call seeded it, else null. */
  readonly seeded: number | null;
}

export function openVenue(o: {
  readonly dbPath: string;
  readonly seed: number;
  readonly now?: () => number;
  /** Defaults to every listed market. */
  readonly markets?: readonly SimulatedMarket[];
}): Venue {
  const now = o.now ?? (() => Date.now());
  const exchange = new Exchange({ now, seed: o.seed, ...(o.markets ? { markets: o.markets } : {}) });
  const db = openDb(o.dbPath);
  const accounts = new Accounts(db);
  // Trading emits through the gateway, which needs trading: the late binding closes the loop.
  let gateway: AccountGateway | null = null;
  const trading = new Trading(db, exchange, now, (u, t, p) => gateway?.emit(u, t, p), nextIdFrom(db, "order", 0));
  gateway = new AccountGateway(accounts, trading, now);
  const emit = (u: number, t: string, p: unknown): void => gateway?.emit(u, t, p);
  gateway.funding = new FundingOffers(db, exchange.funding, now, emit);
  // Loans back margin positions: attached to Trading's positions and to the offers' fills.
  gateway.loans = new FundingLoans(db, exchange, trading, gateway.funding, now, emit);
  const seeded = seedDemo(accounts, trading, now());
  return { exchange, db, accounts, trading, gateway, seeded };
}
