/**
 * Batched order operations (docs/protocol.md#account-inputs): the socket's `ox_multi` and REST
 * `w/order/multi {ops}` run each `on` / `oc` / `oc_multi` / `ou` op as its single form does and
 * answer an `ox_multi-req` notification carrying the per-op notifications; a malformed batch (or
 * one over 75 ops) runs nothing and is refused.
 */
import { describe, expect, it } from "vitest";
import { notificationCodec, orderCodec, type Order } from "../../src/protocol/index.ts";
import { demoSession, orderSubmitter, p5, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 37, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
const today = (): string => new Date().toISOString().slice(0, 10);
const order = (cid: number): Record<string, unknown> => ({
  type: "EXCHANGE LIMIT",
  symbol: SYMBOL,
  amount: "0.01",
  price: "1000",
  cid,
});
const open = (): [unknown, unknown][] =>
  venue.orders
    .openOrdersWire(demo)
    .map((o): [unknown, unknown] => [o[2], o[16]])
    .sort((a, b) => Number(a[0]) - Number(b[0]));
/** A notification's [TYPE, STATUS]. */
const kind = (n: unknown): [unknown, unknown] => [(n as unknown[])[1], (n as unknown[])[6]];

describe("ox_multi (socket)", () => {
  it("applies each op in order and answers ox_multi-req with the per-op notifications", async () => {
    const placed = await s.rest("/v2/auth/w/order/submit", order(1));
    const second = await s.rest("/v2/auth/w/order/submit", order(2));
    expect([placed.status, second.status]).toEqual([200, 200]);
    const id2 = (((second.body as unknown[])[4] as unknown[][])[0] as unknown[])[0];
    const { ws, frames } = await s.socket();
    ws.send(
      JSON.stringify([
        0,
        "ox_multi",
        null,
        [
          ["on", order(3)],
          ["oc", { cid: 1, cid_date: today() }],
          ["ou", { id: id2, price: "900" }],
          ["oc_multi", { cid: [[99, today()]] }],
          ["oc", { id: 987654 }],
        ],
      ]),
    );
    await wait(200);
    const reply = frames.find((f) => f[1] === "n" && (f[2] as unknown[])[1] === "ox_multi-req")?.[2] as unknown[];
    expect(kind(reply)).toEqual(["ox_multi-req", "SUCCESS"]);
    const notes = reply[4] as unknown[][];
    expect(notes.map(kind)).toEqual([
      ["on-req", "SUCCESS"],
      ["oc-req", "SUCCESS"],
      ["ou-req", "SUCCESS"],
      ["oc_multi-req", "SUCCESS"],
      ["oc-req", "ERROR"],
    ]);
    expect(((notes[0]?.[4] as unknown[][])[0] as unknown[])[2]).toBe(3);
    expect(open()).toEqual([
      [2, 900],
      [3, 1000],
    ]);
    // Each op's own events went out as for its single form.
    expect(frames.some((f) => f[1] === "on" && (f[2] as unknown[])[2] === 3)).toBe(true);
    expect(frames.some((f) => f[1] === "oc" && (f[2] as unknown[])[2] === 1)).toBe(true);

    // A malformed batch runs nothing: the valid `on` before the bad op is not placed.
    const start = frames.length;
    ws.send(
      JSON.stringify([
        0,
        "ox_multi",
        null,
        [
          ["on", order(4)],
          ["xx", {}],
        ],
      ]),
    );
    await wait(150);
    const refused = frames
      .slice(start)
      .filter((f) => f[1] === "n")
      .map((f) => kind(f[2]));
    expect(refused).toEqual([["ox_multi-req", "ERROR"]]);
    expect(open().map((o) => o[0])).toEqual([2, 3]);
    ws.close();
  });
});

describe("w/order/multi (REST)", () => {
  it("answers the same ox_multi-req notification; over 75 ops or a malformed op is 10020", async () => {
    const tooMany = await s.rest("/v2/auth/w/order/multi", {
      ops: Array.from({ length: 76 }, (_, i) => ["on", order(100 + i)]),
    });
    expect(tooMany.status).toBe(500);
    expect((tooMany.body as unknown[]).slice(0, 2)).toEqual(["error", 10020]);
    const bad = await s.rest("/v2/auth/w/order/multi", { ops: [["on", order(5)], ["oc"]] });
    expect((bad.body as unknown[]).slice(0, 2)).toEqual(["error", 10020]);
    expect(open().map((o) => o[0])).toEqual([2, 3]);

    const r = await s.rest("/v2/auth/w/order/multi", {
      ops: [
        ["on", order(6)],
        ["oc_multi", { all: 1 }],
      ],
    });
    expect(r.status).toBe(200);
    expect(kind(r.body)).toEqual(["ox_multi-req", "SUCCESS"]);
    const notes = (r.body as unknown[])[4] as unknown[][];
    expect(notes.map(kind)).toEqual([
      ["on-req", "SUCCESS"],
      ["oc_multi-req", "SUCCESS"],
    ]);
    expect(((notes[1]?.[4] as unknown[][]) ?? []).map((o) => o[2]).sort()).toEqual([2, 3, 6]);
    expect(open()).toEqual([]);
  });
});

describe("w/order/cancel/multi (REST)", () => {
  const SYMBOL = "tBTCUSD";
  const venue = openVenue({
    dbPath: ":memory:",
    seed: 31,
    markets: [{ symbol: SYMBOL, start: 30_000 }],
  });
  const s = demoSession({ exchange: venue.exchange, account: venue.gateway, bookBatchMs: 400 });
  const engine = (symbol = SYMBOL) => venue.exchange.markets.get(symbol)?.engine;

  const submit = orderSubmitter(s, SYMBOL);

  it("w/order/cancel/multi answers with the orders it cancelled (by id, by cid and day, all)", async () => {
    const far = p5((engine()?.bestBid() as number) * 0.5);
    const a = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: far });
    const b = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: far, cid: 777 });
    const c = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: far });
    const multi = async (body: unknown): Promise<Order[]> => {
      const r = await s.rest("/v2/auth/w/order/cancel/multi", body);
      expect(r.status).toBe(200);
      const n = notificationCodec.decode(r.body);
      expect(n.ok && n.value.type).toBe("oc_multi-req");
      const list = orderCodec.decodeList(n.ok ? n.value.data : null);
      if (!list.ok) throw new Error("orders");
      return list.value;
    };
    const byId = await multi({ id: [a.id, 999_999] });
    expect(byId.map((o) => [o.id, o.status])).toEqual([[a.id, "CANCELED"]]);
    const day = new Date(b.mts_create).toISOString().slice(0, 10);
    expect((await multi({ cid: [[777, "2001-01-01"]] })).length).toBe(0);
    expect((await multi({ cid: [[777, day]] })).map((o) => o.id)).toEqual([b.id]);
    const all = await multi({ all: 1 });
    expect(all.map((o) => [o.id, o.status, o.amount])).toEqual([[c.id, "CANCELED", 0.01]]);
    expect((await s.rest("/v2/auth/r/orders")).body).toEqual([]);
  });
});
