import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  authTradeCodec,
  decodeFeeEntry,
  MAKER_FEE_RATE as MAKER_FEE,
  notificationCodec,
  ORDER_FLAGS,
  orderCodec,
  PAPER_CONTEXT_PATH,
  PAPER_OPEN_PATH,
  walletCodec,
} from "../../src/protocol/index.ts";
import { demoSession, orderSubmitter, p5, wait } from "../test-support/session.ts";
import { testVenue } from "../test-support/venue.ts";
import { messageText } from "../ws-text.ts";
import { openVenue } from "./venue.ts";

function setup() {
  const v = testVenue("t@example.com", "tester");
  const { balances, user } = v;
  balances.credit(user, "USD", 100_000, "Deposit");
  balances.credit(user, "BTC", 1, "Deposit");
  const wallet = (ccy: string) => {
    const w = balances.walletsWire(user).find((r) => r[1] === ccy);
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
    const r = t.orders.place(t.user, {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: "0.5",
      price: String(price),
    });
    expect(r.ok).toBe(true);
    const order = r.ok ? orderCodec.decode(r.order) : null;
    expect(order?.ok && order.value).toMatchObject({ status: "ACTIVE", amount: 0.5, type: "EXCHANGE LIMIT" });
    expect(t.wallet("USD").available).toBeCloseTo(100_000 - 0.5 * price, 6);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(1);
    const id = order?.ok ? order.value.id : 0;
    expect(t.orders.cancel(t.user, id).ok).toBe(true);
    expect(t.wallet("USD").available).toBe(100_000);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.events.some(([, type, p]) => type === "oc" && (p as unknown[])[13] === "CANCELED")).toBe(true);
  });

  it("updates a resting limit order's price and amount under the same id, resizing its reservation", () => {
    const t = setup();
    const bestBid = t.exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
    const price = Number((bestBid * 0.9).toPrecision(5));
    const placed = t.orders.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: 0.5, price });
    const id = placed.ok ? (placed.order[0] as number) : 0;
    const lower = Number((price * 0.95).toPrecision(5));
    t.events.length = 0;
    const r = t.orders.update(t.user, { id, price: String(lower), amount: "0.8" });
    expect(r.ok).toBe(true);
    const decoded = r.ok ? orderCodec.decode(r.order) : null;
    expect(decoded?.ok && decoded.value).toMatchObject({ id, price: lower, amount: 0.8, original_amount: 0.8 });
    expect(t.wallet("USD").available).toBeCloseTo(100_000 - 0.8 * lower, 6);
    // One `ou`, no `oc`: to a client the order never closed.
    expect(t.events.map(([, type]) => type).filter((x) => x !== "wu" && x !== "n")).toEqual(["ou"]);
    expect(t.exchange.markets.get("tBTCUSD")?.engine.get(id)?.price).toBe(lower);
    // delta adds to the total; a change the balance cannot cover or that flips the side is refused.
    expect(t.orders.update(t.user, { id, delta: 0.2 })).toMatchObject({ ok: true });
    expect(t.orders.openOrdersWire(t.user)[0]?.[6]).toBe(1);
    expect(t.orders.update(t.user, { id, amount: 1000 })).toMatchObject({ ok: false });
    expect(t.orders.update(t.user, { id, amount: -1 })).toMatchObject({ ok: false, msg: "Invalid order: amount" });
    expect(t.orders.update(t.user, { id: 424242, price: 1 })).toMatchObject({ ok: false, msg: "Order not found." });
    expect(t.wallet("USD").available).toBeCloseTo(100_000 - 1 * lower, 6);
    expect(t.orders.cancel(t.user, id).ok).toBe(true);
    expect(t.wallet("USD").available).toBe(100_000);
  });

  it("fills a market buy, charging the taker fee in the currency received", () => {
    const t = setup();
    const r = t.orders.place(t.user, { type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount: 0.1 });
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
    const sell = t.orders.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: -5, price: 99_999 });
    expect(sell).toMatchObject({ ok: false });
    expect(sell.ok ? "" : sell.msg).toContain("not enough exchange balance");
    expect(t.orders.place(t.user, { type: "LIMIT", symbol: "tBTCUSD", amount: 1, price: 1 })).toMatchObject({
      ok: false,
    });
    expect(t.orders.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tNOPE", amount: 1, price: 1 })).toMatchObject({
      ok: false,
      msg: "Invalid order: symbol",
    });
    expect(
      t.orders.place(t.user, { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "abc", price: 1 }),
    ).toMatchObject({ ok: false, msg: "Invalid order: amount" });
    expect(t.wallet("BTC").available).toBe(1);
    expect(t.events.filter(([, type, p]) => type === "n" && (p as unknown[])[6] === "ERROR")).toHaveLength(4);
  });

  it("settles a resting order filled later by the simulator's takers", () => {
    const t = setup();
    const ask = t.exchange.markets.get("tBTCUSD")?.engine.bestAsk() as number;
    // A sell just below the best ask becomes the best ask: the next market buy takes it.
    const r = t.orders.place(t.user, {
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
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
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
    const r = t.orders.place(t.user, { type: "EXCHANGE STOP", symbol: "tBTCUSD", amount: -0.01, price: trigger });
    expect(r.ok).toBe(true);
    expect(t.wallet("BTC").available).toBeCloseTo(0.99, 8);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(1);
    // Sellers push the price down through the trigger.
    for (let i = 0; i < 40 && (t.exchange.markets.get("tBTCUSD")?.trades[0]?.price as number) > trigger; i++) {
      t.exchange.place("tBTCUSD", -10, "sell", "MARKET", Number.NaN, 0.5);
    }
    await flushMicrotasks();
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
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
    const r = t.orders.place(t.user, {
      type: "EXCHANGE LIMIT",
      symbol: "tBTCUSD",
      amount: -0.5,
      price: takeProfit,
      flags: ORDER_FLAGS.OCO,
      price_oco_stop: stopLoss,
    });
    expect(r.ok).toBe(true);
    const open = t.orders.openOrdersWire(t.user).map((o) => orderCodec.decode(o));
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
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
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
      t.orders.place(t.user, {
        type: "EXCHANGE LIMIT",
        symbol: "tBTCUSD",
        amount: 0.1,
        price,
        flags: ORDER_FLAGS.OCO,
        price_oco_stop: stop,
      });
    expect(oco(Number((last * 0.9).toPrecision(5)), Number((last * 0.95).toPrecision(5)))).toMatchObject({
      ok: false,
      msg: "Invalid order: price_oco_stop must be above the last price",
    });
    // A buy limit above the market fills at once: its stop goes with it, and nothing stays reserved.
    const filled = oco(Number((last * 1.05).toPrecision(5)), Number((last * 1.1).toPrecision(5)));
    expect(filled.ok).toBe(true);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.wallet("USD").available).toBeCloseTo(t.wallet("USD").balance, 6);
    // Cancelling the limit of a resting pair takes the stop too.
    const resting = oco(Number((last * 0.9).toPrecision(5)), Number((last * 1.1).toPrecision(5)));
    const id = resting.ok ? (resting.order[0] as number) : 0;
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(2);
    expect(t.orders.update(t.user, { id, price: 1 })).toMatchObject({ ok: false });
    expect(t.orders.cancel(t.user, id).ok).toBe(true);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.wallet("USD").available).toBeCloseTo(t.wallet("USD").balance, 6);
  });

  it("moves a trailing stop's trigger with the price and cancels a pending stop cleanly", async () => {
    const t = setup();
    t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.001);
    const r = t.orders.place(t.user, {
      type: "EXCHANGE TRAILING STOP",
      symbol: "tBTCUSD",
      amount: -0.01,
      price_trailing: 500,
    });
    expect(r.ok).toBe(true);
    const before = (r.ok ? r.order[16] : 0) as number;
    for (let i = 0; i < 10; i++) t.exchange.place("tBTCUSD", -10, "buy", "MARKET", Number.NaN, 0.5);
    await flushMicrotasks();
    const open = t.orders.openOrdersWire(t.user);
    expect(open).toHaveLength(1);
    expect((open[0] as unknown[])[16] as number).toBeGreaterThan(before);
    const id = (open[0] as unknown[])[0] as number;
    expect(t.orders.cancel(t.user, id).ok).toBe(true);
    expect(t.wallet("BTC").available).toBe(1);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
  });

  it("rejects stops with bad prices", () => {
    const t = setup();
    expect(
      t.orders.place(t.user, { type: "EXCHANGE STOP LIMIT", symbol: "tBTCUSD", amount: 0.01, price: 31_000 }),
    ).toMatchObject({
      ok: false,
      msg: "Invalid order: price_aux_limit",
    });
    expect(t.orders.place(t.user, { type: "EXCHANGE TRAILING STOP", symbol: "tBTCUSD", amount: -0.01 })).toMatchObject({
      ok: false,
      msg: "Invalid order: price_trailing",
    });
  });
});

describe("order types and the maker fee over the wire", () => {
  const SYMBOL = "tBTCUSD";
  const venue = openVenue({ dbPath: ":memory:", seed: 21, markets: [{ symbol: SYMBOL, start: 30_000 }] });
  const s = demoSession({
    exchange: venue.exchange,
    account: venue.gateway,
    limits: { public: 1000, auth: 1000, login: 50 },
  });
  const engine = () => venue.exchange.markets.get(SYMBOL)?.engine;

  async function wallet(ccy: string): Promise<{ balance: number; available: number }> {
    const { body } = await s.rest("/v2/auth/r/wallets");
    const list = walletCodec.decodeList(body);
    const w = list.ok ? list.value.find((x) => x.type === "exchange" && x.currency === ccy) : undefined;
    return { balance: w?.balance ?? Number.NaN, available: w?.available ?? Number.NaN };
  }

  const submit = orderSubmitter(s, SYMBOL);

  async function closedStatus(id: number): Promise<string> {
    const { body } = await s.rest("/v2/auth/r/orders/hist", { limit: 100 });
    const row = (body as unknown[][]).find((o) => o[0] === id);
    return String(row?.[13]);
  }
  it("a STOP LIMIT triggers on the last price and rests at its limit", async () => {
    const before = await wallet("USD");
    const bid = engine()?.bestBid() as number;
    const limit = p5(bid * 0.8);
    // A buy stop triggers when the last price is at or above its trigger: 1000 is crossed at once.
    const stop = await submit({ type: "EXCHANGE STOP LIMIT", amount: "0.01", price: "1000", price_aux_limit: limit });
    expect(stop).toMatchObject({ status: "ACTIVE", price: 1000, price_aux_limit: limit });
    expect(engine()?.get(stop.id)).toBeUndefined();
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.001);
    await wait(50);
    const resting = engine()?.get(stop.id);
    expect(resting).toMatchObject({ price: limit, remaining: 0.01, type: "LIMIT" });
    // It holds exactly its limit's worth, and cancelling gives it back.
    expect((await wallet("USD")).available).toBeCloseTo(before.available - 0.01 * limit, 8);
    expect((await s.rest("/v2/auth/w/order/cancel", { id: stop.id })).status).toBe(200);
    expect(await wallet("USD")).toEqual(before);
  });

  it("EXCHANGE IOC, FOK and post-only that cannot do what they ask close at once and release everything", async () => {
    const usd = await wallet("USD");
    const btc = await wallet("BTC");
    const ask = engine()?.bestAsk() as number;
    const bid = engine()?.bestBid() as number;
    // IOC below the asks: nothing to take now, cancelled.
    const ioc = await submit({ type: "EXCHANGE IOC", amount: "0.01", price: p5(bid * 0.99) });
    expect(ioc.status).toBe("CANCELED");
    // FOK at the bid, where no ask is: nothing to fill it whole, killed.
    const fok = await submit({ type: "EXCHANGE FOK", amount: "2", price: bid });
    expect(fok.status).toBe("FILLORKILL CANCELED");
    // A post-only sell at the bid would take: cancelled.
    const post = await submit({ type: "EXCHANGE LIMIT", amount: "-0.01", price: bid, flags: 4096 });
    expect(post.status).toBe("POSTONLY CANCELED");
    for (const o of [ioc, fok, post]) expect(await closedStatus(o.id)).toBe(o.status);
    expect((await s.rest("/v2/auth/r/orders")).body).toEqual([]);
    expect(await wallet("USD")).toEqual(usd);
    expect(await wallet("BTC")).toEqual(btc);
    // An IOC that can fill does, and keeps nothing reserved.
    const taken = await submit({ type: "EXCHANGE IOC", amount: "0.001", price: p5(ask * 1.01) });
    expect(taken.status).toMatch(/^EXECUTED @/);
    const after = await wallet("USD");
    expect(after.available).toBe(after.balance);
  });

  it("a hidden order rests off the public book, reserved, and its cancel releases it", async () => {
    const usd = await wallet("USD");
    const price = p5((engine()?.bestBid() as number) * 0.7);
    const hidden = await submit({ type: "EXCHANGE LIMIT", amount: "0.02", price, flags: 64 });
    expect(hidden).toMatchObject({ status: "ACTIVE", hidden: true });
    expect(engine()?.get(hidden.id)?.hidden).toBe(true);
    const book = (await (await fetch(`http://${s.host}/v2/book/${SYMBOL}/P0?len=100`)).json()) as number[][];
    expect(book.some((e) => e[0] === price)).toBe(false);
    const raw = (await (await fetch(`http://${s.host}/v2/book/${SYMBOL}/R0?len=100`)).json()) as number[][];
    expect(raw.some((e) => e[0] === hidden.id)).toBe(false);
    expect((await wallet("USD")).available).toBeCloseTo(usd.available - 0.02 * price, 8);
    await s.rest("/v2/auth/w/order/cancel", { id: hidden.id });
    expect(await wallet("USD")).toEqual(usd);
  });

  it("charges the spot maker fee exactly (0.1 % of what the maker receives)", async () => {
    const usd = await wallet("USD");
    const btc = await wallet("BTC");
    const bid = engine()?.bestBid() as number;
    const ask = engine()?.bestAsk() as number;
    // A sell between the bid and the ask rests as the best ask; a taker then buys exactly it.
    const price = p5(bid + (ask - bid) / 2) > bid ? p5(bid + (ask - bid) / 2) : ask;
    const sell = await submit({ type: "EXCHANGE LIMIT", amount: "-0.05", price });
    expect(engine()?.bestAsk()).toBe(price);
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.05);
    await wait(50);
    const { body } = await s.rest("/v2/auth/r/trades/hist", { limit: 5 });
    const mine = (body as unknown[])
      .map((t) => authTradeCodec.decode(t))
      .find((t) => t.ok && t.value.order_id === sell.id);
    const fee = Math.round(0.05 * price * 1e8 * MAKER_FEE) / 1e8;
    expect(mine?.ok && mine.value).toMatchObject({
      isMaker: true,
      fee: -fee,
      fee_currency: "USD",
      exec_price: price,
      exec_amount: -0.05,
    });
    const gross = Math.round(0.05 * price * 1e8) / 1e8;
    expect((await wallet("USD")).balance).toBeCloseTo(usd.balance + gross - fee, 8);
    expect((await wallet("BTC")).balance).toBeCloseTo(btc.balance - 0.05, 8);
  });
});

describe("self-trade prevention and fee overrides over the wire", () => {
  const SYMBOL = "tBTCUSD";
  const TEST = "tTESTBTC:TESTUSD";
  const venue = openVenue({
    dbPath: ":memory:",
    seed: 31,
    markets: [
      { symbol: SYMBOL, start: 30_000 },
      { symbol: TEST, start: 30_000 },
    ],
  });
  const s = demoSession({ exchange: venue.exchange, account: venue.gateway, bookBatchMs: 400 });
  const engine = (symbol = SYMBOL) => venue.exchange.markets.get(symbol)?.engine;

  const submit = orderSubmitter(s, SYMBOL);

  const conf = async (key: string): Promise<unknown> =>
    ((await (await fetch(`http://${s.host}/v2/conf/${key}`)).json()) as unknown[])[0];
  it("an order self-trade prevention cancels keeps its leftover amount in oc", async () => {
    const { ws, frames } = await s.socket();
    const bid = engine()?.bestBid() as number;
    const ask = engine()?.bestAsk() as number;
    const mid = p5(bid + (ask - bid) / 2) > bid ? p5(bid + (ask - bid) / 2) : ask;
    const sell = await submit({ type: "EXCHANGE LIMIT", amount: "-0.3", price: mid });
    expect(engine()?.bestAsk()).toBe(mid);
    // The own buy reaches the own sell first: that sell is cancelled, not traded.
    const buy = await submit({ type: "EXCHANGE LIMIT", amount: "0.1", price: mid });
    await wait(100);
    const oc = frames.find((f) => f[1] === "oc" && (f[2] as unknown[])[0] === sell.id);
    const closed = orderCodec.decode(oc?.[2]);
    expect(closed.ok && closed.value).toMatchObject({
      status: "CANCELED was: self-trade prevention",
      amount: -0.3,
      original_amount: -0.3,
    });
    const hist = (await s.rest("/v2/auth/r/orders/hist")).body as unknown[][];
    expect(hist.find((o) => o[0] === sell.id)?.[6]).toBe(-0.3);
    expect((await s.rest("/v2/auth/r/trades/hist")).body).toEqual([]);
    await s.rest("/v2/auth/w/order/cancel", { id: buy.id });
    ws.close();
  });
  it("pub:info:pair:fee:ovr is exactly what settlement charges", async () => {
    const ovr = (await conf("pub:info:pair:fee:ovr")) as unknown[];
    const entries = ovr.map((e) => decodeFeeEntry(e));
    expect(entries.every((e) => e.ok)).toBe(true);
    const test = entries.find((e) => e.ok && e.value.pair === TEST.slice(1));
    expect(test?.ok && test.value).toEqual({ pair: "TESTBTC:TESTUSD", taker_fee: 0, maker_fee: 0 });
    expect(entries.some((e) => e.ok && e.value.pair === "BTCUSD")).toBe(false);
    // A taker buy on the TEST pair pays its override's rate: nothing. The TEST pairs are a paper
    // account's only (server/paper.ts): the demo's, entered from its session.
    await s.rest(PAPER_OPEN_PATH);
    const paperToken = ((await s.rest(PAPER_CONTEXT_PATH)).body as string[])[0] ?? "";
    const asPaper = async (path: string, body: unknown = {}): Promise<unknown> =>
      (
        await fetch(`http://${s.host}${path}`, {
          method: "POST",
          headers: { "bfx-token": paperToken, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json();
    const ask = engine(TEST)?.bestAsk() as number;
    const n = notificationCodec.decode(
      await asPaper("/v2/auth/w/order/submit", {
        symbol: TEST,
        type: "EXCHANGE IOC",
        amount: "0.01",
        price: p5(ask * 1.01),
      }),
    );
    const o = orderCodec.decode(n.ok ? (n.value.data as unknown[])[0] : null);
    expect(o.ok && o.value.status).toMatch(/^EXECUTED/);
    const trades = ((await asPaper(`/v2/auth/r/trades/${TEST}/hist`)) as unknown[]).map((t) =>
      authTradeCodec.decode(t),
    );
    expect(trades.length).toBeGreaterThan(0);
    for (const t of trades) expect(t.ok && t.value.fee).toBe(0);
    // And BTCUSD, with no override, pays the standard taker rate.
    const btcAsk = engine()?.bestAsk() as number;
    await submit({ type: "EXCHANGE IOC", amount: "0.01", price: p5(btcAsk * 1.01) });
    const btc = ((await s.rest(`/v2/auth/r/trades/${SYMBOL}/hist`)).body as unknown[]).map((t) =>
      authTradeCodec.decode(t),
    );
    for (const t of btc) if (t.ok) expect(t.value.fee).toBeCloseTo(-Math.abs(t.value.exec_amount) * 0.002, 8);
  });
});

/**
 * A stop buy far below the market that the account cannot pay for when it fires: the engine once
 * matched it in memory, SQLite rolled back and the throw inside a microtask killed the process.
 */
describe("a stop the account cannot pay for when it fires", () => {
  const SYMBOL = "tBTCUSD";
  const venue = openVenue({ dbPath: ":memory:", seed: 11, markets: [{ symbol: SYMBOL, start: 30_000 }] });
  const user = venue.accounts.createUser("poor@example.com", "poor", "poor-password-1", Date.now(), true);
  venue.balances.credit(user, "USD", 600, "Deposit");

  const s = demoSession({
    exchange: venue.exchange,
    account: venue.gateway,
    login: { username: "poor", password: "poor-password-1" },
  });
  const rest = s.rest;

  async function usd(): Promise<{ balance: number; available: number | null }> {
    const { body } = await rest("/v2/auth/r/wallets");
    const list = walletCodec.decodeList(body);
    if (!list.ok) throw new Error("wallets");
    const w = list.value.find((x) => x.currency === "USD");
    return { balance: w?.balance ?? 0, available: w?.available ?? null };
  }

  /** A socket authenticated with the token, subscribed to the P0 book; keeps the book as the feed says. */
  async function watcher(): Promise<{ ws: WebSocket; account: unknown[][]; book: Map<number, number> }> {
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    const account: unknown[][] = [];
    const book = new Map<number, number>();
    let chan = -1;
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (!Array.isArray(f)) {
        const ev = f as Record<string, unknown>;
        if (ev["event"] === "subscribed") chan = ev["chanId"] as number;
        return;
      }
      if (f[0] === 0) account.push(f);
      if (f[0] !== chan || f[1] === "hb") return;
      const entries = (Array.isArray(f[1]) && Array.isArray(f[1][0]) ? f[1] : [f[1]]) as number[][];
      for (const [price, count, amount] of entries) {
        if (count === 0) book.delete(price as number);
        else book.set(price as number, amount as number);
      }
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token: s.token }));
    ws.send(JSON.stringify({ event: "subscribe", channel: "book", symbol: SYMBOL, prec: "P0", len: "25" }));
    await wait(150);
    return { ws, account, book };
  }

  /** The engine's top 25 visible levels per side, as the P0 feed should show them. */
  function engineBook(): Map<number, number> {
    const engine = venue.exchange.markets.get(SYMBOL)?.engine;
    const out = new Map<number, number>();
    for (const side of [engine?.bids, engine?.asks]) {
      const sum = new Map<number, number>();
      for (const o of engine?.resting() ?? [])
        if (!o.hidden && (o.side === "buy") === (side === engine?.bids))
          sum.set(o.price, (sum.get(o.price) ?? 0) + (o.side === "buy" ? o.remaining : -o.remaining));
      for (const p of (side?.prices ?? []).slice(0, 25)) {
        const a = sum.get(p);
        if (a !== undefined) out.set(p, Number(a.toFixed(8)));
      }
    }
    return out;
  }
  it("is cancelled unfilled with a clear status; balances, engine and feed stay consistent", async () => {
    const w = await watcher();
    const before = await usd();
    expect(before).toEqual({ balance: 600, available: 600 });
    // Reserves 0.5 × 1000 × 1.05 = 525 of the 600: accepted.
    const placed = await rest("/v2/auth/w/order/submit", {
      type: "EXCHANGE STOP",
      symbol: SYMBOL,
      amount: "0.5",
      price: "1000",
    });
    expect(placed.status).toBe(200);
    const id = ((placed.body as unknown[])[4] as unknown[][])[0]?.[0] as number;
    expect((await usd()).available).toBe(75);
    // One simulator trade at ~30 000 crosses the trigger: the stop fires as a market buy of
    // 0.5 BTC (~15 000 USD) the account cannot pay.
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.01);
    await wait(150);
    expect(await usd()).toEqual({ balance: 600, available: 600 });
    expect((await rest("/v2/auth/r/orders")).body).toEqual([]);
    const hist = (await rest("/v2/auth/r/orders/hist")).body as unknown[];
    const closed = orderCodec.decode(hist.find((o) => (o as unknown[])[0] === id));
    expect(closed.ok && closed.value).toMatchObject({ status: "INSUFFICIENT BALANCE", amount: 0.5 });
    // The socket was told: the order closed (oc) and an error notification says why.
    expect(w.account.some((f) => f[1] === "oc" && (f[2] as unknown[])[0] === id)).toBe(true);
    const note = w.account
      .filter((f) => f[1] === "n")
      .map((f) => notificationCodec.decode(f[2]))
      .find((n) => n.ok && n.value.status === "ERROR");
    expect(note?.ok && note.value.message).toMatch(/not enough exchange balance/);
    // No trade was booked for the account, and no wallet ever went negative.
    expect((await rest("/v2/auth/r/trades/hist")).body).toEqual([]);
    const negative = venue.db.prepare("SELECT COUNT(*) AS n FROM wallets WHERE balance < 0 OR reserved < 0").get() as {
      n: number;
    };
    expect(negative.n).toBe(0);
    // The book the feed shows is the engine's.
    expect(new Map([...w.book].sort((a, b) => a[0] - b[0]))).toEqual(
      new Map([...engineBook()].sort((a, b) => a[0] - b[0])),
    );
    w.ws.close();
  });

  it("a stop the account can pay for still fires and fills", async () => {
    venue.balances.credit(user, "USD", 20_000, "Deposit");
    const placed = await rest("/v2/auth/w/order/submit", {
      type: "EXCHANGE STOP",
      symbol: SYMBOL,
      amount: "0.1",
      price: "1000",
    });
    expect(placed.status).toBe(200);
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.01);
    await wait(100);
    const trades = (await rest("/v2/auth/r/trades/hist")).body as unknown[][];
    expect(trades.reduce((s, t) => s + (t[4] as number), 0)).toBeCloseTo(0.1, 8);
    const w = await usd();
    expect(w.balance).toBeLessThan(20_600);
    expect(w.available).toBe(w.balance);
  });
});
