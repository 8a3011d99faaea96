import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { globalScheduler } from "../../../tests/support/timers";
import { DELAYED_PAGE_LOAD_MS } from "../../protocol";
import { loadPageData, pageDataUrl, watchDelayedLoad, type FetchLike } from "./page-data";

const GOOD = { path: "/about", page: "about", build: "b1" };

function respond(status: number, body: unknown = GOOD): ReturnType<FetchLike> {
  return Promise.resolve({ status, ok: status >= 200 && status < 300, json: () => Promise.resolve(body) });
}

describe("page data", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("addresses page data per path", () => {
    expect(pageDataUrl("/")).toBe("/page-data/index/page-data.json");
    expect(pageDataUrl("/about")).toBe("/page-data/about/page-data.json");
  });

  it("returns the data on success after one request", async () => {
    const fetch = vi.fn<FetchLike>(() => respond(200));
    const result = await loadPageData("/about", { fetch, timers: globalScheduler() });
    expect(result).toEqual({ status: "ok", data: GOOD });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("gives not-found on 404 and server-error on 500 without retrying", async () => {
    const f404 = vi.fn<FetchLike>(() => respond(404));
    expect(await loadPageData("/x", { fetch: f404, timers: globalScheduler() })).toEqual({ status: "not-found" });
    expect(f404).toHaveBeenCalledTimes(1);
    const f500 = vi.fn<FetchLike>(() => respond(500));
    expect(await loadPageData("/x", { fetch: f500, timers: globalScheduler() })).toEqual({ status: "server-error" });
    expect(f500).toHaveBeenCalledTimes(1);
  });

  it("retries other failures 3 times with back-off, then ends in an error status", async () => {
    const fetch = vi.fn<FetchLike>(() => Promise.reject(new Error("offline")));
    const pending = loadPageData("/about", { fetch, timers: globalScheduler(), backoffBaseMs: 100 });
    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1); // 100 ms
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(200); // 200 ms
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(400); // 400 ms
    expect(fetch).toHaveBeenCalledTimes(4);
    await expect(pending).resolves.toEqual({ status: "error", attempts: 4, reason: "offline" });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it("recovers when a retry succeeds, and treats 503 and malformed bodies as retryable", async () => {
    const answers = [respond(503), respond(200, { nope: true }), respond(200)];
    const fetch = vi.fn<FetchLike>(() => answers.shift() ?? respond(200));
    const pending = loadPageData("/about", { fetch, timers: globalScheduler(), backoffBaseMs: 10 });
    await vi.runAllTimersAsync();
    await expect(pending).resolves.toEqual({ status: "ok", data: GOOD });
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it("raises the delayed-load event only for loads over 1 s", async () => {
    const timers = globalScheduler();
    const slow = vi.fn();
    const quick = vi.fn();
    const never = new Promise<void>(() => {});
    void watchDelayedLoad(never, timers, slow);
    const done = watchDelayedLoad(Promise.resolve(1), timers, quick);
    await expect(done).resolves.toBe(1);
    await vi.advanceTimersByTimeAsync(DELAYED_PAGE_LOAD_MS - 1);
    expect(slow).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(slow).toHaveBeenCalledTimes(1);
    expect(quick).not.toHaveBeenCalled();
    expect(timers.size).toBe(0);
  });
});
