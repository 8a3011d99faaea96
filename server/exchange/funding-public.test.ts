/**
 * Public funding markets over a real socket and HTTP, with the simulator's lenders and borrowers
 * running: the worker core verifies every funding book checksum; frames decode with src/protocol
 * and have the shapes of ../shared/bitfinex/ws-message-examples.jsonl's funding examples; REST
 * answers tickers (incl. f-symbols in `ALL`), trades, books and candles; bad requests are refused.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  candleCodec,
  CONF_FLAGS,
  decodeTickersRow,
  fundingTickerCodec,
  OrderBook,
  publicFundingTradeCodec,
} from "../../src/protocol/index.ts";
import { Connection, type SocketLike } from "../../src/workers/core/index.ts";
import { globalScheduler } from "../../tests/support/timers.ts";
import type { ApiServer } from "../api-server.ts";
import { Exchange } from "./exchange.ts";
import { sharedBitfinexDir } from "./recordings.ts";
import { listenApi } from "../test-support/api.ts";
import { messageText } from "../ws-text.ts";

const exchange = new Exchange({ now: () => Date.now(), seed: 11, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let api: ApiServer;
let host = "";
let stepper: ReturnType<typeof setInterval>;

beforeAll(async () => {
  const started = await listenApi({ exchange, heartbeatMs: 200 });
  api = started.api;
  host = started.host;
  stepper = setInterval(() => exchange.simulator.step(), 15);
});
afterAll(async () => {
  clearInterval(stepper);
  await api.close();
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function session(flags: number, subs: Record<string, unknown>[], ms: number) {
  const ws = new WebSocket(`ws://${host}/ws/2`);
  const frames: unknown[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(messageText(d)) as unknown));
  await new Promise((r) => ws.once("open", r));
  if (flags) ws.send(JSON.stringify({ event: "conf", flags }));
  for (const s of subs) ws.send(JSON.stringify({ event: "subscribe", ...s }));
  await wait(ms);
  ws.close();
  const channels = new Map<number, Record<string, unknown>>();
  for (const f of frames) {
    const e = f as Record<string, unknown>;
    if (!Array.isArray(f) && e["event"] === "subscribed") channels.set(e["chanId"] as number, e);
  }
  const on = (pred: (e: Record<string, unknown>) => boolean): unknown[][] =>
    frames.filter(
      (f): f is unknown[] =>
        Array.isArray(f) && channels.has(f[0] as number) && pred(channels.get(f[0] as number) as never),
    );
  return { frames, channels, on };
}

/** Same shape: arrays by length and position, a null on either side matching anything. */
function sameShape(ours: unknown, theirs: unknown): boolean {
  if (ours === null || theirs === null) return true;
  if (Array.isArray(theirs))
    return Array.isArray(ours) && ours.length === theirs.length && theirs.every((t, i) => sameShape(ours[i], t));
  if (typeof theirs === "object")
    return (
      typeof ours === "object" &&
      Object.keys(theirs).every((k) => k in ours && sameShape((ours as never)[k], (theirs as never)[k]))
    );
  return typeof ours === typeof theirs;
}

describe("funding markets", () => {
  it("serves funding books the client verifies on every checksum, with no unknown delete", async () => {
    const t = globalScheduler();
    const conn = new Connection({
      url: `ws://${host}/ws/2`,
      createSocket: (u) => new WebSocket(u) as unknown as SocketLike,
      timers: t,
      flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL,
      watchdogMs: 5000,
    });
    conn.core.subscribe({ channel: "book", symbol: "fUSD", prec: "P0", freq: "F0", len: "25" });
    conn.core.subscribe({ channel: "book", symbol: "fBTC", prec: "P1", freq: "F0", len: "100" });
    conn.core.subscribe({ channel: "book", symbol: "fETH", prec: "P0", freq: "F0", len: "1" });
    conn.core.subscribe({ channel: "book", symbol: "fUST", prec: "P3", freq: "F0", len: "25" });
    conn.core.subscribe({ channel: "book", symbol: "fUSD", prec: "R0", freq: "F0", len: "25" });
    conn.start();
    await wait(2500);
    const s = conn.core.stats;
    conn.stop();
    t.dispose();
    expect(s.books).toBe(5);
    expect(s.checksumsOk).toBeGreaterThan(20);
    expect(s.checksumsFailed).toBe(0);
    expect(s.unknownDeletes).toBe(0);
    expect(s.malformed).toBe(0);
    expect(s.seqGaps).toBe(0);
    expect(s.resyncs).toBe(0);
  });

  it("sends book, trades, ticker and candles frames that decode and match the examples' shapes", async () => {
    const s = await session(
      CONF_FLAGS.OB_CHECKSUM,
      [
        { channel: "book", symbol: "fUSD", prec: "P0", freq: "F0", len: "25" },
        { channel: "book", symbol: "fUSD", prec: "R0", len: "25" },
        { channel: "trades", symbol: "fUSD" },
        { channel: "ticker", symbol: "fUSD" },
        { channel: "candles", key: "trade:1m:fUSD:p2" },
        { channel: "candles", key: "trade:1m:fUSD:a30:p2:p30" },
      ],
      2500,
    );
    const acks = [...s.channels.values()];
    expect(acks.map((a) => a["channel"]).sort()).toEqual(["book", "book", "candles", "candles", "ticker", "trades"]);
    for (const a of acks.filter((x) => x["channel"] !== "candles")) expect(a["currency"]).toBe("USD");

    const book = s.on((e) => e["channel"] === "book" && e["prec"] === "P0");
    const raw = s.on((e) => e["channel"] === "book" && e["prec"] === "R0");
    const rawMirror = new OrderBook({ kind: "funding-raw", len: 25 });
    expect(rawMirror.applySnapshot(raw[0]?.[1])).toBe(true);
    let rawChecked = 0;
    for (const f of raw.slice(1)) {
      if (f[1] === "cs") {
        expect(f[2]).toBe(rawMirror.checksum());
        rawChecked++;
      } else if (f[1] !== "hb") expect(rawMirror.applyEntry(f[1])).toBe(true);
    }
    expect(rawChecked).toBeGreaterThan(5);
    expect(rawMirror.unknownDeletes).toBe(0);
    const mirror = new OrderBook({ kind: "funding", len: 25, topOfBookRule: false });
    expect(mirror.applySnapshot(book[0]?.[1])).toBe(true);
    expect(mirror.bids.size).toBeGreaterThan(0);
    expect(mirror.asks.size).toBeGreaterThan(0);
    // Bids carry negative amounts, asks positive (docs/protocol.md#funding-books).
    for (const e of book[0]?.[1] as number[][]) expect(e).toHaveLength(4);
    expect((book[0]?.[1] as number[][])[0]?.[3]).toBeLessThan(0);
    let checked = 0;
    for (const f of book.slice(1)) {
      if (f[1] === "cs") {
        expect(f[2]).toBe(mirror.checksum());
        checked++;
      } else if (f[1] !== "hb") expect(mirror.applyEntry(f[1])).toBe(true);
    }
    expect(checked).toBeGreaterThan(5);
    expect(mirror.unknownDeletes).toBe(0);

    const trades = s.on((e) => e["channel"] === "trades");
    expect(publicFundingTradeCodec.decodeList(trades[0]?.[1]).ok).toBe(true);
    const fte = trades.filter((f) => f[1] === "fte");
    const ftu = trades.filter((f) => f[1] === "ftu");
    expect(fte.length).toBeGreaterThan(0);
    // Every trade twice, `fte` then `ftu` (the socket may close between the two of the last batch).
    const fteIds = fte.map((f) => (f[2] as number[])[0]);
    const ftuIds = ftu.map((f) => (f[2] as number[])[0]);
    expect(new Set(fteIds).size).toBe(fteIds.length);
    expect(fteIds.slice(0, ftuIds.length)).toEqual(ftuIds);
    expect(ftuIds.length).toBeGreaterThan(fteIds.length - 5);
    for (const f of fte) {
      const d = publicFundingTradeCodec.decode(f[2]);
      expect(d.ok && d.value.period >= 2 && d.value.rate > 0).toBe(true);
    }

    const ticker = s.on((e) => e["channel"] === "ticker").filter((f) => Array.isArray(f[1]));
    const tk = fundingTickerCodec.decode(ticker[0]?.[1]);
    expect(tk.ok).toBe(true);
    if (tk.ok) {
      expect(tk.value.frr).toBeGreaterThan(0);
      expect(tk.value.bid).toBeGreaterThan(0);
      expect(tk.value.bidPeriod).toBeGreaterThanOrEqual(2);
      expect(tk.value.ask).toBeGreaterThan(0);
    }
    // Synchronously, the ticker's best levels are the P0 book's.
    const market = exchange.funding.markets.get("fUSD");
    const now = fundingTickerCodec.decode(market?.ticker(Date.now()));
    const top = market?.levels("P0", 1) ?? [];
    expect(now.ok && [now.value.bid, now.value.bidPeriod, -now.value.bidSize <= (top[0]?.[3] ?? 0)]).toEqual([
      top[0]?.[0],
      top[0]?.[1],
      true,
    ]);
    expect(now.ok && [now.value.ask, now.value.askPeriod]).toEqual([top[1]?.[0], top[1]?.[1]]);
    for (const chanId of [...s.channels.entries()].filter(([, e]) => e["channel"] === "candles").map(([id]) => id)) {
      const rows = s.frames.filter((f): f is unknown[] => Array.isArray(f) && f[0] === chanId);
      expect(candleCodec.decodeList(rows[0]?.[1]).ok).toBe(true);
      expect((rows[0]?.[1] as unknown[]).length).toBeGreaterThan(100);
    }

    const shared = sharedBitfinexDir();
    const file = shared ? join(shared, "ws-message-examples.jsonl") : null;
    if (!file || !existsSync(file)) return;
    const examples = readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { dir: string; what: string; frame: string });
    const example = (what: string): unknown[] =>
      JSON.parse((examples.find((e) => e.dir === "s2c" && e.what === what) as { frame: string }).frame) as unknown[];
    const snap = example("snapshot funding [RATE,PERIOD,COUNT,AMOUNT]");
    expect(sameShape((book[0]?.[1] as unknown[])[0], (snap[1] as unknown[])[0])).toBe(true);
    expect(
      sameShape(
        book.find((f) => Array.isArray(f[1]) && !Array.isArray((f[1] as unknown[])[0])),
        example("update funding"),
      ),
    ).toBe(true);
    const rsnap = example("snapshot funding raw [OFFER_ID,PERIOD,RATE,AMOUNT]");
    expect(sameShape((raw[0]?.[1] as unknown[])[0], (rsnap[1] as unknown[])[0])).toBe(true);
    const removal = raw.find((f) => Array.isArray(f[1]) && (f[1] as number[])[2] === 0);
    expect(sameShape(removal, example("update funding raw: RATE 0 = remove offer"))).toBe(true);
    const tsnap = example("snapshot funding [ID,MTS,AMOUNT,RATE,PERIOD]");
    expect(sameShape((trades[0]?.[1] as unknown[])[0], (tsnap[1] as unknown[])[0])).toBe(true);
    expect(sameShape(fte[0], example("fte"))).toBe(true);
    expect(sameShape(ticker[0], example("funding ticker (16 fields)"))).toBe(true);
    const ack = (channel: string): unknown =>
      s.frames.find((f) => (f as Record<string, unknown>)["channel"] === channel);
    expect(sameShape(ack("book"), example("subscribed (funding)"))).toBe(true);
    expect(sameShape(ack("trades"), example("subscribed trades (funding)"))).toBe(true);
    expect(sameShape(ack("ticker"), example("subscribed ticker (funding)"))).toBe(true);
  });

  it("refuses bad funding subscriptions like the live server", async () => {
    const s = await session(
      0,
      [
        { channel: "book", symbol: "fUSD", prec: "P9", len: "25" },
        { channel: "book", symbol: "fUSD", prec: "P0", len: "7" },
        { channel: "book", symbol: "fNOPE", prec: "P0", len: "25" },
        { channel: "candles", key: "trade:1m:fUSD:p31" },
        { channel: "candles", key: "trade:1m:fUSD:a30:p30:p2" },
        { channel: "candles", key: "trade:1x:fUSD:p30" },
        { channel: "ticker", symbol: "fUSD" },
        { channel: "ticker", symbol: "fUSD" },
      ],
      300,
    );
    const errors = s.frames
      .map((f) => f as Record<string, unknown>)
      .filter((e) => e["event"] === "error")
      .map((e) => [e["code"], e["msg"]]);
    expect(errors).toEqual([
      [10300, "precision: invalid"],
      [10300, "length: invalid"],
      [10300, "symbol: invalid"],
      [10300, "key: invalid"],
      [10300, "key: invalid"],
      [10300, "key: invalid"],
      [10301, "subscribe: dup"],
    ]);
  });

  it("answers the public REST funding routes", async () => {
    const get = async (path: string): Promise<{ status: number; body: unknown }> => {
      const r = await fetch(`http://${host}${path}`);
      return { status: r.status, body: (await r.json()) as unknown };
    };
    const all = (await get("/v2/tickers?symbols=ALL")).body as unknown[][];
    const symbols = all.map((r) => r[0]);
    expect(symbols).toEqual(expect.arrayContaining(["tBTCUSD", "fUSD", "fBTC", "fETH", "fUST"]));
    for (const r of all) expect(decodeTickersRow(r).ok).toBe(true);
    expect(all.find((r) => r[0] === "fUSD")).toHaveLength(17);
    const some = (await get("/v2/tickers?symbols=fBTC,tBTCUSD")).body as unknown[][];
    expect(some.map((r) => r[0]).sort()).toEqual(["fBTC", "tBTCUSD"]);
    expect(fundingTickerCodec.decode((await get("/v2/ticker/fUSD")).body).ok).toBe(true);
    const trades = (await get("/v2/trades/fUSD/hist?limit=5")).body as unknown[];
    expect(trades.length).toBeGreaterThan(0);
    expect(trades.length).toBeLessThanOrEqual(5);
    expect(publicFundingTradeCodec.decodeList(trades).ok).toBe(true);
    const book = (await get("/v2/book/fUSD/P0?len=25")).body as number[][];
    const b = new OrderBook({ kind: "funding", len: 25 });
    expect(b.applySnapshot(book)).toBe(true);
    expect(b.bids.size + b.asks.size).toBe(book.length);
    const raw = (await get("/v2/book/fUSD/R0?len=25")).body as number[][];
    const r = new OrderBook({ kind: "funding-raw", len: 25 });
    expect(r.applySnapshot(raw)).toBe(true);
    expect(raw.length).toBeGreaterThan(0);
    const candles = (await get("/v2/candles/trade:1h:fUSD:a30:p2:p30/hist?limit=10")).body;
    expect(candleCodec.decodeList(candles).ok).toBe(true);
    expect((candles as unknown[]).length).toBe(10);
    expect(candleCodec.decode((await get("/v2/candles/trade:1m:fUSD:p30/last")).body).ok).toBe(true);
    expect(await get("/v2/candles/trade:1m:fUSD:p31/hist")).toEqual({
      status: 400,
      body: ["error", 10020, "key: invalid"],
    });
    expect(await get("/v2/book/fUSD/P0?len=7")).toEqual({ status: 400, body: ["error", 10020, "len: invalid"] });
    expect((await get("/v2/ticker/fNOPE")).body).toEqual(["error", 10020, "symbol: invalid"]);
  });
});
