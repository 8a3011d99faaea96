/**
 * Figures derived from the markets for the public endpoints that are not a market's own data:
 * derivatives status rows (price, spot, mark, funding, open interest), currency conversion through
 * the listed markets, and the 30-minute volume statistic.
 */
import { derivStatusCodec, splitPair } from "../../src/protocol/index.ts";
import type { Exchange } from "./exchange.ts";

/** A derivative's spot market: BTCF0:USTF0 tracks BTCUSD. */
function spotOf(derivative: string): string | null {
  const m = /^t([A-Z]+)F0:[A-Z]+F0$/.exec(derivative);
  return m ? `t${m[1]}USD` : null;
}

function lastPrice(ex: Exchange, symbol: string): number | null {
  return ex.markets.get(symbol)?.lastPrice() ?? null;
}

/**
 * The 23-field derivatives status row (docs/protocol.md#derivatives-status), for WS (`deriv:` keys) and REST (with the
 * key prepended). Funding follows the premium of the derivative over its spot.
 */
export function derivStatusRow(ex: Exchange, symbol: string, now: number): unknown[] | null {
  const deriv = lastPrice(ex, symbol);
  const spotSymbol = spotOf(symbol);
  const spot = spotSymbol ? lastPrice(ex, spotSymbol) : null;
  if (deriv === null || spot === null) return null;
  const mark = Math.round(((deriv + spot) / 2) * 1e4) / 1e4;
  const premium = (deriv - spot) / spot;
  const funding = Math.round(Math.max(-0.0025, Math.min(0.0025, premium / 8)) * 1e8) / 1e8;
  const nextFunding = Math.ceil(now / 28_800_000) * 28_800_000;
  const openInterest =
    Math.round(
      (ex.markets
        .get(symbol)
        ?.engine.resting()
        .reduce((n, o) => n + o.remaining, 0) ?? 0) * 1e8,
    ) / 1e8;
  return derivStatusCodec.encode({
    mts: Math.floor(now / 1000) * 1000,
    priceDerivative: deriv,
    priceSpot: spot,
    insuranceFundBalance: 1_000_000,
    nextFundingEvtMts: nextFunding,
    fundingAccruedNext: funding,
    fundingStep: Math.round((nextFunding - now) / 1000),
    fundingAccruedCurrent: funding,
    markPrice: mark,
    openInterest,
    clampMin: 0.0005,
    fundingAccruedNextCap: 0.0025,
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
 * The rate to convert one unit of ccy1 into ccy2: the shortest chain of listed markets (at their
 * last prices, either way round) and reference rates that links the two — a direct market when
 * there is one, else through the currencies between (EUR → JPY is BTCJPY ÷ BTCEUR, TRY → USD goes
 * through BTC). Null when nothing links them (an unknown code). Every figure follows the markets, so
 * a rate never disagrees with the prices the books trade at.
 */
export function fxRate(ex: Exchange, ccy1: string, ccy2: string): number | null {
  if (ccy1 === ccy2) return 1;
  const edges = new Map<string, [string, number][]>();
  const link = (from: string, to: string, rate: number): void => {
    if (!(rate > 0) || !Number.isFinite(rate)) return;
    const out = edges.get(from) ?? [];
    out.push([to, rate]);
    edges.set(from, out);
  };
  for (const [symbol, market] of ex.markets) {
    const legs = splitPair(symbol.slice(1));
    const price = market.lastPrice();
    if (!legs || price === null) continue;
    link(legs.base, legs.quote, price);
    link(legs.quote, legs.base, 1 / price);
  }
  for (const [ccy, ref] of Object.entries(REFERENCE_RATES)) {
    link(ccy, ref.in, ref.rate);
    link(ref.in, ccy, 1 / ref.rate);
  }
  // Breadth first: the fewest conversions, so a direct market always wins over a chain.
  const rateTo = new Map<string, number>([[ccy1, 1]]);
  let frontier = [ccy1];
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const c of frontier) {
      const here = rateTo.get(c) as number;
      for (const [to, rate] of edges.get(c) ?? []) {
        if (rateTo.has(to)) continue;
        rateTo.set(to, here * rate);
        if (to === ccy2) return here * rate;
        next.push(to);
      }
    }
    frontier = next;
  }
  return null;
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
