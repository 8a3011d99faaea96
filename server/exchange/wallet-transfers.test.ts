/**
 * What the wallets page relies on, over HTTP and SQLite: `calc/fx` answers a rate for every listed
 * currency (BRL, EUR, JPY and TRY through BTC; USDt, its derivatives form and paper dollars by their
 * reference rates) that agrees with the markets' last prices, in its single and batch forms; and
 * `w/transfer` between the caller's wallets checks the amount as the dialog does, moves nothing on
 * a refusal, and moves once per `request_id` however often the request arrives.
 */
import { describe, expect, it } from "vitest";
import { decodeFxBatch, decodeFxRate, notificationCodec, walletCodec } from "../../src/protocol/index.ts";
import { demoSession } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 9 });
for (let i = 0; i < 30; i++) venue.exchange.simulator.step();
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

const last = (symbol: string): number => venue.exchange.markets.get(symbol)?.lastPrice() ?? Number.NaN;

const rate = async (from: string, to: string): Promise<number | null> => {
  const r = await fetch(`http://${s.host}/v2/calc/fx`, {
    method: "POST",
    body: JSON.stringify({ ccy1: from, ccy2: to, fiat_fx: false }),
  });
  return decodeFxRate(await r.json());
};

describe("calc/fx for every listed currency", () => {
  it("answers a positive rate to USD for each currency of pub:list:currency", async () => {
    const [currencies] = (await (await fetch(`http://${s.host}/v2/conf/pub:list:currency`)).json()) as string[][];
    expect(currencies).toEqual(expect.arrayContaining(["BRL", "EUR", "JPY", "TRY", "UST", "TESTUSD", "TESTBTC"]));
    for (const c of currencies ?? []) {
      const fx = await rate(c, "USD");
      expect(fx, c).not.toBeNull();
      expect(fx ?? 0, c).toBeGreaterThan(0);
    }
  });

  it("agrees with the markets: fiat through BTC, derivatives and paper through their own markets", async () => {
    for (const fiat of ["BRL", "EUR", "JPY", "TRY"]) {
      expect(await rate(fiat, "USD")).toBeCloseTo(last("tBTCUSD") / last(`tBTC${fiat}`), 8);
      expect(await rate("BTC", fiat)).toBe(last(`tBTC${fiat}`));
    }
    expect(await rate("TESTBTC", "USD")).toBe(last("tTESTBTC:TESTUSD"));
    expect(await rate("BTCF0", "USD")).toBe(last("tBTCF0:USTF0"));
    expect(await rate("UST", "USD")).toBe(1);
    // Both ways round give reciprocal rates.
    const eurTry = (await rate("EUR", "TRY")) ?? 0;
    expect((await rate("TRY", "EUR")) ?? 0).toBeCloseTo(1 / eurTry, 12);
  });

  it("answers the batch in order, with null for what nothing links, and refuses a malformed code", async () => {
    const pairs = [
      { ccy1: "JPY", ccy2: "EUR", amount: 1, fiat_fx: true },
      { ccy1: "NOPE", ccy2: "USD", amount: 1, fiat_fx: false },
      { ccy1: "BRL", ccy2: "BTC", amount: 1, fiat_fx: false },
    ];
    const r = await fetch(`http://${s.host}/v2/calc/fx/batch`, { method: "POST", body: JSON.stringify({ pairs }) });
    const data = decodeFxBatch(await r.json(), 3);
    expect(data?.[0]).toBeCloseTo(last("tBTCEUR") / last("tBTCJPY"), 10);
    expect(data?.[1]).toBeNull();
    expect(data?.[2]).toBeCloseTo(1 / last("tBTCBRL"), 14);
    const bad = await fetch(`http://${s.host}/v2/calc/fx`, {
      method: "POST",
      body: JSON.stringify({ ccy1: "usd; drop", ccy2: "BTC" }),
    });
    expect(bad.status).toBe(400);
  });
});

describe("w/transfer between the caller's wallets", () => {
  const balance = async (type: string, currency: string): Promise<number> => {
    const r = await s.rest("/v2/auth/r/wallets");
    const list = walletCodec.decodeList(r.body);
    if (!list.ok) throw new Error(JSON.stringify(list.error));
    return list.value.find((w) => w.type === type && w.currency === currency)?.balance ?? 0;
  };

  it("refuses every bad amount with the field named and moves nothing", async () => {
    const before = [await balance("exchange", "EUR"), await balance("margin", "EUR")];
    const cases: [unknown, string][] = [
      ["0", "amount: invalid"],
      ["-5", "amount: invalid"],
      ["NaN", "amount: invalid"],
      ["Infinity", "amount: invalid"],
      ["1e3", "amount: invalid"],
      ["0x10", "amount: invalid"],
      ["", "amount: invalid"],
      [null, "amount: invalid"],
      ["0.123456789", "amount: precision (more decimals than the currency has)"],
      [1e-9, "amount: precision (more decimals than the currency has)"],
      ["1000000000000", "amount: invalid"],
      ["200000", "amount: insufficient balance in the source wallet"],
    ];
    for (const [amount, msg] of cases) {
      const r = await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "EUR", amount });
      expect(r.body, String(amount)).toEqual(["error", 10001, msg]);
    }
    expect([await balance("exchange", "EUR"), await balance("margin", "EUR")]).toEqual(before);
  });

  it("moves once per request id, answers a repeat with the first result, refuses the id for another transfer", async () => {
    const ex0 = await balance("exchange", "EUR");
    const mg0 = await balance("margin", "EUR");
    const body = { from: "exchange", to: "margin", currency: "EUR", amount: "125.5", request_id: "wallets-test-0001" };
    const first = await s.rest("/v2/auth/w/transfer", body);
    expect(first.status).toBe(200);
    const n = notificationCodec.decode(first.body);
    expect(n.ok && n.value.status).toBe("SUCCESS");
    // The same request again (a retried submit, a resent packet): the same answer, nothing moved.
    const again = await Promise.all([s.rest("/v2/auth/w/transfer", body), s.rest("/v2/auth/w/transfer", body)]);
    for (const r of again) expect(r).toEqual(first);
    expect(await balance("exchange", "EUR")).toBeCloseTo(ex0 - 125.5, 8);
    expect(await balance("margin", "EUR")).toBeCloseTo(mg0 + 125.5, 8);
    const reused = await s.rest("/v2/auth/w/transfer", { ...body, amount: "1" });
    expect(reused.body).toEqual(["error", 10001, "request_id: already used for another transfer"]);
    expect(await balance("margin", "EUR")).toBeCloseTo(mg0 + 125.5, 8);
    // A fresh id is a fresh transfer.
    await s.rest("/v2/auth/w/transfer", { ...body, request_id: "wallets-test-0002" });
    expect(await balance("margin", "EUR")).toBeCloseTo(mg0 + 251, 8);
    const badId = await s.rest("/v2/auth/w/transfer", { ...body, request_id: "x" });
    expect(badId).toEqual({ status: 400, body: ["error", 10001, "request_id: invalid"] });
  });
});
