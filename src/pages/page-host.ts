/**
 * Loads what a page needs before it shows: its code chunk and, for static public pages, its page
 * data. Results are cached per path so a prefetched page opens at once.
 */
import type { ComponentType } from "react";
import { appScheduler } from "../ui/scheduler";
import { loadPageData, type PageDataResult } from "../ui/routing/page-data";

let failedResources = 0;

/** Counts a page chunk that failed to load (typically a tab outliving a deploy). */
export function noteResourceFailure(): void {
  failedResources++;
}

/** Whether any page resource failed to load in this tab: a new service worker then reloads. */
export function resourcesFailed(): boolean {
  return failedResources > 0;
}

const pageDataCache = new Map<string, Promise<PageDataResult>>();

export function pageDataFor(path: string): Promise<PageDataResult> {
  let pending = pageDataCache.get(path);
  if (!pending) {
    pending = loadPageData(path, { fetch: (url, init) => fetch(url, init), timers: appScheduler });
    // Only successes stay cached: a failure is retried on the next visit.
    pending.then(
      (r) => {
        if (r.status !== "ok") pageDataCache.delete(path);
      },
      () => pageDataCache.delete(path),
    );
    pageDataCache.set(path, pending);
  }
  return pending;
}

export function forgetPageData(path: string): void {
  pageDataCache.delete(path);
}

/**
 * Pages whose chunk (and catalog, and page data) are already here before the first render, by route
 * id: a prerendered page is hydrated, and hydration must render at once what the build rendered,
 * not a loading state first (src/pages/main.tsx, src/pages/prerender.tsx).
 */
const ready = new Map<string, ComponentType>();

export function markPageReady(routeId: string, Page: ComponentType): void {
  ready.set(routeId, Page);
}

/** The page component to show at once, if it was made ready before the first render. */
export function readyPage(routeId: string): ComponentType | undefined {
  return ready.get(routeId);
}
