/**
 * The public host's plain data (docs/protocol.md#conf-keys, #public-rest): the conf keys (pair and
 * currency lists, the currency flags, labels, features, the fee overrides, banners and terms), the
 * countries the forms offer, currency conversion (`calc/fx`) and sales.
 */
import {
  CURRENCY_LABELS_KEY,
  decodeFxBatchRequest,
  decodeFxQuery,
  encodeApiError,
  encodeCurrencyLabels,
  encodeFeeEntry,
  encodeFxBatch,
  encodeFxRate,
  encodeWebsiteStats,
  CONVERSION_FEES_PPM,
  DEPOSIT_METHODS,
  ERROR_CODES,
  FEE_SCHEDULE_KEY,
  feeScheduleCodec,
  MAKER_FEE_RATE,
  splitPair,
  TAKER_FEE_RATE,
  TX_METHODS_KEY,
  txMethodCodec,
  WEBSITE_STATS_KEY,
  WITHDRAWAL_METHODS,
  type FxQuery,
  type TxMethodTerms,
  type WebsiteStats,
} from "../../src/protocol/index.ts";
import { fxRate, volume30m } from "./derived.ts";
import type { Exchange } from "./exchange.ts";
import { LENDER_FEE } from "./funding-credits.ts";
import { feeRates } from "./settlement.ts";
import { MIN_ORDER_SIZE } from "./orders.ts";

const CURRENCY_NAMES: Record<string, string> = {
  BTC: "Bitcoin",
  ETH: "Ethereum",
  LTC: "Litecoin",
  XRP: "XRP",
  SOL: "Solana",
  USD: "US Dollar",
  UST: "Tether USDt",
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

/**
 * The home page's figures from the markets as they are (docs/protocol.md#site-figures): every
 * trading pair's last 24 hours of trades, each valued in USD through its quote currency's rate now
 * (a derivative's collateral and USDt counted as USD, as `volume30m` does).
 */
export function websiteStats(exchange: Exchange, now: number): WebsiteStats {
  // Worked out at most once a second per exchange: a day of trades in every market is the one
  // costly public answer, and a banner a second old says the same.
  const cached = statsCache.get(exchange);
  if (cached && now >= cached.at && now - cached.at < WEBSITE_STATS_FRESH_MS) return cached.stats;
  const stats = computeWebsiteStats(exchange, now);
  statsCache.set(exchange, { at: now, stats });
  return stats;
}

const WEBSITE_STATS_FRESH_MS = 1000;
const statsCache = new WeakMap<Exchange, { readonly at: number; readonly stats: WebsiteStats }>();

function computeWebsiteStats(exchange: Exchange, now: number): WebsiteStats {
  let volume = 0;
  let trades = 0;
  for (const [symbol, m] of exchange.markets) {
    const quote = splitPair(symbol.slice(1))?.quote ?? "USD";
    const rate = fxRate(exchange, quote.replace(/F0$/, "").replace("UST", "USD"), "USD") ?? 0;
    const day = m.tape.dayTrades(now);
    trades += day.length;
    for (const t of day) volume += Math.abs(t.amount) * t.price * rate;
  }
  return {
    markets: exchange.markets.size,
    fundingMarkets: exchange.funding.markets.size,
    volume24hUsd: Math.round(volume * 100) / 100,
    volume30mUsd: volume30m(exchange, now),
    trades24h: trades,
  };
}

/**
 * Every deposit and withdrawal method with its terms, from the one table each side enforces
 * (src/protocol deposits.ts and withdrawals.ts): deposit methods in their order, then the methods
 * that only withdraw.
 */
export function txMethodTerms(): TxMethodTerms[] {
  const rows: TxMethodTerms[] = DEPOSIT_METHODS.map((d) => {
    const w = WITHDRAWAL_METHODS.find((x) => x.method === d.method);
    return {
      method: d.method,
      currency: d.currency,
      network: d.network,
      depositConfirmations: d.confirmations,
      depositMinimum: d.minimum,
      withdrawalFee: w?.fee ?? null,
      withdrawalMinimum: w?.minimum ?? null,
    };
  });
  for (const w of WITHDRAWAL_METHODS)
    if (!rows.some((r) => r.method === w.method))
      rows.push({
        method: w.method,
        currency: w.currency,
        network: w.network,
        depositConfirmations: null,
        depositMinimum: null,
        withdrawalFee: w.fee,
        withdrawalMinimum: w.minimum,
      });
  return rows;
}

/** Countries the sign-up and compliance forms offer: [code, name]. */
export const COUNTRIES: readonly (readonly [string, string])[] = [
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

/**
 * POST routes of the public host that are plain data: conversions and sales. `fiat_fx` is read and
 * changes nothing: every rate here comes from the markets (derived.ts `fxRate`), fiat or not.
 */
export function handlePublicPost(exchange: Exchange, path: string, body: Record<string, unknown>): unknown {
  // The rate from the one currency to the other, or null for a pair malformed or not known.
  const rate = (q: FxQuery | null): number | null => (q === null ? null : fxRate(exchange, q.ccy1, q.ccy2));
  if (path === "/v2/calc/fx") {
    const fx = rate(decodeFxQuery(body));
    return fx === null ? encodeApiError(ERROR_CODES.PARAMS, "ccy: invalid") : encodeFxRate(fx);
  }
  if (path === "/v2/calc/fx/batch") {
    const queries = decodeFxBatchRequest(body) ?? [];
    return encodeFxBatch(
      queries.map((q) => {
        const fx = rate(q);
        return fx === null || q === null ? null : fx * q.amount;
      }),
    );
  }
  if (path === "/api/sales" || path === "/v2/int/securities/sales") return { data: [] };
  return undefined;
}

/** The values of `conf/KEY,KEY,…`, in the keys' order (null for a key not configured). */
export function confValues(exchange: Exchange, keys: readonly string[], now: number): unknown[] {
  const pairs = [...exchange.markets.keys()].map((s) => s.slice(1));
  // Every currency traded or lent here: the pairs' legs and the funding currencies (UST, the
  // API code pub:map:currency:sym maps to USDT, is one).
  const currencies = [
    ...new Set([
      ...pairs.flatMap((p) => {
        const legs = splitPair(p);
        return legs ? [legs.base, legs.quote] : [];
      }),
      ...[...exchange.funding.markets.keys()].map((f) => f.slice(1)),
    ]),
  ].sort();
  // One answer per distinct key: the list is the caller's to repeat, and a repeated costly key (the
  // website stats walk a day of trades) must not cost once per repetition.
  const answers = new Map<string, unknown>();
  return keys.map((k) => {
    if (!answers.has(k)) answers.set(k, confValue(k));
    return answers.get(k);
  });

  function confValue(k: string): unknown {
    switch (k) {
      case "pub:list:pair:exchange":
        return pairs.filter((p) => !p.includes("F0"));
      case "pub:list:pair:margin":
        return pairs.filter((p) => !p.includes("F0") && !p.startsWith("TEST"));
      // The singular key is what a 2021 recording asked for (docs/protocol.md#conf-keys): same list.
      case "pub:list:pair:futures":
      case "pub:list:pair:future":
        return pairs.filter((p) => p.includes("F0"));
      case "pub:list:currency":
        return currencies;
      // The currency flags (docs/product-rules.md#currency-and-pair-flags: funding, paper,
      // usdt0, securities, securitiesWallet, readOnly) are lists of currency codes under the
      // keys the real site asks for.
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
      case CURRENCY_LABELS_KEY:
        return encodeCurrencyLabels(new Map(currencies.map((c) => [c, CURRENCY_NAMES[c] ?? c])));
      case "pub:list:currency:stable":
        // Stablecoins: USD is fiat, not a stablecoin (the protocol documents none of this list's
        // entries; UST = USDT is the one listed here).
        return currencies.filter((c) => c === "UST");
      case "pub:list:features":
        return ["paper", "competitions", "securities", "otc", "staking", "borrow"];
      case WEBSITE_STATS_KEY:
        return encodeWebsiteStats(websiteStats(exchange, now));
      case TX_METHODS_KEY:
        return txMethodTerms().map((r) => txMethodCodec.encode(r));
      case FEE_SCHEDULE_KEY:
        // What settlement, funding interest and conversions charge, from the constants they use.
        return feeScheduleCodec.encode({
          maker: MAKER_FEE_RATE,
          taker: TAKER_FEE_RATE,
          lenderFee: LENDER_FEE,
          fiatConversion: (CONVERSION_FEES_PPM["fiat>fiat"] ?? 0) / 1e6,
          stableConversion: (CONVERSION_FEES_PPM["fiat>stable"] ?? 0) / 1e6,
        });
      case "pub:info:pair:fee:ovr":
        // [pair, [taker, maker]] (src/protocol decodeFeeEntry), exactly what settlement charges.
        return pairs.flatMap((p) => {
          const f = feeRates(`t${p}`);
          return f.maker === MAKER_FEE_RATE && f.taker === TAKER_FEE_RATE
            ? []
            : [encodeFeeEntry({ pair: p, taker_fee: f.taker, maker_fee: f.maker })];
        });
      case "pub:info:pair":
        return pairs.map((p) => [p, [null, null, null, String(MIN_ORDER_SIZE), "2000.0", null, null, null, 0.2, 0.1]]);
      default: {
        const banner = /^pub:raw:banner:home:([a-zA-Z-]+)$/.exec(k);
        if (banner) return homeBanner(banner[1] as string);
        const terms = /^pub:legal:terms:([a-z0-9_-]+)$/.exec(k);
        if (terms) return { id: terms[1], version: "1.0", updated: 1_790_000_000_000 };
        return null;
      }
    }
  }
}
