/**
 * The funding simulator: seeded lenders and borrowers for every funding market. Lenders offer above
 * a drifting rate, borrowers bid under it, each for a period from a typical set; stale offers are
 * withdrawn, and now and then a borrower or lender takes what is offered (a demand that does not
 * rest). Deterministic for a seed. Driven by the trading simulator's tick (`Simulator.onStep`).
 */
import { seededRandom } from "../../src/protocol/index.ts";
import type { FundingExchange } from "./funding-market.ts";
import type { FundingOffers } from "./funding-offers.ts";

/** Simulated lenders and borrowers: negative owner ids, never an account's. */
export const FUNDING_AGENTS = [-21, -22, -23, -24];
export const FUNDING_TAKER = -30;
const TARGET_OFFERS = 80;
/** Periods offers are made for, the short and the 30-day terms most often (as on the real book). */
const PERIODS = [2, 2, 2, 3, 7, 14, 30, 30, 60, 120];

const sig5 = (v: number): number => Number(v.toPrecision(5));

export class FundingSimulator {
  readonly #rand: () => number;
  readonly #mid = new Map<string, number>();
  readonly #open = new Map<string, number[]>();

  constructor(
    readonly exchange: FundingExchange,
    seed = 42,
  ) {
    this.#rand = seededRandom(seed ^ 0x5eed);
    for (const [symbol, m] of exchange.markets) {
      this.#mid.set(symbol, m.listing.start);
      this.#open.set(symbol, []);
    }
  }

  seed(): void {
    for (const symbol of this.#mid.keys()) for (let i = 0; i < TARGET_OFFERS; i++) this.#quote(symbol);
  }

  step(): void {
    const r = this.#rand;
    for (const [symbol, mid0] of this.#mid) {
      const market = this.exchange.markets.get(symbol);
      if (!market) continue;
      // The rate drifts, pulled back toward where it started so it never wanders off to zero.
      const start = market.listing.start;
      const mid = mid0 * (1 + (r() - 0.5) * 0.01) + (start - mid0) * 0.002;
      this.#mid.set(symbol, mid);
      const open = this.#open.get(symbol) as number[];
      for (let k = 0; k < 2; k++) this.#quote(symbol);
      while (open.length > TARGET_OFFERS) {
        const i = Math.floor(r() * Math.min(open.length, 30));
        const [id] = open.splice(i, 1);
        if (id !== undefined) this.exchange.cancel(symbol, id);
      }
      if (r() < 0.3) {
        const lend = r() < 0.4;
        const period = lend ? 120 : (PERIODS[Math.floor(r() * 3)] as number);
        this.exchange.place(symbol, {
          owner: FUNDING_TAKER,
          amount: (lend ? 1 : -1) * this.#size(market.listing.usd),
          rate: sig5(lend ? mid * 0.5 : mid * 2),
          period,
          immediate: true,
        });
      }
    }
  }

  #size(usd: number): number {
    const notional = 200 * Math.exp(this.#rand() * Math.log(200));
    return Number((notional / usd).toPrecision(4));
  }

  #quote(symbol: string): void {
    const r = this.#rand;
    const mid = this.#mid.get(symbol) as number;
    const market = this.exchange.markets.get(symbol);
    if (!market) return;
    const lend = r() < 0.55;
    const dist = (0.01 + r() * r() * 0.4) * mid;
    const rate = sig5(lend ? mid + dist : mid - dist);
    const period = PERIODS[Math.floor(r() * PERIODS.length)] as number;
    const owner = FUNDING_AGENTS[Math.floor(r() * FUNDING_AGENTS.length)] as number;
    const b = this.exchange.place(symbol, {
      owner,
      amount: (lend ? 1 : -1) * this.#size(market.listing.usd),
      rate,
      period,
    });
    if (b?.result.rested) (this.#open.get(symbol) as number[]).push(b.result.order.id);
  }
}

/**
 * A simulated counterparty takes an account's open offer `id` whole, at its rate and period — a
 * borrower for a lend offer (a credit opens), a lender for a borrow offer (a loan opens). The
 * development hook `POST /dev/funding/take` (server/README.md), so a test need not wait for the
 * simulator's own demand to reach that offer. False when `id` is not an open account offer.
 */
export function takeAccountOffer(offers: FundingOffers, id: number): boolean {
  const row = offers.db.prepare("SELECT symbol FROM funding_offers WHERE id = ? AND open = 1").get(id) as
    { symbol: string } | undefined;
  return row !== undefined && offers.fx.take(row.symbol, id, FUNDING_TAKER) !== null;
}
