import { describe, expect, it } from "vitest";
import { ORDER_FLAGS, orderCodec, walletCodec } from "../../src/protocol/index.ts";
import { testVenue } from "./test-venue.ts";

function setup() {
  const v = testVenue("t@example.com", "tester");
  const { trading, user } = v;
  trading.credit(user, "USD", 100_000, "Deposit");
  trading.credit(user, "BTC", 1, "Deposit");
  const wallet = (ccy: string) => {
    const w = trading.walletsWire(user).find((r) => r[1] === ccy);
    const d = walletCodec.decode(w);
    if (!d.ok) throw new Error("wallet");
    return d.value;
  };
  return { ...v, wallet };
}

describe("account trading", () => {
  it("rests a limit buy below the market, reserving quote, and releases it on cancel", () => {
    const t = setup();
    const bestBid = t.exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const price = Number((bestBid * 0.9).toPrecision(5));
    const r = t.trading.place(t.user, {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.5",
      price: String(price),
    });
    expect(r.ok).toBe(true);
    const order = r.ok ? orderCodec.decode(r.order) : null;
    expect(order?.ok && order.value).toMatchObject({ status: "ACTIVE", amount: 0.5, type: "EXCHANGE LIMIT" });
    expect(t.wallet("USD").available).toBeCloseTo(100_000 - 0.5 * price, 6);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(1);
    const id = order?.ok ? order.value.id : 0;
    expect(t.trading.cancel(t.user, id).ok).toBe(true);
    expect(t.wallet("USD").available).toBe(100_000);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.events.some(([, type, p]) => type === "oc" && (p as unknown[])[13] === "CANCELED")).toBe(true);
  });

  it("updates a resting limit order's price and amount under the same id, resizing its reservation", () => {
    const t = setup();
    const bestBid = t.exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const price = Number((bestBid * 0.9).toPrecision(5));
    const placed = t.trading.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: 0.5, price });
    const id = placed.ok ? (placed.order[0] as number) : 0;
    const lower = Number((price * 0.95).toPrecision(5));
    t.events.length = 0;
    const r = t.trading.update(t.user, { id, price: String(lower), amount: "0.8" });
    expect(r.ok).toBe(true);
    const decoded = r.ok ? orderCodec.decode(r.order) : null;
    expect(decoded?.ok && decoded.value).toMatchObject({ id, price: lower, amount: 0.8, original_amount: 0.8 });
    expect(t.wallet("USD").available).toBeCloseTo(100_000 - 0.8 * lower, 6);
    // One `ou`, no `oc`: to a client the order never closed.
    expect(t.events.map(([, type]) => type).filter((x) => x !== "wu" && x !== "n")).toEqual(["ou"]);
    expect(t.exchange.markets.get("tBTCUSD")?.engine.get(id)?.price).toBe(lower);
    // delta adds to the total; a change the balance cannot cover or that flips the side is refused.
    expect(t.trading.update(t.user, { id, delta: 0.2 })).toMatchObject({ ok: true });
    expect(t.trading.openOrdersWire(t.user)[0]?.[6]).toBe(1);
    expect(t.trading.update(t.user, { id, amount: 1000 })).toMatchObject({ ok: false });
    expect(t.trading.update(t.user, { id, amount: -1 })).toMatchObject({ ok: false, msg: "Invalid order: amount" });
    expect(t.trading.update(t.user, { id: 424242, price: 1 })).toMatchObject({ ok: false, msg: "Order not found." });
    expect(t.wallet("USD").available).toBeCloseTo(100_000 - 1 * lower, 6);
    expect(t.trading.cancel(t.user, id).ok).toBe(true);
    expect(t.wallet("USD").available).toBe(100_000);
  });

  it("fills a market buy, charging the taker fee in the currency received", () => {
    const t = setup();
    const r = t.trading.place(t.user, { type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount: 0.1 });
    expect(r.ok).toBe(true);
    const btc = t.wallet("BTC");
    expect(btc.balance).toBeCloseTo(1 + 0.1 * (1 - 0.002), 8);
    const usd = t.wallet("USD");
    expect(usd.balance).toBeLessThan(100_000);
    expect(usd.available).toBeCloseTo(usd.balance, 6); // nothing left reserved
    const trades = t.events.filter(([, type]) => type === "te");
    expect(trades.length).toBeGreaterThan(0);
    expect(t.events.some(([, type, p]) => type === "oc" && String((p as unknown[])[13]).startsWith("EXECUTED"))).toBe(
      true,
    );
  });

  it("refuses orders the balance cannot cover, and margin or unknown orders, with clear messages", () => {
    const t = setup();
    const sell = t.trading.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: -5, price: 99_999 });
    expect(sell).toMatchObject({ ok: false });
    expect(sell.ok ? "" : sell.msg).toContain("not enough exchange balance");
    expect(t.trading.place(t.user, { type: "LIMIT", symbol: "tBTCUSD", amount: 1, price: 1 })).toMatchObject({
      ok: false,
    });
    expect(t.trading.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tNOPE", amount: 1, price: 1 })).toMatchObject({
      ok: false,
      msg: "Invalid order: symbol",
    });
    expect(
      t.trading.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "abc", price: 1 }),
    ).toMatchObject({ ok: false, msg: "Invalid order: amount" });
    expect(t.wallet("BTC").available).toBe(1);
    expect(t.events.filter(([, type, p]) => type === "n" && (p as unknown[])[6] === "ERROR")).toHaveLength(4);
  });

  it("settles a resting order filled later by the simulator's takers", () => {
    const t = setup();
    const ask = t.exchange.markets.get("tBTCUSD")?.engine.bestAsk() as number;
    // A sell just below the best ask becomes the best ask: the next market buy takes it.
    const r = t.trading.place(t.user, {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: -0.001,
      price: Number((ask - 1).toPrecision(5)),
    });
    expect(r.ok).toBe(true);
    t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.001);
    const usd = t.wallet("USD");
    expect(usd.balance).toBeGreaterThan(100_000);
    expect(t.wallet("BTC").balance).toBeCloseTo(0.999, 8);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
  });
});

describe("stop orders", () => {
  const flushMicrotasks = () => new Promise((r) => setTimeout(r, 0));

  it("keeps a stop off the book until the last price crosses it, then sells at market", async () => {
    const t = setup();
    // Make a trade to set the last price, then a sell stop 0.3 % below it.
    t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.001);
    const last = t.exchange.markets.get("tBTCUSD")?.trades[0]?.price as number;
    const trigger = Number((last * 0.997).toPrecision(5));
    const r = t.trading.place(t.user, { type: "EXCHANGE STOP", symbol: "tBTCUSD", amount: -0.01, price: trigger });
    expect(r.ok).toBe(true);
    expect(t.wallet("BTC").available).toBeCloseTo(0.99, 8);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(1);
    // Sellers push the price down through the trigger.
    for (let i = 0; i < 40 && (t.exchange.markets.get("tBTCUSD")?.trades[0]?.price as number) > trigger; i++) {
      t.exchange.place("tBTCUSD", -10, "sell", "MARKET", Number.NaN, 0.5);
    }
    await flushMicrotasks();
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.wallet("BTC").balance).toBeCloseTo(0.99, 8);
    expect(t.wallet("USD").balance).toBeGreaterThan(100_000);
    expect(t.events.some(([, type, p]) => type === "oc" && String((p as unknown[])[13]).startsWith("EXECUTED"))).toBe(
      true,
    );
  });

  it("places an OCO as a limit and a stop that reserve once; the stop firing cancels the limit", async () => {
    const t = setup();
    t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.001);
    const last = t.exchange.markets.get("tBTCUSD")?.trades[0]?.price as number;
    const takeProfit = Number((last * 1.2).toPrecision(5));
    const stopLoss = Number((last * 0.997).toPrecision(5));
    const r = t.trading.place(t.user, {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: -0.5,
      price: takeProfit,
      flags: ORDER_FLAGS.OCO,
      price_oco_stop: stopLoss,
    } as never);
    expect(r.ok).toBe(true);
    const open = t.trading.openOrdersWire(t.user).map((o) => orderCodec.decode(o));
    expect(open.map((o) => o.ok && [o.value.type, o.value.isOco])).toEqual([
      ["EXCHANGE LIMIT", true],
      ["EXCHANGE STOP", true],
    ]);
    // One reservation for the pair: 0.5 BTC, not 1.
    expect(t.wallet("BTC").available).toBeCloseTo(0.5, 8);
    for (let i = 0; i < 40 && (t.exchange.markets.get("tBTCUSD")?.trades[0]?.price as number) > stopLoss; i++) {
      t.exchange.place("tBTCUSD", -10, "sell", "MARKET", Number.NaN, 0.5);
    }
    await flushMicrotasks();
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.wallet("BTC").balance).toBeCloseTo(0.5, 8);
    expect(t.wallet("BTC").available).toBeCloseTo(0.5, 8);
    const closed = t.events.filter(([, type]) => type === "oc").map(([, , p]) => String((p as unknown[])[13]));
    expect(closed.some((s) => s.startsWith("CANCELED"))).toBe(true);
    expect(closed.some((s) => s.startsWith("EXECUTED"))).toBe(true);
  });

  it("closes an OCO's stop when its limit fills or is cancelled, and refuses a stop on the wrong side", () => {
    const t = setup();
    t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.001);
    const last = t.exchange.markets.get("tBTCUSD")?.trades[0]?.price as number;
    const oco = (price: number, stop: number) =>
      t.trading.place(t.user, {
        type: "EXCHANGE LIMIT",
        symbol: "tBTCUSD",
        amount: 0.1,
        price,
        flags: ORDER_FLAGS.OCO,
        price_oco_stop: stop,
      } as never);
    expect(oco(Number((last * 0.9).toPrecision(5)), Number((last * 0.95).toPrecision(5)))).toMatchObject({
      ok: false,
      msg: "Invalid order: price_oco_stop must be above the last price",
    });
    // A buy limit above the market fills at once: its stop goes with it, and nothing stays reserved.
    const filled = oco(Number((last * 1.05).toPrecision(5)), Number((last * 1.1).toPrecision(5)));
    expect(filled.ok).toBe(true);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.wallet("USD").available).toBeCloseTo(t.wallet("USD").balance, 6);
    // Cancelling the limit of a resting pair takes the stop too.
    const resting = oco(Number((last * 0.9).toPrecision(5)), Number((last * 1.1).toPrecision(5)));
    const id = resting.ok ? (resting.order[0] as number) : 0;
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(2);
    expect(t.trading.update(t.user, { id, price: 1 })).toMatchObject({ ok: false });
    expect(t.trading.cancel(t.user, id).ok).toBe(true);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.wallet("USD").available).toBeCloseTo(t.wallet("USD").balance, 6);
  });

  it("moves a trailing stop's trigger with the price and cancels a pending stop cleanly", async () => {
    const t = setup();
    t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.001);
    const r = t.trading.place(t.user, {
      type: "EXCHANGE TRAILING STOP",
      symbol: "tBTCUSD",
      amount: -0.01,
      price_trailing: 500,
    } as never);
    expect(r.ok).toBe(true);
    const before = (r.ok ? (r.order as unknown[])[16] : 0) as number;
    for (let i = 0; i < 10; i++) t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.5);
    await flushMicrotasks();
    const open = t.trading.openOrdersWire(t.user);
    expect(open).toHaveLength(1);
    expect((open[0] as unknown[])[16] as number).toBeGreaterThan(before);
    const id = (open[0] as unknown[])[0] as number;
    expect(t.trading.cancel(t.user, id).ok).toBe(true);
    expect(t.wallet("BTC").available).toBe(1);
    expect(t.trading.openOrdersWire(t.user)).toHaveLength(0);
  });

  it("rejects stops with bad prices", () => {
    const t = setup();
    expect(
      t.trading.place(t.user, { type: "EXCHANGE STOP LIMIT", symbol: "tBTCUSD", amount: 0.01, price: 31_000 }),
    ).toMatchObject({
      ok: false,
      msg: "Invalid order: price_aux_limit",
    });
    expect(
      t.trading.place(t.user, { type: "EXCHANGE TRAILING STOP", symbol: "tBTCUSD", amount: -0.01 } as never),
    ).toMatchObject({
      ok: false,
      msg: "Invalid order: price_trailing",
    });
  });
});
