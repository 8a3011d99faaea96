/**
 * Crash durability: the exchange process is killed (SIGKILL) while orders stream in; after a
 * restart on the same database every order the API acknowledged is still open, with its balance
 * reserved, and every acknowledged fill is still there — its trade, its ledger entries, the balances
 * they add up to. (Acknowledgements are sent in the same synchronous turn as the SQLite commit, after it:
 * no frame leaves the process before its transaction is durable.)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { orderCodec, positionCodec, walletCodec } from "../../src/protocol/index.ts";
import { DEMO } from "../store/seed.ts";
import { startExchangeProcess } from "../test-support/exchange-process.ts";
import { messageText } from "../ws-text.ts";

const ENV = { SIM_STEP_MS: "20" };
async function session(port: number): Promise<{ ws: WebSocket; frames: unknown[][]; token: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
  });
  const [token] = (await res.json()) as [string];
  const ws = new WebSocket(`ws://127.0.0.1:${port + 1}/ws/2`);
  const frames: unknown[][] = [];
  ws.on("message", (d) => {
    const m: unknown = JSON.parse(messageText(d));
    if (Array.isArray(m) && m[0] === 0) frames.push(m);
  });
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", token }));
  const t0 = Date.now();
  while (!frames.some((f) => f[1] === "os")) {
    if (Date.now() - t0 > 5000) throw new Error("no account snapshot");
    await new Promise((r) => setTimeout(r, 10));
  }
  return { ws, frames, token };
}

describe("crash durability", () => {
  it("keeps every acknowledged order and its reservation through a SIGKILL", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "exchange-")), "exchange.db");
    const { child: first, port } = await startExchangeProcess(db, ENV);
    const { ws, frames } = await session(port);
    const ticker = (await (await fetch(`http://127.0.0.1:${port}/v2/ticker/tBTCUSD`)).json()) as number[];
    const price = Number(((ticker[0] as number) * 0.5).toPrecision(5));
    // Stream orders and kill the process while they are still arriving.
    for (let i = 0; i < 400; i++) {
      ws.send(
        JSON.stringify([
          0,
          "on",
          null,
          { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price: String(price), cid: i },
        ]),
      );
    }
    const t0 = Date.now();
    while (frames.filter((f) => f[1] === "on").length < 40 && Date.now() - t0 < 5000)
      await new Promise((r) => setTimeout(r, 2));
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    ws.terminate();
    const acked = new Set(
      frames
        .filter((f) => f[1] === "on")
        .map((f) => {
          const o = orderCodec.decode(f[2]);
          return o.ok ? o.value.id : -1;
        }),
    );
    expect(acked.size).toBeGreaterThanOrEqual(40);

    await startExchangeProcess(db, ENV, port);
    const again = await session(port);
    const os = again.frames.find((f) => f[1] === "os")?.[2];
    const open = orderCodec.decodeList(os);
    expect(open.ok).toBe(true);
    const openIds = new Set(open.ok ? open.value.map((o) => o.id) : []);
    for (const id of acked) expect(openIds.has(id), `acknowledged order ${id}`).toBe(true);
    const wallets = walletCodec.decodeList(again.frames.find((f) => f[1] === "ws")?.[2]);
    const usd = wallets.ok ? wallets.value.find((w) => w.currency === "USD") : undefined;
    expect(usd?.balance).toBe(100_000);
    // Every open order (acknowledged or committed just before the kill) holds its reservation.
    expect(usd?.available).toBeCloseTo(100_000 - openIds.size * 0.01 * price, 4);
    again.ws.close();
  }, 60_000);

  it("keeps margin positions, their collateral and margin orders' reservations through a SIGKILL", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "exchange-")), "exchange.db");
    const { child: first, port } = await startExchangeProcess(db, ENV);
    const { ws, frames, token } = await session(port);
    const tf = await fetch(`http://127.0.0.1:${port + 1}/v2/auth/w/transfer`, {
      method: "POST",
      headers: { "bfx-token": token, "content-type": "application/json" },
      body: JSON.stringify({ from: "exchange", to: "margin", currency: "USD", amount: "20000" }),
    });
    expect(((await tf.json()) as unknown[])[6]).toBe("SUCCESS");
    const ticker = (await (await fetch(`http://127.0.0.1:${port}/v2/ticker/tBTCUSD`)).json()) as number[];
    const low = Number(((ticker[0] as number) * 0.5).toPrecision(5));
    ws.send(JSON.stringify([0, "on", null, { type: "MARKET", symbol: "tBTCUSD", amount: "0.2" }]));
    ws.send(JSON.stringify([0, "on", null, { type: "LIMIT", symbol: "tBTCUSD", amount: "0.1", price: String(low) }]));
    const t0 = Date.now();
    while (!(
      frames.some((f) => f[1] === "pn") && frames.some((f) => f[1] === "on" && (f[2] as unknown[])[8] === "LIMIT")
    )) {
      if (Date.now() - t0 > 5000) throw new Error("no margin position");
      await new Promise((r) => setTimeout(r, 10));
    }
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    ws.terminate();
    const last = [...frames].reverse();
    const pos = positionCodec.decode(last.find((f) => f[1] === "pn" || f[1] === "pu")?.[2]);
    const margin = walletCodec.decode(last.find((f) => f[1] === "wu" && (f[2] as unknown[])[0] === "margin")?.[2]);
    expect(pos.ok && margin.ok).toBe(true);

    await startExchangeProcess(db, ENV, port);
    const again = await session(port);
    const ps = positionCodec.decodeList(again.frames.find((f) => f[1] === "ps")?.[2]);
    expect(ps.ok).toBe(true);
    const restored = ps.ok ? ps.value : [];
    expect(restored).toHaveLength(1);
    if (pos.ok) {
      expect(restored[0]).toMatchObject({
        id: pos.value.id,
        status: "ACTIVE",
        amount: 0.2,
        basePrice: pos.value.basePrice,
        collateral: pos.value.collateral,
      });
    }
    const wallets = walletCodec.decodeList(again.frames.find((f) => f[1] === "ws")?.[2]);
    const usd = wallets.ok ? wallets.value.find((w) => w.type === "margin" && w.currency === "USD") : undefined;
    if (margin.ok) expect(usd).toMatchObject({ balance: margin.value.balance, available: margin.value.available });
    const open = orderCodec.decodeList(again.frames.find((f) => f[1] === "os")?.[2]);
    expect(open.ok && open.value.map((o) => [o.type, o.amount, o.price])).toEqual([["LIMIT", 0.1, low]]);
    again.ws.close();
  }, 60_000);

  it("keeps every acknowledged fill — trades, ledgers, balances — through a SIGKILL mid-stream", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "exchange-")), "exchange.db");
    const { child: first, port } = await startExchangeProcess(db, ENV);
    const { ws, frames, token } = await session(port);
    // Market orders both ways, so each one fills at once against the simulated book.
    for (let i = 0; i < 400; i++) {
      const amount = i % 2 === 0 ? "0.001" : "-0.001";
      ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount, cid: i }]));
    }
    const t0 = Date.now();
    while (frames.filter((f) => f[1] === "tu").length < 40 && Date.now() - t0 < 5000)
      await new Promise((r) => setTimeout(r, 2));
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    ws.terminate();
    // What the account was told: trades (with their fees) and the wallets after each change.
    const acked = new Map<number, unknown[]>();
    for (const f of frames) if (f[1] === "tu") acked.set((f[2] as unknown[])[0] as number, f[2] as unknown[]);
    expect(acked.size).toBeGreaterThanOrEqual(40);
    const lastWallet = (ccy: string): number | undefined =>
      (
        [...frames]
          .reverse()
          .find(
            (f) => f[1] === "wu" && (f[2] as unknown[])[0] === "exchange" && (f[2] as unknown[])[1] === ccy,
          )?.[2] as unknown[] | undefined
      )?.[2] as number | undefined;
    const ackedUsd = lastWallet("USD");
    const ackedBtc = lastWallet("BTC");
    expect(ackedUsd).toBeDefined();
    expect(ackedBtc).toBeDefined();

    await startExchangeProcess(db, ENV, port);
    const again = await session(port);
    const rest = async (path: string, body: unknown): Promise<unknown[][]> => {
      const login = await fetch(`http://127.0.0.1:${port}/v2/login`, {
        method: "POST",
        body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
      });
      const [t] = (await login.json()) as [string];
      const r = await fetch(`http://127.0.0.1:${port + 1}${path}`, {
        method: "POST",
        headers: { "bfx-token": t ?? token, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return (await r.json()) as unknown[][];
    };
    // Every acknowledged trade, unchanged: amount, price, maker flag, fee and its currency.
    const trades = new Map(
      (await rest("/v2/auth/r/trades/tBTCUSD/hist", { limit: 2500 })).map((t) => [t[0] as number, t]),
    );
    for (const [id, te] of acked) {
      const t = trades.get(id);
      expect(t, `acknowledged trade ${id}`).toBeDefined();
      expect([t?.[3], t?.[4], t?.[5], t?.[8], t?.[9], t?.[10]]).toEqual([te[3], te[4], te[5], te[8], te[9], te[10]]);
    }
    // The ledgers chain each wallet from its deposit to its balance, and the balance last
    // acknowledged is a link of that chain (later links: fills committed after the last frame).
    const ledgers = (await rest("/v2/auth/r/ledgers/hist", { limit: 2500 })).reverse();
    const wallets = walletCodec.decodeList(again.frames.find((f) => f[1] === "ws")?.[2]);
    for (const [ccy, ackedBalance] of [
      ["USD", ackedUsd],
      ["BTC", ackedBtc],
    ] as const) {
      const chain = ledgers.filter((l) => l[1] === ccy && l[2] === "exchange");
      let balance = 0;
      for (const l of chain) {
        balance = Math.round((balance + (l[5] as number)) * 1e8) / 1e8;
        expect(l[6], `${ccy} ledger ${String(l[0])}`).toBeCloseTo(balance, 8);
      }
      const stored = wallets.ok ? wallets.value.find((w) => w.type === "exchange" && w.currency === ccy) : undefined;
      expect(stored?.balance).toBeCloseTo(balance, 8);
      expect(chain.map((l) => l[6])).toContain(ackedBalance);
    }
    // Each acknowledged fill has its ledger entries: at least two per trade (what was paid, what was received).
    const fillEntries = ledgers.filter(
      (l) => String(l[8]).startsWith("Exchange ") || String(l[8]).startsWith("Trading fees"),
    );
    expect(fillEntries.length).toBeGreaterThanOrEqual(2 * acked.size);
    again.ws.close();
  }, 60_000);
});
