/**
 * The market simulator: seeded agents that keep every listed market alive. Makers quote limit
 * orders around a drifting mid and cancel stale ones; takers cross the spread with market orders
 * now and then. Deterministic for a seed, so a run can be reproduced.
 */
import { guarded } from "../log.ts";
export interface SimulatedMarket {
  readonly symbol: string;
  readonly start: number;
}

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

export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
  /** Run after each step: other simulated venues (funding) keep the same tick. */
  readonly #afterStep: (() => void)[] = [];
  /** Markets another driver (a replay) has taken over. */
  readonly #paused = new Set<string>();

  constructor(
    readonly markets: readonly SimulatedMarket[],
    readonly hooks: SimulatorHooks,
    seed = 42,
  ) {
    this.#rand = mulberry32(seed);
    for (const m of markets) {
      this.#mid.set(m.symbol, m.start);
      this.#open.set(m.symbol, []);
    }
  }

  onStep(fn: () => void): void {
    this.#afterStep.push(fn);
  }

  mid(symbol: string): number {
    return this.#mid.get(symbol) ?? 0;
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
      const mid = (this.#mid.get(m.symbol) as number) * (1 + (r() - 0.5) * 0.0006);
      this.#mid.set(m.symbol, mid);
      const open = this.#open.get(m.symbol) as number[];
      for (let k = 0; k < 3; k++) this.#quote(m.symbol);
      while (open.length > TARGET_ORDERS) {
        const i = Math.floor(r() * Math.min(open.length, 40));
        const [id] = open.splice(i, 1);
        if (id !== undefined) this.hooks.cancel(m.symbol, id);
      }
      if (r() < 0.35) {
        const side = r() < 0.5 ? "buy" : "sell";
        this.hooks.place(m.symbol, TAKER, side, "MARKET", Number.NaN, this.#size(mid));
      }
    }
    // The funding clocks run here (interest, expiries): one that throws must not stop the others.
    for (const fn of this.#afterStep) guarded("simulator step listener", fn)();
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

  #size(mid: number): number {
    // Notional of roughly 50–5000 quote units, in base units with 4–8 decimals.
    const notional = 50 * Math.exp(this.#rand() * Math.log(100));
    return Number((notional / mid).toPrecision(4));
  }

  #quote(symbol: string, spread = 0.02): void {
    const r = this.#rand;
    const mid = this.#mid.get(symbol) as number;
    const side = r() < 0.5 ? "buy" : "sell";
    // Most quotes near the touch, a tail up to `spread` (~2 %) away.
    const dist = (0.0002 + r() * r() * spread) * mid;
    const price = price5(side === "buy" ? mid - dist : mid + dist);
    const maker = MAKERS[Math.floor(r() * MAKERS.length)] as number;
    const id = this.hooks.place(symbol, maker, side, "LIMIT", price, this.#size(mid));
    if (id !== null) (this.#open.get(symbol) as number[]).push(id);
  }
}
