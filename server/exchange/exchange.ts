/**
 * The embedded exchange's market side: the listed markets, their engines and public data, the
 * simulator that keeps them alive, and the book feeds the socket server publishes. Orders from the
 * simulator go through the same `place`/`cancel` as (later) every account's orders.
 */
import { seededRandom } from "../../src/protocol/index.ts";
import { notifyAll } from "../log.ts";
import { Feeds, LevelFeed, PRICE_LEVELS, RAW_ORDERS, RawFeed, type Feed, type MarketBatch } from "./feeds.ts";
import { newEngineOrder, type EngineOrder, type MatchResult, type NewOrder, type Side } from "./engine.ts";
import { FundingExchange } from "./funding-market.ts";
import { FundingSimulator } from "./funding-simulator.ts";
import { LiquidationFeed } from "./liquidations.ts";
import type { Rankings } from "./rankings.ts";
import { Market, type PublicTradeRow } from "./market.ts";
import { candle, TIMEFRAMES, type Prec } from "./market-data.ts";
import { price5, Simulator, type SimulatedMarket } from "./simulator.ts";

/**
 * Listed markets, their starting prices, what their quote currency is worth in USD, and their
 * activity as a share of BTCUSD's (simulator.ts): daily volumes in the proportions of a real venue —
 * BTCUSD the largest (~150 M USD a day at the default pace), then the BTC perpetual, ETHUSD, and
 * down to under a million for BTCBRL.
 */
export const LISTED_MARKETS: readonly SimulatedMarket[] = [
  { symbol: "tBTCUSD", start: 86_500, quoteUsd: 1, activity: 1 },
  { symbol: "tETHUSD", start: 3_200, quoteUsd: 1, activity: 0.4 },
  { symbol: "tETHBTC", start: 0.037, quoteUsd: 86_500, activity: 0.02 },
  { symbol: "tLTCUSD", start: 85, quoteUsd: 1, activity: 0.035 },
  { symbol: "tXRPUSD", start: 2.2, quoteUsd: 1, activity: 0.1 },
  { symbol: "tSOLUSD", start: 140, quoteUsd: 1, activity: 0.1 },
  { symbol: "tBTCEUR", start: 79_500, quoteUsd: 86_500 / 79_500, activity: 0.05 },
  { symbol: "tBTCJPY", start: 13_000_000, quoteUsd: 86_500 / 13_000_000, activity: 0.02 },
  { symbol: "tBTCTRY", start: 3_500_000, quoteUsd: 86_500 / 3_500_000, activity: 0.01 },
  { symbol: "tBTCBRL", start: 470_000, quoteUsd: 86_500 / 470_000, activity: 0.005 },
  { symbol: "tTESTBTC:TESTUSD", start: 86_500, quoteUsd: 1, activity: 0.01 },
  { symbol: "tBTCF0:USTF0", start: 86_550, quoteUsd: 1, activity: 0.55, tracks: "tBTCUSD" },
  { symbol: "tETHF0:USTF0", start: 3_205, quoteUsd: 1, activity: 0.13, tracks: "tETHUSD" },
];

/** BTCUSD's daily volume in USD at the default pace: what the seeded candle history trades. */
const BTCUSD_DAILY_USD = 150_000_000;

export type Batch = MarketBatch<Market, MatchResult, PublicTradeRow>;

/** A perpetual's figures beyond its market's prices, for its status row (derived.ts). */
export interface DerivativeStatusFigures {
  readonly markPrice: number;
  readonly insuranceFundBalance: number;
  readonly nextFundingEvtMts: number;
  readonly fundingAccruedNext: number;
  readonly fundingStep: number;
  readonly fundingAccruedCurrent: number;
  readonly openInterest: number;
  readonly clampMin: number;
  readonly clampMax: number;
}

/** What the account side keeps of the perpetuals (derivatives.ts): their mark, funding and insurance fund. */
export interface DerivativeFigures {
  mark(symbol: string): number | null;
  status(symbol: string, now: number): DerivativeStatusFigures | null;
  /** A funding event now, off the clock (the development endpoint); false for an unknown perpetual. */
  fundNow(symbol: string): boolean;
}

export class Exchange {
  readonly markets = new Map<string, Market>();
  readonly #feeds = new Feeds<Market>();
  readonly #listeners = new Set<(b: Batch) => void>();
  readonly simulator: Simulator;
  /** Funding markets (fUSD, fBTC, …), their lenders and borrowers stepped with the simulator. */
  readonly funding: FundingExchange;
  /** Liquidated margin positions, for the public `liq:global` channel. */
  readonly liquidations = new LiquidationFeed();
  /** The perpetuals' mark, funding and insurance figures: attached with the database (venue.ts), else none. */
  derivatives: DerivativeFigures | null = null;
  /** The leaderboards, computed from account records: attached with the database (venue.ts), else none. */
  rankings: Rankings | null = null;
  /** Simulator order ids live far above account order ids (which come from storage, from 1). */
  #orderId = 1_000_000_000_000;
  #tradeId = 1;
  #now: () => number;

  constructor(options: { now: () => number; seed?: number; markets?: readonly SimulatedMarket[] }) {
    this.#now = options.now;
    const list = options.markets ?? LISTED_MARKETS;
    for (const m of list) this.markets.set(m.symbol, new Market(m.symbol, () => this.#tradeId++));
    this.simulator = new Simulator(
      list,
      {
        place: (symbol, owner, side, type, price, amount) =>
          this.place(symbol, owner, side, type, price, amount)?.result.order.id ?? null,
        cancel: (symbol, id) => void this.cancel(symbol, id),
      },
      options.seed ?? 42,
    );
    this.simulator.seed();
    this.funding = new FundingExchange({ now: options.now, seed: options.seed ?? 42 });
    const lenders = new FundingSimulator(this.funding, options.seed ?? 42);
    lenders.seed();
    this.simulator.onStep(() => lenders.step());
    for (const m of list) this.#seedHistory(m, options.seed ?? 42);
  }

  /** A plausible past for the charts: a seeded random walk ending at the start price. */
  #seedHistory(m: SimulatedMarket, seed: number): void {
    const market = this.markets.get(m.symbol) as Market;
    const now = this.#now();
    for (const [tf, ms] of Object.entries(TIMEFRAMES)) {
      const r = seededRandom(seed + ms / 1000);
      const n = 300;
      const rows: number[][] = [];
      let close = m.start;
      for (let i = 0; i < n; i++) {
        const mts = Math.floor(now / ms) * ms - i * ms;
        const vol = Math.min(0.05, 0.002 * Math.sqrt(ms / 60_000));
        const open = price5(close * (1 + (r() - 0.5) * vol));
        const high = price5(Math.max(open, close) * (1 + r() * vol * 0.5));
        const low = price5(Math.min(open, close) * (1 - r() * vol * 0.5));
        // The volume a candle of this length trades at the market's activity, in base units.
        const usd = (BTCUSD_DAILY_USD * (m.activity ?? 1) * ms) / 86_400_000;
        const volume = (usd * (0.5 + r())) / (close * (m.quoteUsd ?? 1));
        rows.push(candle(mts, open, close, high, low, Number(volume.toPrecision(6))));
        close = open;
      }
      market.seedCandles(tf, rows.reverse().slice(0, -1));
    }
  }

  /**
   * Continues the trade ids after `lastId`, the largest one stored: after a restart the counter
   * would start again at 1 and give new fills the ids of old ones in the accounts' trade histories.
   */
  resumeTradeIds(lastId: number): void {
    this.#tradeId = Math.max(this.#tradeId, lastId + 1);
  }

  /**
   * A trade id for a trade made off the books (an OTC block, otc.ts): from the same counter as the
   * fills, so it names one trade in an account's history, never a fill's.
   */
  nextTradeId(): number {
    return this.#tradeId++;
  }

  onBatch(listener: (b: Batch) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Simulator orders: ids from the exchange's own range. */
  place(
    symbol: string,
    owner: number,
    side: Side,
    type: "LIMIT" | "MARKET" | "IOC" | "FOK",
    price: number,
    amount: number,
    flags: { hidden?: boolean; postOnly?: boolean; cid?: number | null } = {},
  ): Batch | null {
    return this.placeOrder(symbol, { id: this.#orderId++, owner, side, type, price, amount, ...flags });
  }

  /** Submits an order with a given id (account orders carry ids from storage). */
  placeOrder(symbol: string, o: NewOrder): Batch | null {
    const market = this.markets.get(symbol);
    // Amounts carry at most 8 decimals; anything smaller is dust the exchange refuses (RSN_DUST).
    const amount = Math.round(o.amount * 1e8) / 1e8;
    if (!market || !(amount >= 1e-8) || (o.type !== "MARKET" && !(o.price > 0))) return null;
    const now = this.#now();
    const order = newEngineOrder({ ...o, amount, now });
    const result = market.engine.submit(order, now);
    return this.#settle(market, result);
  }

  cancel(symbol: string, id: number): Batch | null {
    const market = this.markets.get(symbol);
    const c = market?.engine.cancel(id, this.#now());
    if (!market || !c) return null;
    return this.#settle(market, {
      order: c.order,
      fills: [],
      touched: [],
      levels: c.level ? [c.level] : [],
      rested: false,
    });
  }

  /**
   * A public trade no order of this exchange made (replay.ts: a recording's prints), `amount`
   * signed by the taker's side. It takes a match's path — tape, candles, ticker, every batch
   * listener — but moves no book level, and with `owner` never an account's, nothing settles.
   */
  printTrade(symbol: string, owner: number, price: number, amount: number): Batch | null {
    const market = this.markets.get(symbol);
    const size = Math.round(Math.abs(amount) * 1e8) / 1e8;
    if (!market || owner > 0 || !(size >= 1e-8) || !(price > 0)) return null;
    const now = this.#now();
    const order = (side: Side): EngineOrder => ({
      ...newEngineOrder({ id: this.#orderId++, owner, side, type: "LIMIT", price, amount: size, now }),
      remaining: 0,
      filled: size,
      avgPrice: price,
    });
    const taker = order(amount > 0 ? "buy" : "sell");
    const maker = order(amount > 0 ? "sell" : "buy");
    const fill = { tradeId: this.#tradeId++, mts: now, price, amount: size, taker, maker };
    return this.#settle(market, { order: taker, fills: [fill], touched: [], levels: [], rested: false });
  }

  #settle(market: Market, result: MatchResult): Batch {
    market.applyLevels(result.levels);
    const trades = market.applyFills(result.fills);
    const batch: Batch = { market, result, trades, bookDiffs: this.#feeds.diffs(market.symbol) };
    // The book has moved and the feeds' mirrors with it: every listener sees the batch; an error is
    // rethrown after them (swallowed, a half-settled fill would commit); a timer's caller logs it.
    notifyAll(this.#listeners, batch);
    return batch;
  }

  /** The feed for a book shape, created (and synced to the book) on first use. */
  bookFeed(symbol: string, prec: Prec | "R0", len: number): Feed | null {
    const market = this.markets.get(symbol);
    if (!market) return null;
    return this.#feeds.get(market, prec, len, (p) =>
      p === "R0" ? new RawFeed(market, len, RAW_ORDERS) : new LevelFeed(market, p, len, PRICE_LEVELS),
    );
  }
}
