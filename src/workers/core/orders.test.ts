import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { orderCodec, type OrderAck, type Scheduler } from "../../protocol";
import { globalScheduler } from "../../../tests/support/timers";
import { ORDER_TIMEOUT_MS, OrderDesk } from "./orders";

/** An ORDER record (docs/protocol.md#orders) as the exchange sends it; correlation reads its id and cid. */
function order(id: number, cid: number | null, symbol = "tBTCUSD"): unknown[] {
  return orderCodec.encode({
    id,
    group_id: null,
    client_id: cid,
    symbol,
    mts_create: 1790000000000,
    mts_update: 1790000000000,
    amount: 1,
    original_amount: 1,
    type: "EXCHANGE LIMIT",
    type_prev: null,
    mts_tif: null,
    flags: 0,
    status: "ACTIVE",
    price: 100,
    price_average: 0,
    price_trailing: 0,
    price_aux_limit: 0,
    notify: false,
    hidden: false,
    placed_id: null,
    routing: null,
    meta: null,
  });
}

function n(type: string, data: unknown, status: string, text: string): unknown[] {
  return [1790000000000, type, null, null, data, null, status, text];
}

let timers: Scheduler;
let sent: unknown[][];
let authed: boolean;
let socketOpen: boolean;
let open: { id: number; symbol: string }[];
let desk: OrderDesk;

beforeEach(() => {
  vi.useFakeTimers({ now: 1_790_000_000_000 });
  timers = globalScheduler();
  sent = [];
  authed = true;
  socketOpen = true;
  open = [];
  desk = new OrderDesk({
    timers,
    send: (input) => {
      if (!socketOpen) return false;
      sent.push([...input]);
      return true;
    },
    authenticated: () => authed,
    openOrderIds: (symbol) => open.filter((o) => symbol === null || o.symbol === symbol).map((o) => o.id),
  });
});

afterEach(() => {
  timers.dispose();
  vi.useRealTimers();
});

/** Collects a promise's value as soon as it settles, so tests can check it has not yet. */
function track(p: Promise<OrderAck>): { ack: OrderAck | null } {
  const box: { ack: OrderAck | null } = { ack: null };
  void p.then((a) => (box.ack = a));
  return box;
}

const flush = (): Promise<void> => Promise.resolve().then(() => undefined);

describe("order entry on the account socket", () => {
  it("sends `on` with a cid and the exchange's field names, and resolves with the matching on-req", async () => {
    const first = track(desk.submit({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.5", price: "30000.10" }));
    const second = track(
      desk.submit({
        type: "EXCHANGE STOP LIMIT",
        symbol: "tETHUSD",
        amount: "-1",
        price: "1900",
        priceAuxLimit: "1890",
        flags: 4096,
      }),
    );
    expect(sent).toHaveLength(2);
    const [, kind, nil, payload] = sent[0] as [number, string, null, Record<string, unknown>];
    expect([kind, nil]).toEqual(["on", null]);
    expect(payload).toMatchObject({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.5", price: "30000.10" });
    const p2 = (sent[1] as unknown[])[3] as Record<string, unknown>;
    expect(p2).toMatchObject({ price_aux_limit: "1890", flags: 4096 });
    expect(p2).not.toHaveProperty("tif");
    const cid1 = payload["cid"] as number;
    const cid2 = p2["cid"] as number;
    expect(Number.isSafeInteger(cid1) && cid2 > cid1).toBe(true);

    // Answers out of order: the cid decides, not the order of arrival.
    desk.onAccount(
      "n",
      n("on-req", order(77, cid2, "tETHUSD"), "SUCCESS", "Submitting stop limit sell order for 1 ETH."),
    );
    await flush();
    expect(first.ack).toBeNull();
    expect(second.ack).toEqual({
      ok: true,
      status: "SUCCESS",
      text: "Submitting stop limit sell order for 1 ETH.",
      orderIds: [77],
      localError: null,
    });
    // An order placed by another session of the same user (another cid) answers nothing here.
    desk.onAccount("n", n("on-req", order(78, 123), "SUCCESS", "Submitting"));
    await flush();
    expect(first.ack).toBeNull();
    desk.onAccount("n", n("on-req", order(76, cid1), "SUCCESS", "Submitting exchange limit buy order for 0.5 BTC."));
    await flush();
    expect(first.ack).toMatchObject({ ok: true, orderIds: [76] });
    expect(desk.pendingCount).toBe(0);
  });

  it("takes an OCO's two legs as one answer and a rejection without an order as the oldest `on`'s", async () => {
    const oco = track(
      desk.submit({
        type: "EXCHANGE LIMIT",
        symbol: "tBTCUSD",
        amount: "1",
        price: "29000",
        priceOcoStop: "31000",
        flags: 16384,
      }),
    );
    const poor = track(desk.submit({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "1000", price: "30000" }));
    const cid = ((sent[0] as unknown[])[3] as Record<string, unknown>)["cid"] as number;
    expect(((sent[0] as unknown[])[3] as Record<string, unknown>)["price_oco_stop"]).toBe("31000");
    desk.onAccount("n", n("on-req", [order(10, cid), order(11, cid)], "SUCCESS", "Submitting OCO"));
    desk.onAccount(
      "n",
      n("on-req", null, "ERROR", "Invalid order: not enough exchange balance for 1000 tBTCUSD at 30000"),
    );
    await flush();
    expect(oco.ack).toMatchObject({ ok: true, orderIds: [10, 11] });
    expect(poor.ack).toEqual({
      ok: false,
      status: "ERROR",
      text: "Invalid order: not enough exchange balance for 1000 tBTCUSD at 30000",
      orderIds: [],
      localError: null,
    });
  });

  it("updates and cancels by order id", async () => {
    const up = track(desk.update({ id: 5, price: "30100", amount: "0.4" }));
    const c6 = track(desk.cancel(6));
    const c7 = track(desk.cancel(7));
    expect(sent).toEqual([
      [0, "ou", null, { id: 5, price: "30100", amount: "0.4" }],
      [0, "oc", null, { id: 6 }],
      [0, "oc", null, { id: 7 }],
    ]);
    desk.onAccount(
      "n",
      n("oc-req", order(7, null), "SUCCESS", "Submitted for cancellation; waiting for confirmation (ID: 7)."),
    );
    await flush();
    expect(c7.ack).toMatchObject({ ok: true, orderIds: [7] });
    expect(c6.ack).toBeNull();
    desk.onAccount("n", n("oc-req", null, "ERROR", "Order not found."));
    desk.onAccount("n", n("ou-req", order(5, null), "SUCCESS", "Submitting update to order 5."));
    await flush();
    expect(c6.ack).toMatchObject({ ok: false, status: "ERROR", text: "Order not found.", orderIds: [] });
    expect(up.ack).toMatchObject({ ok: true, status: "SUCCESS", orderIds: [5] });
  });

  it("fails at once without an authenticated socket, and after the timeout without an answer", async () => {
    authed = false;
    expect(await desk.cancel(1)).toEqual({
      ok: false,
      status: "LOCAL",
      text: "not-authenticated",
      orderIds: [],
      localError: "not-authenticated",
    });
    expect((await desk.cancelMany({ all: true })).localError).toBe("not-authenticated");
    expect((await desk.submit({ type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount: "1" })).localError).toBe(
      "not-authenticated",
    );
    expect(sent).toHaveLength(0);
    authed = true;
    const late = track(desk.cancel(2));
    await vi.advanceTimersByTimeAsync(ORDER_TIMEOUT_MS - 1);
    expect(late.ack).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(late.ack).toMatchObject({ ok: false, localError: "timeout" });
    // The answer that comes too late matches nothing any more.
    desk.onAccount("n", n("oc-req", order(2, null), "SUCCESS", "late"));
    expect(desk.pendingCount).toBe(0);
  });

  it("fails everything pending when the socket closes, and refuses to queue on a closed one", async () => {
    const a = track(desk.submit({ type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount: "0.1" }));
    const b = track(desk.cancelMany({ ids: [1, 2] }));
    desk.socketClosed();
    await flush();
    expect(a.ack?.localError).toBe("socket-closed");
    expect(b.ack?.localError).toBe("socket-closed");
    socketOpen = false;
    expect((await desk.cancel(3)).localError).toBe("socket-closed");
    // No timer left behind to fire later.
    await vi.advanceTimersByTimeAsync(ORDER_TIMEOUT_MS * 2);
    expect(desk.pendingCount).toBe(0);
  });

  it("cancels many by ids: one oc-req per order in the order sent, or one oc_multi-req", async () => {
    const many = track(desk.cancelMany({ ids: [1, 2, 3, 2] }));
    expect(sent).toEqual([[0, "oc_multi", null, { id: [1, 2, 3] }]]);
    desk.onAccount(
      "n",
      n("oc-req", order(1, null), "SUCCESS", "Submitted for cancellation; waiting for confirmation (ID: 1)."),
    );
    // 2 is gone already: its rejection carries no order and belongs to the first id unanswered.
    desk.onAccount("n", n("oc-req", null, "ERROR", "Order not found."));
    await flush();
    expect(many.ack).toBeNull();
    desk.onAccount(
      "n",
      n("oc-req", order(3, null), "SUCCESS", "Submitted for cancellation; waiting for confirmation (ID: 3)."),
    );
    await flush();
    expect(many.ack).toEqual({
      ok: false,
      status: "ERROR",
      text: "Order not found.",
      orderIds: [1, 3],
      localError: null,
    });

    const real = track(desk.cancelMany({ ids: [8, 9] }));
    desk.onAccount(
      "n",
      n("oc_multi-req", [order(8, null), order(9, null)], "SUCCESS", "Submitting 2 order cancellations."),
    );
    await flush();
    expect(real.ack).toMatchObject({ ok: true, status: "SUCCESS", orderIds: [8, 9] });
  });

  it("counts an OCO leg closed with its peer as gone, though its own cancel finds nothing", async () => {
    open = [
      { id: 20, symbol: "tBTCUSD" },
      { id: 21, symbol: "tBTCUSD" },
      { id: 30, symbol: "tETHUSD" },
    ];
    const sym = track(desk.cancelMany({ symbol: "tBTCUSD" }));
    expect(sent).toEqual([[0, "oc_multi", null, { id: [20, 21] }]]);
    desk.onAccount(
      "n",
      n("oc-req", order(20, null), "SUCCESS", "Submitted for cancellation; waiting for confirmation (ID: 20)."),
    );
    desk.onAccount("oc", order(20, null));
    desk.onAccount("oc", order(21, null));
    await flush();
    expect(sym.ack).toBeNull();
    desk.onAccount("n", n("oc-req", null, "ERROR", "Order not found."));
    await flush();
    expect(sym.ack).toMatchObject({ ok: true, status: "SUCCESS", orderIds: [20, 21] });
  });

  it("cancels all the open orders the account knows, and sends nothing when there are none", async () => {
    expect(await desk.cancelMany({ symbol: "tXRPUSD" })).toMatchObject({ ok: true, status: "LOCAL", orderIds: [] });
    expect(await desk.cancelMany({ all: true })).toMatchObject({ ok: true, status: "LOCAL", orderIds: [] });
    expect(sent).toHaveLength(0);
    open = [
      { id: 40, symbol: "tBTCUSD" },
      { id: 41, symbol: "tETHUSD" },
    ];
    const all = track(desk.cancelMany({ all: true }));
    expect(sent).toEqual([[0, "oc_multi", null, { all: 1 }]]);
    // The exchange answers in its own order; 40 filled before it got there (closed, no oc-req).
    desk.onAccount(
      "n",
      n("oc-req", order(41, null), "SUCCESS", "Submitted for cancellation; waiting for confirmation (ID: 41)."),
    );
    await flush();
    expect(all.ack).toBeNull();
    desk.onAccount("oc", order(40, null));
    await flush();
    expect(all.ack).toMatchObject({ ok: true, status: "SUCCESS", orderIds: [40, 41] });
  });

  it("takes a refused oc_multi (maintenance) as the oldest cancel-many's answer", async () => {
    const many = track(desk.cancelMany({ ids: [1] }));
    desk.onAccount("n", n("oc_multi-req", null, "ERROR", "platform: maintenance"));
    await flush();
    expect(many.ack).toEqual({
      ok: false,
      status: "ERROR",
      text: "platform: maintenance",
      orderIds: [],
      localError: null,
    });
  });
});
