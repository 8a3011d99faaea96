import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { crc32, INFO_CODES, NO_FAULTS, type Scheduler } from "../../protocol";
import { globalScheduler } from "../../../tests/support/timers";
import { startScriptedExchange, type ScriptedExchange } from "../../../tests/support/scripted-exchange";
import { Connection, type SocketLike } from "./connection";
import { FaultInjector, faultySocket } from "./faults";

const BOOK = { channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" } as const;

async function until(check: () => boolean, what: string, ms = 4000): Promise<void> {
  const t0 = Date.now();
  while (!check()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * The `ws` client accepts any close code; a browser's WebSocket throws unless the code is 1000 or
 * 3000–4999 (1012, say, is a server's code). The tests hold the worker to the browser's rule.
 */
function browserLike(ws: WebSocket): SocketLike {
  const close = ws.close.bind(ws);
  ws.close = (code?: number, reason?: string) => {
    if (code !== undefined && code !== 1000 && (code < 3000 || code > 4999))
      throw new Error(`InvalidAccessError: close code ${code} is not allowed in a browser`);
    close(code, reason);
  };
  return ws as unknown as SocketLike;
}

let ex: ScriptedExchange;
let timers: Scheduler;
let conn: Connection | null = null;
const statuses: string[] = [];

function connect(extra: Partial<ConstructorParameters<typeof Connection>[0]> = {}): Connection {
  conn = new Connection({
    url: ex.url,
    createSocket: (url) => browserLike(new WebSocket(url)),
    timers,
    flags: 131072,
    baseBackoffMs: 50,
    maxBackoffMs: 200,
    watchdogMs: 400,
    idleMs: 300,
    onSocketStatus: (s) => statuses.push(s),
    ...extra,
  });
  return conn;
}

beforeEach(async () => {
  ex = await startScriptedExchange();
  timers = globalScheduler();
  statuses.length = 0;
});

afterEach(async () => {
  conn?.stop();
  conn = null;
  timers.dispose();
  await ex.close();
});

describe("connection against a local websocket server", () => {
  it("connects, asks for checksums, subscribes and holds the snapshot", async () => {
    const c = connect();
    c.core.subscribe(BOOK);
    c.start();
    await until(
      () => c.core.channels.size === 1 && c.core.channels.values().next().value?.gotSnapshot === true,
      "snapshot",
    );
    expect(statuses.slice(0, 2)).toEqual(["connecting", "online"]);
    expect(ex.received[0]).toEqual({ event: "conf", flags: 131072 });
    expect(ex.received[1]).toMatchObject({ event: "subscribe", channel: "book", symbol: "tBTCUSD" });
    const book = [...c.core.channels.values()][0]?.book;
    expect(book?.bids.size).toBe(2);
  });

  it("reconnects after the server drops it, and resubscribes everything", async () => {
    const c = connect();
    const sub = c.core.subscribe(BOOK);
    c.start();
    await until(() => sub.status === "SUBSCRIBED", "first subscription");
    ex.dropAll();
    await until(() => c.status === "offline", "offline");
    await until(() => ex.connections === 2 && sub.status === "SUBSCRIBED", "resubscription");
    expect(ex.received.filter((m) => m["event"] === "subscribe")).toHaveLength(2);
    expect(ex.received.filter((m) => m["event"] === "conf")).toHaveLength(2);
  });

  it("detects a silent feed and reconnects instead of staying online", async () => {
    const c = connect();
    c.core.subscribe(BOOK);
    c.start();
    await until(() => c.status === "online", "online");
    // The server says nothing more (no heartbeats): the watchdog must fire.
    await until(() => ex.connections === 2, "reconnect after silence", 3000);
    expect(statuses).toContain("offline");
    expect(ex.closes[0]?.code).toBe(4000);
  });

  it("resubscribes a book whose checksum does not match, then verifies the fresh one", async () => {
    const c = connect({ watchdogMs: 5000 });
    const sub = c.core.subscribe(BOOK);
    c.start();
    await until(() => sub.status === "SUBSCRIBED" && c.core.flags === 131072, "subscribed with checksums");
    await until(() => [...c.core.channels.values()][0]?.gotSnapshot === true, "snapshot");
    ex.send([ex.lastChanId(), "cs", 42]);
    await until(() => ex.received.some((m) => m["event"] === "unsubscribe"), "unsubscribe");
    await until(
      () => ex.received.filter((m) => m["event"] === "subscribe").length === 2 && sub.status === "SUBSCRIBED",
      "resubscribe",
    );
    expect(sub.resyncs).toBe(1);
    await until(() => [...c.core.channels.values()][0]?.gotSnapshot === true, "fresh snapshot");
    ex.send([ex.lastChanId(), "cs", crc32("100:2:101:-3:99:1")]);
    await until(() => c.core.stats.checksumsOk === 1, "checksum ok");
  });

  it("through the fault injector: a lost subscribed reply is retried, a corrupted frame is resynced", async () => {
    const faults = new FaultInjector(timers);
    faults.set({ ...NO_FAULTS, loseSubscribed: 1 });
    const c = connect({
      watchdogMs: 10_000,
      createSocket: (url) => faultySocket(browserLike(new WebSocket(url)), faults),
    });
    const sub = c.core.subscribe(BOOK);
    c.start();
    await until(() => faults.stats.lostSubscribed === 1, "the reply lost");
    expect(sub.status).not.toBe("SUBSCRIBED");
    faults.set(null); // the next reply gets through: the retry must happen on its own
    await until(() => sub.status === "SUBSCRIBED", "subscribed after the retry", 6000);
    expect(c.core.stats.subscribeRetries).toBeGreaterThanOrEqual(1);
    await until(() => [...c.core.channels.values()][0]?.gotSnapshot === true, "snapshot");
    faults.set({ ...NO_FAULTS, corrupt: 1 });
    ex.send([ex.lastChanId(), "cs", crc32("100:2:101:-3:99:1")]); // right on the wire, corrupted in transit
    await until(() => sub.checksumsFailed === 1 && sub.resyncs === 1, "mismatch detected and resynced");
    expect(faults.stats.corrupted).toBeGreaterThanOrEqual(1);
  }, 10_000);

  it("reconnects at once on info 20051 and resubscribes after maintenance (20060/20061)", async () => {
    const infos: number[] = [];
    const c = connect({ watchdogMs: 5000, onInfo: (code) => infos.push(code) });
    const sub = c.core.subscribe(BOOK);
    c.start();
    await until(() => sub.status === "SUBSCRIBED", "subscribed");
    ex.send({ event: "info", code: INFO_CODES.MAINTENANCE_START, msg: "Entering maintenance mode" });
    ex.send({ event: "info", code: INFO_CODES.MAINTENANCE_END, msg: "Maintenance ended" });
    await until(() => ex.received.filter((m) => m["event"] === "subscribe").length === 2, "resubscribe after 20061");
    ex.send({ event: "info", code: INFO_CODES.RECONNECT, msg: "Stopping. Please try to reconnect" });
    await until(() => ex.connections === 2 && sub.status === "SUBSCRIBED", "reconnected after 20051");
    expect(infos).toEqual([INFO_CODES.MAINTENANCE_START, INFO_CODES.MAINTENANCE_END, INFO_CODES.RECONNECT]);
  });

  it("closes an idle socket with 4004 IDLE_DISCONNECTION", async () => {
    const c = connect({ watchdogMs: 5000, idleMs: 200 });
    c.start();
    await until(() => c.status === "online", "online");
    await until(() => ex.closes.length === 1, "idle close", 3000);
    expect(ex.closes[0]).toEqual({ code: 4004, reason: "IDLE_DISCONNECTION" });
    expect(c.status).toBe("offline");
  });
});

describe("connection back-off", () => {
  it("does not storm a server that asks every new socket to reconnect (20051)", async () => {
    ex.greeting = [{ event: "info", code: INFO_CODES.RECONNECT, msg: "Stopping. Please try to reconnect" }];
    const c = connect({ watchdogMs: 5000, baseBackoffMs: 100, maxBackoffMs: 400 });
    c.core.subscribe(BOOK);
    c.start();
    await new Promise((r) => setTimeout(r, 1200));
    c.stop();
    // Back-off 100, 200, 400, 400… with jitter: a handful of sockets, never hundreds.
    expect(ex.connections).toBeGreaterThan(1);
    expect(ex.connections).toBeLessThan(10);
  });

  it("lets a quiet socket with nothing subscribed idle out instead of calling it stale", async () => {
    const c = connect({ watchdogMs: 100, idleMs: 500 });
    c.start();
    await until(() => ex.closes.length === 1, "idle close", 3000);
    expect(ex.closes).toEqual([{ code: 4004, reason: "IDLE_DISCONNECTION" }]);
  });
});
