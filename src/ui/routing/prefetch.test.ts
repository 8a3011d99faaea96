import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { globalScheduler } from "../../../tests/support/timers";
import { prefetchAllowed, PrefetchQueue } from "./prefetch";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36";

describe("prefetch rules", () => {
  it("is skipped on 2g, in data-saver mode and for bots", () => {
    expect(prefetchAllowed({ userAgent: CHROME })).toBe(true);
    expect(prefetchAllowed({ userAgent: CHROME, effectiveType: "4g" })).toBe(true);
    expect(prefetchAllowed({ userAgent: CHROME, effectiveType: "2g" })).toBe(false);
    expect(prefetchAllowed({ userAgent: CHROME, effectiveType: "slow-2g" })).toBe(false);
    expect(prefetchAllowed({ userAgent: CHROME, saveData: true })).toBe(false);
    expect(prefetchAllowed({ userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" })).toBe(false);
    expect(prefetchAllowed({ userAgent: "Mozilla/5.0 (compatible; bingbot/2.0)" })).toBe(false);
  });
});

describe("prefetch queue", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends batches of 4 every 3 s, each path once, never the current page", () => {
    const fetched: string[] = [];
    const q = new PrefetchQueue((p) => fetched.push(p), globalScheduler());
    q.markLoaded("/");
    for (const p of ["/", "/a", "/b", "/c", "/d", "/e", "/a", "/f"]) q.add(p);
    q.start();
    expect(fetched).toEqual([]);
    vi.advanceTimersByTime(2999);
    expect(fetched).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fetched).toEqual(["/a", "/b", "/c", "/d"]);
    vi.advanceTimersByTime(3000);
    expect(fetched).toEqual(["/a", "/b", "/c", "/d", "/e", "/f"]);
    q.add("/b");
    vi.advanceTimersByTime(3000);
    expect(fetched).toHaveLength(6);
    expect(q.pendingCount).toBe(0);
  });

  it("stops with its owner", () => {
    const timers = globalScheduler();
    const fetched: string[] = [];
    const q = new PrefetchQueue((p) => fetched.push(p), timers);
    q.add("/a");
    q.start();
    timers.dispose();
    vi.advanceTimersByTime(10_000);
    expect(fetched).toEqual([]);
  });
});
