/**
 * Symbol rules (docs/product-rules.md#symbols, docs/protocol.md#symbols): `t` prefixes trading pairs and `f` funding
 * currencies; a pair of up to 6 characters splits 3+3, a longer one needs a `:` (or `/`) separator;
 * derivative pairs end in F plus digits on both legs (`BTCF0:USTF0`); TEST pairs are paper trading.
 */

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
