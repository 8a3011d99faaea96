/**
 * The development 429s (`POST /dev/rate-limit`): answered as the limiter answers, to the marked
 * client only, under the path only, as many times as asked, and refused without the dev header or
 * with a rule out of bounds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEV_HEADER, type ApiServer } from "./api-server.ts";
import { ForcedLimits } from "./rate-limit.ts";
import { openVenue } from "./exchange/venue.ts";
import { listenApi } from "./test-support/api.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 3, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let api: ApiServer;
let base = "";
beforeAll(async () => {
  const started = await listenApi({ exchange: venue.exchange, account: venue.gateway });
  api = started.api;
  base = `http://${started.host}`;
});
afterAll(() => api.close());

const MARK = "marked-browser-1";
const get = (path: string, agent: string) => fetch(`${base}${path}`, { headers: { "user-agent": agent } });
const rule = (body: unknown, headers: Record<string, string> = { [DEV_HEADER]: "1" }) =>
  fetch(`${base}/dev/rate-limit`, { method: "POST", headers, body: JSON.stringify(body) });

describe("forced 429s for one client", () => {
  it("answer the marked client under the path as the limiter does, as many times as asked", async () => {
    expect((await rule({ agent: MARK, path: "/v2/candles/", count: 2, retryAfter: 7 })).status).toBe(200);
    const path = "/v2/candles/trade:1m:tBTCUSD/hist";
    // Another client, and another path of the marked one, are answered as usual.
    expect((await get(path, "someone else")).status).toBe(200);
    expect((await get("/v2/platform/status", `Chrome ${MARK}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await get(path, `Chrome ${MARK}`);
      expect(r.status).toBe(429);
      expect(r.headers.get("retry-after")).toBe("7");
      expect(await r.json()).toEqual({ error: "ERR_RATE_LIMIT" });
    }
    expect((await get(path, `Chrome ${MARK}`)).status).toBe(200);
  });

  it("are refused without the dev header, and for a rule out of bounds", async () => {
    expect((await rule({ agent: MARK, path: "/", count: 1, retryAfter: 1 }, {})).status).toBe(403);
    for (const bad of [
      { agent: "short", path: "/", count: 1, retryAfter: 1 },
      { agent: MARK, path: "v2", count: 1, retryAfter: 1 },
      { agent: MARK, path: "/", count: 0, retryAfter: 1 },
      { agent: MARK, path: "/", count: 1, retryAfter: 121 },
      { agent: MARK, path: "/", count: 1.5, retryAfter: 1 },
    ])
      expect((await rule(bad)).status, JSON.stringify(bad)).toBe(400);
    expect((await get("/v2/platform/status", `Chrome ${MARK}`)).status).toBe(200);
  });
});

describe("a forced 429 rule", () => {
  it("applies to clients on this machine only", () => {
    const limits = new ForcedLimits();
    limits.add({ agent: MARK, path: "/v2/", count: 5, retryAfter: 7 });
    expect(limits.take(MARK, "/v2/tickers", "203.0.113.5")).toBeNull();
    expect(limits.take(MARK, "/v2/tickers", "2001:db8::1")).toBeNull();
    expect(limits.take(MARK, "/v2/tickers", null)).toBeNull();
    expect(limits.take(MARK, "/v2/tickers", "127.0.0.1")).toBe(7);
    expect(limits.take(MARK, "/v2/tickers", "::ffff:127.0.0.1")).toBe(7);
    expect(limits.take(MARK, "/v2/tickers", "::1")).toBe(7);
  });
});
