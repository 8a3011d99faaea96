/**
 * A coin's price for the buying guides: `/v2/ticker/t{BASE}USD` every few seconds while a guide is
 * open. The guide needs one figure, not a book or a channel, so it reads the REST ticker instead of
 * opening a socket. Exposed as a `useSyncExternalStore` source per symbol: each poll replaces the
 * snapshot once, so React renders once per answer and nothing per trade. The answer is checked by
 * `src/protocol`'s ticker decoder; a failed or malformed answer is an error, never a guessed price.
 */
import { tickerCodec, type Ticker } from "../../protocol";
import { apiUrl, appConfig } from "../config";
import { log } from "../log";
import { appScheduler, type Cancel } from "../scheduler";

export const PRICE_POLL_MS = 10_000;

export interface PriceSnapshot {
  /** "error" with a ticker: the last answer, kept while the exchange does not answer. */
  readonly status: "loading" | "ready" | "error";
  readonly ticker: Ticker | null;
}

/** Before the first answer, in the prerendered page and on the first client render. */
export const PRICE_LOADING: PriceSnapshot = { status: "loading", ticker: null };

/** `/v2/ticker/{symbol}` decoded. */
export async function fetchTicker(symbol: string, fetcher: typeof fetch = fetch): Promise<Ticker> {
  const res = await fetcher(apiUrl(appConfig().endpoints, `/v2/ticker/${encodeURIComponent(symbol)}`));
  if (!res.ok) throw new Error(`ticker ${symbol}: HTTP ${res.status}`);
  const d = tickerCodec.decode(await res.json());
  if (!d.ok) throw new Error(`ticker ${symbol}: malformed answer`);
  return d.value;
}

interface PriceStore {
  snapshot: PriceSnapshot;
  readonly listeners: Set<() => void>;
  stop: Cancel | null;
  /** Counts polls, so an answer overtaken by a later one is dropped. */
  seq: number;
}

const stores = new Map<string, PriceStore>();

function storeOf(symbol: string): PriceStore {
  let s = stores.get(symbol);
  if (!s) {
    s = { snapshot: PRICE_LOADING, listeners: new Set(), stop: null, seq: 0 };
    stores.set(symbol, s);
  }
  return s;
}

function publish(s: PriceStore, next: PriceSnapshot): void {
  s.snapshot = next;
  for (const l of s.listeners) l();
}

async function poll(symbol: string, fetcher: typeof fetch): Promise<void> {
  const s = storeOf(symbol);
  const seq = ++s.seq;
  try {
    const ticker = await fetchTicker(symbol, fetcher);
    if (seq === s.seq) publish(s, { status: "ready", ticker });
  } catch (err) {
    log.warn("price poll failed", err);
    if (seq === s.seq) publish(s, { status: "error", ticker: s.snapshot.ticker });
  }
}

/** Subscribes to a symbol's price; the first subscriber starts the poll and the last one stops it. */
export function subscribePrice(symbol: string, listener: () => void, fetcher: typeof fetch = fetch): () => void {
  const s = storeOf(symbol);
  s.listeners.add(listener);
  if (s.listeners.size === 1) {
    void poll(symbol, fetcher);
    s.stop = appScheduler.every(PRICE_POLL_MS, () => void poll(symbol, fetcher));
  }
  return () => {
    s.listeners.delete(listener);
    if (s.listeners.size === 0) {
      s.stop?.();
      s.stop = null;
      // A later visit starts from "loading" rather than showing an old price as current.
      s.snapshot = PRICE_LOADING;
    }
  };
}

export function priceSnapshot(symbol: string): PriceSnapshot {
  return storeOf(symbol).snapshot;
}

/** Asks again now (the error state's "Try again"). */
export function refreshPrice(symbol: string, fetcher: typeof fetch = fetch): void {
  void poll(symbol, fetcher);
}
