/**
 * Accounts over the wire: login over REST for a token, then the worker's own account core over the
 * authenticated socket — snapshots, an order placed with `on` and cancelled with `oc`, and API-key
 * auth with good and bad signatures and a replayed nonce.
 */
import { webcrypto } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CONF_FLAGS } from "../../src/protocol/index.ts";
import { globalScheduler } from "../../tests/support/timers.ts";
import {
  AccountCore,
  authMessage,
  Connection,
  readAuthReply,
  type HmacCrypto,
  type SocketLike,
} from "../../src/workers/core/index.ts";
import { listenApi } from "../test-support/api.ts";
import type { ApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

let api: ApiServer;
let base = "";
const { exchange, accounts, orders, gateway } = openVenue({
  dbPath: ":memory:",
  seed: 11,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});

beforeAll(async () => {
  const started = await listenApi({ exchange, account: gateway });
  api = started.api;
  base = `${started.host}`;
});
afterAll(() => api.close());

async function until(check: () => boolean, what: string): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > 4000) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("accounts over the wire", () => {
  it("logs in for a token, reconciles the account and trades over the socket", async () => {
    const bad = await fetch(`http://${base}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: "demo", password: "wrong" }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(["error", 10100, "login: invalid"]);
    const res = await fetch(`http://${base}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const [token] = (await res.json()) as [string];
    expect(typeof token).toBe("string");

    const t = globalScheduler();
    const account = new AccountCore();
    let auth: ReturnType<typeof readAuthReply> | null = null;
    const conn: Connection = new Connection({
      url: `ws://${base}/ws/2`,
      createSocket: (u) => new WebSocket(u) as unknown as SocketLike,
      timers: t,
      idleMs: Number.POSITIVE_INFINITY,
      // Sequence numbers on: public frames and account frames share the socket's public counter,
      // and the account's frames carry their own as well; neither may show a gap.
      flags: CONF_FLAGS.SEQ_ALL | CONF_FLAGS.OB_CHECKSUM,
      onOpened: () => void conn.send({ event: "auth", token }),
      onAuth: (ev) => (auth = readAuthReply(ev)),
      onAccount: (type, payload) => account.apply(type, payload),
    });
    conn.core.subscribe({ channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" });
    conn.start();
    await until(() => account.wallets.size > 0, "wallet snapshot");
    expect(auth).toMatchObject({ ok: true });
    expect(account.wallets.get("exchange:USD")?.available).toBe(100_000);

    const bid = exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const price = Number((bid * 0.95).toPrecision(5));
    conn.send([
      0,
      "on",
      null,
      { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.25", price: String(price), cid: 77 },
    ]);
    await until(() => account.orders.size === 1, "order on");
    const order = [...account.orders.values()][0];
    expect(order).toMatchObject({ client_id: 77, amount: 0.25, status: "ACTIVE", type_value: "LIMIT" });
    await until(() => (account.wallets.get("exchange:USD")?.available ?? 0) < 100_000, "reservation");
    expect(account.notifications[0]).toMatchObject({ type: "on-req", level: "success" });

    conn.send([0, "oc", null, { id: order?.id }]);
    await until(() => account.orders.size === 0, "order oc");
    expect(account.history.get("tBTCUSD")?.[0]?.status).toBe("CANCELED");
    await until(() => account.wallets.get("exchange:USD")?.available === 100_000, "release");
    // Book changes after the account's frames: their sequence numbers must follow on.
    for (let i = 0; i < 10; i++) exchange.simulator.step();
    await until(() => conn.core.stats.updates > 0, "book updates");
    expect(conn.core.stats).toMatchObject({ seqGaps: 0, authSeqGaps: 0, resyncs: 0, checksumsFailed: 0 });
    conn.stop();
    t.dispose();
  });

  it("authenticates API keys by signature, refusing bad signatures and replayed nonces", async () => {
    const crypto = webcrypto.subtle as unknown as HmacCrypto;
    const replies: Record<string, unknown>[] = [];
    const ws = new WebSocket(`ws://${base}/ws/2`);
    ws.on("message", (d) => {
      const m = JSON.parse(messageText(d)) as Record<string, unknown>;
      if (m["event"] === "auth") replies.push(m);
    });
    await new Promise((r) => ws.once("open", r));
    const nonce = Date.now() * 1000;
    ws.send(JSON.stringify(await authMessage({ kind: "apiKey", key: DEMO.apiKey, secret: "wrong" }, nonce, crypto)));
    ws.send(
      JSON.stringify(await authMessage({ kind: "apiKey", key: DEMO.apiKey, secret: DEMO.apiSecret }, nonce, crypto)),
    );
    ws.send(
      JSON.stringify(await authMessage({ kind: "apiKey", key: DEMO.apiKey, secret: DEMO.apiSecret }, nonce, crypto)),
    );
    await until(() => replies.length === 3, "three replies");
    expect(replies.map((r) => [r["status"], r["code"] ?? null])).toEqual([
      ["FAILED", 10100],
      ["OK", null],
      ["FAILED", 10114],
    ]);
    ws.close();
  });

  it("gives a read-only key read caps and refuses its order inputs with an error notification", async () => {
    const crypto = webcrypto.subtle as unknown as HmacCrypto;
    const ro = accounts.createApiKey(1, "read only", ["o:r", "w:r"], Date.now());
    const frames: unknown[] = [];
    const ws = new WebSocket(`ws://${base}/ws/2`);
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(
      JSON.stringify(await authMessage({ kind: "apiKey", key: ro.key, secret: ro.secret }, Date.now() * 1000, crypto)),
    );
    await until(() => frames.some((f) => (f as Record<string, unknown>)["event"] === "auth"), "auth");
    const auth = frames.find((f) => (f as Record<string, unknown>)["event"] === "auth") as Record<string, unknown>;
    expect(auth).toMatchObject({
      status: "OK",
      caps: { orders: { read: 1, write: 0 }, wallets: { read: 1, write: 0 }, withdraw: { read: 0, write: 0 } },
    });
    ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1" }]));
    await until(() => frames.some((f) => Array.isArray(f) && f[1] === "n"), "notification");
    const n = frames.find((f) => Array.isArray(f) && f[1] === "n") as unknown[];
    expect((n[2] as unknown[]).slice(1, 2).concat((n[2] as unknown[]).slice(6))).toEqual([
      "on-req",
      "ERROR",
      "apikey: permission denied",
    ]);
    expect(orders.openOrdersWire(1)).toHaveLength(0);
    ws.close();
  });
});
