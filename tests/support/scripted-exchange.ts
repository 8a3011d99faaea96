/**
 * A small scripted Bitfinex v2 WebSocket server on loopback, for testing the worker's connection
 * code against a real socket: welcome info, conf ack, subscribe/unsubscribe acks, a book snapshot
 * per subscription, and hooks to push frames, go silent or drop connections. On an authenticated
 * socket it answers the order inputs as the embedded exchange does: `on` (EXCHANGE LIMIT only; an
 * amount over 100 is refused for balance), `ou`, `oc` and `oc_multi` (one `oc-req` per order), each
 * with its `n` *-req notification first and then the order event.
 */
import { createHmac } from "node:crypto";
import { WebSocketServer, type WebSocket } from "ws";
import { messageText } from "../../server/ws-text.ts";

/** The test account: API key "key" with secret "secret", or token "good-token". */
export const TEST_API_KEY = "key";
export const TEST_API_SECRET = "secret";
export const TEST_TOKEN = "good-token";

export interface ScriptedExchange {
  readonly url: string;
  /** Every message received from clients, parsed. */
  readonly received: Record<string, unknown>[];
  /** Close codes and reasons of client-closed sockets. */
  readonly closes: { code: number; reason: string }[];
  connections: number;
  /** The snapshot sent for a book subscription (entries). */
  snapshot: number[][];
  /** Extra frames sent to every new connection right after the welcome. */
  greeting: unknown[];
  send(frame: unknown): void;
  dropAll(): void;
  close(): Promise<void>;
  /** Channel id of the latest book subscription. */
  lastChanId(): number;
}

export async function startScriptedExchange(): Promise<ScriptedExchange> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => wss.once("listening", () => resolve()));
  const address = wss.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const sockets = new Set<WebSocket>();
  let nextChan = 100;
  let lastChan = -1;
  let nextOrder = 5000;
  /** Open orders of the test account: id → ORDER record (docs/protocol.md#orders). */
  const orders = new Map<number, unknown[]>();
  const ex: ScriptedExchange = {
    url: `ws://127.0.0.1:${port}/ws/2`,
    received: [],
    closes: [],
    connections: 0,
    greeting: [],
    snapshot: [
      [100, 1, 2],
      [99, 2, 1],
      [101, 1, -3],
    ],
    send(frame) {
      const text = typeof frame === "string" ? frame : JSON.stringify(frame);
      for (const s of sockets) s.send(text);
    },
    dropAll() {
      for (const s of sockets) s.terminate();
    },
    close() {
      for (const s of sockets) s.terminate();
      return new Promise((resolve) => wss.close(() => resolve()));
    },
    lastChanId: () => lastChan,
  };
  wss.on("connection", (ws) => {
    ex.connections++;
    sockets.add(ws);
    ws.on("close", (code, reason) => {
      sockets.delete(ws);
      ex.closes.push({ code, reason: reason.toString() });
    });
    ws.send(JSON.stringify({ event: "info", version: 2, serverId: "test", platform: { status: 1 } }));
    for (const g of ex.greeting) ws.send(JSON.stringify(g));
    let authed = false;
    const account = (type: string, payload: unknown): void => ws.send(JSON.stringify([0, type, payload]));
    const notify = (type: string, data: unknown, status: string, text: string): void =>
      account("n", [Date.now(), type, null, null, data, null, status, text]);
    const cancel = (id: unknown): void => {
      const o = typeof id === "number" ? orders.get(id) : undefined;
      if (!o) return notify("oc-req", null, "ERROR", "Order not found.");
      notify("oc-req", o, "SUCCESS", `Submitted for cancellation; waiting for confirmation (ID: ${o[0] as number}).`);
      orders.delete(o[0] as number);
      o[13] = "CANCELED";
      account("oc", o);
    };
    ws.on("message", (data) => {
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(messageText(data)) as Record<string, unknown>;
      } catch {
        return;
      }
      ex.received.push(msg);
      if (Array.isArray(msg) && msg[0] === 0 && authed) {
        const p = (msg[3] ?? {}) as Record<string, unknown>;
        switch (msg[1]) {
          case "on": {
            const amount = Number(p["amount"]);
            if (p["type"] !== "EXCHANGE LIMIT") return notify("on-req", null, "ERROR", "Invalid order: type");
            if (Math.abs(amount) > 100)
              return notify("on-req", null, "ERROR", `Invalid order: not enough exchange balance for ${amount}`);
            const o: unknown[] = new Array(32).fill(null);
            Object.assign(o, { 0: nextOrder++, 2: p["cid"], 3: p["symbol"], 4: Date.now(), 5: Date.now() });
            Object.assign(o, {
              6: amount,
              7: amount,
              8: "EXCHANGE LIMIT",
              12: 0,
              13: "ACTIVE",
              16: Number(p["price"]),
            });
            orders.set(o[0] as number, o);
            notify("on-req", o, "SUCCESS", `Submitting exchange limit order for ${amount}.`);
            return account("on", o);
          }
          case "ou": {
            const o = orders.get(p["id"] as number);
            if (!o) return notify("ou-req", null, "ERROR", "Order not found.");
            if (p["price"] !== undefined) o[16] = Number(p["price"]);
            notify("ou-req", o, "SUCCESS", `Submitting update to order ${o[0] as number}.`);
            return account("ou", o);
          }
          case "oc":
            return cancel(p["id"]);
          case "oc_multi":
            if (p["all"] === 1) for (const id of [...orders.keys()]) cancel(id);
            else if (Array.isArray(p["id"])) for (const id of p["id"]) cancel(id);
            return;
          default:
            return;
        }
      }
      if (msg["event"] === "conf") ws.send(JSON.stringify({ event: "conf", status: "OK", flags: msg["flags"] }));
      if (msg["event"] === "subscribe") {
        const chanId = nextChan++;
        lastChan = chanId;
        const { event: _e, ...fields } = msg;
        ws.send(JSON.stringify({ event: "subscribed", chanId, ...fields }));
        if (msg["channel"] === "book") ws.send(JSON.stringify([chanId, ex.snapshot]));
        if (msg["channel"] === "trades") ws.send(JSON.stringify([chanId, [[1, 1000, 0.5, 100]]]));
        if (msg["channel"] === "ticker") ws.send(JSON.stringify([chanId, [1, 2, 3, 4, 5, 0.01, 7, 8, 9, 10]]));
        if (msg["channel"] === "candles") {
          // Newest first, as the exchange sends candle snapshots.
          ws.send(
            JSON.stringify([
              chanId,
              [
                [120000, 11, 12, 13, 10, 5],
                [60000, 10, 11, 12, 9, 4],
              ],
            ]),
          );
        }
        if (msg["channel"] === "status") ws.send(JSON.stringify([chanId, [1790133734000, null, 86710.5, 86670.5]]));
      }
      if (msg["event"] === "auth") {
        const payload = typeof msg["authPayload"] === "string" ? msg["authPayload"] : "";
        const sigOk =
          msg["apiKey"] === TEST_API_KEY &&
          payload.startsWith("AUTH") &&
          msg["authSig"] === createHmac("sha384", TEST_API_SECRET).update(payload).digest("hex");
        if (sigOk || msg["token"] === TEST_TOKEN) {
          authed = true;
          ws.send(
            JSON.stringify({
              event: "auth",
              status: "OK",
              chanId: 0,
              userId: 4242,
              caps: { orders: { read: 1, write: 1 } },
            }),
          );
          ws.send(JSON.stringify([0, "ps", []]));
          ws.send(
            JSON.stringify([
              0,
              "ws",
              [
                ["exchange", "USD", 1000, 0, 1000, null, null],
                ["exchange", "BTC", 0.5, 0, null, null, null],
              ],
            ]),
          );
          ws.send(JSON.stringify([0, "os", [...orders.values()]]));
        } else {
          ws.send(JSON.stringify({ event: "auth", status: "FAILED", chanId: 0, code: 10100, msg: "apikey: invalid" }));
        }
      }
      if (msg["event"] === "unsubscribe")
        ws.send(JSON.stringify({ event: "unsubscribed", status: "OK", chanId: msg["chanId"] }));
    });
  });
  return ex;
}
