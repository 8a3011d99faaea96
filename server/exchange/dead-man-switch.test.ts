/**
 * The dead-man switch (docs/protocol.md#auth-options): an account socket authenticated with `dms: 4` cancels
 * all of the user's open orders when it closes, and the user's other sockets see the `oc` events;
 * without the flag a closing socket cancels nothing.
 */
import { describe, expect, it } from "vitest";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 29, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
const order = (cid: number): Record<string, unknown> => ({
  type: "EXCHANGE LIMIT",
  symbol: SYMBOL,
  amount: "0.01",
  price: "1000",
  cid,
});
const openCids = (): unknown[] => venue.orders.openOrdersWire(demo).map((o) => o[2]);

describe("dms: 4", () => {
  it("a closing socket without the flag cancels nothing", async () => {
    const plain = await s.socket();
    plain.ws.send(JSON.stringify([0, "on", null, order(11)]));
    await wait(100);
    expect(openCids()).toEqual([11]);
    plain.ws.close();
    await wait(150);
    expect(openCids()).toEqual([11]);
    // Placed over REST too: still there.
    await s.rest("/v2/auth/w/order/submit", order(12));
    expect(openCids().sort()).toEqual([11, 12]);
  });

  it("cancels every open order of the user when the socket closes, seen on the other socket", async () => {
    const watcher = await s.socket();
    const dms = await s.socket({ dms: 4 });
    dms.ws.send(JSON.stringify([0, "on", null, order(13)]));
    await wait(100);
    expect(openCids().sort()).toEqual([11, 12, 13]);
    const start = watcher.frames.length;
    dms.ws.close();
    await wait(200);
    expect(openCids()).toEqual([]);
    const oc = watcher.frames
      .slice(start)
      .filter((f) => f[1] === "oc")
      .map((f) => f[2] as unknown[]);
    expect(oc.map((o) => o[2]).sort()).toEqual([11, 12, 13]);
    for (const o of oc) expect(String(o[13])).toContain("CANCELED");
    watcher.ws.close();
  });

  it("also fires when the connection drops without a close handshake", async () => {
    await s.rest("/v2/auth/w/order/submit", order(14));
    const dms = await s.socket({ dms: 4 });
    expect(openCids()).toEqual([14]);
    dms.ws.terminate();
    await wait(200);
    expect(openCids()).toEqual([]);
  });

  it("also fires when the server closes the socket", async () => {
    await s.rest("/v2/auth/w/order/submit", order(15));
    const dms = await s.socket({ dms: 4 });
    expect(openCids()).toEqual([15]);
    const closed = new Promise<number>((r) => dms.ws.once("close", r));
    // A frame over the size limit makes the server close the connection (1009).
    dms.ws.send("x".repeat(70 * 1024));
    expect(await closed).toBe(1009);
    await wait(150);
    expect(openCids()).toEqual([]);
  });
});
