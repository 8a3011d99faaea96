/**
 * Public REST v2 over the exchange (PROTOCOL.md 5): platform status, tickers, ticker, trades
 * history, book, candles and the conf lists, in the real API's response shapes; errors as
 * `["error", code, "message"]`.
 */
import { RawBookFeed } from "./feeds.ts";
import type { IncomingMessage, ServerResponse } from "node:http";
import { derivStatusRow, fxRate, volume30m } from "./derived.ts";
import type { Exchange } from "./exchange.ts";
import { fundingPublicRest, fundingTickerRows } from "./funding-rest.ts";
import { PRECISIONS, TIMEFRAMES, type Prec } from "./market.ts";
import { feeRates, MAKER_FEE, TAKER_FEE } from "./trading.ts";

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

const CURRENCY_NAMES: Record<string, string> = {
  BTC: "Bitcoin",
  ETH: "Ethereum",
  LTC: "Litecoin",
  XRP: "XRP",
  SOL: "Solana",
  USD: "US Dollar",
  EUR: "Euro",
  JPY: "Japanese Yen",
  TRY: "Turkish Lira",
  BRL: "Brazilian Real",
  TESTBTC: "Test Bitcoin",
  TESTUSD: "Test US Dollar",
  BTCF0: "Bitcoin (derivative)",
  ETHF0: "Ethereum (derivative)",
  USTF0: "Tether (derivative)",
};

/**
 * The currency flag lists. Keys as the real site's currency saga and API clients ask for them
 * (`pub:list:currency:margin|futures|paper|viewonly|securities|securities:portfolio|…`); the USDT0
 * list has no key in the sources, so `pub:list:currency:usdt0` is this exchange's choice. Flag →
 * key: funding → `margin` (a currency with a funding market: lent, borrowed, usable as margin),
 * paper → `paper`, usdt0 → `usdt0`, securities → `securities`, securitiesWallet →
 * `securities:portfolio`, readOnly → `viewonly`. Nothing listed here is a USDT0 variant, a
 * security or view-only, so those lists are empty (the real shape: `[[]]`).
 */
export function currencyFlagList(key: string, currencies: readonly string[], exchange: Exchange): string[] {
  switch (key) {
    case "pub:list:currency:margin":
      return [...exchange.funding.markets.keys()].map((f) => f.slice(1)).sort();
    case "pub:list:currency:futures":
      return currencies.filter((c) => c.endsWith("F0"));
    case "pub:list:currency:paper":
      return currencies.filter((c) => c.startsWith("TEST"));
    default:
      return [];
  }
}

/**
 * The home page banner per language (`pub:raw:banner:home:{lang}`): the site's locales, a region
 * suffix matched on its language (`es-EM` → `es`) except Chinese, whose scripts differ; any other
 * language has no banner (null, like any key not configured).
 */
const HOME_BANNERS: Readonly<Record<string, string>> = {
  en: "Paper trading on the embedded exchange: every market live, no deposit needed.",
  es: "Trading simulado en el exchange integrado: todos los mercados en vivo, sin depósito.",
  pt: "Negociação simulada na exchange integrada: todos os mercados ao vivo, sem depósito.",
  ru: "Учебная торговля на встроенной бирже: все рынки в реальном времени, без депозита.",
  tr: "Gömülü borsada kâğıt üzerinde işlem: tüm piyasalar canlı, yatırım gerekmez.",
  "zh-CN": "在内置交易所模拟交易：所有市场实时运行，无需存款。",
  "zh-TW": "在內建交易所模擬交易：所有市場即時運行，無需存款。",
};

export function homeBanner(lang: string): { lang: string; title: string; link: string } | null {
  const [language = "", region = ""] = lang.split("-");
  const key =
    language.toLowerCase() === "zh"
      ? `zh-${region.toUpperCase() === "TW" || region.toUpperCase() === "HK" ? "TW" : "CN"}`
      : language.toLowerCase();
  const title = HOME_BANNERS[key];
  return title === undefined ? null : { lang: key, title, link: "/tradedesk" };
}

/** Countries the sign-up and compliance forms offer: [code, name]. */
const COUNTRIES: readonly (readonly [string, string])[] = [
  ["AR", "Argentina"],
  ["AU", "Australia"],
  ["BR", "Brazil"],
  ["CA", "Canada"],
  ["CH", "Switzerland"],
  ["CL", "Chile"],
  ["CO", "Colombia"],
  ["DE", "Germany"],
  ["ES", "Spain"],
  ["FR", "France"],
  ["GB", "United Kingdom"],
  ["HK", "Hong Kong"],
  ["IT", "Italy"],
  ["JP", "Japan"],
  ["KR", "South Korea"],
  ["MX", "Mexico"],
  ["NL", "Netherlands"],
  ["PE", "Peru"],
  ["PL", "Poland"],
  ["PT", "Portugal"],
  ["SG", "Singapore"],
  ["SV", "El Salvador"],
  ["TR", "Türkiye"],
  ["TW", "Taiwan"],
  ["US", "United States"],
  ["VE", "Venezuela"],
];

/** POST routes of the public host that are plain data: conversions and sales. */
export function handlePublicPost(exchange: Exchange, path: string, body: Record<string, unknown>): unknown | undefined {
  if (path === "/v2/calc/fx") {
    const rate =
      typeof body["ccy1"] === "string" && typeof body["ccy2"] === "string"
        ? fxRate(exchange, body["ccy1"], body["ccy2"])
        : null;
    return rate === null ? ["error", 10020, "ccy: invalid"] : [rate];
  }
  if (path === "/v2/calc/fx/batch") {
    const pairs = Array.isArray(body["pairs"]) ? body["pairs"] : [];
    return {
      data: pairs.map((p: unknown) => {
        const r = (p ?? {}) as Record<string, unknown>;
        const rate =
          typeof r["ccy1"] === "string" && typeof r["ccy2"] === "string"
            ? fxRate(exchange, r["ccy1"], r["ccy2"])
            : null;
        return rate === null ? null : rate * (typeof r["amount"] === "number" ? r["amount"] : 1);
      }),
    };
  }
  if (path === "/api/sales" || path === "/v2/int/securities/sales") return { data: [] };
  return undefined;
}

/** A path segment decoded; a malformed escape is no symbol at all (answered as invalid, not a crash). */
function pathPart(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

export function handlePublicRest(
  exchange: Exchange,
  now: () => number,
  platformStatus: () => number,
  geoCountry = "GB",
) {
  return (_req: IncomingMessage, res: ServerResponse, url: URL): boolean => {
    const path = url.pathname;
    if (!path.startsWith("/v2/")) return false;
    const q = url.searchParams;
    let m: RegExpExecArray | null;
    const funding = fundingPublicRest(exchange.funding, path, q, now());
    if (funding) {
      json(res, funding.status, funding.body);
    } else if (path === "/v2/int/geo/ip") {
      // Loopback has no location: the country is configuration (SPEC section 9's default, GB).
      json(res, 200, [q.get("ip") ?? "127.0.0.1", geoCountry]);
    } else if (path === "/v2/int/countries") {
      json(res, 200, COUNTRIES);
    } else if (path === "/v2/status/deriv") {
      const keys = (q.get("keys") ?? "ALL").split(",");
      const all = keys.includes("ALL");
      const rows: unknown[] = [];
      for (const symbol of exchange.markets.keys()) {
        if (!symbol.includes("F0") || (!all && !keys.includes(symbol))) continue;
        const row = derivStatusRow(exchange, symbol, now());
        if (row) rows.push([symbol, ...row]);
      }
      json(res, 200, rows);
    } else if (/^\/v2\/stats1\/vol\.[0-9a-z]+:30m:BFX\/last$/.test(path)) {
      json(res, 200, [Math.floor(now() / 1_800_000) * 1_800_000, volume30m(exchange, now())]);
    } else if (path === "/v2/liquidations/hist") {
      // Newest first, each row wrapped in its own array (PROTOCOL.md 5); stored in SQLite by the venue.
      const limit = Math.min(500, Math.max(1, Number(q.get("limit") ?? 120) || 120));
      json(
        res,
        200,
        exchange.liquidations.recent.slice(0, limit).map((row) => [row]),
      );
    } else if (path === "/v2/platform/status") {
      json(res, 200, [platformStatus()]);
    } else if (path === "/v2/tickers") {
      const wanted = (q.get("symbols") ?? "ALL").split(",");
      const all = wanted.includes("ALL");
      const rows: unknown[] = [];
      for (const [symbol, market] of exchange.markets)
        if (all || wanted.includes(symbol)) rows.push([symbol, ...market.ticker(now())]);
      rows.push(...fundingTickerRows(exchange.funding, wanted, now()));
      json(res, 200, rows);
    } else if ((m = /^\/v2\/ticker\/([^/]+)$/.exec(path))) {
      const market = exchange.markets.get(pathPart(m[1] as string));
      if (!market) json(res, 400, ["error", 10020, "symbol: invalid"]);
      else json(res, 200, market.ticker(now()));
    } else if ((m = /^\/v2\/trades\/([^/]+)\/hist$/.exec(path))) {
      const market = exchange.markets.get(pathPart(m[1] as string));
      if (!market) return (json(res, 400, ["error", 10020, "symbol: invalid"]), true);
      const limit = Math.min(10_000, Math.max(1, Number(q.get("limit") ?? 125) || 125));
      const rows = market.trades.slice(0, limit).map((t) => [t.id, t.mts, t.amount, t.price]);
      json(res, 200, q.get("sort") === "1" ? rows.reverse() : rows);
    } else if ((m = /^\/v2\/book\/([^/]+)\/R0$/.exec(path))) {
      const market = exchange.markets.get(pathPart(m[1] as string));
      if (!market) return (json(res, 400, ["error", 10020, "symbol: invalid"]), true);
      const len = Number(q.get("len") ?? 25);
      if (![1, 25, 100].includes(len)) return (json(res, 400, ["error", 10020, "len: invalid"]), true);
      // A one-off raw view: a fresh feed's first diff is the whole top-`len`.
      const feed = new RawBookFeed(market, len);
      feed.diff();
      json(res, 200, feed.snapshot());
    } else if ((m = /^\/v2\/book\/([^/]+)\/(P[0-4])$/.exec(path))) {
      const market = exchange.markets.get(pathPart(m[1] as string));
      const prec = m[2] as Prec;
      if (!market || !(PRECISIONS as readonly string[]).includes(prec))
        return (json(res, 400, ["error", 10020, "symbol: invalid"]), true);
      const len = Number(q.get("len") ?? 25);
      if (![1, 25, 100].includes(len)) return (json(res, 400, ["error", 10020, "len: invalid"]), true);
      const book = market.books.get(prec);
      const rows: number[][] = [];
      if (book) {
        for (let i = 0; i < Math.min(len, book.bids.size); i++)
          rows.push([book.bids.k1[i] as number, book.bids.aux[i] as number, book.bids.amount[i] as number]);
        for (let i = 0; i < Math.min(len, book.asks.size); i++)
          rows.push([book.asks.k1[i] as number, book.asks.aux[i] as number, book.asks.amount[i] as number]);
      }
      json(res, 200, rows);
    } else if ((m = /^\/v2\/candles\/trade:([0-9]+[mhDWM]):([^/]+)\/(last|hist)$/.exec(path))) {
      const tf = m[1] as string;
      const market = exchange.markets.get(pathPart(m[2] as string));
      if (!market || !(tf in TIMEFRAMES)) return (json(res, 400, ["error", 10020, "key: invalid"]), true);
      const rows = market.candles.get(tf) ?? [];
      if (m[3] === "last") json(res, 200, rows[rows.length - 1] ?? []);
      else {
        const limit = Math.min(10_000, Math.max(1, Number(q.get("limit") ?? 100) || 100));
        const end = Number(q.get("end") ?? Number.POSITIVE_INFINITY);
        const picked = rows.filter((r) => (r[0] as number) <= end).slice(-limit);
        json(res, 200, q.get("sort") === "1" ? picked : picked.reverse());
      }
    } else if ((m = /^\/v2\/conf\/(.+)$/.exec(path))) {
      const keys = pathPart(m[1] as string).split(",");
      const pairs = [...exchange.markets.keys()].map((s) => s.slice(1));
      // Every currency traded or lent here: the pairs' legs and the funding currencies (UST, the
      // API code pub:map:currency:sym maps to USDT, is one).
      const currencies = [
        ...new Set([
          ...pairs.flatMap((p) => (p.includes(":") ? p.split(":") : [p.slice(0, 3), p.slice(3)])),
          ...[...exchange.funding.markets.keys()].map((f) => f.slice(1)),
        ]),
      ].sort();
      const out = keys.map((k) => {
        switch (k) {
          case "pub:list:pair:exchange":
            return pairs.filter((p) => !p.includes("F0"));
          case "pub:list:pair:margin":
            return pairs.filter((p) => !p.includes("F0") && !p.startsWith("TEST"));
          // The singular key is what a 2021 recording asked for (PROTOCOL.md 5): same list.
          case "pub:list:pair:futures":
          case "pub:list:pair:future":
            return pairs.filter((p) => p.includes("F0"));
          case "pub:list:currency":
            return currencies;
          // The currency flags (SPEC section 3: funding, paper, usdt0, securities, securitiesWallet,
          // readOnly) are lists of currency codes under the keys the real site asks for.
          case "pub:list:currency:margin":
          case "pub:list:currency:futures":
          case "pub:list:currency:paper":
          case "pub:list:currency:usdt0":
          case "pub:list:currency:securities":
          case "pub:list:currency:securities:portfolio":
          case "pub:list:currency:securities:accredited":
          case "pub:list:currency:viewonly":
          case "pub:list:currency:inactive":
            return currencyFlagList(k, currencies, exchange);
          case "pub:map:currency:sym":
            return [["UST", "USDT"]];
          case "pub:map:currency:label":
            return currencies.map((c) => [c, CURRENCY_NAMES[c] ?? c]);
          case "pub:list:currency:stable":
            // Stablecoins: USD is fiat, not a stablecoin (PROTOCOL.md names none of this list's
            // entries; UST = USDT is the one listed here).
            return currencies.filter((c) => c === "UST");
          case "pub:list:features":
            return ["paper", "competitions", "securities", "otc", "staking", "borrow"];
          case "pub:raw:website:stats":
            return { markets: exchange.markets.size, volume30mUsd: volume30m(exchange, now()), users: null };
          case "pub:info:pair:fee:ovr":
            // [pair, [taker, maker]] (src/protocol decodeFeeEntry), exactly what settlement charges.
            return pairs.flatMap((p) => {
              const f = feeRates(`t${p}`);
              return f.maker === MAKER_FEE && f.taker === TAKER_FEE ? [] : [[p, [f.taker, f.maker]]];
            });
          case "pub:info:pair":
            return pairs.map((p) => [p, [null, null, null, "0.00001", "2000.0", null, null, null, 0.2, 0.1]]);
          default: {
            const banner = /^pub:raw:banner:home:([a-zA-Z-]+)$/.exec(k);
            if (banner) return homeBanner(banner[1] as string);
            const terms = /^pub:legal:terms:([a-z0-9_-]+)$/.exec(k);
            if (terms) return { id: terms[1], version: "1.0", updated: 1_790_000_000_000 };
            return null;
          }
        }
      });
      json(res, 200, out);
    } else {
      json(res, 404, ["error", 10020, "not found"]);
    }
    return true;
  };
}
