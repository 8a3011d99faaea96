import { beforeEach, describe, expect, it, vi } from "vitest";
import { encodeApiError, ERROR_CODES, INFO_CODES } from "../../protocol";
import {
  apiErrorKind,
  apiNotice,
  DEFAULT_RETRY_MS,
  exchangeFetch,
  rateLimitSecondsLeft,
  reportApiReply,
  retryAfterMs,
} from "./api-notice";
import { followFeed, maintenance } from "./maintenance";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

beforeEach(() => {
  apiNotice.rateLimitedUntil = null;
  maintenance.active = false;
});

describe("when to retry after a 429", () => {
  it("reads Retry-After in seconds or as an HTTP date, else the body's wait, else a minute", () => {
    expect(retryAfterMs("17", null, NOW)).toBe(17_000);
    expect(retryAfterMs(new Date(NOW + 90_000).toUTCString(), null, NOW)).toBe(90_000);
    expect(retryAfterMs(null, { error: "ERR_RATE_LIMIT", wait: 5 }, NOW)).toBe(5000);
    expect(retryAfterMs(null, { error: "ERR_RATE_LIMIT" }, NOW)).toBe(DEFAULT_RETRY_MS);
    expect(retryAfterMs("soon", null, NOW)).toBe(DEFAULT_RETRY_MS);
    // Never less than a second, never more than a quarter of an hour.
    expect(retryAfterMs("0", null, NOW)).toBe(1000);
    expect(retryAfterMs("999999", null, NOW)).toBe(15 * 60_000);
  });

  it("sets one app-wide notice; a later 429 extends it, never shortens it", () => {
    reportApiReply(429, { error: "ERR_RATE_LIMIT" }, "30", NOW);
    expect(rateLimitSecondsLeft(apiNotice, NOW)).toBe(30);
    reportApiReply(429, { error: "ERR_RATE_LIMIT" }, "5", NOW + 1000);
    expect(rateLimitSecondsLeft(apiNotice, NOW + 1000)).toBe(29);
    expect(rateLimitSecondsLeft(apiNotice, NOW + 31_000)).toBe(0);
  });

  it("leaves other replies to their forms, and turns a maintenance answer into the maintenance notice", () => {
    reportApiReply(500, encodeApiError(ERROR_CODES.GENERIC, "code: invalid"), null, NOW);
    expect(apiNotice.rateLimitedUntil).toBeNull();
    expect(maintenance.active).toBe(false);
    reportApiReply(503, encodeApiError(INFO_CODES.MAINTENANCE_START, "platform: maintenance"), null, NOW);
    expect(maintenance.active).toBe(true);
  });
});

describe("apiErrorKind", () => {
  it("classifies every reply once for all forms", () => {
    expect(apiErrorKind(0, null)).toBe("unreachable");
    expect(apiErrorKind(429, { error: "ERR_RATE_LIMIT" })).toBe("rate-limited");
    expect(apiErrorKind(500, encodeApiError(ERROR_CODES.AUTH_FAILED, "token: invalid"))).toBe("session");
    expect(apiErrorKind(500, encodeApiError(ERROR_CODES.GENERIC, "label: invalid"))).toBe("refused");
    expect(apiErrorKind(502, null)).toBe("server");
  });
});

describe("exchangeFetch: every main-thread call to the exchange", () => {
  /** Timers on a virtual clock from NOW: a wait moves it on by its length, then ends. */
  function virtual() {
    let now = NOW;
    const waits: number[] = [];
    return {
      waits,
      timers: {
        now: () => now,
        after: (ms: number, fn: () => void) => {
          waits.push(ms);
          now += ms;
          queueMicrotask(fn);
          return () => {};
        },
      },
    };
  }
  const tooMany = (): Response =>
    new Response(JSON.stringify({ error: "ERR_RATE_LIMIT" }), { status: 429, headers: { "retry-after": "7" } });

  it("shows the notice on a 429 and reads again after the server's wait", async () => {
    const v = virtual();
    const fetch = vi.fn<(input: string, init: RequestInit) => Promise<Response>>();
    fetch.mockResolvedValueOnce(tooMany()).mockResolvedValueOnce(new Response("[[1,2,3,4,5,6]]"));
    const res = await exchangeFetch("https://api/v2/candles/trade:1m:tBTCUSD/hist", {}, { fetch, timers: v.timers });
    expect(await res.json()).toEqual([[1, 2, 3, 4, 5, 6]]);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(v.waits).toEqual([7000]);
    expect(apiNotice.rateLimitedUntil).toBe(NOW + 7000);
  });

  it("gives a write its 429 back (the notice still shows), and never sends it twice", async () => {
    const v = virtual();
    const fetch = vi.fn<(input: string, init: RequestInit) => Promise<Response>>().mockResolvedValue(tooMany());
    const res = await exchangeFetch(
      "https://api/v2/auth/w/order/submit",
      { method: "POST", body: "{}" },
      { fetch, timers: v.timers },
    );
    expect(res.status).toBe(429);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(apiNotice.rateLimitedUntil).toBe(NOW + 7000);
  });

  it("turns a maintenance refusal into the maintenance notice and hands the body on unread", async () => {
    const body = JSON.stringify(encodeApiError(INFO_CODES.MAINTENANCE_START, "platform: maintenance"));
    const fetch = vi.fn(() => Promise.resolve(new Response(body, { status: 503 })));
    const res = await exchangeFetch(
      "https://api/v2/auth/w/transfer",
      { method: "POST" },
      { fetch, timers: virtual().timers },
    );
    expect(maintenance.active).toBe(true);
    expect(await res.text()).toBe(body);
  });
});

describe("the maintenance notice follows the feed", () => {
  it("shows on 20060, hides on 20061, and leaves the page-load status alone until the welcome", () => {
    maintenance.active = true; // the page-load status said maintenance
    followFeed({ platform: -1, maintenance: false });
    expect(maintenance.active).toBe(true);
    followFeed({ platform: 0, maintenance: true });
    expect(maintenance.active).toBe(true);
    followFeed({ platform: 1, maintenance: false });
    expect(maintenance.active).toBe(false);
    followFeed({ platform: 0, maintenance: true });
    expect(maintenance.active).toBe(true);
    // The same state again (the health beat) moves nothing: a REST answer may have said otherwise.
    maintenance.active = false;
    followFeed({ platform: 0, maintenance: true });
    expect(maintenance.active).toBe(false);
  });
});
