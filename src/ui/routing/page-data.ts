/**
 * Per-path page data (docs/product-rules.md#page-data): a 404 means the page does not exist (not-found page), a 500
 * the error page; any other failure (network, 502/503, bad JSON) is retried up to 3 times with
 * back-off before the load ends in an error status. A load that takes over 1 s raises the
 * delayed-load event. Timers and fetch are injected so the rules test in Node with fakes.
 */
import { DELAYED_PAGE_LOAD_MS, PAGE_DATA_MAX_RETRIES } from "../../protocol";
import { sleep, type Timers } from "../scheduler";

/** What the build writes for every static page (see scripts/page-data.mjs). */
export interface PageData {
  readonly path: string;
  readonly page: string;
  /** The build that produced it; a different build than the running one means a stale client. */
  readonly build: string;
}

export type PageDataResult =
  | { readonly status: "ok"; readonly data: PageData }
  | { readonly status: "not-found" }
  | { readonly status: "server-error" }
  | { readonly status: "error"; readonly attempts: number; readonly reason: string };

export type FetchLike = (
  url: string,
  init?: { signal?: AbortSignal },
) => Promise<{
  readonly status: number;
  readonly ok: boolean;
  json(): Promise<unknown>;
}>;

export interface PageDataOptions {
  readonly fetch: FetchLike;
  readonly timers: Timers;
  readonly signal?: AbortSignal;
  /** Back-off before retry n (1-based): base * 2^(n-1). */
  readonly backoffBaseMs?: number;
}

export function pageDataUrl(path: string): string {
  const p = path === "/" ? "/index" : path;
  return `/page-data${p}/page-data.json`;
}

function isPageData(value: unknown): value is PageData {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v["path"] === "string" && typeof v["page"] === "string" && typeof v["build"] === "string";
}

export async function loadPageData(path: string, options: PageDataOptions): Promise<PageDataResult> {
  const base = options.backoffBaseMs ?? 500;
  let reason = "";
  for (let attempt = 1; attempt <= PAGE_DATA_MAX_RETRIES + 1; attempt++) {
    if (attempt > 1) await sleep(options.timers, base * 2 ** (attempt - 2));
    if (options.signal?.aborted) return { status: "error", attempts: attempt - 1, reason: "aborted" };
    try {
      const init = options.signal ? { signal: options.signal } : undefined;
      const res = await options.fetch(pageDataUrl(path), init);
      if (res.status === 404) return { status: "not-found" };
      if (res.status === 500) return { status: "server-error" };
      if (!res.ok) {
        reason = `http-${res.status}`;
        continue;
      }
      const body: unknown = await res.json();
      if (!isPageData(body)) {
        reason = "malformed";
        continue;
      }
      return { status: "ok", data: body };
    } catch (err) {
      if (options.signal?.aborted) return { status: "error", attempts: attempt, reason: "aborted" };
      reason = err instanceof Error ? err.message : String(err);
    }
  }
  return { status: "error", attempts: PAGE_DATA_MAX_RETRIES + 1, reason };
}

/** The event raised on `window` when a page load passes DELAYED_PAGE_LOAD_MS. */
export const DELAYED_LOAD_EVENT = "app:delayed-load";

/**
 * Calls `onDelayed` if `work` is still pending after 1 s (the delayed page load of docs/product-rules.md#navigation).
 * Returns `work` unchanged.
 */
export function watchDelayedLoad<T>(work: Promise<T>, timers: Timers, onDelayed: () => void): Promise<T> {
  const cancel = timers.after(DELAYED_PAGE_LOAD_MS, onDelayed);
  return work.finally(cancel);
}
