/**
 * What one client can cost the exchange, over real sockets: sockets per address, messages per
 * second, an echoed field's size, and a client that never reads.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { ApiServer } from "./api-server.ts";
import { listenApi } from "./test-support/api.ts";
import { openVenue } from "./exchange/venue.ts";
import { CLOSE_POLICY } from "./socket-guard.ts";
import { messageText } from "./ws-text.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 9, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let api: ApiServer;
let host = "";

beforeAll(async () => {
  const started = await listenApi({
    exchange: venue.exchange,
    socketLimits: { perAddress: 5, messagesPerSecond: 20, maxBufferedBytes: 256 * 1024 },
  });
  api = started.api;
  host = started.host;
});
afterAll(() => api.close());

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Opens a socket; resolves with it, or with the HTTP status that refused the upgrade. */
function open(): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://${host}/ws/2`);
    ws.once("open", () => resolve(ws));
    ws.once("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.once("error", () => resolve(0));
  });
}

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out: ${what}`);
    await wait(10);
  }
}

describe("socket limits", () => {
  it("refuses a sixth socket from one address with 429, and takes one again once a socket closes", async () => {
    const five = await Promise.all([open(), open(), open(), open(), open()]);
    expect(five.every((s) => s instanceof WebSocket)).toBe(true);
    expect(await open()).toBe(429);
    expect(api.guard.openFrom("127.0.0.1")).toBe(5);
    (five[0] as WebSocket).close();
    await until(() => api.guard.openFrom("127.0.0.1") === 4, "a socket counted out");
    const again = await open();
    expect(again).toBeInstanceOf(WebSocket);
    for (const s of [...five.slice(1), again]) (s as WebSocket).close();
    await until(() => api.guard.openFrom("127.0.0.1") === 0, "every socket counted out");
  });

  it("closes a socket that sends faster than its message rate, with the rate-limit error first", async () => {
    const ws = (await open()) as WebSocket;
    const events: Record<string, unknown>[] = [];
    let code = 0;
    ws.on("message", (d) => events.push(JSON.parse(messageText(d)) as Record<string, unknown>));
    ws.on("close", (c) => (code = c));
    for (let i = 0; i < 200; i++) ws.send(JSON.stringify({ event: "ping", cid: i }));
    await until(() => code !== 0, "the flood closed");
    expect(code).toBe(CLOSE_POLICY);
    expect(events).toContainEqual({ event: "error", code: 11010, msg: "ratelimit: error" });
    // Up to the burst (twice the rate) was answered; the rest was not.
    const pongs = events.filter((e) => e["event"] === "pong").length;
    expect(pongs).toBeGreaterThan(0);
    expect(pongs).toBeLessThanOrEqual(41);
  });

  it("echoes only a numeric cid, and refuses a message larger than the payload limit", async () => {
    const ws = (await open()) as WebSocket;
    const events: Record<string, unknown>[] = [];
    let code = 0;
    ws.on("message", (d) => events.push(JSON.parse(messageText(d)) as Record<string, unknown>));
    ws.on("close", (c) => (code = c));
    ws.send(JSON.stringify({ event: "ping", cid: "x".repeat(30_000) }));
    ws.send(JSON.stringify({ event: "ping", cid: 7 }));
    await until(() => events.filter((e) => e["event"] === "pong").length === 2, "two pongs");
    const pongs = events.filter((e) => e["event"] === "pong");
    expect(pongs[0]).not.toHaveProperty("cid");
    expect(pongs[1]).toMatchObject({ cid: 7 });
    ws.send(JSON.stringify({ event: "ping", cid: 1, pad: "x".repeat(100_000) }));
    await until(() => code !== 0, "the oversized message closed the socket");
    expect(code).toBe(1009);
  });

  it("drops a client that stops reading once its queue passes the limit", async () => {
    // A host of its own whose message rate does not stop the client first: only the queue can.
    const slow = await listenApi({
      exchange: venue.exchange,
      socketLimits: { messagesPerSecond: 1e6, maxBufferedBytes: 256 * 1024 },
    });
    const ws = new WebSocket(`ws://${slow.host}/ws/2`);
    await new Promise((r) => ws.once("open", r));
    ws.pause(); // reads nothing more: the kernel's buffers fill, then the server's queue
    const sub = { event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "P0", len: "250" };
    // Each subscribe answers with a full book snapshot (~10 KB) the client never reads.
    const t0 = Date.now();
    while (slow.api.guard.openFrom("127.0.0.1") > 0 && Date.now() - t0 < 20_000) {
      for (let i = 0; i < 50; i++) {
        ws.send(JSON.stringify(sub));
        ws.send(JSON.stringify({ event: "unsubscribe", chanId: i }));
      }
      await wait(5);
    }
    expect(slow.api.guard.openFrom("127.0.0.1")).toBe(0);
    ws.terminate();
    await slow.api.close();
  }, 30_000);
});
