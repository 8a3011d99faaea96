/**
 * The account calls (docs/product-rules.md#calls) `/v2/auth/r/int/summary` (the summary as the reply's first
 * element; `r/summary` the bare record, as Bitfinex documents it) and
 * `/v2/auth/w/user/token/generate` (a token of a scope, the reply's first element), over HTTP.
 */
import { describe, expect, it } from "vitest";
import { demoSession } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({
  dbPath: ":memory:",
  seed: 13,
  markets: [{ symbol: SYMBOL, start: 30_000 }],
});
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

type Summary = [
  null,
  null,
  null,
  null,
  number[][],
  [Record<string, unknown>[], Record<string, number>, number],
  [null, Record<string, number>, number],
  null,
  null,
  Record<string, number>,
];

const summary = async (): Promise<Summary> => {
  const r = await s.rest("/v2/auth/r/int/summary");
  expect(r.status).toBe(200);
  const body = r.body as unknown[];
  expect(body).toHaveLength(1);
  return body[0] as Summary;
};

describe("r/int/summary", () => {
  it("answers the summary record first: fee rates, 30-day volume and fees, funding earnings, LEO", async () => {
    const sum = await summary();
    expect(sum).toHaveLength(10);
    expect(sum.slice(0, 4)).toEqual([null, null, null, null]);
    expect(sum[4]).toEqual([
      [0.001, 0.001, 0.001, null, null, 0.001],
      [0.002, 0.002, 0.002, null, null, 0.002],
    ]);
    // No trade yet: only the USD total, at zero.
    expect(sum[5]).toEqual([
      [{ curr: "Total (USD)", vol: 0, vol_safe: 0, vol_maker: 0, vol_BFX: 0, vol_BFX_safe: 0, vol_BFX_maker: 0 }],
      {},
      0,
    ]);
    expect(sum[6]).toEqual([null, {}, 0]);
    expect(sum[9]).toEqual({ leo_lev: 0, leo_amount_avg: 0 });
    // The documented r/summary is the same record, unwrapped.
    expect((await s.rest("/v2/auth/r/summary")).body).toEqual(sum);
  });

  it("counts the account's own trades: volume per currency and in USD, fees paid", async () => {
    const r = await s.rest("/v2/auth/w/order/submit", { symbol: SYMBOL, type: "EXCHANGE MARKET", amount: "0.01" });
    expect(r.status).toBe(200);
    const trades = (await s.rest(`/v2/auth/r/trades/${SYMBOL}/hist`)).body as unknown[][];
    expect(trades.length).toBeGreaterThan(0);
    const notional = trades.reduce((n, t) => n + Math.abs(t[4] as number) * (t[5] as number), 0);
    const sum = await summary();
    const [vols, fees, feesUsd] = sum[5];
    expect(vols[0]).toMatchObject({ curr: "BTC", vol: 0.01, vol_maker: 0, vol_BFX: 0.01 });
    expect(vols[1]?.["curr"]).toBe("Total (USD)");
    expect(vols[1]?.["vol"]).toBeCloseTo(notional, 1);
    // A buy's taker fee (0.2 %) comes out of the BTC received.
    expect(fees).toEqual({ BTC: 0.00002 });
    expect(feesUsd).toBeCloseTo(0.00002 * (trades[0]?.[5] as number), 1);
  });
});

describe("w/user/token/generate", () => {
  it("answers a working token as the first element", async () => {
    const r = await s.rest("/v2/auth/w/user/token/generate", { scope: "api" });
    expect(r.status).toBe(200);
    const [token] = r.body as [string];
    expect(typeof token).toBe("string");
    expect(token).not.toBe(s.token);
    const wallets = await fetch(`http://${s.host}/v2/auth/r/wallets`, {
      method: "POST",
      headers: { "bfx-token": token, "content-type": "application/json" },
      body: "{}",
    });
    expect(wallets.status).toBe(200);
    expect(Array.isArray(await wallets.json())).toBe(true);
  });

  it("refuses a missing or unknown scope", async () => {
    expect((await s.rest("/v2/auth/w/user/token/generate", {})).body).toEqual(["error", 10020, "scope: invalid"]);
    expect((await s.rest("/v2/auth/w/user/token/generate", { scope: "nope" })).body).toEqual([
      "error",
      10020,
      "scope: invalid",
    ]);
  });

  it("needs authentication", async () => {
    const r = await fetch(`http://${s.host}/v2/auth/w/user/token/generate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ scope: "api" }),
    });
    expect(((await r.json()) as unknown[])[1]).toBe(10100);
  });
});
