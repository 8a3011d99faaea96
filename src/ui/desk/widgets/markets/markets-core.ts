/**
 * The markets list's pure rules, framework-free: rows from a tickers map, search, favourites-only,
 * market type (spot pairs vs derivatives), volume in the pair's base currency or converted to a
 * quote currency through the other tickers, sorting by a column or by the user's custom order
 * (kept per market type, as the product's custom-order keys are).
 */
import { isDerivativePair, splitPair, type Ticker } from "../../../../protocol";

export type MarketType = "exchange" | "derivative";
export type MarketSortColumn = "pair" | "last" | "change" | "volume" | "custom";

export interface MarketRow {
  readonly pair: string;
  readonly base: string;
  readonly quote: string;
  readonly last: number;
  readonly changePerc: number;
  /** Volume in the chosen unit; NaN when it cannot be converted. */
  readonly volume: number;
  readonly favorite: boolean;
}

export interface MarketsQuery {
  readonly type: MarketType;
  readonly search: string;
  readonly favoritesOnly: boolean;
  readonly favorites: readonly string[];
  /** A currency code ("USD") or "BASE" for each pair's own base currency. */
  readonly volumeUnit: string;
  readonly sort: MarketSortColumn;
  readonly descending: boolean;
  readonly customOrder: readonly string[];
}

export function marketTypeOf(pair: string): MarketType {
  return isDerivativePair(pair) ? "derivative" : "exchange";
}

/** `tBTCUSD` → `BTCUSD`; funding and malformed symbols → null. */
export function pairOfSymbol(symbol: string): string | null {
  return symbol.startsWith("t") && symbol.length > 1 ? symbol.slice(1) : null;
}

/**
 * The price of one unit of `from` in `to`, from the last prices of direct or inverse pairs, or
 * through USD; NaN when the tickers do not connect them. Stable coins are not treated as USD: the
 * exchange quotes them as their own pairs.
 */
export function rateOf(from: string, to: string, last: ReadonlyMap<string, number>): number {
  if (from === to) return 1;
  const direct = last.get(`${from}${to}`) ?? last.get(`${from}:${to}`);
  if (direct !== undefined && direct > 0) return direct;
  const inverse = last.get(`${to}${from}`) ?? last.get(`${to}:${from}`);
  if (inverse !== undefined && inverse > 0) return 1 / inverse;
  if (from !== "USD" && to !== "USD") {
    const a = last.get(`${from}USD`) ?? last.get(`${from}:USD`);
    const b = last.get(`${to}USD`) ?? last.get(`${to}:USD`);
    if (a !== undefined && b !== undefined && a > 0 && b > 0) return a / b;
  }
  return Number.NaN;
}

export function buildRows(tickers: ReadonlyMap<string, Ticker>, q: MarketsQuery): MarketRow[] {
  const last = new Map<string, number>();
  for (const [pair, t] of tickers) last.set(pair, t.lastPrice);
  const fav = new Set(q.favorites);
  const needle = q.search
    .trim()
    .toUpperCase()
    .replace(/[/:\s-]/g, "");
  const rows: MarketRow[] = [];
  for (const [pair, t] of tickers) {
    if (marketTypeOf(pair) !== q.type) continue;
    const parts = splitPair(pair);
    if (!parts) continue;
    if (q.favoritesOnly && !fav.has(pair)) continue;
    if (needle !== "" && !pair.replace(":", "").includes(needle)) continue;
    const volume = q.volumeUnit === "BASE" ? t.volume : t.volume * rateOf(parts.base, q.volumeUnit, last);
    rows.push({
      pair,
      base: parts.base,
      quote: parts.quote,
      last: t.lastPrice,
      changePerc: t.dailyChangePerc,
      volume,
      favorite: fav.has(pair),
    });
  }
  return sortRows(rows, q);
}

export function sortRows(rows: MarketRow[], q: Pick<MarketsQuery, "sort" | "descending" | "customOrder">): MarketRow[] {
  if (q.sort === "custom") {
    const at = new Map(q.customOrder.map((p, i) => [p, i]));
    // Pairs not yet placed by the user keep alphabetical order after the placed ones.
    return rows.sort(
      (a, b) =>
        (at.get(a.pair) ?? Number.MAX_SAFE_INTEGER) - (at.get(b.pair) ?? Number.MAX_SAFE_INTEGER) ||
        a.pair.localeCompare(b.pair),
    );
  }
  const dir = q.descending ? -1 : 1;
  const key = (r: MarketRow): number | string =>
    q.sort === "pair" ? r.pair : q.sort === "last" ? r.last : q.sort === "change" ? r.changePerc : r.volume;
  return rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    // Unknown volumes (NaN) always sink to the bottom, whichever the direction.
    if (typeof ka === "number" && typeof kb === "number") {
      if (Number.isNaN(ka) || Number.isNaN(kb)) return Number.isNaN(ka) ? (Number.isNaN(kb) ? 0 : 1) : -1;
      return (ka - kb) * dir || a.pair.localeCompare(b.pair);
    }
    return String(ka).localeCompare(String(kb)) * dir;
  });
}

/**
 * The whole custom order of a market type as the list shows it unfiltered: the user's placed pairs
 * first (kept even when their ticker is missing for now), then every other pair alphabetically.
 */
export function fullCustomOrder(pairs: Iterable<string>, customOrder: readonly string[]): string[] {
  const placed = [...new Set(customOrder)];
  const known = new Set(placed);
  const rest = [...pairs].filter((p) => !known.has(p)).sort((a, b) => a.localeCompare(b));
  return [...placed, ...rest];
}

/**
 * Moves `pair` one step past its neighbour in the shown (possibly searched or favourites-only) list
 * by swapping the two within the full custom order, so pairs the filter hides keep their places.
 */
export function moveInFullOrder(
  full: readonly string[],
  shown: readonly string[],
  pair: string,
  step: -1 | 1,
): string[] {
  const order = [...full];
  const neighbour = shown[shown.indexOf(pair) + step];
  const at = order.indexOf(pair);
  const to = neighbour === undefined || shown.indexOf(pair) < 0 ? -1 : order.indexOf(neighbour);
  if (at < 0 || to < 0) return order;
  order[at] = neighbour as string;
  order[to] = pair;
  return order;
}

export function toggleFavorite(favorites: readonly string[], pair: string): string[] {
  return favorites.includes(pair) ? favorites.filter((p) => p !== pair) : [...favorites, pair];
}
