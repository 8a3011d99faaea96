/**
 * Public REST v2 over the exchange (docs/protocol.md#public-rest), trading pairs and funding
 * currencies alike: platform status, tickers, ticker, trades history (funding `[ID, MTS, AMOUNT,
 * RATE, PERIOD]`), book (P0–P4, R0; bids first, funding bids negative), candles (`trade:1m:
 * tBTCUSD`, `trade:1m:fUSD:p30`), derivatives status, liquidations, the 30-minute volume, geo and
 * the conf keys (public-conf.ts), in the real API's response shapes; errors as
 * `["error", code, "message"]` (HTTP 400 for a bad symbol or parameter).
 */
import {
  encodeTickersRow,
  ERROR_CODES,
  parseRankingKey,
  publicFundingTradeCodec,
  publicTradeCodec,
  type OrderBook,
} from "../../src/protocol/index.ts";
import { fail, ok, type Reply } from "../reply.ts";
import { derivStatusRow, volume30m } from "./derived.ts";
import type { Exchange } from "./exchange.ts";
import { PRICE_LEVELS, RAW_ORDERS, RawFeed } from "./feeds.ts";
import { PRECISIONS, TIMEFRAMES, type Prec } from "./market-data.ts";
import { confValues, COUNTRIES } from "./public-conf.ts";

/** The most keys one `/v2/conf/` call may ask for. */
const MAX_CONF_KEYS = 40;
import { statsSeries } from "./stats.ts";

const bad = (msg: string): Reply => fail(ERROR_CODES.PARAMS, msg, 400);

/** A path segment decoded; a malformed escape is no symbol at all (answered as invalid, not a crash). */
function pathPart(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

const limitOf = (q: URLSearchParams, fallback: number, most = 10_000): number =>
  Math.min(most, Math.max(1, Number(q.get("limit") ?? fallback) || fallback));

/** A candle series' `last` or `hist` (`limit`, `end`, `sort`), newest first unless `sort=1`. */
function candlesReply(rows: readonly number[][], which: string, q: URLSearchParams): Reply {
  if (which === "last") return ok(rows[rows.length - 1] ?? []);
  const end = Number(q.get("end") ?? Number.POSITIVE_INFINITY);
  const picked = rows.filter((r) => (r[0] as number) <= end).slice(-limitOf(q, 100));
  return ok(q.get("sort") === "1" ? picked : picked.reverse());
}

/** The market-data calls, of a trading pair or a funding currency; null for any other path. */
function marketData(exchange: Exchange, path: string, q: URLSearchParams, now: number): Reply | null {
  let m: RegExpExecArray | null;
  if ((m = /^\/v2\/ticker\/([^/]+)$/.exec(path))) {
    const symbol = pathPart(m[1] as string);
    const market = exchange.markets.get(symbol) ?? exchange.funding.markets.get(symbol);
    return market ? ok(market.ticker(now)) : bad("symbol: invalid");
  }
  if ((m = /^\/v2\/trades\/([^/]+)\/hist$/.exec(path))) {
    const symbol = pathPart(m[1] as string);
    const limit = limitOf(q, 125);
    const market = exchange.markets.get(symbol);
    const funding = exchange.funding.markets.get(symbol);
    let rows: unknown[][];
    if (market) rows = market.trades.slice(0, limit).map((t) => publicTradeCodec.encode(t));
    else if (funding) {
      const start = Number(q.get("start") ?? 0) || 0;
      const end = Number(q.get("end") ?? Number.POSITIVE_INFINITY) || Number.POSITIVE_INFINITY;
      rows = funding.trades
        .filter((t) => t.mts >= start && t.mts <= end)
        .slice(0, limit)
        .map((t) => publicFundingTradeCodec.encode(t));
    } else return bad("symbol: invalid");
    return ok(q.get("sort") === "1" ? rows.reverse() : rows);
  }
  if ((m = /^\/v2\/book\/([^/]+)\/([A-Z0-9]+)$/.exec(path))) {
    const symbol = pathPart(m[1] as string);
    const prec = m[2] as string;
    const len = Number(q.get("len") ?? 25);
    const lenOk = [1, 25, 100].includes(len);
    const funding = exchange.funding.markets.get(symbol);
    if (funding) {
      if (!lenOk) return bad("len: invalid");
      if (prec === "R0") return ok(funding.rawOffers(len));
      if (!(PRECISIONS as readonly string[]).includes(prec)) return bad("prec: invalid");
      return ok(funding.levels(prec as Prec, len));
    }
    if (prec !== "R0" && !(PRECISIONS as readonly string[]).includes(prec)) return null;
    const market = exchange.markets.get(symbol);
    if (!market) return bad("symbol: invalid");
    if (!lenOk) return bad("len: invalid");
    if (prec === "R0") {
      // A one-off raw view: a fresh feed's first diff is the whole top-`len`.
      const feed = new RawFeed(market, len, RAW_ORDERS);
      feed.diff();
      return ok(feed.snapshot());
    }
    const book = market.books.get(prec as Prec) as OrderBook;
    const rows: unknown[][] = [];
    for (const side of [book.bids, book.asks])
      for (let i = 0; i < Math.min(len, side.size); i++) rows.push(PRICE_LEVELS.entry(side, i));
    return ok(rows);
  }
  if ((m = /^\/v2\/candles\/trade:([0-9]+[mhDWM]):(f[A-Z0-9]+):([^/]+)\/(last|hist)$/.exec(path))) {
    const tf = m[1] as string;
    const fm = exchange.funding.markets.get(pathPart(m[2] as string));
    const rows = fm && Object.hasOwn(TIMEFRAMES, tf) ? fm.candles(tf, pathPart(m[3] as string)) : null;
    return rows ? candlesReply(rows, m[4] as string, q) : bad("key: invalid");
  }
  if ((m = /^\/v2\/candles\/trade:([0-9]+[mhDWM]):([^/]+)\/(last|hist)$/.exec(path))) {
    const tf = m[1] as string;
    const market = exchange.markets.get(pathPart(m[2] as string));
    return market && tf in TIMEFRAMES
      ? candlesReply(market.candles.get(tf) ?? [], m[3] as string, q)
      : bad("key: invalid");
  }
  return null;
}

/** The public GET calls under `/v2/`; null for any other path. */
export function handlePublicRest(
  exchange: Exchange,
  now: () => number,
  platformStatus: () => number,
  geoCountry = "GB",
) {
  return (url: URL): Reply | null => {
    const path = url.pathname;
    if (!path.startsWith("/v2/")) return null;
    const q = url.searchParams;
    const data = marketData(exchange, path, q, now());
    if (data) return data;
    // Loopback has no location: the country is configuration (the product's default, GB).
    if (path === "/v2/int/geo/ip") return ok([q.get("ip") ?? "127.0.0.1", geoCountry]);
    if (path === "/v2/int/countries") return ok(COUNTRIES);
    if (path === "/v2/status/deriv") {
      const keys = (q.get("keys") ?? "ALL").split(",");
      const all = keys.includes("ALL");
      const rows: unknown[] = [];
      for (const symbol of exchange.markets.keys()) {
        if (!symbol.includes("F0") || (!all && !keys.includes(symbol))) continue;
        const row = derivStatusRow(exchange, symbol, now());
        if (row) rows.push([symbol, ...row]);
      }
      return ok(rows);
    }
    if (/^\/v2\/stats1\/vol\.[0-9a-z]+:30m:BFX\/last$/.test(path))
      return ok([Math.floor(now() / 1_800_000) * 1_800_000, volume30m(exchange, now())]);
    const stats = /^\/v2\/stats1\/([^/]+)\/(hist|last)$/.exec(path);
    if (stats) {
      // The stats page's series (stats.ts); `sort=1` oldest first, as every history call.
      const rows = statsSeries(exchange, pathPart(stats[1] as string));
      if (!rows) return bad("key: invalid");
      if (stats[2] === "last") return ok(rows[rows.length - 1] ?? []);
      const picked = rows.slice(-limitOf(q, 100, 1000));
      return ok(q.get("sort") === "1" ? picked : picked.reverse());
    }
    // Newest first, each row wrapped in its own array (docs/protocol.md#liquidations); stored in SQLite by the venue.
    if (path === "/v2/liquidations/hist") {
      // `start`/`end` (ms) bound the page, so a client pages back with `end` = its oldest row's time.
      const start = Number(q.get("start") ?? 0);
      const end = Number(q.get("end") ?? Number.MAX_SAFE_INTEGER);
      if (!Number.isFinite(start) || !Number.isFinite(end) || start > end) return bad("start/end: invalid");
      return ok(exchange.liquidations.page(start, end, limitOf(q, 120, 500)).map((row) => [row]));
    }
    const ranking = /^\/v2\/rankings\/([^/]+)\/hist$/.exec(path);
    if (ranking) {
      // A leaderboard (rankings.ts); `end` (ms) asks for the board of the window ending then.
      const key = parseRankingKey(pathPart(ranking[1] as string));
      if (!key || !exchange.rankings) return bad("key: invalid");
      const end = Number(q.get("end") ?? now());
      if (!Number.isFinite(end) || end <= 0) return bad("end: invalid");
      return ok(exchange.rankings.board(key, Math.min(end, now()), now()).slice(0, limitOf(q, 25, 25)));
    }
    if (path === "/v2/platform/status") return ok([platformStatus()]);
    if (path === "/v2/tickers") {
      const wanted = (q.get("symbols") ?? "ALL").split(",");
      const all = wanted.includes("ALL");
      const rows: unknown[] = [];
      for (const [symbol, market] of exchange.markets)
        if (all || wanted.includes(symbol)) rows.push(encodeTickersRow(symbol, market.tickerRecord(now())));
      for (const [symbol, market] of exchange.funding.markets)
        if (all || wanted.includes(symbol)) rows.push([symbol, ...market.ticker(now())]);
      return ok(rows);
    }
    const conf = /^\/v2\/conf\/(.+)$/.exec(path)?.[1];
    if (conf !== undefined) {
      const keys = pathPart(conf).split(",");
      // A few keys a call is what clients ask for; hundreds are only a way to make one request cost more.
      if (keys.length > MAX_CONF_KEYS) return fail(ERROR_CODES.PARAMS, "conf: too many keys", 400);
      return ok(confValues(exchange, keys, now()));
    }
    return fail(ERROR_CODES.PARAMS, "not found", 404);
  };
}
