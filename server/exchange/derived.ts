/**
 * Figures derived from the markets for the public endpoints that are not a market's own data:
 * derivatives status rows (price, spot, mark, funding, open interest), currency conversion through
 * the listed markets, and the 30-minute volume statistic.
 */
import {
  DERIV_FUNDING_CLAMP,
  DERIV_FUNDING_INTERVAL_MS,
  derivStatusCodec,
  SETTLEMENT_MAX_LAST_GAP,
  SETTLEMENT_MAX_SPREAD,
  spotIndexOf,
  splitPair,
} from "../../src/protocol/index.ts";
import type { Exchange } from "./exchange.ts";
import type { Market } from "./market.ts";

function lastPrice(ex: Exchange, symbol: string): number | null {
  return ex.markets.get(symbol)?.lastPrice() ?? null;
}

/**
 * The 23-field derivatives status row (docs/protocol.md#derivatives-status), for WS (`deriv:` keys)
 * and REST (with the key prepended): the perpetual's and its spot index's last prices, and the
 * figures the account side keeps (derivatives.ts: mark, insurance fund, funding clock and rates,
 * open interest; docs/product-rules.md#derivatives). Without an account side (a public-only
 * exchange) the mark is the index and the funding the current premium, the fund and interest 0.
 */
export function derivStatusRow(ex: Exchange, symbol: string, now: number): unknown[] | null {
  const deriv = lastPrice(ex, symbol);
  const spotSymbol = spotIndexOf(symbol);
  const spot = spotSymbol ? lastPrice(ex, spotSymbol) : null;
  if (deriv === null || spot === null) return null;
  const figures = ex.derivatives?.status(symbol, now) ?? null;
  const premium =
    Math.round(Math.max(-DERIV_FUNDING_CLAMP, Math.min(DERIV_FUNDING_CLAMP, deriv / spot - 1)) * 1e8) / 1e8;
  const next = Math.ceil(now / DERIV_FUNDING_INTERVAL_MS) * DERIV_FUNDING_INTERVAL_MS;
  return derivStatusCodec.encode({
    mts: Math.floor(now / 1000) * 1000,
    priceDerivative: deriv,
    priceSpot: spot,
    insuranceFundBalance: figures?.insuranceFundBalance ?? 0,
    nextFundingEvtMts: figures?.nextFundingEvtMts ?? next,
    fundingAccruedNext: figures?.fundingAccruedNext ?? premium,
    fundingStep: figures?.fundingStep ?? 0,
    fundingAccruedCurrent: figures?.fundingAccruedCurrent ?? 0,
    markPrice: figures?.markPrice ?? spot,
    openInterest: figures?.openInterest ?? 0,
    clampMin: figures?.clampMin ?? -DERIV_FUNDING_CLAMP,
    fundingAccruedNextCap: figures?.clampMax ?? DERIV_FUNDING_CLAMP,
  });
}

/**
 * Currencies valued by a reference instead of a market of their own (the currency configuration's
 * reference rates, docs/product-rules.md#conversion-rates): USDt is a dollar stablecoin; USTF0, the
 * derivatives' collateral form of USDt, is USDt one to one (transfers convert them 1:1, funds.ts);
 * TESTUSD, paper trading's dollar, is valued as the dollar it simulates (summary.ts values paper
 * codes as their underlying too). TESTBTC needs no entry: its market against TESTUSD values it.
 */
export const REFERENCE_RATES: Readonly<Record<string, { readonly in: string; readonly rate: number }>> = {
  UST: { in: "USD", rate: 1 },
  USTF0: { in: "UST", rate: 1 },
  TESTUSD: { in: "USD", rate: 1 },
};

/**
 * How a rate prices one market: its price (one base in quote), null when the market has no price
 * at all (it is then no link, as a market that never traded nor quoted is not), or "refused" when it
 * has a price that must not be used now, which refuses every rate whose chain goes through it.
 */
type MarketPricing = (market: Market) => number | null | "refused";

/**
 * The rate to convert one unit of ccy1 into ccy2: the shortest chain of listed markets (priced by
 * `price`, either way round) and reference rates that links the two — a direct market when there is
 * one, else through the currencies between (EUR → JPY is BTCJPY ÷ BTCEUR, TRY → USD goes through
 * BTC). Null when nothing links them (an unknown code) or a market on the chain is refused. The chain
 * is chosen by which markets are listed, never by which are refused, so a refused leg refuses the
 * rate rather than routing it through some thinner market.
 */
function chainRate(ex: Exchange, ccy1: string, ccy2: string, price: MarketPricing): number | null {
  if (ccy1 === ccy2) return 1;
  // null: a refused link, carried along so that every rate through it is refused.
  const edges = new Map<string, [string, number | null][]>();
  const link = (from: string, to: string, rate: number | null): void => {
    if (rate !== null && (!(rate > 0) || !Number.isFinite(rate))) return;
    const out = edges.get(from) ?? [];
    out.push([to, rate]);
    edges.set(from, out);
  };
  for (const [symbol, market] of ex.markets) {
    const legs = splitPair(symbol.slice(1));
    const priced = price(market);
    if (!legs || priced === null) continue;
    const rate = priced === "refused" ? null : priced;
    link(legs.base, legs.quote, rate);
    link(legs.quote, legs.base, rate === null ? null : 1 / rate);
  }
  for (const [ccy, ref] of Object.entries(REFERENCE_RATES)) {
    link(ccy, ref.in, ref.rate);
    link(ref.in, ccy, 1 / ref.rate);
  }
  // Breadth first: the fewest conversions, so a direct market always wins over a chain.
  const rateTo = new Map<string, number | null>([[ccy1, 1]]);
  let frontier = [ccy1];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const c of frontier) {
      const here = rateTo.get(c) as number | null;
      for (const [to, rate] of edges.get(c) ?? []) {
        if (rateTo.has(to)) continue;
        const there = here === null || rate === null ? null : here * rate;
        rateTo.set(to, there);
        if (to === ccy2) return there;
        next.push(to);
      }
    }
    frontier = next;
  }
  return null;
}

/**
 * The rate `calc/fx` answers and the app displays: every market at its last trade price. Every
 * figure follows the markets, so a displayed rate never disagrees with the prices the books trade
 * at — but one account can move a thin market's last price, so money decisions use
 * `settlementRate` instead.
 */
export function fxRate(ex: Exchange, ccy1: string, ccy2: string): number | null {
  return chainRate(ex, ccy1, ccy2, (market) => market.lastPrice());
}

/**
 * A market's price for settling money (docs/product-rules.md#conversions): the mid of its best bid
 * and ask, refused while either side of the book is empty (a swept side leaves no price to trust),
 * while the spread is wider than SETTLEMENT_MAX_SPREAD, or while the last trade is further than
 * SETTLEMENT_MAX_LAST_GAP from the mid (a print just pushed through a thin book, which the mid of
 * the refilled book does not yet confirm).
 */
export function settlementPrice(market: Market): number | "refused" {
  const bid = market.engine.bestBid();
  const ask = market.engine.bestAsk();
  if (bid === undefined || ask === undefined || !(bid > 0) || !(ask >= bid)) return "refused";
  const mid = (bid + ask) / 2;
  if ((ask - bid) / mid > SETTLEMENT_MAX_SPREAD) return "refused";
  const last = market.lastPrice() ?? mid;
  if (Math.abs(last - mid) / mid > SETTLEMENT_MAX_LAST_GAP) return "refused";
  return mid;
}

/**
 * The rate money moves at — a conversion's quote, a withdrawal's USD value for the daily limit and
 * the travel rule: the same chain as `fxRate`, each market at its guarded mid (`settlementPrice`).
 * Null when nothing links the two or a market on the chain is refused: the caller refuses, never
 * falling back to the last price nor to zero.
 */
export function settlementRate(ex: Exchange, ccy1: string, ccy2: string): number | null {
  return chainRate(ex, ccy1, ccy2, settlementPrice);
}

/** Traded volume over the last 30 minutes, in USD, across every market (`vol.1d` style stat). */
export function volume30m(ex: Exchange, now: number): number {
  let usd = 0;
  for (const [symbol, m] of ex.markets) {
    const quote = splitPair(symbol.slice(1))?.quote ?? "USD";
    const rate = fxRate(ex, quote.replace(/F0$/, "").replace("UST", "USD"), "USD") ?? 0;
    for (const t of m.trades) {
      if (t.mts < now - 1_800_000) break;
      usd += Math.abs(t.amount) * t.price * rate;
    }
  }
  return Math.round(usd * 100) / 100;
}
