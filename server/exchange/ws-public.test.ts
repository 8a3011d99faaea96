/**
 * The public socket over a real WebSocket: the 30-channel limit (10305), bulk book frames that
 * src/protocol's book applies, raw books only at len 1/25/100 with same-price orders by ascending
 * id, and `freq: "F1"` books held to the batch tick (docs/protocol.md#aggregated-books).
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { classifyFrame, CONF_FLAGS, newFrameInfo, OrderBook } from "../../src/protocol/index.ts";
import { demoSession, orderSubmitter, p5, wait } from "../test-support/session.ts";
import { messageText } from "../ws-text.ts";
import { openVenue } from "./venue.ts";

describe("channels and bulk frames", () => {
  const SYMBOL = "tBTCUSD";
  const venue = openVenue({ dbPath: ":memory:", seed: 21, markets: [{ symbol: SYMBOL, start: 30_000 }] });
  const s = demoSession({
    exchange: venue.exchange,
    account: venue.gateway,
    limits: { public: 1000, auth: 1000, login: 50 },
  });

  /** A public socket with conf flags; frames collected, the events apart. */
  async function socket(flags: number): Promise<{ ws: WebSocket; frames: unknown[]; send: (m: unknown) => void }> {
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    const send = (m: unknown): void => ws.send(JSON.stringify(m));
    if (flags) send({ event: "conf", flags });
    return { ws, frames, send };
  }
  it("refuses the 31st channel with 10305 subscribe: limit", async () => {
    const c = await socket(0);
    const subs: Record<string, unknown>[] = [];
    for (const prec of ["P0", "P1", "P2", "P3", "P4"])
      for (const len of ["1", "25", "100", "250"]) subs.push({ channel: "book", symbol: SYMBOL, prec, len });
    subs.push({ channel: "trades", symbol: SYMBOL }, { channel: "ticker", symbol: SYMBOL });
    for (const tf of ["1m", "5m", "15m", "30m", "1h", "3h", "6h", "12h", "1D", "1W", "14D", "1M"])
      subs.push({ channel: "candles", key: `trade:${tf}:${SYMBOL}` });
    for (const sub of subs) c.send({ event: "subscribe", ...sub });
    await wait(300);
    const events = c.frames.filter((f) => !Array.isArray(f)) as Record<string, unknown>[];
    expect(events.filter((e) => e["event"] === "subscribed")).toHaveLength(30);
    const refused = events.filter((e) => e["event"] === "error");
    expect(refused).toHaveLength(subs.length - 30);
    expect(refused[0]).toMatchObject({ code: 10305, msg: "subscribe: limit" });
    c.ws.close();
  });

  it("with BULK_UPDATES sends several book changes as one frame that src/protocol's book applies", async () => {
    const c = await socket(CONF_FLAGS.BULK_UPDATES | CONF_FLAGS.OB_CHECKSUM);
    c.send({ event: "subscribe", channel: "book", symbol: SYMBOL, prec: "P0", len: "25" });
    await wait(100);
    // One taker through several ask levels: one batch, several level changes.
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 3);
    await wait(100);
    const book = new OrderBook({ kind: "price", len: 25 });
    const info = newFrameInfo();
    let bulkFrames = 0;
    let checked = 0;
    let snapshot = true;
    for (const f of c.frames) {
      const kind = classifyFrame(f, CONF_FLAGS.BULK_UPDATES | CONF_FLAGS.OB_CHECKSUM, info);
      if (kind === "checksum") {
        expect(book.checksum()).toBe(info.checksum);
        checked++;
      } else if (kind === "data") {
        const entries = info.payload as unknown[];
        if (snapshot) {
          expect(book.applySnapshot(entries)).toBe(true);
          snapshot = false;
        } else if (Array.isArray(entries[0])) {
          bulkFrames++;
          expect(entries.length).toBeGreaterThan(1);
          for (const e of entries) expect(book.applyEntry(e)).toBe(true);
        } else expect(book.applyEntry(entries)).toBe(true);
      }
    }
    expect(bulkFrames).toBeGreaterThan(0);
    expect(checked).toBeGreaterThan(1);
    expect(book.malformed).toBe(0);
    expect(book.unknownDeletes).toBe(0);
    c.ws.close();
  });
});

describe("raw books and F1 books", () => {
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

  const submit = orderSubmitter(s, SYMBOL);

  describe("raw books", () => {
    async function subscribe(len: string): Promise<Record<string, unknown>[]> {
      const ws = new WebSocket(`ws://${s.host}/ws/2`);
      const frames: Record<string, unknown>[] = [];
      ws.on("message", (d) => frames.push(JSON.parse(messageText(d)) as Record<string, unknown>));
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
      ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
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
});
