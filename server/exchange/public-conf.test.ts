/**
 * The public REST calls the product makes (docs/product-rules.md#calls) that are not market data,
 * in the real API's shapes: the conf keys (pair and currency lists, the currency flags, maps,
 * stable coins, fee overrides, features, website stats, the home banner per language, legal terms),
 * calc/fx and its batch form, countries, geo, sales and articles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeFeeEntry } from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { Exchange } from "./exchange.ts";
import { listenApi } from "../test-support/api.ts";

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

const post = async (path: string, body: unknown): Promise<{ status: number; body: unknown }> => {
  const r = await fetch(`http://${host}${path}`, { method: "POST", body: JSON.stringify(body) });
  return { status: r.status, body: (await r.json()) as unknown };
};
const last = (symbol: string): number => exchange.markets.get(symbol)?.lastPrice() as number;

describe("conf keys in the real shapes", () => {
  it("answers several keys in one call, in request order, an unknown key as null", async () => {
    const [exchangePairs, nothing, futures] = await conf(
      "pub:list:pair:exchange",
      "pub:no:such:key",
      "pub:list:pair:futures",
    );
    expect(nothing).toBeNull();
    expect(exchangePairs).toEqual(expect.arrayContaining(["BTCUSD", "ETHBTC", "BTCJPY", "TESTBTC:TESTUSD"]));
    expect(futures).toEqual(["BTCF0:USTF0", "ETHF0:USTF0"]);
  });

  it("lists pairs per market type: exchange without derivatives, margin without paper, futures (also singular)", async () => {
    const [ex, margin, futures, future] = (await conf(
      "pub:list:pair:exchange",
      "pub:list:pair:margin",
      "pub:list:pair:futures",
      "pub:list:pair:future",
    )) as string[][];
    const listed = [...exchange.markets.keys()].map((s) => s.slice(1));
    for (const p of ex ?? []) expect(p).toMatch(/^[A-Z]{6}$|^[A-Z0-9]+:[A-Z0-9]+$/);
    expect([...(ex ?? []), ...(futures ?? [])].sort()).toEqual(listed.sort());
    expect(ex?.some((p) => p.includes("F0"))).toBe(false);
    expect(margin).not.toContain("TESTBTC:TESTUSD");
    expect(margin).toContain("BTCUSD");
    expect(future).toEqual(futures);
  });

  it("lists currencies, maps codes to symbols and labels, names the stable coins", async () => {
    const [list, sym, label, stable] = await conf(
      "pub:list:currency",
      "pub:map:currency:sym",
      "pub:map:currency:label",
      "pub:list:currency:stable",
    );
    expect(isCodeList(list)).toBe(true);
    expect(list).toEqual(expect.arrayContaining(["BTC", "ETH", "USD", "EUR", "JPY", "UST", "USTF0", "TESTBTC"]));
    // [[API code, common symbol]]: the one code that differs here.
    expect(sym).toEqual([["UST", "USDT"]]);
    const labels = label as [string, string][];
    expect(labels.map(([c]) => c)).toEqual(list);
    expect(Object.fromEntries(labels)).toMatchObject({ BTC: "Bitcoin", USD: "US Dollar", JPY: "Japanese Yen" });
    for (const [, name] of labels) expect(typeof name).toBe("string");
    expect(stable).toEqual(["UST"]);
  });

  it("lists fee overrides as [pair, [taker, maker]]: exactly the free paper pair", async () => {
    const [ovr] = (await conf("pub:info:pair:fee:ovr")) as unknown[][];
    const decoded = (ovr ?? []).map((e) => decodeFeeEntry(e));
    expect(decoded).toEqual([{ ok: true, value: { pair: "TESTBTC:TESTUSD", taker_fee: 0, maker_fee: 0 } }]);
  });

  it("answers pair info with the minimum and maximum order size as strings at 3 and 4", async () => {
    const [info] = (await conf("pub:info:pair")) as [string, unknown[]][][];
    const btc = info?.find(([p]) => p === "BTCUSD")?.[1];
    expect(btc).toHaveLength(10);
    expect(typeof btc?.[3]).toBe("string");
    expect(Number(btc?.[3])).toBeGreaterThan(0);
    expect(Number(btc?.[4])).toBeGreaterThan(Number(btc?.[3]));
  });

  it("lists the features and the website stats", async () => {
    const [features, stats] = await conf("pub:list:features", "pub:raw:website:stats");
    expect(isCodeList((features as string[]).map((f) => f.toUpperCase()))).toBe(true);
    expect(features).toEqual(expect.arrayContaining(["paper"]));
    expect(stats).toMatchObject({ markets: exchange.markets.size });
    expect(typeof (stats as Record<string, unknown>)["volume30mUsd"]).toBe("number");
  });

  it("answers a repeated key once per key and refuses a list too long to be a client's", async () => {
    const repeated = await conf(...Array<string>(40).fill("pub:raw:website:stats"));
    expect(repeated).toHaveLength(40);
    expect(new Set(repeated.map((r) => JSON.stringify(r))).size).toBe(1);
    const tooMany = await get(`/v2/conf/${Array<string>(41).fill("pub:list:currency").join(",")}`);
    expect(tooMany.status).toBe(400);
  });

  it("serves the home banner per language, region variants on their language, none for others", async () => {
    const langs = ["en", "ru", "es-EM", "pt-BR", "tr-TR", "zh-CN", "zh-TW"];
    const banners = (await conf(...langs.map((l) => `pub:raw:banner:home:${l}`))) as {
      lang: string;
      title: string;
      link: string;
    }[];
    expect(banners.map((b) => b.lang)).toEqual(["en", "ru", "es", "pt", "tr", "zh-CN", "zh-TW"]);
    // Each in its own language: seven different texts, the Russian in Cyrillic, the Chinese in Han.
    expect(new Set(banners.map((b) => b.title)).size).toBe(langs.length);
    expect(banners[1]?.title).toMatch(/[А-Яа-я]/);
    expect(banners[5]?.title).toMatch(/\p{Script=Han}/u);
    for (const b of banners) expect(b.link).toMatch(/^\//);
    expect(await conf("pub:raw:banner:home:xx")).toEqual([null]);
  });

  it("answers legal terms by id", async () => {
    const [tos, securities] = (await conf("pub:legal:terms:tos", "pub:legal:terms:securities")) as Record<
      string,
      unknown
    >[];
    expect([tos?.["id"], typeof tos?.["version"], typeof tos?.["updated"]]).toEqual(["tos", "string", "number"]);
    expect(securities?.["id"]).toBe("securities");
  });
});

describe("calc/fx", () => {
  it("answers [rate] through a direct market, its inverse, or BTC", async () => {
    expect((await post("/v2/calc/fx", { ccy1: "BTC", ccy2: "USD" })).body).toEqual([last("tBTCUSD")]);
    const [usdBtc] = (await post("/v2/calc/fx", { ccy1: "USD", ccy2: "BTC" })).body as number[];
    expect(usdBtc).toBeCloseTo(1 / last("tBTCUSD"), 12);
    const [eurJpy] = (await post("/v2/calc/fx", { ccy1: "EUR", ccy2: "JPY" })).body as number[];
    expect(eurJpy).toBeCloseTo(last("tBTCJPY") / last("tBTCEUR"), 6);
    const bad = await post("/v2/calc/fx", { ccy1: "BTC", ccy2: "NOPE" });
    expect(bad).toEqual({ status: 400, body: ["error", 10020, "ccy: invalid"] });
  });

  it("answers the batch form as {data: [rates in the order sent]}, amount applied, null for what it cannot convert", async () => {
    const r = await post("/v2/calc/fx/batch", {
      pairs: [
        { ccy1: "BTC", ccy2: "USD", amount: 1, fiat_fx: false },
        { ccy1: "ETH", ccy2: "BTC", amount: 2 },
        { ccy1: "NOPE", ccy2: "USD", amount: 1 },
      ],
    });
    expect(r.status).toBe(200);
    const { data } = r.body as { data: (number | null)[] };
    expect(data).toHaveLength(3);
    expect(data[0]).toBe(last("tBTCUSD"));
    expect(data[1]).toBeCloseTo(2 * last("tETHBTC"), 10);
    expect(data[2]).toBeNull();
  });
});

describe("countries, geo, sales, articles", () => {
  it("lists countries as [code, name] with the ones the product handles specially", async () => {
    const r = await get("/v2/int/countries");
    const rows = r.body as [string, string][];
    for (const row of rows) {
      expect(row[0]).toMatch(/^[A-Z]{2}$/);
      expect(typeof row[1]).toBe("string");
    }
    const codes = rows.map(([c]) => c);
    for (const c of ["AR", "BR", "CL", "CO", "PE", "SV", "MX", "PL", "TR", "VE", "GB", "ES"])
      expect(codes).toContain(c);
  });

  it("answers the geo lookup with the country as the second element", async () => {
    expect((await get("/v2/int/geo/ip?ip=203.0.113.9")).body).toEqual(["203.0.113.9", "GB"]);
    const local = (await get("/v2/int/geo/ip")).body as unknown[];
    expect(local[1]).toBe("GB");
  });

  it("answers /api/sales with a data array and /v1/articles with the guides", async () => {
    const sales = await post("/api/sales", {});
    expect(sales.status).toBe(200);
    expect(Array.isArray((sales.body as { data: unknown }).data)).toBe(true);
    const articles = await get("/v1/articles");
    expect(articles.status).toBe(200);
    const list = articles.body as Record<string, unknown>[];
    expect(list.length).toBeGreaterThan(0);
    for (const a of list)
      expect([typeof a["id"], typeof a["title"], typeof a["slug"]]).toEqual(["number", "string", "string"]);
  });
});

describe("currency lists", () => {
  it("list UST (which pub:map:currency:sym maps) as a currency and the one stablecoin; USD is none", async () => {
    const [map, currencies, stable] = (await conf(
      "pub:map:currency:sym",
      "pub:list:currency",
      "pub:list:currency:stable",
    )) as [[string, string][], string[], string[]];
    for (const [code] of map) expect(currencies).toContain(code);
    expect(currencies).toContain("UST");
    expect(stable).toEqual(["UST"]);
  });
});
