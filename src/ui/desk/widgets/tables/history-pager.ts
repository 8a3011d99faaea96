/**
 * "More on demand" order history: pages of closed orders from REST
 * `POST /v2/auth/r/orders[/{symbol}]/hist` (body {start?, end, limit}), merged with the history the
 * account socket keeps per pair. Framework-free: the transport is injected, so it tests in Node.
 *
 * Paging walks backwards by `mts_update`: each request ends at the oldest update seen so far. A
 * server that ignores `end` (the embedded exchange only honours `limit`) answers with the newest
 * rows again; rows newer than `end` are then dropped and, when nothing new came back from a full
 * page, the next request asks for twice as many rows (up to the API's 2500), so paging still ends.
 */
import { orderCodec, type Order } from "../../../../protocol";

export const HISTORY_PAGE_SIZE = 25;
export const HISTORY_MAX_LIMIT = 2500;

export interface HistoryRequest {
  /** `tBTCUSD`, or null for every pair. */
  readonly symbol: string | null;
  /** Only rows updated at or before this ms (omitted for the newest page). */
  readonly end: number | null;
  readonly limit: number;
}

/** Resolves with the raw response body (an array of order rows) or rejects. */
export type HistoryFetch = (request: HistoryRequest) => Promise<unknown>;

export interface HistoryPagerState {
  readonly rows: readonly Order[];
  readonly loading: boolean;
  readonly error: string | null;
  readonly exhausted: boolean;
}

/** A closure, not a class: `getState` and `subscribe` are handed to useSyncExternalStore unbound. */
export interface HistoryPager {
  readonly getState: () => HistoryPagerState;
  readonly subscribe: (listener: () => void) => () => void;
  /**
   * Loads the next older page. `before` is the oldest update the caller already shows (the live
   * history), so the first page starts below it instead of repeating it.
   */
  loadMore(before?: number | null): Promise<void>;
  dispose(): void;
}

/** The REST path for a symbol (or every pair). */
export function historyPath(symbol: string | null): string {
  return symbol === null ? "/v2/auth/r/orders/hist" : `/v2/auth/r/orders/${symbol}/hist`;
}

export function historyBody(request: HistoryRequest): Record<string, number> {
  return request.end === null ? { limit: request.limit } : { end: request.end, limit: request.limit };
}

/** Live and fetched history merged: one row per id (the most recently updated), newest first. */
export function mergeHistory(live: readonly Order[], fetched: readonly Order[]): Order[] {
  const byId = new Map<number, Order>();
  for (const list of [live, fetched])
    for (const o of list) {
      const seen = byId.get(o.id);
      if (!seen || o.mts_update > seen.mts_update) byId.set(o.id, o);
    }
  return [...byId.values()].sort((a, b) => b.mts_update - a.mts_update || b.id - a.id);
}

export function createHistoryPager(options: {
  readonly symbol: string | null;
  readonly fetch: HistoryFetch;
  readonly pageSize?: number;
}): HistoryPager {
  const pageSize = options.pageSize ?? HISTORY_PAGE_SIZE;
  let state: HistoryPagerState = { rows: [], loading: false, error: null, exhausted: false };
  let limit = pageSize;
  let disposed = false;
  const listeners = new Set<() => void>();
  const set = (next: Partial<HistoryPagerState>): void => {
    state = { ...state, ...next };
    for (const l of listeners) l();
  };

  function oldest(before: number | null): number | null {
    let end = before;
    for (const o of state.rows) if (end === null || o.mts_update < end) end = o.mts_update;
    return end;
  }

  async function loadMore(before: number | null = null): Promise<void> {
    if (state.loading || state.exhausted || disposed) return;
    const end = oldest(before);
    set({ loading: true, error: null });
    let raw: unknown;
    try {
      raw = await options.fetch({ symbol: options.symbol, end, limit });
    } catch (err) {
      if (!disposed) set({ loading: false, error: err instanceof Error ? err.message : String(err) });
      return;
    }
    if (disposed) return;
    const decoded = orderCodec.decodeList(raw);
    if (!decoded.ok) {
      set({ loading: false, error: `${decoded.error.record} ${decoded.error.field}: ${decoded.error.reason}` });
      return;
    }
    const page = decoded.value;
    const known = new Set(state.rows.map((o) => o.id));
    const fresh = page.filter(
      (o) =>
        !known.has(o.id) &&
        (end === null || o.mts_update <= end) &&
        (options.symbol === null || o.symbol === options.symbol),
    );
    let exhausted = page.length < limit;
    if (!exhausted && fresh.length === 0) {
      if (limit >= HISTORY_MAX_LIMIT) exhausted = true;
      else limit = Math.min(HISTORY_MAX_LIMIT, limit * 2);
    } else limit = pageSize;
    set({ loading: false, rows: [...state.rows, ...fresh], exhausted });
  }

  return {
    getState: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    loadMore,
    dispose() {
      disposed = true;
      listeners.clear();
    },
  };
}
