/**
 * Funding desk addresses (docs/product-rules.md#keys-and-paths): `/funding` (the default currency),
 * `/funding/{ccy}` and `/f/{ccy}`, the currency in either case and with or without its `f` prefix
 * (`/f/fUSD`, `/funding/usd`). Whether the currency has a funding market is the exchange's list's
 * to say (`KnownCurrency.tsx`), not the syntax's.
 */

/** The currency `/funding` opens: the deepest funding market on every variant that has funding. */
export const DEFAULT_FUNDING_CURRENCY = "USD";

export type FundingMarket =
  { readonly kind: "currency"; readonly currency: string } | { readonly kind: "invalid"; readonly text: string };

/** Reads a currency segment: `USD`, `usd`, `fUSD`; anything else is invalid. */
export function parseFundingCurrency(text: string): FundingMarket {
  const bare = /^f[A-Z0-9]{2,}$/.test(text) ? text.slice(1) : text;
  const upper = bare.toUpperCase();
  return /^[A-Z0-9]{2,10}$/.test(upper) ? { kind: "currency", currency: upper } : { kind: "invalid", text };
}

/** What a funding desk path names: the default currency when it names none. */
export function fundingMarketFromPath(path: string): FundingMarket {
  const raw = path.split("/").filter((s) => s !== "")[1];
  if (raw === undefined) return { kind: "currency", currency: DEFAULT_FUNDING_CURRENCY };
  try {
    return parseFundingCurrency(decodeURIComponent(raw));
  } catch {
    return { kind: "invalid", text: raw };
  }
}

/** The funding desk's address for a currency, in the area the user is in (`/f` or `/funding`). */
export function fundingPath(path: string, currency: string): string {
  const area = path.split("/").filter((s) => s !== "")[0] === "f" ? "f" : "funding";
  return `/${area}/${currency}`;
}

/** The funding symbol of a currency: `USD` → `fUSD`. */
export function fundingSymbol(currency: string): string {
  return `f${currency}`;
}

/**
 * A saved layout pins a funding widget with the market symbol `f/{ccy}` (or `funding/{ccy}`): the
 * pinned currency, or null when the text is not a funding market symbol.
 */
export function pinnedCurrency(pin: string | undefined): string | null {
  const m = pin === undefined ? null : /^(?:f|funding)\/([A-Z0-9]{2,10})$/.exec(pin);
  return m ? (m[1] as string) : null;
}

/**
 * The currencies closest to an unknown one, best first: those that start the same, then the rest
 * alphabetically, at most `limit` (the list is short: every funding market fits on a card).
 */
export function suggestCurrencies(asked: string, known: Iterable<string>, limit = 6): string[] {
  const upper = asked.toUpperCase();
  const shared = (c: string): number => {
    let n = 0;
    while (n < c.length && n < upper.length && c[n] === upper[n]) n++;
    return n;
  };
  return [...known]
    .filter((c) => c !== upper)
    .sort((a, b) => shared(b) - shared(a) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, limit);
}
