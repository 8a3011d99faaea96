/**
 * The public REST calls SPEC section 7 names that are not market data, in the real API's shapes:
 * the conf keys (pair and currency lists, the currency flags, maps, stable coins, fee overrides,
 * features, website stats, the home banner per language, legal terms), calc/fx and its batch form,
 * countries, geo, sales and articles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "../api-server.ts";
import { Exchange } from "./exchange.ts";
import { listenApi } from "./test-api.ts";

const exchange = new Exchange({ now: () => Date.now(), seed: 5 });
let api: ApiServer;
let host = "";

beforeAll(async () => {
  for (let i = 0; i < 40; i++) exchange.simulator.step();
  ({ api, host } = await listenApi({ exchange }));
});
afterAll(() => api.close());

const get = async (path: string): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://${host}${path}`);
  return { status: r.status, body: (await r.json()) as unknown };
};
/** The conf reply: one element per key asked, in order. */
const conf = async (...keys: string[]): Promise<unknown[]> => {
  const r = await get(`/v2/conf/${keys.join(",")}`);
  expect(r.status).toBe(200);
  expect(Array.isArray(r.body) && r.body.length).toBe(keys.length);
  return r.body as unknown[];
};
const isCodeList = (v: unknown): boolean =>
  Array.isArray(v) && v.every((c) => typeof c === "string" && /^[A-Z0-9]{3,}$/.test(c));

describe("currency flags", () => {
  it("answers every flag list as a list of currency codes, in request order", async () => {
    const keys = [
      "pub:list:currency:margin",
      "pub:list:currency:paper",
      "pub:list:currency:usdt0",
      "pub:list:currency:securities",
      "pub:list:currency:securities:portfolio",
      "pub:list:currency:viewonly",
      "pub:list:currency:futures",
    ];
    const lists = await conf(...keys);
    for (const [i, list] of lists.entries()) expect(isCodeList(list), keys[i]).toBe(true);
  });

  it("flags the funding currencies, the paper ones and the derivative collateral", async () => {
    const [all, margin, paper, futures] = (await conf(
      "pub:list:currency",
      "pub:list:currency:margin",
      "pub:list:currency:paper",
      "pub:list:currency:futures",
    )) as string[][];
    // funding: exactly the currencies with a funding book (fUSD, fBTC, fETH, fUST).
    const fundingBooks = [...exchange.funding.markets.keys()].map((f) => f.slice(1)).sort();
    expect(margin).toEqual(fundingBooks);
    expect(margin).toEqual(expect.arrayContaining(["USD", "BTC", "UST"]));
    expect(paper).toEqual(["TESTBTC", "TESTUSD"]);
    expect(futures).toEqual(["BTCF0", "ETHF0", "USTF0"]);
    // Every flagged currency is a listed one, and no real currency is paper.
    for (const c of [...(margin ?? []), ...(paper ?? []), ...(futures ?? [])]) expect(all).toContain(c);
    expect(paper).not.toContain("BTC");
  });

  it("lists no securities, USDT0 or view-only currency (none is listed here)", async () => {
    const lists = await conf(
      "pub:list:currency:securities",
      "pub:list:currency:securities:portfolio",
      "pub:list:currency:usdt0",
      "pub:list:currency:viewonly",
    );
    expect(lists).toEqual([[], [], [], []]);
  });
});
