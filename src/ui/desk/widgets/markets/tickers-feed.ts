/**
 * All trading tickers for the markets list, from REST `/v2/tickers?symbols=ALL` every few seconds.
 * A list of every market is a REST job: the exchange caps a socket's channels (25 on Bitfinex), and
 * a ticker that moves every second does not need a channel per row. The desk's own pair gets its
 * live ticker from the worker. Shared by every markets widget (reference-counted), exposed as a
 * `useSyncExternalStore` source; each poll replaces the map once, so React renders once per poll.
 */
import { decodeTickersRow, type Ticker } from "../../../../protocol";
import { apiUrl, appConfig } from "../../../config";
import { log } from "../../../log";
import { appScheduler, type Cancel } from "../../../scheduler";
import { pairOfSymbol } from "./markets-core";

export const TICKERS_POLL_MS = 5000;

export interface TickersSnapshot {
  readonly tickers: ReadonlyMap<string, Ticker>;
  readonly status: "loading" | "ready" | "error";
  readonly updatedAt: number;
}

let snapshot: TickersSnapshot = { tickers: new Map(), status: "loading", updatedAt: 0 };
const listeners = new Set<() => void>();
let users = 0;
let stopPolling: Cancel | null = null;

function publish(next: TickersSnapshot): void {
  snapshot = next;
  for (const l of listeners) l();
}

export async function fetchTickers(fetcher: typeof fetch = fetch): Promise<Map<string, Ticker>> {
  const res = await fetcher(apiUrl(appConfig().endpoints, "/v2/tickers?symbols=ALL"));
  if (!res.ok) throw new Error(`tickers: HTTP ${res.status}`);
  const rows: unknown = await res.json();
  const out = new Map<string, Ticker>();
  if (!Array.isArray(rows)) throw new Error("tickers: not a list");
  for (const row of rows) {
    const d = decodeTickersRow(row);
    if (!d.ok) continue;
    const pair = pairOfSymbol(d.value.symbol);
    if (pair) out.set(pair, d.value.ticker);
  }
  return out;
}

async function poll(): Promise<void> {
  try {
    const tickers = await fetchTickers();
    publish({ tickers, status: "ready", updatedAt: appScheduler.now() });
  } catch (err) {
    log.warn("tickers poll failed", err);
    // Keep showing the last list; the status tells the widget it may be old.
    publish({ ...snapshot, status: snapshot.tickers.size > 0 ? "ready" : "error" });
  }
}

export function subscribeTickers(listener: () => void): () => void {
  listeners.add(listener);
  users += 1;
  if (users === 1) {
    void poll();
    stopPolling = appScheduler.every(TICKERS_POLL_MS, () => void poll());
  }
  return () => {
    listeners.delete(listener);
    users -= 1;
    if (users === 0) {
      stopPolling?.();
      stopPolling = null;
    }
  };
}

export function tickersSnapshot(): TickersSnapshot {
  return snapshot;
}
