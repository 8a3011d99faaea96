/**
 * The API server over real HTTP and WebSocket: CORS for the app's origin only, and handlers that
 * throw — answered with the error shape, the process still serving.
 */
import { describe, expect, it } from "vitest";
import { openVenue } from "./exchange/venue.ts";
import { demoSession, wait } from "./test-support/session.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 11, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const user = venue.accounts.createUser("poor@example.com", "poor", "poor-password-1", Date.now(), true);
venue.balances.credit(user, "USD", 600, "Deposit");

const s = demoSession({
  exchange: venue.exchange,
  account: venue.gateway,
  login: { username: "poor", password: "poor-password-1" },
});

describe("CORS", () => {
  it("answers CORS for the app's origin only", async () => {
    const from = (origin: string, method = "GET"): Promise<Response> =>
      fetch(`http://${s.host}/v2/platform/status`, {
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
      const r = await s.rest("/v2/auth/w/order/submit", {
        type: "EXCHANGE LIMIT",
        symbol: SYMBOL,
        amount: "1",
        price: "1",
      });
      expect(r).toEqual({ status: 500, body: ["error", 10001, "internal error"] });
      const w = await s.socket();
      w.ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE LIMIT", symbol: SYMBOL, amount: "1", price: "1" }]));
      await wait(100);
      const n = w.frames.find((f) => f[1] === "n");
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
    expect((await fetch(`http://${s.host}/v2/platform/status`)).status).toBe(200);
  });
});
