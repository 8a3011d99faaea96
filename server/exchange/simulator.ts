/**
 * The market simulator: seeded agents that keep every listed market alive. Makers quote limit
 * orders around a drifting mid and cancel stale ones; takers cross the spread with market orders
 * now and then. Deterministic for a seed, so a run can be reproduced.
 */
import { seededRandom, splitPair } from "../../src/protocol/index.ts";
import { guarded } from "../log.ts";
export interface SimulatedMarket {
  readonly symbol: string;
  readonly start: number;
  /**
   * What one unit of the quote currency is worth in USD at listing (default 1). Only a fallback:
   * while the simulator runs BTCUSD and BTC against the quote (or the quote against USD), it reads
   * the rate from their mids, so sizes follow the markets.
   */
  readonly quoteUsd?: number;
  /**
   * The market's trading activity as a share of BTCUSD's (default 1): its daily volume in USD is
   * about this times BTCUSD's. Split between order size and taker frequency (the square root of
   * each), so a small market has both smaller orders and fewer trades, as on a real venue.
   */
  readonly activity?: number;
  /**
   * A perpetual's spot index (`tBTCUSD` for `tBTCF0:USTF0`): its mid follows the index's, at a small
   * basis that wanders and reverts, as arbitrage holds a real perpetual near its index — rather than
   * drifting away on a walk of its own (its funding, its mark and its positions' P/L depend on it).
   */
  readonly tracks?: string;
}

/** How much of a perpetual's basis over its index is kept each step, and the spread of each step's change. */
const BASIS_KEEP = 0.995;
const BASIS_STEP = 0.0002;

/** Quote currencies that are USD for sizing: the stablecoin and the paper dollar. */
const USD_LIKE = new Set(["USD", "UST", "TESTUSD"]);

/** The quote currency of a trading symbol: tETHBTC → BTC, tBTCF0:USTF0 → UST, tTESTBTC:TESTUSD → TESTUSD. */
export function quoteCurrency(symbol: string): string {
  return (splitPair(symbol.slice(1))?.quote ?? "").replace(/F0$/, "");
}

/** Orders under this many USD are not worth quoting (the real venue's minimums are about that). */
const MIN_ORDER_USD = 10;
/** BTCUSD's taker chance per step; at the default 250 ms step that is ~120 000 market orders a day. */
const TAKER_CHANCE = 0.35;

export interface SimulatorHooks {
  place(
    symbol: string,
    owner: number,
    side: "buy" | "sell",
    type: "LIMIT" | "MARKET",
    price: number,
    amount: number,
  ): number | null;
  cancel(symbol: string, orderId: number): void;
}

/** Rounds to the 5 significant digits the exchange accepts for prices. */
export function price5(p: number): number {
  return Number(p.toPrecision(5));
}

/** Simulated agents have negative owner ids, so they never collide with accounts (ids ≥ 1). */
export const MAKERS = [-1, -2, -3, -4];
export const TAKER = -10;
const TARGET_ORDERS = 140;

export class Simulator {
  readonly #rand: () => number;
  readonly #mid = new Map<string, number>();
  readonly #open = new Map<string, number[]>();
  readonly #listing = new Map<string, SimulatedMarket>();
  /** Run after each step: other simulated venues (funding) keep the same tick. */
  readonly #afterStep: (() => void)[] = [];
  /** Markets another driver (a replay) has taken over. */
  readonly #paused = new Set<string>();
  /** Tracking markets' basis over their index (mid ÷ index mid − 1). */
  readonly #basis = new Map<string, number>();

  constructor(
    readonly markets: readonly SimulatedMarket[],
    readonly hooks: SimulatorHooks,
    seed = 42,
  ) {
    this.#rand = seededRandom(seed);
    for (const m of markets) {
      this.#mid.set(m.symbol, m.start);
      this.#open.set(m.symbol, []);
      this.#listing.set(m.symbol, m);
    }
    for (const m of markets) {
      const index = m.tracks ? markets.find((x) => x.symbol === m.tracks) : undefined;
      if (index) this.#basis.set(m.symbol, m.start / index.start - 1);
    }
  }

  onStep(fn: () => void): void {
    this.#afterStep.push(fn);
  }

  mid(symbol: string): number {
    return this.#mid.get(symbol) ?? 0;
  }

  /**
   * The USD value of one unit of a market's quote currency: 1 for dollars, else read from the
   * simulated mids (BTCUSD over BTC/quote, or quote/USD), else the listing's rate.
   */
  quoteUsd(symbol: string): number {
    const q = quoteCurrency(symbol);
    if (USD_LIKE.has(q)) return 1;
    const direct = this.#mid.get(`t${q}USD`);
    if (direct !== undefined && direct > 0) return direct;
    const btcUsd = this.#mid.get("tBTCUSD");
    const btcQ = this.#mid.get(`tBTC${q}`);
    if (btcUsd !== undefined && btcQ !== undefined && btcQ > 0) return btcUsd / btcQ;
    return this.#listing.get(symbol)?.quoteUsd ?? 1;
  }

  /** Fills the book with resting quotes around the start price. */
  seed(): void {
    for (const m of this.markets) for (let i = 0; i < TARGET_ORDERS; i++) this.#quote(m.symbol);
  }

  /** One step of every market: drift, quotes, cancels, and sometimes a taker. */
  step(): void {
    for (const m of this.markets) {
      if (this.#paused.has(m.symbol)) continue;
      const r = this.#rand;
      const index = m.tracks !== undefined ? this.#mid.get(m.tracks) : undefined;
      const basis = this.#basis.get(m.symbol);
      let mid: number;
      if (index !== undefined && basis !== undefined) {
        // One draw, as an untracked market's drift takes: the other markets' draws stay the same.
        const next = basis * BASIS_KEEP + (r() - 0.5) * BASIS_STEP;
        this.#basis.set(m.symbol, next);
        mid = index * (1 + next);
      } else mid = (this.#mid.get(m.symbol) as number) * (1 + (r() - 0.5) * 0.0006);
      this.#mid.set(m.symbol, mid);
      const open = this.#open.get(m.symbol) as number[];
      for (let k = 0; k < 3; k++) this.#quote(m.symbol);
      while (open.length > TARGET_ORDERS) {
        const i = Math.floor(r() * Math.min(open.length, 40));
        const [id] = open.splice(i, 1);
        if (id !== undefined) this.hooks.cancel(m.symbol, id);
      }
      if (r() < TAKER_CHANCE * Math.sqrt(m.activity ?? 1)) {
        const side = r() < 0.5 ? "buy" : "sell";
        this.hooks.place(m.symbol, TAKER, side, "MARKET", Number.NaN, this.#size(m.symbol, mid));
      }
    }
    // The funding clocks run here (interest, expiries): one that throws must not stop the others.
    for (const fn of this.#afterStep) guarded("simulator step listener", fn)();
  }

  /**
   * Moves a market's simulated mid to `mid` at once (the development endpoint `/dev/price`,
   * derivatives.ts `moveMarket`): the agents withdraw their quotes, which stood around the old mid,
   * and quote afresh around the new one.
   */
  recentre(symbol: string, mid: number): void {
    if (!this.#mid.has(symbol) || !(mid > 0)) return;
    this.#mid.set(symbol, mid);
    const open = this.#open.get(symbol) ?? [];
    for (const id of open.splice(0)) this.hooks.cancel(symbol, id);
    if (this.#paused.has(symbol)) return;
    for (let i = 0; i < TARGET_ORDERS; i++) this.#quote(symbol);
  }

  /**
   * Hands a market to another driver: the agents withdraw their quotes and stop trading there, so
   * the book holds only what the new driver (and account users) put in it.
   */
  pause(symbol: string): void {
    this.#paused.add(symbol);
    const open = this.#open.get(symbol) ?? [];
    for (const id of open.splice(0)) this.hooks.cancel(symbol, id);
  }

  /**
   * Stress mode: `updates` book changes in a market at once, each a quote near the touch or the
   * withdrawal of a recent one, so every change moves a level a client sees even in a 25-level book.
   */
  burst(symbol: string, updates: number): void {
    if (this.#paused.has(symbol) || !this.#mid.has(symbol)) return;
    const open = this.#open.get(symbol) as number[];
    for (let i = 0; i < updates; i++) {
      if (open.length > TARGET_ORDERS && this.#rand() < 0.5) {
        const id = open.pop();
        if (id !== undefined) this.hooks.cancel(symbol, id);
      } else this.#quote(symbol, 0.002);
    }
  }

  /**
   * An order's size in base units (4 significant digits): its value is drawn in USD — 50–5000 USD
   * log-uniform for BTCUSD, scaled by the root of the market's activity, at least 10 USD — and
   * converted at the market's price and its quote currency's USD rate, so an ETHBTC or BTCJPY
   * order is worth what a BTCUSD order of the same draw is (times the activity), not 50–5000 BTC
   * or JPY.
   */
  #size(symbol: string, mid: number): number {
    const scale = Math.sqrt(this.#listing.get(symbol)?.activity ?? 1);
    const usd = Math.max(MIN_ORDER_USD, 50 * Math.exp(this.#rand() * Math.log(100)) * scale);
    return Number((usd / (mid * this.quoteUsd(symbol))).toPrecision(4));
  }

  #quote(symbol: string, spread = 0.02): void {
    const r = this.#rand;
    const mid = this.#mid.get(symbol) as number;
    const side = r() < 0.5 ? "buy" : "sell";
    // Most quotes near the touch, a tail up to `spread` (~2 %) away.
    const dist = (0.0002 + r() * r() * spread) * mid;
    const price = price5(side === "buy" ? mid - dist : mid + dist);
    const maker = MAKERS[Math.floor(r() * MAKERS.length)] as number;
    const id = this.hooks.place(symbol, maker, side, "LIMIT", price, this.#size(symbol, mid));
    if (id !== null) (this.#open.get(symbol) as number[]).push(id);
  }
}
