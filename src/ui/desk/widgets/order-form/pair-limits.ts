/**
 * Minimum and maximum order sizes per pair, from the public conf key `pub:info:pair` (Bitfinex:
 * `[[PAIR, [_, _, _, MIN_ORDER_SIZE, MAX_ORDER_SIZE, …]], …]`, sizes as decimal strings). The list
 * is fetched once per page and shared by every order form. Until it arrives, or when it cannot be
 * had, the form uses DEFAULT_LIMITS: 0.00001 is the smallest minimum either backend lists (the
 * embedded exchange lists it for every pair), so the fallback never refuses an order the exchange
 * would take; the exchange's own check (1e-8) stays the last word.
 */
import { decodePairInfo } from "../../../../protocol";

export interface PairLimits {
  readonly minAmount: number;
  readonly maxAmount: number | null;
}

export const DEFAULT_LIMITS: PairLimits = { minAmount: 0.00001, maxAmount: null };

function size(n: number | null): number | null {
  return n !== null && n > 0 ? n : null;
}

/** Parses the conf reply (the list for `pub:info:pair`); rows that do not fit are skipped. */
export function parsePairInfo(raw: unknown): Map<string, PairLimits> {
  const out = new Map<string, PairLimits>();
  if (!Array.isArray(raw)) return out;
  for (const row of raw) {
    const d = decodePairInfo(row);
    if (!d.ok) continue;
    const min = size(d.value.minOrderSize);
    if (min === null) continue;
    out.set(d.value.pair, { minAmount: min, maxAmount: size(d.value.maxOrderSize) });
  }
  return out;
}

/** The limits for a pair (`BTCUSD`, `TESTBTC:TESTUSD`), or the defaults when the list lacks it. */
export function limitsFor(table: ReadonlyMap<string, PairLimits> | null, pair: string): PairLimits {
  return table?.get(pair) ?? DEFAULT_LIMITS;
}

export type ConfFetch = (url: string) => Promise<{ readonly ok: boolean; json(): Promise<unknown> }>;

let cached: Promise<Map<string, PairLimits>> | null = null;

/**
 * Loads the table once (the conf reply is a list with one entry per key asked). A failure resolves
 * to an empty table and is not cached, so the next form to mount asks again.
 */
export function loadPairLimits(url: string, fetchFn: ConfFetch): Promise<Map<string, PairLimits>> {
  if (cached) return cached;
  const attempt = fetchFn(url)
    .then(async (res) => {
      if (!res.ok) throw new Error(`pub:info:pair: HTTP error`);
      const body = await res.json();
      return parsePairInfo(Array.isArray(body) ? body[0] : null);
    })
    .catch(() => {
      cached = null;
      return new Map<string, PairLimits>();
    });
  cached = attempt;
  return attempt;
}
