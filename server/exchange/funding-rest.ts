/**
 * Public REST of the funding markets (PROTOCOL.md 5): `ticker/fUSD`, the funding rows of
 * `tickers`, `trades/fUSD/hist` (`[ID, MTS, AMOUNT, RATE, PERIOD]`), `book/fUSD/P0..P4|R0` (bids
 * first, negative) and `candles/trade:1m:fUSD:p30/hist|last`. Errors in the real API's shape.
 */
import { FundingMarket, type FundingExchange } from "./funding-market.ts";
import { PRECISIONS, TIMEFRAMES, type Prec } from "./market.ts";

export interface FundingRestReply {
  readonly status: number;
  readonly body: unknown;
}

const bad = (msg: string): FundingRestReply => ({ status: 400, body: ["error", 10020, msg] });
const ok = (body: unknown): FundingRestReply => ({ status: 200, body });

function part(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

/** `tickers` rows of the funding markets a `symbols` list asks for (`ALL` is every one). */
export function fundingTickerRows(fx: FundingExchange, wanted: readonly string[], now: number): unknown[][] {
  const all = wanted.includes("ALL");
  const rows: unknown[][] = [];
  for (const [symbol, market] of fx.markets)
    if (all || wanted.includes(symbol)) rows.push([symbol, ...market.ticker(now)]);
  return rows;
}

/** Answers a public funding path; null when the path is not one (the trading routes answer it). */
export function fundingPublicRest(
  fx: FundingExchange,
  path: string,
  q: URLSearchParams,
  now: number,
): FundingRestReply | null {
  let m: RegExpExecArray | null;
  const market = (s: string): FundingMarket | undefined => fx.markets.get(part(s));
  if ((m = /^\/v2\/ticker\/(f[^/]+)$/.exec(path))) {
    const fm = market(m[1] as string);
    return fm ? ok(fm.ticker(now)) : null;
  }
  if ((m = /^\/v2\/trades\/(f[^/]+)\/hist$/.exec(path))) {
    const fm = market(m[1] as string);
    if (!fm) return null;
    const limit = Math.min(10_000, Math.max(1, Number(q.get("limit") ?? 125) || 125));
    const start = Number(q.get("start") ?? 0) || 0;
    const end = Number(q.get("end") ?? Number.POSITIVE_INFINITY) || Number.POSITIVE_INFINITY;
    const rows = fm.trades
      .filter((t) => t.mts >= start && t.mts <= end)
      .slice(0, limit)
      .map((t) => FundingMarket.tradeWire(t));
    return ok(q.get("sort") === "1" ? rows.reverse() : rows);
  }
  if ((m = /^\/v2\/book\/(f[^/]+)\/([A-Z0-9]+)$/.exec(path))) {
    const fm = market(m[1] as string);
    if (!fm) return null;
    const prec = m[2] as string;
    const len = Number(q.get("len") ?? 25);
    if (![1, 25, 100].includes(len)) return bad("len: invalid");
    if (prec === "R0") return ok(fm.rawOffers(len));
    if (!(PRECISIONS as readonly string[]).includes(prec)) return bad("prec: invalid");
    return ok(fm.levels(prec as Prec, len));
  }
  if ((m = /^\/v2\/candles\/trade:([0-9]+[mhDWM]):(f[A-Z0-9]+):([^/]+)\/(last|hist)$/.exec(path))) {
    const fm = market(m[2] as string);
    const tf = m[1] as string;
    const rows = fm && tf in TIMEFRAMES ? fm.candles(tf, part(m[3] as string)) : null;
    if (!rows) return bad("key: invalid");
    if (m[4] === "last") return ok(rows[rows.length - 1] ?? []);
    const limit = Math.min(10_000, Math.max(1, Number(q.get("limit") ?? 100) || 100));
    const end = Number(q.get("end") ?? Number.POSITIVE_INFINITY);
    const picked = rows.filter((r) => (r[0] as number) <= end).slice(-limit);
    return ok(q.get("sort") === "1" ? picked : picked.reverse());
  }
  return null;
}
