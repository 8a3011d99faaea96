/**
 * The public site's figures over real HTTP (docs/protocol.md#site-figures): the home page's stats
 * agree with the tickers and the trades the exchange printed, and the fee and deposit/withdrawal
 * terms are the ones deposits, withdrawals and settlement enforce.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decodeTickersRow,
  decodeWebsiteStats,
  DEPOSIT_METHODS,
  feeScheduleCodec,
  MAKER_FEE_RATE,
  statsRowCodec,
  TAKER_FEE_RATE,
  txMethodCodec,
  WITHDRAWAL_METHODS,
} from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { listenApi } from "../test-support/api.ts";
import { Exchange } from "./exchange.ts";
import { LENDER_FEE } from "./funding-credits.ts";

let clock = 1_790_000_000_000;
const exchange = new Exchange({ now: () => clock, seed: 11 });
let api: ApiServer;
let host = "";

beforeAll(async () => {
  for (let i = 0; i < 60; i++) {
    clock += 250;
    exchange.simulator.step();
  }
  ({ api, host } = await listenApi({ exchange, now: () => clock }));
});
afterAll(() => api.close());

const conf = async (key: string): Promise<unknown> => {
  const r = await fetch(`http://${host}/v2/conf/${key}`);
  expect(r.status).toBe(200);
  const body = (await r.json()) as unknown[];
  return body[0];
};

describe("website stats", () => {
  it("counts the markets and values the day's trades in USD, matching the BTCUSD ticker's share", async () => {
    const stats = decodeWebsiteStats(await conf("pub:raw:website:stats"));
    expect(stats).not.toBeNull();
    if (!stats) return;
    expect(stats.markets).toBe(exchange.markets.size);
    expect(stats.fundingMarkets).toBe(exchange.funding.markets.size);
    const btcusd = exchange.markets.get("tBTCUSD");
    const day = btcusd?.tape.dayTrades(clock) ?? [];
    expect(day.length).toBeGreaterThan(0);
    let trades = 0;
    for (const m of exchange.markets.values()) trades += m.tape.dayTrades(clock).length;
    expect(stats.trades24h).toBe(trades);
    // BTCUSD alone is a lower bound of the total, in USD already.
    const btcusdUsd = day.reduce((s, t) => s + Math.abs(t.amount) * t.price, 0);
    expect(stats.volume24hUsd).toBeGreaterThanOrEqual(Math.floor(btcusdUsd));
    // The ticker's 24 h base volume is the same window as the stats.
    const r = await fetch(`http://${host}/v2/tickers?symbols=tBTCUSD`);
    const rows = (await r.json()) as unknown[];
    const ticker = decodeTickersRow(rows[0]);
    expect(ticker.ok && ticker.value.ticker.volume).toBeCloseTo(
      day.reduce((s, t) => s + Math.abs(t.amount), 0),
      6,
    );
    expect(stats.volume30mUsd).toBeLessThanOrEqual(stats.volume24hUsd + 0.01);
  });
});

describe("fee schedule and movement terms", () => {
  it("publishes the rates settlement, funding and conversions charge", async () => {
    const fees = feeScheduleCodec.decode(await conf("pub:info:fees"));
    expect(fees.ok && fees.value).toEqual({
      maker: MAKER_FEE_RATE,
      taker: TAKER_FEE_RATE,
      lenderFee: LENDER_FEE,
      fiatConversion: 0.002,
      stableConversion: 0.001,
    });
  });

  it("lists every deposit and withdrawal method with the terms each side enforces", async () => {
    const rows = txMethodCodec.decodeList(await conf("pub:info:tx:methods"));
    expect(rows.ok).toBe(true);
    if (!rows.ok) return;
    const methods = new Set([...DEPOSIT_METHODS, ...WITHDRAWAL_METHODS].map((m) => m.method));
    expect(rows.value.map((r) => r.method).sort()).toEqual([...methods].sort());
    for (const d of DEPOSIT_METHODS) {
      const row = rows.value.find((r) => r.method === d.method);
      expect(row).toMatchObject({
        currency: d.currency,
        depositConfirmations: d.confirmations,
        depositMinimum: d.minimum,
      });
    }
    for (const w of WITHDRAWAL_METHODS) {
      const row = rows.value.find((r) => r.method === w.method);
      expect(row).toMatchObject({ currency: w.currency, withdrawalFee: w.fee, withdrawalMinimum: w.minimum });
      // Something always arrives: the minimum is above the fee.
      expect(w.minimum).toBeGreaterThan(w.fee);
    }
    // A bank wire deposits only: no withdrawal terms.
    expect(rows.value.find((r) => r.method === "wireusd")).toMatchObject({
      withdrawalFee: null,
      withdrawalMinimum: null,
    });
  });
});

describe("stats1 series", () => {
  const series = async (key: string, query = ""): Promise<{ mts: number; value: number }[]> => {
    const r = await fetch(`http://${host}/v2/stats1/${key}/hist${query}`);
    expect(r.status).toBe(200);
    const rows = statsRowCodec.decodeList(await r.json());
    expect(rows.ok).toBe(true);
    return rows.ok ? rows.value : [];
  };

  it("gives a pair's trailing 24-hour base volume at each hour, from its hourly candles", async () => {
    const rows = await series("vol.1d:1h:tBTCUSD", "?limit=48");
    expect(rows.length).toBe(48);
    // Newest first.
    expect((rows[0]?.mts ?? 0) > (rows[1]?.mts ?? 0)).toBe(true);
    const candles = exchange.markets.get("tBTCUSD")?.candles.get("1h") ?? [];
    const byMts = new Map(candles.map((c) => [c[0] as number, c[5] as number]));
    for (const row of rows.slice(0, 5)) {
      let sum = 0;
      for (let h = 0; h < 24; h++) sum += byMts.get(row.mts - h * 3_600_000) ?? 0;
      expect(row.value).toBeCloseTo(sum, 6);
      expect(row.value).toBeGreaterThan(0);
    }
  });

  it("totals every pair in USD, oldest first with sort=1, and refuses an unknown key", async () => {
    const all = await series("vol.1d:1h:BFX", "?limit=10&sort=1");
    const btc = await series("vol.1d:1h:tBTCUSD", "?limit=10&sort=1");
    expect(all.map((r) => r.mts)).toEqual(btc.map((r) => r.mts));
    expect((all[1]?.mts ?? 0) > (all[0]?.mts ?? 0)).toBe(true);
    const btcusdLast = exchange.markets.get("tBTCUSD")?.lastPrice() ?? 0;
    // BTCUSD alone, valued at prices near today's, is far from zero and below the total.
    for (const [i, row] of all.entries()) expect(row.value).toBeGreaterThan((btc[i]?.value ?? 0) * btcusdLast * 0.5);
    const bad = await fetch(`http://${host}/v2/stats1/pos.size:1m:tNOPE:long/hist`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(["error", 10020, "key: invalid"]);
  });
});
