/**
 * Cancelling by client order id and by group (docs/protocol.md#account-inputs), over real HTTP and WebSocket:
 * `oc {cid, cid_date}` and `w/order/cancel {cid, cid_date}` cancel the order with that client id
 * created on that UTC day; `oc_multi {gid}` cancels the `on` input's group; a malformed cancel is
 * answered with an ERROR notification, never silence.
 */
import { describe, expect, it } from "vitest";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 23, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
const today = (): string => new Date().toISOString().slice(0, 10);
const order = (cid: number, gid?: number): Record<string, unknown> => ({
  type: "EXCHANGE LIMIT",
  symbol: SYMBOL,
  amount: "0.01",
  price: "1000",
  cid,
  ...(gid !== undefined ? { gid } : {}),
});
const openCids = (): unknown[] => venue.orders.openOrdersWire(demo).map((o) => o[2]);
/** The `n` frames' [TYPE, STATUS, TEXT]. */
const notes = (frames: unknown[][]): [unknown, unknown, unknown][] =>
  frames
    .filter((f) => f[1] === "n")
    .map((f) => f[2] as unknown[])
    .map((n) => [n[1], n[6], n[7]]);

describe("oc by client order id", () => {
  it("cancels the order with that cid created that UTC day; a wrong day or a malformed input is an ERROR", async () => {
    const { ws, frames } = await s.socket();
    ws.send(JSON.stringify([0, "on", null, order(501, 7)]));
    await wait(100);
    expect(openCids()).toEqual([501]);
    // The group id is kept on the order (ORDER field 1).
    expect(venue.orders.openOrdersWire(demo)[0]?.[1]).toBe(7);

    let start = frames.length;
    ws.send(JSON.stringify([0, "oc", null, { cid: 501, cid_date: "2001-01-01" }]));
    await wait(100);
    expect(notes(frames.slice(start))).toEqual([["oc-req", "ERROR", "Order not found."]]);
    expect(openCids()).toEqual([501]);

    start = frames.length;
    ws.send(JSON.stringify([0, "oc", null, { cid: 501 }]));
    ws.send(JSON.stringify([0, "oc", null, { id: "501" }]));
    await wait(100);
    const malformed = notes(frames.slice(start));
    expect(malformed).toHaveLength(2);
    for (const n of malformed) expect(n.slice(0, 2)).toEqual(["oc-req", "ERROR"]);

    start = frames.length;
    ws.send(JSON.stringify([0, "oc", null, { cid: 501, cid_date: today() }]));
    await wait(100);
    expect(notes(frames.slice(start))[0]?.slice(0, 2)).toEqual(["oc-req", "SUCCESS"]);
    const oc = frames.slice(start).find((f) => f[1] === "oc")?.[2] as unknown[];
    expect(oc[2]).toBe(501);
    expect(String(oc[13])).toContain("CANCELED");
    expect(openCids()).toEqual([]);
    ws.close();
  });
});

describe("w/order/cancel by client order id", () => {
  it("answers the oc-req notification with the order, not 10020", async () => {
    await s.rest("/v2/auth/w/order/submit", order(601));
    expect(openCids()).toEqual([601]);
    expect(await s.rest("/v2/auth/w/order/cancel", { cid: 601, cid_date: "2001-01-01" })).toEqual({
      status: 500,
      body: ["error", 10001, "Order not found."],
    });
    const bad = await s.rest("/v2/auth/w/order/cancel", { cid: 601 });
    expect(bad.status).toBe(500);
    expect((bad.body as unknown[]).slice(0, 2)).toEqual(["error", 10020]);
    const r = await s.rest("/v2/auth/w/order/cancel", { cid: 601, cid_date: today() });
    expect(r.status).toBe(200);
    const n = r.body as unknown[];
    expect([n[1], n[6]]).toEqual(["oc-req", "SUCCESS"]);
    expect((n[4] as unknown[])[2]).toBe(601);
    expect(openCids()).toEqual([]);
  });
});

describe("oc_multi by group id", () => {
  it("cancels the orders of the groups named and no others", async () => {
    const { ws, frames } = await s.socket();
    for (const [cid, gid] of [
      [701, 7],
      [702, 7],
      [703, 8],
      [704, undefined],
    ] as const)
      ws.send(JSON.stringify([0, "on", null, order(cid, gid)]));
    await wait(150);
    expect(openCids()).toEqual([701, 702, 703, 704]);
    ws.send(JSON.stringify([0, "oc_multi", null, { gid: [7] }]));
    await wait(150);
    expect(openCids()).toEqual([703, 704]);
    const r = await s.rest("/v2/auth/w/order/cancel/multi", { gid: [8] });
    expect((r.body as unknown[])[1]).toBe("oc_multi-req");
    expect(((r.body as unknown[])[4] as unknown[][]).map((o) => o[2])).toEqual([703]);
    expect(openCids()).toEqual([704]);
    // Naming nothing is an error, on the socket and over REST.
    const start = frames.length;
    ws.send(JSON.stringify([0, "oc_multi", null, { nothing: 1 }]));
    await wait(100);
    expect(notes(frames.slice(start)).map((n) => n.slice(0, 2))).toEqual([["oc_multi-req", "ERROR"]]);
    expect((await s.rest("/v2/auth/w/order/cancel/multi", {})).status).toBe(500);
    expect(openCids()).toEqual([704]);
    ws.close();
  });
});
