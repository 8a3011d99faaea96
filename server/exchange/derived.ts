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

/** The rate to convert one unit of ccy1 into ccy2, through a direct market or through BTC. */
export function fxRate(ex: Exchange, ccy1: string, ccy2: string): number | null {
  if (ccy1 === ccy2) return 1;
  const direct = lastPrice(ex, `t${ccy1}${ccy2}`);
  if (direct !== null) return direct;
  const inverse = lastPrice(ex, `t${ccy2}${ccy1}`);
  if (inverse !== null && inverse > 0) return 1 / inverse;
  const a = ccy1 === "BTC" ? 1 : lastPrice(ex, `tBTC${ccy1}`);
  const b = ccy2 === "BTC" ? 1 : lastPrice(ex, `tBTC${ccy2}`);
  if (a === null || b === null || a === 0) return null;
  return ccy1 === "BTC" ? b : ccy2 === "BTC" ? 1 / a : b / a;
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
