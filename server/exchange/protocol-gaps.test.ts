/**
 * Where PROTOCOL.md and this server once differed, over real HTTP and WebSocket: `w/order/cancel/multi`
 * answers with the cancelled orders; an order self-trade prevention cancels keeps its leftover
 * amount; `pub:info:pair:fee:ovr` is what settlement charges; the currency lists (UST listed, USD
 * no stablecoin); raw books only at len 1/25/100, same-price orders by ascending id; `freq: "F1"`
 * books batched (PROTOCOL.md 2.1).
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  authTradeCodec,
  classifyFrame,
  CONF_FLAGS,
  decodeFeeEntry,
  newFrameInfo,
  notificationCodec,
  OrderBook,
  orderCodec,
  type Order,
} from "../../src/protocol/index.ts";
import { demoSession, wait } from "./test-session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const TEST = "tTESTBTC:TESTUSD";
const venue = openVenue({
  dbPath: ":memory:",
  seed: 31,
  markets: [
    { symbol: SYMBOL, start: 30_000 },
    { symbol: TEST, start: 30_000 },
  ],
});
const s = demoSession({ exchange: venue.exchange, account: venue.gateway, bookBatchMs: 400 });
const engine = (symbol = SYMBOL) => venue.exchange.markets.get(symbol)?.engine;
const p5 = (x: number): number => Number(x.toPrecision(5));

async function submit(order: Record<string, unknown>): Promise<Order> {
  const r = await s.rest("/v2/auth/w/order/submit", { symbol: SYMBOL, ...order });
  const n = notificationCodec.decode(r.body);
  const o = orderCodec.decode(n.ok ? (n.value.data as unknown[])[0] : null);
  if (!o.ok) throw new Error(`no order in ${JSON.stringify(r.body)}`);
  return o.value;
}

const conf = async (key: string): Promise<unknown> =>
  ((await (await fetch(`http://${s.host}/v2/conf/${key}`)).json()) as unknown[])[0];

describe("orders", () => {
  it("w/order/cancel/multi answers with the orders it cancelled (by id, by cid and day, all)", async () => {
    const far = p5((engine()?.bestBid() as number) * 0.5);
    const a = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: far });
    const b = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: far, cid: 777 });
    const c = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: far });
    const multi = async (body: unknown): Promise<Order[]> => {
      const r = await s.rest("/v2/auth/w/order/cancel/multi", body);
      expect(r.status).toBe(200);
      const n = notificationCodec.decode(r.body);
      expect(n.ok && n.value.type).toBe("oc_multi-req");
      const list = orderCodec.decodeList(n.ok ? n.value.data : null);
      if (!list.ok) throw new Error("orders");
      return list.value;
    };
    const byId = await multi({ id: [a.id, 999_999] });
    expect(byId.map((o) => [o.id, o.status])).toEqual([[a.id, "CANCELED"]]);
    const day = new Date(b.mts_create).toISOString().slice(0, 10);
    expect((await multi({ cid: [[777, "2001-01-01"]] })).length).toBe(0);
    expect((await multi({ cid: [[777, day]] })).map((o) => o.id)).toEqual([b.id]);
    const all = await multi({ all: 1 });
    expect(all.map((o) => [o.id, o.status, o.amount])).toEqual([[c.id, "CANCELED", 0.01]]);
    expect((await s.rest("/v2/auth/r/orders")).body).toEqual([]);
  });

  it("an order self-trade prevention cancels keeps its leftover amount in oc", async () => {
    const { ws, frames } = await s.socket();
    const bid = engine()?.bestBid() as number;
    const ask = engine()?.bestAsk() as number;
    const mid = p5(bid + (ask - bid) / 2) > bid ? p5(bid + (ask - bid) / 2) : ask;
    const sell = await submit({ type: "EXCHANGE LIMIT", amount: "-0.3", price: mid });
    expect(engine()?.bestAsk()).toBe(mid);
    // The own buy reaches the own sell first: that sell is cancelled, not traded.
    const buy = await submit({ type: "EXCHANGE LIMIT", amount: "0.1", price: mid });
    await wait(100);
    const oc = frames.find((f) => f[1] === "oc" && (f[2] as unknown[])[0] === sell.id);
    const closed = orderCodec.decode(oc?.[2]);
    expect(closed.ok && closed.value).toMatchObject({
      status: "CANCELED was: self-trade prevention",
      amount: -0.3,
      original_amount: -0.3,
    });
    const hist = (await s.rest("/v2/auth/r/orders/hist")).body as unknown[][];
    expect(hist.find((o) => o[0] === sell.id)?.[6]).toBe(-0.3);
    expect((await s.rest("/v2/auth/r/trades/hist")).body).toEqual([]);
    await s.rest("/v2/auth/w/order/cancel", { id: buy.id });
    ws.close();
  });

  it("pub:info:pair:fee:ovr is exactly what settlement charges", async () => {
    const ovr = (await conf("pub:info:pair:fee:ovr")) as unknown[];
    const entries = ovr.map((e) => decodeFeeEntry(e));
    expect(entries.every((e) => e.ok)).toBe(true);
    const test = entries.find((e) => e.ok && e.value.pair === TEST.slice(1));
    expect(test?.ok && test.value).toEqual({ pair: "TESTBTC:TESTUSD", taker_fee: 0, maker_fee: 0 });
    expect(entries.some((e) => e.ok && e.value.pair === "BTCUSD")).toBe(false);
    // A taker buy on the TEST pair pays its override's rate: nothing.
    const ask = engine(TEST)?.bestAsk() as number;
    const o = await submit({ symbol: TEST, type: "EXCHANGE IOC", amount: "0.01", price: p5(ask * 1.01) });
    expect(o.status).toMatch(/^EXECUTED/);
    const trades = ((await s.rest(`/v2/auth/r/trades/${TEST}/hist`)).body as unknown[]).map((t) =>
      authTradeCodec.decode(t),
    );
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) expect(t.ok && t.value.fee).toBe(0);
    // And BTCUSD, with no override, pays the standard taker rate.
    const btcAsk = engine()?.bestAsk() as number;
    await submit({ type: "EXCHANGE IOC", amount: "0.01", price: p5(btcAsk * 1.01) });
    const btc = ((await s.rest(`/v2/auth/r/trades/${SYMBOL}/hist`)).body as unknown[]).map((t) =>
      authTradeCodec.decode(t),
    );
    for (const t of btc) if (t.ok) expect(t.value.fee).toBeCloseTo(-Math.abs(t.value.exec_amount) * 0.002, 8);
  });
});

describe("conf lists", () => {
  it("list UST (which pub:map:currency:sym maps) as a currency and the one stablecoin; USD is none", async () => {
    const map = (await conf("pub:map:currency:sym")) as [string, string][];
    const currencies = (await conf("pub:list:currency")) as string[];
    for (const [code] of map) expect(currencies).toContain(code);
    expect(currencies).toContain("UST");
    const stable = (await conf("pub:list:currency:stable")) as string[];
    expect(stable).toEqual(["UST"]);
  });
});

describe("raw books", () => {
  async function subscribe(len: string): Promise<Record<string, unknown>[]> {
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    const frames: Record<string, unknown>[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(String(d)) as Record<string, unknown>));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "subscribe", channel: "book", symbol: SYMBOL, prec: "R0", len }));
    await wait(100);
    ws.close();
    return frames;
  }

  it("come in 1, 25 and 100 orders; other lengths are refused (10300 length: invalid)", async () => {
    for (const len of ["1", "25", "100"])
      expect((await subscribe(len)).some((f) => f["event"] === "subscribed")).toBe(true);
    for (const len of ["250", "50"])
      expect((await subscribe(len)).find((f) => f["event"] === "error")).toMatchObject({
        code: 10300,
        msg: "length: invalid",
        len,
      });
    expect((await fetch(`http://${s.host}/v2/book/${SYMBOL}/R0?len=250`)).status).toBe(400);
  });

  it("list same-price orders by ascending id, though the later one has the lower id", async () => {
    const price = p5((engine()?.bestBid() as number) * 0.999);
    // A simulator order (ids from 1e12) first, then an account order (ids from storage) at one price.
    venue.exchange.place(SYMBOL, -1, "buy", "LIMIT", price, 0.5);
    const mine = await submit({ type: "EXCHANGE LIMIT", amount: "0.2", price });
    const frames = (await subscribe("100")) as unknown as unknown[][];
    const snapshot = frames.find((f) => Array.isArray(f) && Array.isArray(f[1]))?.[1] as number[][];
    const tie = snapshot.filter((e) => e[1] === price).map((e) => e[0] as number);
    expect(tie.length).toBeGreaterThanOrEqual(2);
    expect(tie[0]).toBe(mine.id);
    expect(tie).toEqual([...tie].sort((a, b) => a - b));
    const rest = (await (await fetch(`http://${s.host}/v2/book/${SYMBOL}/R0?len=100`)).json()) as number[][];
    expect(rest.filter((e) => e[1] === price).map((e) => e[0])).toEqual(tie);
    await s.rest("/v2/auth/w/order/cancel", { id: mine.id });
  });
});

describe("F1 books", () => {
  it("hold changes to the batch tick and send each price's (or order's) last state, checksums matching", async () => {
    const flags = CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.BULK_UPDATES;
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(String(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "conf", flags }));
    for (const [prec, freq] of [
      ["P0", "F1"],
      ["R0", "F1"],
      ["P1", "F0"],
    ])
      ws.send(JSON.stringify({ event: "subscribe", channel: "book", symbol: SYMBOL, prec, freq, len: "25" }));
    await wait(100);
    const started = Date.now();
    let batches = 0;
    // Many batches in a short time: an F0 book gets every one, an F1 book one batch per tick.
    for (let i = 0; i < 40; i++) {
      venue.exchange.simulator.step();
      venue.exchange.place(SYMBOL, 0, i % 2 ? "buy" : "sell", "MARKET", Number.NaN, 0.2);
      batches++;
      if (i % 10 === 9) await wait(20);
    }
    await wait(900);
    const elapsed = Date.now() - started;
    ws.close();
    const chans = new Map<number, string>();
    for (const f of frames) {
      const e = f as Record<string, unknown>;
      if (e["event"] === "subscribed") chans.set(e["chanId"] as number, `${String(e["prec"])}/${String(e["freq"])}`);
    }
    const books = new Map<number, OrderBook>();
    const cs = new Map<string, number>();
    const info = newFrameInfo();
    for (const f of frames) {
      const kind = classifyFrame(f, flags, info);
      const name = chans.get(info.chanId);
      if (!name) continue;
      let book = books.get(info.chanId);
      if (kind === "data") {
        if (!book) {
          book = new OrderBook({ kind: name.startsWith("R0") ? "raw" : "price", len: 25 });
          books.set(info.chanId, book);
          expect(book.applySnapshot(info.payload)).toBe(true);
        } else {
          const payload = info.payload as unknown[];
          for (const e of Array.isArray(payload[0]) ? payload : [payload]) expect(book.applyEntry(e)).toBe(true);
        }
      } else if (kind === "checksum" && book) {
        expect(book.checksum(), name).toBe(info.checksum);
        cs.set(name, (cs.get(name) ?? 0) + 1);
      }
    }
    const ticks = Math.ceil(elapsed / 400) + 1;
    expect(cs.get("P1/F0") ?? 0).toBeGreaterThan(ticks);
    for (const name of ["P0/F1", "R0/F1"]) {
      expect(cs.get(name) ?? 0, name).toBeGreaterThan(0);
      expect(cs.get(name) ?? 0, name).toBeLessThanOrEqual(ticks);
    }
    expect(batches).toBe(40);
  });
});
