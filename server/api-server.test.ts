/**
 * The API server over real HTTP and WebSocket: CORS for the app's origin only, and handlers that
 * throw — answered with the error shape, the process still serving.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ApiServer } from "./api-server.ts";
import { openVenue } from "./exchange/venue.ts";
import { listenApi } from "./test-support/api.ts";
import { wait } from "./test-support/session.ts";
import { messageText } from "./ws-text.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 11, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const user = venue.accounts.createUser("poor@example.com", "poor", "poor-password-1", Date.now(), true);
venue.balances.credit(user, "USD", 600, "Deposit");

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

/** A socket authenticated with the token, subscribed to the P0 book; keeps the book as the feed says. */
async function watcher(): Promise<{ ws: WebSocket; account: unknown[][]; book: Map<number, number> }> {
  const ws = new WebSocket(`ws://${host}/ws/2`);
  const account: unknown[][] = [];
  const book = new Map<number, number>();
  let chan = -1;
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as unknown;
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

describe("CORS", () => {
  it("answers CORS for the app's origin only", async () => {
    const from = (origin: string, method = "GET"): Promise<Response> =>
      fetch(`http://${host}/v2/platform/status`, {
        method,
        headers: { origin, "access-control-request-method": "POST" },
      });
    const app = "http://127.0.0.1:1";
    expect((await from(app)).headers.get("access-control-allow-origin")).toBe(app);
    expect((await from(app, "OPTIONS")).status).toBe(204);
    const other = await from("https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect((await from("https://evil.example", "OPTIONS")).status).toBe(403);
  });
});

describe("handlers that throw", () => {
  it("answer with the error shape and the server keeps serving", async () => {
    const trading = venue.orders;
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
