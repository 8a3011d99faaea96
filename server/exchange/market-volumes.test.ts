/**
 * The simulator sizes orders by their USD value: after a fixed stretch of the venue clock, every
 * market's 24 h volume (REST `/v2/tickers`), valued in USD at the listed markets' own prices, is in
 * a real venue's range and proportions — BTCUSD the largest, ETHBTC and the fiat-quoted BTC markets
 * millions a day, not billions (or 50–5000 JPY a quote).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../api-server.ts";
import { Exchange, LISTED_MARKETS } from "./exchange.ts";
import { listenApi } from "../test-support/api.ts";

const STEP_MS = 250;
const STEPS = 3600; // 15 minutes of the venue clock at the default pace
let now = 1_750_000_000_000;
const exchange = new Exchange({ now: () => now, seed: 11 });
let api: ApiServer;
let host = "";
/** Daily USD volume per symbol, extrapolated from the simulated stretch. */
const daily = new Map<string, number>();
/** The seeded 1D candle history's typical day, in USD. */
const seededDay = new Map<string, number>();

beforeAll(async () => {
  for (let i = 0; i < STEPS; i++) {
    now += STEP_MS;
    exchange.simulator.step();
  }
  ({ api, host } = await listenApi({ exchange, now: () => now }));
  const rows = (await (await fetch(`http://${host}/v2/tickers?symbols=ALL`)).json()) as unknown[][];
  const last = new Map(rows.filter((r) => String(r[0]).startsWith("t")).map((r) => [r[0] as string, r[7] as number]));
  const usdOf = (symbol: string): number => {
    const quote = symbol.includes(":") ? (symbol.split(":")[1] as string) : symbol.slice(4);
    if (["USD", "USTF0", "TESTUSD"].includes(quote)) return 1;
    const btcUsd = last.get("tBTCUSD") as number;
    return quote === "BTC" ? btcUsd : btcUsd / (last.get(`tBTC${quote}`) as number);
  };
  const scale = 86_400_000 / (STEPS * STEP_MS);
  for (const r of rows) {
    const symbol = r[0] as string;
    if (!symbol.startsWith("t")) continue;
    daily.set(symbol, (r[8] as number) * (r[7] as number) * usdOf(symbol) * scale);
    const candles = (await (
      await fetch(`http://${host}/v2/candles/trade:1D:${symbol}/hist?limit=30`)
    ).json()) as number[][];
    const past = candles.slice(1); // the newest may be today's, partly traded
    seededDay.set(
      symbol,
      (past.reduce((s, c) => s + (c[5] as number) * (c[2] as number), 0) / past.length) * usdOf(symbol),
    );
  }
}, 60_000);

afterAll(() => api.close());

describe("simulated volumes in USD", () => {
  it("lists every market", () => {
    expect([...daily.keys()].sort()).toEqual(LISTED_MARKETS.map((m) => m.symbol).sort());
  });

  it("gives BTCUSD the largest 24 h volume, about 150 M USD a day", () => {
    const btc = daily.get("tBTCUSD") as number;
    expect(btc).toBeGreaterThan(60e6);
    expect(btc).toBeLessThan(400e6);
    for (const [symbol, usd] of daily) if (symbol !== "tBTCUSD") expect(usd, symbol).toBeLessThan(btc);
  });

  it("keeps every market between half a million and a few hundred million USD a day", () => {
    for (const [symbol, usd] of daily) {
      expect(usd, symbol).toBeGreaterThan(0.5e6);
      expect(usd, symbol).toBeLessThan(400e6);
    }
  });

  it("sizes cross and fiat-quoted markets by value: ETHBTC, BTCJPY, BTCTRY, BTCBRL trade millions, not billions", () => {
    for (const symbol of ["tETHBTC", "tBTCJPY", "tBTCTRY", "tBTCBRL", "tBTCEUR", "tTESTBTC:TESTUSD"]) {
      expect(daily.get(symbol), symbol).toBeLessThan(30e6);
    }
    // The majors ahead of the small markets, in the listing's order of activity.
    const d = (s: string): number => daily.get(s) as number;
    expect(d("tBTCF0:USTF0")).toBeGreaterThan(d("tETHUSD") * 0.8);
    expect(d("tETHUSD")).toBeGreaterThan(d("tSOLUSD"));
    expect(d("tETHUSD")).toBeGreaterThan(d("tETHBTC") * 4);
    expect(d("tSOLUSD")).toBeGreaterThan(d("tBTCBRL"));
  });

  it("seeds a candle history whose days trade what the market's activity says", () => {
    for (const m of LISTED_MARKETS) {
      const usd = seededDay.get(m.symbol) as number;
      const expected = 150e6 * (m.activity ?? 1);
      expect(usd, m.symbol).toBeGreaterThan(expected * 0.5);
      expect(usd, m.symbol).toBeLessThan(expected * 2);
    }
  });
});
