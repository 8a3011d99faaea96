/**
 * The exchange never dies of one order or one request: a stop buy far below the market that the
 * account cannot pay for when it fires (the engine once matched it in memory, SQLite rolled back
 * and the throw inside a microtask killed the process), and handlers that throw — answered with
 * the error shape, the process still serving. Over real HTTP and WebSocket.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { notificationCodec, orderCodec, walletCodec } from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { listenApi } from "./test-api.ts";
import { wait } from "./test-session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 11, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const user = venue.accounts.createUser("poor@example.com", "poor", "poor-password-1", Date.now(), true);
venue.trading.credit(user, "USD", 600, "Deposit");

let api: ApiServer;
let host = "";
let token = "";
beforeAll(async () => {
  ({ api, host } = await listenApi({ exchange: venue.exchange, account: venue.gateway }));
  const res = await fetch(`http://${host}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: "poor", password: "poor-password-1" }),
  });
  [token] = (await res.json()) as [string];
});
afterAll(() => api.close());

async function rest(path: string, body: unknown = {}): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`http://${host}${path}`, {
    method: "POST",
    headers: { "bfx-token": token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as unknown };
}

async function usd(): Promise<{ balance: number; available: number | null }> {
  const { body } = await rest("/v2/auth/r/wallets");
  const list = walletCodec.decodeList(body);
  if (!list.ok) throw new Error("wallets");
  const w = list.value.find((x) => x.currency === "USD");
  return { balance: w?.balance ?? 0, available: w?.available ?? null };
}

/** A socket authenticated with the token, subscribed to the P0 book; keeps the book as the feed says. */
async function watcher(): Promise<{ ws: WebSocket; account: unknown[][]; book: Map<number, number> }> {
  const ws = new WebSocket(`ws://${host}/ws/2`);
  const account: unknown[][] = [];
  const book = new Map<number, number>();
  let chan = -1;
  ws.on("message", (d) => {
    const f = JSON.parse(String(d)) as unknown;
    if (!Array.isArray(f)) {
      const ev = f as Record<string, unknown>;
      if (ev["event"] === "subscribed") chan = ev["chanId"] as number;
      return;
    }
    if (f[0] === 0) account.push(f);
    if (f[0] !== chan || f[1] === "hb") return;
    const entries = (Array.isArray(f[1]) && Array.isArray(f[1][0]) ? f[1] : [f[1]]) as number[][];
    for (const [price, count, amount] of entries) {
      if (count === 0) book.delete(price as number);
      else book.set(price as number, amount as number);
    }
  });
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", token }));
  ws.send(JSON.stringify({ event: "subscribe", channel: "book", symbol: SYMBOL, prec: "P0", len: "25" }));
  await wait(150);
  return { ws, account, book };
}

/** The engine's top 25 visible levels per side, as the P0 feed should show them. */
function engineBook(): Map<number, number> {
  const engine = venue.exchange.markets.get(SYMBOL)?.engine;
  const out = new Map<number, number>();
  for (const side of [engine?.bids, engine?.asks]) {
    const sum = new Map<number, number>();
    for (const o of engine?.resting() ?? [])
      if (!o.hidden && (o.side === "buy") === (side === engine?.bids))
        sum.set(o.price, (sum.get(o.price) ?? 0) + (o.side === "buy" ? o.remaining : -o.remaining));
    for (const p of (side?.prices ?? []).slice(0, 25)) {
      const a = sum.get(p);
      if (a !== undefined) out.set(p, Number(a.toFixed(8)));
    }
  }
  return out;
}

describe("a stop the account cannot pay for when it fires", () => {
  it("is cancelled unfilled with a clear status; balances, engine and feed stay consistent", async () => {
    const w = await watcher();
    const before = await usd();
    expect(before).toEqual({ balance: 600, available: 600 });
    // Reserves 0.5 × 1000 × 1.05 = 525 of the 600: accepted.
    const placed = await rest("/v2/auth/w/order/submit", {
      type: "EXCHANGE STOP",
      symbol: SYMBOL,
      amount: "0.5",
      price: "1000",
    });
    expect(placed.status).toBe(200);
    const id = ((placed.body as unknown[])[4] as unknown[][])[0]?.[0] as number;
    expect((await usd()).available).toBe(75);
    // One simulator trade at ~30 000 crosses the trigger: the stop fires as a market buy of
    // 0.5 BTC (~15 000 USD) the account cannot pay.
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.01);
    await wait(150);
    expect(await usd()).toEqual({ balance: 600, available: 600 });
    expect((await rest("/v2/auth/r/orders")).body).toEqual([]);
    const hist = (await rest("/v2/auth/r/orders/hist")).body as unknown[];
    const closed = orderCodec.decode(hist.find((o) => (o as unknown[])[0] === id));
    expect(closed.ok && closed.value).toMatchObject({ status: "INSUFFICIENT BALANCE", amount: 0.5 });
    // The socket was told: the order closed (oc) and an error notification says why.
    expect(w.account.some((f) => f[1] === "oc" && (f[2] as unknown[])[0] === id)).toBe(true);
    const note = w.account
      .filter((f) => f[1] === "n")
      .map((f) => notificationCodec.decode(f[2]))
      .find((n) => n.ok && n.value.status === "ERROR");
    expect(note?.ok && note.value.message).toMatch(/not enough exchange balance/);
    // No trade was booked for the account, and no wallet ever went negative.
    expect((await rest("/v2/auth/r/trades/hist")).body).toEqual([]);
    const negative = venue.db.prepare("SELECT COUNT(*) AS n FROM wallets WHERE balance < 0 OR reserved < 0").get() as {
      n: number;
    };
    expect(negative.n).toBe(0);
    // The book the feed shows is the engine's.
    expect(new Map([...w.book].sort((a, b) => a[0] - b[0]))).toEqual(
      new Map([...engineBook()].sort((a, b) => a[0] - b[0])),
    );
    w.ws.close();
  });

  it("a stop the account can pay for still fires and fills", async () => {
    venue.trading.credit(user, "USD", 20_000, "Deposit");
    const placed = await rest("/v2/auth/w/order/submit", {
      type: "EXCHANGE STOP",
      symbol: SYMBOL,
      amount: "0.1",
      price: "1000",
    });
    expect(placed.status).toBe(200);
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.01);
    await wait(100);
    const trades = (await rest("/v2/auth/r/trades/hist")).body as unknown[][];
    expect(trades.reduce((s, t) => s + (t[4] as number), 0)).toBeCloseTo(0.1, 8);
    const w = await usd();
    expect(w.balance).toBeLessThan(20_600);
    expect(w.available).toBe(w.balance);
  });
});

describe("handlers that throw", () => {
  it("answer with the error shape and the server keeps serving", async () => {
    const trading = venue.gateway.trading;
    const place = trading.place.bind(trading);
    trading.place = () => {
      throw new Error("boom");
    };
    try {
      const r = await rest("/v2/auth/w/order/submit", {
        type: "EXCHANGE LIMIT",
        symbol: SYMBOL,
        amount: "1",
        price: "1",
      });
      expect(r).toEqual({ status: 500, body: ["error", 10001, "internal error"] });
      const w = await watcher();
      w.ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE LIMIT", symbol: SYMBOL, amount: "1", price: "1" }]));
      await wait(100);
      const n = w.account.find((f) => f[1] === "n");
      expect(n?.[2]).toEqual([expect.any(Number), "on-req", null, null, null, null, "ERROR", "internal error"]);
      w.ws.close();
    } finally {
      trading.place = place;
    }
    // A batch listener that throws (settlement, in the incident) does not keep the batch from the
    // others (the sockets must send its diff); the error reaches the caller, whose transaction
    // rolls back or whose timer logs it.
    let seen = 0;
    const off1 = venue.exchange.onBatch(() => {
      throw new Error("listener boom");
    });
    const off2 = venue.exchange.onBatch(() => void seen++);
    expect(() => venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.001)).toThrow("listener boom");
    off1();
    off2();
    expect(seen).toBe(1);
    expect((await fetch(`http://${host}/v2/platform/status`)).status).toBe(200);
  });
});
