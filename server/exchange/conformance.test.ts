/**
 * Conformance: the worker's own core, over a real socket, against the embedded exchange with a
 * running simulator — every `cs` verified, no sequence gap, no unknown delete, every frame decoded
 * with src/protocol.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { candleCodec, CONF_FLAGS, derivStatusCodec, publicTradeCodec, tickerCodec } from "../../src/protocol/index.ts";
import { Connection, type SocketLike } from "../../src/workers/core/index.ts";
import { globalScheduler } from "../../tests/support/timers.ts";
import { listenApi } from "../test-support/api.ts";
import type { ApiServer } from "../api-server.ts";
import { Exchange } from "./exchange.ts";
import { messageText } from "../ws-text.ts";

let api: ApiServer;
let api2: ApiServer;
let url = "";
let url2 = "";
let stepper: ReturnType<typeof setInterval>;
const exchange = new Exchange({ now: () => Date.now(), seed: 7 });

beforeAll(async () => {
  const first = await listenApi({ exchange, heartbeatMs: 200 });
  api = first.api;
  url = `ws://${first.host}/ws/2`;
  // The authenticated host serves the same books from the same exchange (a second server).
  const second = await listenApi({ exchange, heartbeatMs: 200 });
  api2 = second.api;
  url2 = `ws://${second.host}/ws/2`;
  stepper = setInterval(() => exchange.simulator.step(), 15);
});

afterAll(async () => {
  clearInterval(stepper);
  await api.close();
  await api2.close();
});

describe("embedded exchange against the worker core", () => {
  it("serves books the client verifies on every checksum, with no gap and no unknown delete", async () => {
    const t = globalScheduler();
    const conn = new Connection({
      url,
      createSocket: (u) => new WebSocket(u) as unknown as SocketLike,
      timers: t,
      flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL | CONF_FLAGS.TIMESTAMP,
      watchdogMs: 5000,
    });
    conn.core.subscribe({ channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" });
    conn.core.subscribe({ channel: "book", symbol: "tETHUSD", prec: "P2", freq: "F0", len: "100" });
    conn.core.subscribe({ channel: "book", symbol: "tTESTBTC:TESTUSD", prec: "P0", freq: "F0", len: "250" });
    // A raw book: orders by id, removals with price 0, checksums over ids.
    conn.core.subscribe({ channel: "book", symbol: "tBTCUSD", prec: "R0", freq: "F0", len: "25" });
    conn.core.subscribe({ channel: "trades", symbol: "tBTCUSD" });
    conn.core.subscribe({ channel: "ticker", symbol: "tBTCUSD" });
    conn.core.subscribe({ channel: "candles", key: "trade:1m:tBTCUSD" });
    conn.start();
    await new Promise((r) => setTimeout(r, 2500));
    const s = conn.core.stats;
    conn.stop();
    t.dispose();
    expect(s.books).toBe(4);
    expect(s.checksumsOk).toBeGreaterThan(20);
    expect(s.checksumsFailed).toBe(0);
    expect(s.seqGaps).toBe(0);
    expect(s.unknownDeletes).toBe(0);
    expect(s.malformed).toBe(0);
    expect(s.resyncs).toBe(0);
    expect(s.heartbeats).toBeGreaterThan(0);
  });

  it("serves the same verified books on a second host, at len 1 too, while the first is also subscribed", async () => {
    const t = globalScheduler();
    const mk = (u: string) =>
      new Connection({
        url: u,
        createSocket: (x) => new WebSocket(x) as unknown as SocketLike,
        timers: t,
        flags: CONF_FLAGS.OB_CHECKSUM,
        watchdogMs: 5000,
      });
    const a = mk(url);
    const b = mk(url2);
    for (const c of [a, b]) {
      c.core.subscribe({ channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" });
      c.core.subscribe({ channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "1" });
      c.start();
    }
    await new Promise((r) => setTimeout(r, 2000));
    for (const c of [a, b]) {
      const s = c.core.stats;
      c.stop();
      expect(s.checksumsOk).toBeGreaterThan(10);
      expect(s.checksumsFailed).toBe(0);
      expect(s.unknownDeletes).toBe(0);
      expect(s.updates).toBeGreaterThan(10);
    }
    t.dispose();
  });

  it("sends frames that decode with src/protocol and answers bad subscriptions like the live server", async () => {
    const ws = new WebSocket(url);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    const send = (m: unknown): void => ws.send(JSON.stringify(m));
    send({ event: "subscribe", channel: "trades", symbol: "tBTCUSD" });
    send({ event: "subscribe", channel: "ticker", symbol: "tBTCUSD" });
    send({ event: "subscribe", channel: "candles", key: "trade:5m:tBTCUSD" });
    send({ event: "subscribe", channel: "book", symbol: "tNOPE" });
    send({ event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "P9" });
    send({ event: "subscribe", channel: "book", symbol: "tBTCUSD", len: "7" });
    send({ event: "subscribe", channel: "nope", symbol: "tBTCUSD" });
    send({ event: "subscribe", channel: "trades", symbol: "tBTCUSD" });
    send({ event: "unsubscribe", chanId: 999999 });
    ws.send("{not json");
    await new Promise((r) => setTimeout(r, 1500));
    ws.close();
    const events = frames.filter((f): f is Record<string, unknown> => !Array.isArray(f));
    expect(events[0]).toMatchObject({ event: "info", version: 2, platform: { status: 1 } });
    const errors = events.filter((e) => e["event"] === "error").map((e) => [e["code"], e["msg"]]);
    expect(errors).toEqual([
      [10300, "symbol: invalid"],
      [10300, "precision: invalid"],
      [10300, "length: invalid"],
      [10300, "channel: unknown"],
      [10301, "subscribe: dup"],
      [10400, "unsubscribe: invalid"],
    ]);
    const subscribed = events.filter((e) => e["event"] === "subscribed");
    expect(subscribed.map((e) => e["channel"])).toEqual(["trades", "ticker", "candles"]);
    expect(subscribed[0]).toMatchObject({ symbol: "tBTCUSD", pair: "BTCUSD" });
    const byChan = new Map(subscribed.map((e) => [e["chanId"], e["channel"]]));
    let trades = 0;
    let tickers = 0;
    let candles = 0;
    for (const f of frames) {
      if (!Array.isArray(f) || f[1] === "hb") continue;
      const channel = byChan.get(f[0]);
      if (channel === "trades") {
        const rows = f[1] === "te" || f[1] === "tu" ? [f[2]] : (f[1] as unknown[]);
        for (const r of rows) expect(publicTradeCodec.decode(r).ok).toBe(true);
        trades += rows.length;
      } else if (channel === "ticker") {
        expect(tickerCodec.decode(f[1]).ok).toBe(true);
        // Today's wire: the 10 documented fields and a trailing null (docs/protocol.md#tickers).
        expect((f[1] as unknown[]).length).toBe(11);
        expect((f[1] as unknown[])[10]).toBeNull();
        tickers++;
      } else if (channel === "candles") {
        const rows = Array.isArray((f[1] as unknown[])[0]) ? (f[1] as unknown[]) : [f[1]];
        for (const r of rows) expect(candleCodec.decode(r).ok).toBe(true);
        candles += rows.length;
      }
    }
    expect(trades).toBeGreaterThan(0);
    expect(tickers).toBeGreaterThan(0);
    expect(candles).toBeGreaterThan(100);
  });

  it("answers the public REST calls in the real shapes", async () => {
    const base = url.replace("ws://", "http://").replace("/ws/2", "");
    const get = async (p: string): Promise<unknown> => (await fetch(base + p)).json();
    expect(await get("/v2/platform/status")).toEqual([1]);
    const tickers = (await get("/v2/tickers?symbols=ALL")) as unknown[][];
    // 13 trading pairs, then the funding currencies (funding-public.test.ts checks those).
    expect(tickers.filter((r) => String(r[0]).startsWith("t")).length).toBe(13);
    expect(tickerCodec.decode((tickers[0] as unknown[]).slice(1)).ok).toBe(true);
    expect(tickerCodec.decode(await get("/v2/ticker/tBTCUSD")).ok).toBe(true);
    expect(publicTradeCodec.decodeList(await get("/v2/trades/tBTCUSD/hist?limit=5")).ok).toBe(true);
    expect(candleCodec.decodeList(await get("/v2/candles/trade:1h:tBTCUSD/hist?limit=10")).ok).toBe(true);
    const book = (await get("/v2/book/tBTCUSD/P0?len=25")) as number[][];
    expect(book.length).toBeGreaterThan(20);
    const conf = (await get("/v2/conf/pub:list:pair:exchange,pub:list:pair:futures")) as string[][];
    expect(conf[0]).toContain("BTCUSD");
    expect(conf[0]).toContain("TESTBTC:TESTUSD");
    expect(conf[1]).toEqual(["BTCF0:USTF0", "ETHF0:USTF0"]);
    expect(await get("/v2/ticker/tNOPE")).toEqual(["error", 10020, "symbol: invalid"]);
    const raw = (await get("/v2/book/tBTCUSD/R0?len=25")) as number[][];
    expect(raw.length).toBe(50);
    // [ORDER_ID, PRICE, AMOUNT]: ids are integers, bids first (positive), best price first.
    expect(raw.every(([id]) => Number.isSafeInteger(id))).toBe(true);
    expect((raw[0]?.[2] as number) > 0 && (raw[25]?.[2] as number) < 0).toBe(true);
    expect((raw[0]?.[1] as number) >= (raw[1]?.[1] as number)).toBe(true);
  });

  it("serves derivatives status on the status channel and REST, conversions and the 30-minute volume", async () => {
    const ws = new WebSocket(url);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: "deriv:tBTCF0:USTF0" }));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: "liq:global" }));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: "deriv:tNOPE" }));
    await new Promise((r) => setTimeout(r, 1300));
    ws.close();
    const events = frames.filter((f): f is Record<string, unknown> => !Array.isArray(f));
    const subscribed = events.filter((e) => e["event"] === "subscribed");
    expect(subscribed.map((e) => e["key"])).toEqual(["deriv:tBTCF0:USTF0", "liq:global"]);
    // An unknown derivatives key: no reply at all, as on the live server (docs/protocol.md#derivatives-status).
    expect(events.filter((e) => e["event"] === "error" || e["key"] === "deriv:tNOPE")).toEqual([]);
    const deriv = subscribed[0]?.["chanId"];
    const rows = frames.filter((f): f is unknown[] => Array.isArray(f) && f[0] === deriv && f[1] !== "hb");
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const decoded = derivStatusCodec.decode(r[1]);
      expect(decoded.ok).toBe(true);
      if (decoded.ok) expect(decoded.value.markPrice).toBeGreaterThan(0);
    }
    const liq = frames.find((f) => Array.isArray(f) && f[0] === subscribed[1]?.["chanId"]);
    expect(liq).toEqual([subscribed[1]?.["chanId"], []]);

    const base = url.replace("ws://", "http://").replace("/ws/2", "");
    const rest = (await (await fetch(`${base}/v2/status/deriv?keys=tBTCF0:USTF0`)).json()) as unknown[][];
    expect(rest.length).toBe(1);
    expect(rest[0]?.[0]).toBe("tBTCF0:USTF0");
    expect(derivStatusCodec.decode(rest[0]?.slice(1)).ok).toBe(true);
    const post = async (p: string, body: unknown): Promise<unknown> =>
      (
        await fetch(base + p, {
          method: "POST",
          body: JSON.stringify(body),
          headers: { "content-type": "application/json" },
        })
      ).json();
    const [btcUsd] = (await post("/v2/calc/fx", { ccy1: "BTC", ccy2: "USD" })) as number[];
    const [usdBtc] = (await post("/v2/calc/fx", { ccy1: "USD", ccy2: "BTC" })) as number[];
    expect(btcUsd).toBeGreaterThan(1000);
    // Two calls against a live market: the price may move a little between them.
    expect((btcUsd ?? 0) * (usdBtc ?? 0)).toBeCloseTo(1, 2);
    expect(await post("/v2/calc/fx", { ccy1: "BTC", ccy2: "NOPE" })).toEqual(["error", 10020, "ccy: invalid"]);
    const vol = (await (await fetch(`${base}/v2/stats1/vol.1d:30m:BFX/last`)).json()) as number[];
    expect(vol).toHaveLength(2);
    expect(vol[1]).toBeGreaterThanOrEqual(0);
  });
});
