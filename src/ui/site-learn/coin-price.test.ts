import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defaultConfig, setStaticConfig } from "../config";
import { fetchTicker, PRICE_POLL_MS, priceSnapshot, subscribePrice } from "./coin-price";

const ROW = [86_400, 1.2, 86_410, 0.8, 500, 0.0058, 86_405.5, 1234, 87_000, 85_000];

function answer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

beforeEach(() => {
  setStaticConfig(defaultConfig("http://exchange.test"));
});

afterEach(() => {
  vi.useRealTimers();
});

describe("fetchTicker", () => {
  it("reads /v2/ticker/{symbol} through the ticker decoder", async () => {
    const urls: string[] = [];
    const fetcher: typeof fetch = (url) => {
      urls.push(url instanceof Request ? url.url : url.toString());
      return Promise.resolve(answer(ROW));
    };
    const t = await fetchTicker("tBTCUSD", fetcher);
    expect(urls).toEqual(["http://exchange.test/v2/ticker/tBTCUSD"]);
    expect(t.lastPrice).toBe(86_405.5);
    expect(t.dailyChangePerc).toBe(0.0058);
  });

  it("fails on an HTTP error and on a malformed answer", async () => {
    await expect(
      fetchTicker("tBTCUSD", () => Promise.resolve(answer(["error", 10020, "symbol: invalid"], 500))),
    ).rejects.toThrow(/HTTP 500/);
    await expect(fetchTicker("tBTCUSD", () => Promise.resolve(answer([1, 2])))).rejects.toThrow(/malformed/);
  });
});

describe("subscribePrice", () => {
  it("polls while subscribed, keeps the last price on a failure, and stops with the last subscriber", async () => {
    vi.useFakeTimers();
    let fail = false;
    const fetcher = vi.fn(() => Promise.resolve(fail ? answer("down", 502) : answer(ROW)));
    const seen: string[] = [];
    const stop = subscribePrice("tLTCUSD", () => seen.push(priceSnapshot("tLTCUSD").status), fetcher);
    expect(priceSnapshot("tLTCUSD").status).toBe("loading");
    await vi.advanceTimersByTimeAsync(0);
    expect(priceSnapshot("tLTCUSD")).toMatchObject({ status: "ready", ticker: { lastPrice: 86_405.5 } });

    fail = true;
    await vi.advanceTimersByTimeAsync(PRICE_POLL_MS);
    expect(priceSnapshot("tLTCUSD")).toMatchObject({ status: "error", ticker: { lastPrice: 86_405.5 } });
    expect(seen).toEqual(["ready", "error"]);

    stop();
    const calls = fetcher.mock.calls.length;
    await vi.advanceTimersByTimeAsync(PRICE_POLL_MS * 3);
    expect(fetcher.mock.calls.length).toBe(calls);
    expect(priceSnapshot("tLTCUSD")).toEqual({ status: "loading", ticker: null });
  });
});
