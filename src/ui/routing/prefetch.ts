/**
 * Prefetch of visible links (docs/product-rules.md#prefetch): in batches of 4 every 3 s, skipped on 2g connections,
 * in data-saver mode and for bot user agents. The queue is pure; the shell feeds it paths as links
 * scroll into view and gives it the fetcher.
 */
import { PREFETCH_BATCH_SIZE, PREFETCH_INTERVAL_MS } from "../../protocol";
import type { Cancel, Timers } from "../scheduler";

export interface NetworkFacts {
  /** navigator.connection.effectiveType, when the browser exposes it. */
  readonly effectiveType?: string | undefined;
  /** navigator.connection.saveData. */
  readonly saveData?: boolean | undefined;
  readonly userAgent: string;
}

const BOT_UA = /bot|crawl|spider|slurp|bingpreview|facebookexternalhit|embedly|whatsapp|lighthouse|pingdom/i;

export function prefetchAllowed(net: NetworkFacts): boolean {
  if (net.saveData === true) return false;
  if (net.effectiveType !== undefined && net.effectiveType.includes("2g")) return false;
  return !BOT_UA.test(net.userAgent);
}

export class PrefetchQueue {
  readonly #pending: string[] = [];
  readonly #seen = new Set<string>();
  readonly #prefetch: (path: string) => void;
  readonly #timers: Timers;
  #cancel: Cancel | null = null;

  constructor(prefetch: (path: string) => void, timers: Timers) {
    this.#prefetch = prefetch;
    this.#timers = timers;
  }

  /** Queues a path once; a path already fetched or queued is ignored. */
  add(path: string): void {
    if (this.#seen.has(path)) return;
    this.#seen.add(path);
    this.#pending.push(path);
  }

  /** Marks a path as already loaded (the current page) so it is never prefetched. */
  markLoaded(path: string): void {
    this.#seen.add(path);
    const i = this.#pending.indexOf(path);
    if (i >= 0) this.#pending.splice(i, 1);
  }

  start(): void {
    if (this.#cancel) return;
    this.#cancel = this.#timers.every(PREFETCH_INTERVAL_MS, () => this.flush());
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  /** Sends up to one batch; called by the 3 s timer. */
  flush(): void {
    const batch = this.#pending.splice(0, PREFETCH_BATCH_SIZE);
    for (const path of batch) this.#prefetch(path);
  }

  get pendingCount(): number {
    return this.#pending.length;
  }
}
