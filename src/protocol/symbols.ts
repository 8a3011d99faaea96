/**
 * Symbol rules (docs/product-rules.md#symbols, docs/protocol.md#symbols): `t` prefixes trading pairs and `f` funding
 * currencies; a pair of up to 6 characters splits 3+3, a longer one needs a `:` (or `/`) separator;
 * derivative pairs end in F plus digits on both legs (`BTCF0:USTF0`); TEST pairs are paper trading.
 */
import { DEFAULT_PAIR } from "./constants";

export interface PairParts {
  readonly base: string;
  readonly quote: string;
}

export type SymbolInfo =
  | {
      readonly kind: "trading";
      readonly symbol: string;
      readonly pair: string;
      readonly base: string;
      readonly quote: string;
      readonly derivative: boolean;
      readonly paper: boolean;
    }
  | { readonly kind: "funding"; readonly symbol: string; readonly currency: string };

const DERIVATIVE = /F\d+$/;

/** Splits a pair (without prefix) into base and quote; null when it cannot be split. */
export function splitPair(pair: string): PairParts | null {
  const sep = pair.includes(":") ? ":" : pair.includes("/") ? "/" : null;
  if (sep !== null) {
    const [base, quote, ...rest] = pair.split(sep);
    if (!base || !quote || rest.length > 0) return null;
    return { base, quote };
  }
  if (pair.length > 6 || pair.length < 2) return null;
  // Up to 6 characters: 3+3 (docs/product-rules.md#symbols); shorter odd forms split in the middle.
  const cut = pair.length === 6 ? 3 : Math.floor(pair.length / 2);
  return { base: pair.slice(0, cut), quote: pair.slice(cut) };
}

export function isDerivativePair(pair: string): boolean {
  const parts = splitPair(pair);
  return parts !== null && DERIVATIVE.test(parts.base) && DERIVATIVE.test(parts.quote);
}

export function isPaperPair(pair: string): boolean {
  const parts = splitPair(pair);
  return parts !== null && parts.base.startsWith("TEST") && parts.quote.startsWith("TEST");
}

/** The pair form that joins base and quote: 3+3 without a separator, `:` otherwise. */
export function joinPair(base: string, quote: string): string {
  return base.length === 3 && quote.length === 3 ? `${base}${quote}` : `${base}:${quote}`;
}

/** Parses a prefixed symbol (`tBTCUSD`, `tTESTBTC:TESTUSD`, `fUSD`); null when malformed. */
export function parseSymbol(symbol: string): SymbolInfo | null {
  if (symbol.length < 2) return null;
  const prefix = symbol[0];
  const rest = symbol.slice(1);
  if (prefix === "f") {
    return /^[A-Z0-9]{2,}$/.test(rest) ? { kind: "funding", symbol, currency: rest } : null;
  }
  if (prefix !== "t") return null;
  if (!/^[A-Z0-9:/]+$/.test(rest)) return null;
  const parts = splitPair(rest);
  if (!parts) return null;
  const pair = rest.replace("/", ":");
  return {
    kind: "trading",
    symbol: `t${pair}`,
    pair,
    base: parts.base,
    quote: parts.quote,
    derivative: DERIVATIVE.test(parts.base) && DERIVATIVE.test(parts.quote),
    paper: parts.base.startsWith("TEST") && parts.quote.startsWith("TEST"),
  };
}

export function tradingSymbol(pair: string): string {
  // Pairs are upper case, so a leading lower-case t is already the prefix.
  return pair.startsWith("t") ? pair : `t${pair}`;
}

/** Widget keys in saved grid layouts: `widget/{type}/{id}`. */
export function widgetKey(type: string, id: string): string {
  return `widget/${type}/${id}`;
}

export function parseWidgetKey(key: string): { readonly type: string; readonly id: string } | null {
  const m = /^widget\/([^/]+)\/([^/]+)$/.exec(key);
  return m ? { type: m[1] as string, id: m[2] as string } : null;
}

export type MarketPath =
  { readonly market: "trading"; readonly pair: string } | { readonly market: "funding"; readonly currency: string };

/**
 * Market paths: `trading/{pair}` or `t/{pair}`, `funding/{ccy}` or `f/{ccy}`
 * (docs/product-rules.md#keys-and-paths).
 */
export function parseMarketPath(path: string): MarketPath | null {
  const m = /^\/?(trading|t|funding|f)\/([^/?#]+)\/?$/.exec(path);
  if (!m) return null;
  const value = decodeURIComponent(m[2] as string).toUpperCase();
  if (m[1] === "trading" || m[1] === "t")
    return splitPair(value) ? { market: "trading", pair: value.replace("/", ":") } : null;
  return /^[A-Z0-9]{2,}$/.test(value) ? { market: "funding", currency: value } : null;
}

/**
 * What a desk address names (`/tradedesk/{market}`): a trading pair (`BTCUSD`, `ethusd`,
 * `TESTBTC:TESTUSD`, or prefixed `tBTCUSD`), a funding currency (`fUSD`: `f` then an upper-case
 * code, so it is never split as the pair "FU/SD"), or nothing readable. Whether the pair exists is
 * the exchange's pair list's to say, not the syntax's.
 */
export type DeskMarket =
  | { readonly kind: "pair"; readonly pair: string }
  | { readonly kind: "funding"; readonly currency: string }
  | { readonly kind: "invalid"; readonly text: string };

export function parseDeskMarket(text: string): DeskMarket {
  // The funding prefix is told by its case: `fUSD` is funding, `fusd` a (malformed) pair.
  if (/^f[A-Z0-9]{2,}$/.test(text)) return { kind: "funding", currency: text.slice(1) };
  const bare = /^t[A-Z0-9]{3,}([:/][A-Z0-9]{3,})?$/.test(text) ? text.slice(1) : text;
  const upper = bare.toUpperCase().replace("/", ":");
  if (/^[A-Z0-9]{3,}(:[A-Z0-9]{3,})?$/.test(upper) && splitPair(upper)) return { kind: "pair", pair: upper };
  return { kind: "invalid", text };
}

/** The currencies a market text mentions: a pair's legs, a funding currency, or none. */
function legsOf(market: DeskMarket): readonly string[] {
  if (market.kind === "funding") return [market.currency];
  if (market.kind === "invalid") return [];
  const parts = splitPair(market.pair);
  return parts ? [parts.base, parts.quote] : [];
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The exchange's pairs closest to what was asked for, best first, at most `limit`: for a funding
 * currency, the spot pairs that trade it (as base first); for a pair, those sharing its base, its
 * quote or either leg, and those whose name starts like it (three characters or more in common),
 * derivatives only for a derivative and paper pairs only for a paper one. Unreadable text is compared by its start only. Ties go alphabetically, so the answer is the same
 * for the same list. When nothing is close, the default pair and the other spot pairs in its quote
 * currency, so the answer is never empty while the list is not.
 */
export function suggestMarkets(market: DeskMarket, known: Iterable<string>, limit = 6): string[] {
  const legs = legsOf(market);
  const compact =
    market.kind === "pair"
      ? market.pair.replace(":", "")
      : market.kind === "invalid"
        ? market.text.toUpperCase().replace(/[^A-Z0-9]/g, "")
        : "";
  const fallback: string[] = [];
  const defaultQuote = splitPair(DEFAULT_PAIR)?.quote;
  const scored: { pair: string; score: number }[] = [];
  for (const pair of known) {
    const parts = splitPair(pair);
    if (!parts) continue;
    if (!isDerivativePair(pair) && !isPaperPair(pair) && parts.quote === defaultQuote) fallback.push(pair);
    let score = 0;
    if (market.kind === "funding") {
      // A funding desk lends a currency; its spot pairs are where that currency trades.
      if (isDerivativePair(pair) || isPaperPair(pair)) continue;
      if (parts.base === market.currency) score += 4;
      else if (parts.quote === market.currency) score += 3;
    } else if (market.kind === "pair") {
      // A spot pair is not pointed to a derivative or paper one (nor the reverse): a different market.
      if (isDerivativePair(pair) !== isDerivativePair(market.pair) || isPaperPair(pair) !== isPaperPair(market.pair))
        continue;
      const [base, quote] = legs;
      if (parts.base === base) score += 4;
      if (parts.quote === quote) score += 2;
      if (parts.base === quote || parts.quote === base) score += 1;
    }
    const prefix = compact === "" ? 0 : commonPrefix(compact, pair.replace(":", ""));
    if (prefix >= 3) score += prefix;
    if (score > 0) scored.push({ pair, score });
  }
  const byName = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  if (scored.length === 0) {
    // Nothing like it: the default market first, then its quote currency's other spot pairs.
    fallback.sort((a, b) => (a === DEFAULT_PAIR ? -1 : b === DEFAULT_PAIR ? 1 : byName(a, b)));
    return fallback.slice(0, limit);
  }
  scored.sort((a, b) => b.score - a.score || byName(a.pair, b.pair));
  return scored.slice(0, limit).map((s) => s.pair);
}

/** The conf keys whose lists hold every pair a desk can show: spot (paper included) and derivatives. */
export const PAIR_LIST_KEYS = ["pub:list:pair:exchange", "pub:list:pair:futures"] as const;

/**
 * The pairs of a `GET /v2/conf/{key,key…}` answer for `pub:list:pair:*` keys (one list of pair names
 * per key asked); null when the answer is not lists of strings.
 */
export function decodePairLists(body: unknown): string[] | null {
  if (!Array.isArray(body)) return null;
  const out: string[] = [];
  for (const list of body) {
    if (!Array.isArray(list)) return null;
    for (const pair of list) {
      if (typeof pair !== "string") return null;
      out.push(pair);
    }
  }
  return out;
}
