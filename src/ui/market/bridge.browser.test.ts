/**
 * The market-data worker in Chromium, through the Comlink bridge, against a local websocket server:
 * views arrive as transferred typed arrays, with the status and health the badge needs.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import type { AccountView, BookView, ConnectionState } from "../../protocol";
import { createMarketBridge } from "./bridge";

const bridge = createMarketBridge();
afterAll(() => bridge.dispose());

describe("market worker through the bridge", () => {
  it("streams a book view from the socket as a typed array with cumulative totals", async () => {
    await bridge.configure({ wsPublic: inject("exchangeUrl"), watchdogMs: 60_000 });
    const states: ConnectionState[] = [];
    await bridge.connection((s) => states.push(s));
    const views: BookView[] = [];
    const ac = new AbortController();
    await bridge.book(
      { symbol: "tBTCUSD", prec: "P0", len: 25, depth: 25, throttleMs: 0 },
      (v) => views.push(v),
      ac.signal,
    );
    await expect.poll(() => views.some((v) => v.status === "SUBSCRIBED" && v.bids === 2), { timeout: 5000 }).toBe(true);
    const view = views.find((v) => v.bids === 2) as BookView;
    expect(view.levels).toBeInstanceOf(Float64Array);
    // bids best first, then asks: [price, count, |amount|, cumulative]
    expect(Array.from(view.levels)).toEqual([100, 1, 2, 2, 99, 2, 1, 3, 101, 1, 3, 3]);
    expect(view.health.lastUpdateAt).toBeGreaterThan(0);
    expect(states.some((s) => s.status === "online")).toBe(true);
    expect(states.at(-1)?.platform).toBe(1);
    ac.abort();
  });

  it("runs the stress source through the same checksum-verified path", async () => {
    await bridge.stress({ intervalMs: 10, count: 8 });
    const views: BookView[] = [];
    const ac = new AbortController();
    await bridge.book(
      { symbol: "tSTRESS", prec: "P0", len: 250, depth: 250, throttleMs: 50 },
      (v) => views.push(v),
      ac.signal,
    );
    await expect.poll(() => views.at(-1)?.health.checksumsOk ?? 0, { timeout: 5000 }).toBeGreaterThan(3);
    const last = views.at(-1) as BookView;
    expect(last.health.checksumsFailed).toBe(0);
    expect(last.bids).toBeGreaterThan(100);
    expect(last.levels.length).toBe((last.bids + last.asks) * 4);
    // Throttled: far fewer views than updates.
    expect(views.length).toBeLessThan(last.version);
    await bridge.stress(null);
    ac.abort();
  });

  it("authenticates with an API key signed inside the worker and reconciles the account", async () => {
    const bad = await bridge.authenticate({ kind: "apiKey", key: "key", secret: "wrong" });
    expect(bad).toMatchObject({ ok: false, code: 10100 });
    const good = await bridge.authenticate({ kind: "apiKey", key: "key", secret: "secret" });
    expect(good).toMatchObject({ ok: true, userId: 4242 });
    const views: AccountView[] = [];
    const ac = new AbortController();
    await bridge.account((v) => views.push(v), ac.signal);
    await expect.poll(() => views.at(-1)?.wallets.length ?? 0, { timeout: 5000 }).toBe(2);
    const btc = views.at(-1)?.wallets.find((w) => w.currency === "BTC");
    // available null on the wire: falls back to the balance (docs/product-rules.md#derived-fields)
    expect(btc?.available).toBe(0.5);
    await bridge.signOut();
    ac.abort();
  });

  it("places, updates and cancels orders through the worker, each call resolved with the exchange's answer", async () => {
    expect((await bridge.cancelOrder(1)).localError).toBe("not-authenticated");
    expect(await bridge.authenticate({ kind: "apiKey", key: "key", secret: "secret" })).toMatchObject({ ok: true });
    const views: AccountView[] = [];
    const ac = new AbortController();
    await bridge.account((v) => views.push(v), ac.signal);
    const placed = await bridge.submitOrder({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.5", price: "99" });
    expect(placed).toMatchObject({ ok: true, status: "SUCCESS", localError: null });
    expect(placed.orderIds).toHaveLength(1);
    const id = placed.orderIds[0] as number;
    const refused = await bridge.submitOrder({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "500", price: "99" });
    expect(refused).toMatchObject({ ok: false, status: "ERROR", orderIds: [] });
    expect(refused.text).toContain("not enough exchange balance");
    expect(await bridge.updateOrder({ id, price: "98" })).toMatchObject({ ok: true, orderIds: [id] });
    await expect.poll(() => views.at(-1)?.orders.find((o) => o.id === id)?.price, { timeout: 5000 }).toBe(98);
    const other = await bridge.submitOrder({ type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "-0.1", price: "105" });
    expect(await bridge.cancelOrder(424242)).toMatchObject({ ok: false, text: "Order not found." });
    // By symbol: the ids come from the account the worker reconciled.
    await expect.poll(() => views.at(-1)?.orders.length, { timeout: 5000 }).toBe(2);
    const gone = await bridge.cancelOrders({ symbol: "tBTCUSD" });
    expect(gone).toMatchObject({ ok: true, status: "SUCCESS" });
    expect([...gone.orderIds].sort()).toEqual([id, ...other.orderIds].sort());
    await expect.poll(() => views.at(-1)?.orders.length, { timeout: 5000 }).toBe(0);
    await bridge.signOut();
    expect((await bridge.cancelOrders({ all: true })).localError).toBe("not-authenticated");
    ac.abort();
  });

  it("streams candles oldest first and status rows", async () => {
    const ac = new AbortController();
    let candles: Float64Array | null = null;
    let status: unknown = null;
    await bridge.candles("trade:1m:tBTCUSD", 0, (v) => (candles = v.count > 0 ? v.rows : candles), ac.signal);
    await bridge.status("deriv:tBTCF0:USTF0", (v) => (status = v.payload ?? status), ac.signal);
    await expect.poll(() => candles?.length ?? 0, { timeout: 5000 }).toBe(12);
    expect(Array.from((candles as unknown as Float64Array).subarray(0, 6))).toEqual([60000, 10, 11, 12, 9, 4]);
    await expect.poll(() => status, { timeout: 5000 }).toEqual([1790133734000, null, 86710.5, 86670.5]);
    ac.abort();
  });
});
