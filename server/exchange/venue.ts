/**
 * The exchange's parts wired together: markets, storage, accounts, and the account side — balances,
 * orders with their settlement and stop book, margin positions, funding offers, credits and loans,
 * funds — behind the account gateway. One place for the wiring the host, the tests and the bench
 * all need (exchange/README.md says who owns what); the demo account is seeded on a fresh database.
 */
import { Accounts } from "../store/accounts.ts";
import { nextIdFrom, openDb, type Db } from "../store/db.ts";
import { seedDemo } from "../store/seed.ts";
import { recordNotifications } from "../notification-history.ts";
import { AccountGateway } from "./account-gateway.ts";
import { Balances } from "./balances.ts";
import { AccountEvents } from "./events.ts";
import { Exchange } from "./exchange.ts";
import { FundingCredits } from "./funding-credits.ts";
import { FundingLoans } from "./funding-loans.ts";
import { FundingOffers } from "./funding-offers.ts";
import { settlementRate } from "./derived.ts";
import { Funds } from "./funds.ts";
import { OrderStore } from "./order-store.ts";
import { Orders } from "./orders.ts";
import { Derivatives } from "./derivatives.ts";
import { Positions } from "./positions.ts";
import { Rankings } from "./rankings.ts";
import { Settlement } from "./settlement.ts";
import type { SimulatedMarket } from "./simulator.ts";
import { StopBook } from "./stop-book.ts";

/** The spot and margin trading of accounts on an exchange's markets (`restore` puts the open orders back). */
export type Trading = ReturnType<typeof openTrading>;

/**
 * Wires account trading onto `exchange`. Every batch is settled first (fills into wallets and
 * positions, then the stops it crossed), and only then are positions marked and checked for
 * liquidation.
 */
export function openTrading(db: Db, exchange: Exchange, now: () => number, events = new AccountEvents(db)) {
  const balances = new Balances(db, events, now);
  const store = new OrderStore(db, balances, events, now);
  const positions = new Positions(db, exchange, now, balances, events);
  const settlement = new Settlement(store, balances, positions, exchange, events);
  const stops = new StopBook(store, balances, exchange, events);
  positions.shrank = (symbol) => settlement.trimReduceOnly(symbol);
  exchange.onBatch((b) => {
    settlement.settle(b);
    stops.check(b);
  });
  exchange.onBatch((b) => positions.mark(b));
  // Perpetuals: their marks, orders' leverage, funding and liquidations (after the settling above).
  const derivatives = new Derivatives(db, exchange, positions, events, now);
  const orders = new Orders(store, balances, positions, exchange, events, nextIdFrom(db, "order", 0));
  return { events, balances, orders, positions, derivatives, restore: () => store.restore(exchange) };
}

/** Every part; `funding` is the funding offers, `seeded` the demo account's id when this call seeded it. */
export interface Venue extends Trading {
  readonly exchange: Exchange;
  readonly db: Db;
  readonly accounts: Accounts;
  readonly funding: FundingOffers;
  readonly credits: FundingCredits;
  readonly loans: FundingLoans;
  readonly funds: Funds;
  readonly gateway: AccountGateway;
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
  const trading = openTrading(db, exchange, now);
  exchange.rankings = new Rankings(db, exchange);
  const { events, balances, orders, positions } = trading;
  const credits = new FundingCredits(db, exchange.funding, balances, events, now);
  const funding = new FundingOffers(db, exchange.funding, balances, credits, events, now);
  // Loans back margin positions: attached to the positions and to the offers' fills.
  const loans = new FundingLoans(db, exchange, positions, balances, funding, credits, events, now);
  // Withdrawals value what is sent in USD for the daily limit and the travel rule at the guarded
  // settlement rate (derived.ts `settlementRate`, each market at its book's mid), not the last
  // prices `/v2/calc/fx` answers: one account could push a thin market's last price to make a large
  // withdrawal look small. Null while a market on the chain is refused: the withdrawal waits.
  const funds = new Funds(db, balances, positions, now, {
    accounts,
    usdRate: (currency) => settlementRate(exchange, currency, "USD"),
  });
  const gateway = new AccountGateway(
    exchange,
    accounts,
    events,
    balances,
    orders,
    positions,
    funding,
    credits,
    loans,
    funds,
    now,
  );
  // Every notification sent to an account is kept for its history page (server/notification-history.ts).
  recordNotifications(db, events);
  const seeded = seedDemo(accounts, funds, now());
  return { ...trading, exchange, accounts, funding, credits, loans, funds, db, gateway, seeded };
}
