/**
 * Bad input: malformed JSON, wrong types, huge and tiny numbers, unknown symbols and oversized
 * frames and bodies, on the public and the authenticated socket and over REST. Each gets an answer
 * in the real error shapes (or is ignored, as the live server ignores junk), the server keeps
 * serving, and the account's balances and orders are exactly what they were.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { listenApi } from "../test-support/api.ts";
import type { ApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const { exchange, orders, balances, gateway, seeded } = openVenue({
  dbPath: ":memory:",
  seed: 31,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const demo = seeded as number;

let api: ApiServer;
let base = "";
beforeAll(async () => {
  const started = await listenApi({
    exchange,
    account: gateway,
    limits: { public: 100_000, auth: 100_000, login: 100 },
  });
  api = started.api;
  base = `${started.host}`;
});
afterAll(() => api.close());

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function open(): Promise<{ ws: WebSocket; frames: unknown[]; closed: Promise<number> }> {
  const ws = new WebSocket(`ws://${base}/ws/2`);
  const frames: unknown[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
  const closed = new Promise<number>((r) => ws.on("close", (code) => r(code)));
  await new Promise((r) => ws.once("open", r));
  return { ws, frames, closed };
}

async function token(): Promise<string> {
  const res = await fetch(`http://${base}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
  });
  return ((await res.json()) as [string])[0];
}

describe("bad input", () => {
  it("survives junk on the sockets with the account untouched, and closes on an oversized frame", async () => {
    const walletsBefore = JSON.stringify(balances.walletsWire(demo));
    const { ws, frames } = await open();
    ws.send(JSON.stringify({ event: "auth", token: await token() }));
    await wait(100);
    const junk = [
      "",
      "null",
      "[]",
      "[0]",
      "{}",
      "{not json",
      "[".repeat(5000) + "]".repeat(5000),
      '{"event":"subscribe"}',
      '{"event":"subscribe","channel":"book","symbol":123}',
      '{"event":"subscribe","channel":"book","symbol":"tBTCUSD","len":1e308}',
      '{"event":"subscribe","channel":"candles","key":{"a":1}}',
      '{"event":"conf","flags":"all"}',
      '{"event":"unsubscribe","chanId":"x"}',
      '{"event":"auth","token":{}}',
      '[0,"on",null,"order"]',
      '[0,"on",null,{"type":"EXCHANGE LIMIT","symbol":"tBTCUSD","amount":"1e309","price":"1"}]',
      '[0,"on",null,{"type":"EXCHANGE LIMIT","symbol":"tBTCUSD","amount":1e-20,"price":"1"}]',
      '[0,"on",null,{"type":"EXCHANGE LIMIT","symbol":"tBTCUSD","amount":"0.1","price":"-5"}]',
      '[0,"on",null,{"type":"EXCHANGE LIMIT","symbol":"tBTCUSD","amount":"0.1","price":"NaN"}]',
      '[0,"on",null,{"type":"EXCHANGE LIMIT","symbol":"tNOPE","amount":"0.1","price":"1"}]',
      '[0,"on",null,{"type":"EXCHANGE MARKET","symbol":"tBTCUSD","amount":"-1e9"}]',
      '[0,"on",null,{"type":["EXCHANGE LIMIT"],"symbol":"tBTCUSD","amount":"0.1","price":"1"}]',
      '[0,"oc",null,{"id":"x"}]',
      '[0,"oc_multi",null,{"id":"all"}]',
      '[0,"ou",null,{"id":null,"price":"1"}]',
      '[0,"nope",null,{}]',
    ];
    for (const j of junk) ws.send(j);
    await wait(300);
    // Every refused order came back as an error notification; nothing was placed or moved.
    const errors = frames.filter((f) => Array.isArray(f) && f[1] === "n" && (f[2] as unknown[])[6] === "ERROR");
    expect(errors.length).toBeGreaterThanOrEqual(8);
    expect(orders.openOrdersWire(demo)).toEqual([]);
    expect(JSON.stringify(balances.walletsWire(demo))).toBe(walletsBefore);
    const events = frames.filter((f): f is Record<string, unknown> => !Array.isArray(f));
    expect(events.filter((e) => e["event"] === "error").map((e) => e["code"])).toContain(10300);

    // A frame over the 1 MiB limit closes that socket (1009), and only that one.
    const big = await open();
    big.ws.send("x".repeat(1024 * 1024 + 10));
    expect(await big.closed).toBe(1009);
    const fresh = await open();
    fresh.ws.send(JSON.stringify({ event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "P0", len: "25" }));
    await wait(200);
    expect(fresh.frames.some((f) => (f as Record<string, unknown>)["event"] === "subscribed")).toBe(true);
    fresh.ws.close();
    ws.close();
  });

  it("answers bad REST input in the real error shapes and keeps serving", async () => {
    const t = await token();
    const post = async (path: string, body: string): Promise<[number, unknown]> => {
      const res = await fetch(`http://${base}${path}`, { method: "POST", headers: { "bfx-token": t }, body });
      return [res.status, await res.json()];
    };
    expect(await post("/v2/auth/w/order/submit", "{not json")).toEqual([400, ["error", 10020, "body: invalid"]]);
    expect(await post("/v2/auth/w/order/submit", "[1,2]")).toEqual([400, ["error", 10020, "body: invalid"]]);
    const amount = await post(
      "/v2/auth/w/order/submit",
      JSON.stringify({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "lots", price: "1" }),
    );
    expect(amount).toEqual([500, ["error", 10001, "Invalid order: amount"]]);
    const price = await post(
      "/v2/auth/w/order/submit",
      // Parses to Infinity: a number JSON can carry but no price can be.
      '{"type":"EXCHANGE LIMIT","symbol":"tBTCUSD","amount":"0.1","price":1e400}',
    );
    expect(price[1]).toEqual(["error", 10001, "Invalid order: price"]);
    expect((await post("/v2/auth/w/transfer", JSON.stringify({ from: 1, to: [], amount: {} })))[1]).toEqual([
      "error",
      10001,
      "from: invalid",
    ]);
    const huge = await fetch(`http://${base}/v2/auth/w/order/submit`, {
      method: "POST",
      headers: { "bfx-token": t },
      body: "x".repeat(200_000),
    });
    expect([huge.status, await huge.json()]).toEqual([413, ["error", 10020, "body: too large"]]);
    const get = async (path: string): Promise<[number, unknown]> => {
      const res = await fetch(`http://${base}${path}`);
      return [res.status, await res.json()];
    };
    expect(await get("/v2/book/tBTCUSD/P0?len=abc")).toEqual([400, ["error", 10020, "len: invalid"]]);
    expect(await get("/v2/ticker/%E0%A4%A")).toEqual([400, ["error", 10020, "symbol: invalid"]]);
    expect((await get("/v2/nothing/here"))[0]).toBe(404);
    expect(orders.openOrdersWire(demo)).toEqual([]);
    expect((await get("/v2/ticker/tBTCUSD"))[0]).toBe(200);
  });
});
