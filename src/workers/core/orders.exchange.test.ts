/**
 * Order entry against the embedded exchange itself (not a script): the worker's own Connection,
 * AccountCore and OrderDesk, wired as in market.worker.ts, over an API-key-authenticated socket
 * with sequence numbers on. Every answer checked here is the matching engine's.
 */
import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CONF_FLAGS, type Scheduler } from "../../protocol";
import { globalScheduler } from "../../../tests/support/timers";
import { demoSession, until } from "../../../server/test-support/session.ts";
import { openVenue } from "../../../server/exchange/venue.ts";
import { DEMO } from "../../../server/store/seed.ts";
import { AccountCore } from "./account";
import { authMessage, NonceSource, readAuthReply, type HmacCrypto } from "./auth";
import { Connection, type SocketLike } from "./connection";
import { OrderDesk } from "./orders";

const venue = openVenue({ dbPath: ":memory:", seed: 7, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
// The exchange on a loopback port for the whole file (the demo session is signed in, unused here).
const api = demoSession({ exchange: venue.exchange, account: venue.gateway });

interface Session {
  readonly conn: Connection;
  readonly account: AccountCore;
  readonly desk: OrderDesk;
  readonly timers: Scheduler;
  ready(): boolean;
}

/** The worker's account socket, as openAccountSocket() wires it. */
function session(): Session {
  const timers = globalScheduler();
  const account = new AccountCore();
  const nonces = new NonceSource();
  let ready = false;
  const conn: Connection = new Connection({
    url: `ws://${api.host}/ws/2`,
    createSocket: (u) => new WebSocket(u) as unknown as SocketLike,
    timers,
    idleMs: Number.POSITIVE_INFINITY,
    flags: CONF_FLAGS.SEQ_ALL | CONF_FLAGS.OB_CHECKSUM,
    onSocketStatus: (s) => {
      if (s === "online") return;
      ready = false;
      desk.socketClosed();
    },
    onOpened: () => {
      account.reset();
      void authMessage(
        { kind: "apiKey", key: DEMO.apiKey, secret: DEMO.apiSecret },
        nonces.next(Date.now()),
        webcrypto.subtle as unknown as HmacCrypto,
      ).then((m) => conn.send(m));
    },
    onAuth: (ev) => (ready = readAuthReply(ev).ok),
    onAccount: (type, payload) => {
      account.apply(type, payload);
      desk.onAccount(type, payload);
    },
  });
  const desk: OrderDesk = new OrderDesk({
    timers,
    send: (input) => conn.send(input),
    authenticated: () => ready,
    openOrderIds: (symbol) =>
      [...account.orders.values()].filter((o) => symbol === null || o.symbol === symbol).map((o) => o.id),
  });
  return { conn, account, desk, timers, ready: () => ready };
}

describe("order entry against the embedded exchange", () => {
  it("places, rejects, updates and cancels orders, each call resolved with the exchange's own answer", async () => {
    const s = session();
    const { desk, account, conn } = s;
    expect(
      (await desk.submit({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.1", price: "1" })).localError,
    ).toBe("not-authenticated");
    conn.core.subscribe({ channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" });
    conn.start();
    await until(() => s.ready() && account.wallets.size > 0, "auth and wallets");

    const bid = venue.exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const low = Number((bid * 0.9).toPrecision(5));
    const placed = await desk.submit({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.25", price: String(low) });
    expect(placed).toMatchObject({ ok: true, status: "SUCCESS", localError: null });
    expect(placed.text).toMatch(/^Submitting exchange limit buy order for 0\.25 BTC/);
    expect(placed.orderIds).toHaveLength(1);
    const id = placed.orderIds[0] as number;
    await until(() => account.orders.has(id), "order on");

    const poor = await desk.submit({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "1000", price: String(low) });
    expect(poor).toMatchObject({ ok: false, status: "ERROR", orderIds: [], localError: null });
    expect(poor.text).toMatch(/not enough exchange balance/);

    const lower = Number((bid * 0.85).toPrecision(5));
    const moved = await desk.update({ id, price: String(lower) });
    expect(moved).toMatchObject({
      ok: true,
      status: "SUCCESS",
      orderIds: [id],
      text: `Submitting update to order ${id}.`,
    });
    await until(() => account.orders.get(id)?.price === lower, "order moved");

    expect(
      (await desk.update({ id: 424242, price: "1" })).text,
      "an update of an unknown order is the exchange's refusal",
    ).toBe("Order not found.");
    const missing = await desk.cancel(424242);
    expect(missing).toMatchObject({ ok: false, status: "ERROR", text: "Order not found.", orderIds: [] });

    const cancelled = await desk.cancel(id);
    expect(cancelled).toMatchObject({ ok: true, status: "SUCCESS", orderIds: [id] });
    await until(() => !account.orders.has(id), "order closed");
    expect(account.history.get("tBTCUSD")?.[0]).toMatchObject({ id, status: "CANCELED" });

    expect(conn.core.stats).toMatchObject({ seqGaps: 0, authSeqGaps: 0 });
    conn.stop();
    s.timers.dispose();
  });

  it("cancels many — by ids, by symbol with an OCO pair among them, all — and fails what is pending on close", async () => {
    const s = session();
    const { desk, account, conn } = s;
    conn.start();
    await until(() => s.ready() && account.wallets.size > 0, "auth and wallets");
    const bid = venue.exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const ask = venue.exchange.markets.get("tBTCUSD")?.engine.bestAsk() as number;
    const buy = (f: number): Promise<string> =>
      desk
        .submit({
          type: "EXCHANGE LIMIT",
          symbol: "tBTCUSD",
          amount: "0.01",
          price: String(Number((bid * f).toPrecision(5))),
        })
        .then((a) => (a.ok ? "ok" : a.text));

    // Several in flight at once: each resolves with its own answer.
    expect(await Promise.all([buy(0.8), buy(0.81), buy(0.82)])).toEqual(["ok", "ok", "ok"]);
    await until(() => account.orders.size === 3, "three open");
    const [a, b] = [...account.orders.keys()] as [number, number];
    const some = await desk.cancelMany({ ids: [a, 999_999, b] });
    expect(some).toMatchObject({ ok: false, status: "ERROR", text: "Order not found.", orderIds: [a, b] });
    await until(() => account.orders.size === 1, "two cancelled");

    // An OCO sell: a limit above the market and a stop below it, one request, two orders.
    const oco = await desk.submit({
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "-0.05",
      price: String(Number((ask * 1.2).toPrecision(5))),
      priceOcoStop: String(Number((bid * 0.7).toPrecision(5))),
      flags: 16384,
    });
    expect(oco).toMatchObject({ ok: true, status: "SUCCESS" });
    expect(oco.orderIds).toHaveLength(2);
    await until(() => account.orders.size === 3, "OCO legs open");
    const open = [...account.orders.keys()].sort();
    expect(open).toEqual(expect.arrayContaining([...oco.orderIds]));
    // Cancelling one leg takes the other: its own cancel then finds nothing, and it still counts as gone.
    const bySymbol = await desk.cancelMany({ symbol: "tBTCUSD" });
    expect(bySymbol).toMatchObject({ ok: true, status: "SUCCESS" });
    expect([...bySymbol.orderIds].sort()).toEqual(open);
    await until(() => account.orders.size === 0, "symbol cleared");
    expect(await desk.cancelMany({ symbol: "tBTCUSD" })).toMatchObject({ ok: true, status: "LOCAL", orderIds: [] });

    expect(await Promise.all([buy(0.8), buy(0.83)])).toEqual(["ok", "ok"]);
    await until(() => account.orders.size === 2, "two open");
    const ids = [...account.orders.keys()].sort();
    const all = await desk.cancelMany({ all: true });
    expect(all).toMatchObject({ ok: true, status: "SUCCESS" });
    expect([...all.orderIds].sort()).toEqual(ids);
    await until(() => account.orders.size === 0, "all cancelled");

    // The socket goes away with a request out: it fails now, not after the timeout.
    const inFlight = desk.submit({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1000" });
    conn.stop();
    expect((await inFlight).localError).toBe("socket-closed");
    expect((await desk.cancel(1)).localError).toBe("not-authenticated");
    expect(conn.core.stats).toMatchObject({ seqGaps: 0, authSeqGaps: 0 });
    s.timers.dispose();
  });
});
