import { describe, expect, it } from "vitest";
import { MatchingEngine, newEngineOrder, type EngineOrderType, type Side } from "./engine";

let nextId = 1;
function setup() {
  let trade = 0;
  return new MatchingEngine(() => ++trade);
}
function order(
  side: Side,
  price: number,
  amount: number,
  owner = 1,
  type: EngineOrderType = "LIMIT",
  extra: { hidden?: boolean; postOnly?: boolean } = {},
) {
  return newEngineOrder({ id: nextId++, owner, side, type, price, amount, now: 1000, ...extra });
}

describe("matching engine", () => {
  it("rests limit orders best-first and reports visible level changes", () => {
    const e = setup();
    const r1 = e.submit(order("buy", 100, 1), 1);
    const r2 = e.submit(order("buy", 101, 2), 2);
    e.submit(order("sell", 105, 1), 3);
    expect(r1.rested && r2.rested).toBe(true);
    expect(e.bestBid()).toBe(101);
    expect(e.bestAsk()).toBe(105);
    expect(r2.levels).toEqual([{ side: "buy", price: 101, deltaAmount: 2, deltaCount: 1 }]);
  });

  it("matches by price, then time, at the maker's price, with exchange status strings", () => {
    const e = setup();
    const a = order("sell", 101, 1, 2);
    const b = order("sell", 100, 1, 3);
    const c = order("sell", 100, 1, 4);
    e.submit(a, 1);
    e.submit(b, 2);
    e.submit(c, 3);
    const taker = order("buy", 101, 2.5, 9);
    const r = e.submit(taker, 4);
    expect(r.fills.map((f) => [f.maker.id, f.price, f.amount])).toEqual([
      [b.id, 100, 1],
      [c.id, 100, 1],
      [a.id, 101, 0.5],
    ]);
    expect(taker.status).toBe("EXECUTED @ 101.0(0.5): was PARTIALLY FILLED @ 100.0(1)");
    expect(taker.avgPrice).toBeCloseTo(100.2, 10);
    expect(a.status).toBe("PARTIALLY FILLED @ 101.0(-0.5)");
    expect(a.remaining).toBe(0.5);
    expect(e.bestAsk()).toBe(101);
  });

  it("fills market orders against the book and cancels what is left", () => {
    const e = setup();
    e.submit(order("buy", 99, 1, 2), 1);
    const m = order("sell", Number.NaN, 3, 5, "MARKET");
    const r = e.submit(m, 2);
    expect(r.fills).toHaveLength(1);
    expect(m.status).toBe("CANCELED was: PARTIALLY FILLED @ 99.0(-1)");
    expect(m.remaining).toBe(2);
    expect(e.bestBid()).toBeUndefined();
  });

  it("IOC fills what it can now; FOK fills all or nothing", () => {
    const e = setup();
    e.submit(order("sell", 100, 1, 2), 1);
    const ioc = order("buy", 100, 2, 5, "IOC");
    expect(e.submit(ioc, 2).fills).toHaveLength(1);
    expect(ioc.status.startsWith("CANCELED")).toBe(true);
    e.submit(order("sell", 100, 1, 2), 3);
    const fok = order("buy", 100, 2, 5, "FOK");
    const r = e.submit(fok, 4);
    expect(r.fills).toHaveLength(0);
    expect(fok.status).toBe("FILLORKILL CANCELED");
    const fok2 = order("buy", 100, 1, 5, "FOK");
    expect(e.submit(fok2, 5).fills).toHaveLength(1);
    expect(fok2.status).toBe("EXECUTED @ 100.0(1)");
  });

  it("cancels a post-only order that would take liquidity", () => {
    const e = setup();
    e.submit(order("sell", 100, 1, 2), 1);
    const p = order("buy", 100, 1, 5, "LIMIT", { postOnly: true });
    const r = e.submit(p, 2);
    expect(r.fills).toHaveLength(0);
    expect(r.rested).toBe(false);
    expect(p.status).toBe("POSTONLY CANCELED");
    const ok = order("buy", 99, 1, 5, "LIMIT", { postOnly: true });
    expect(e.submit(ok, 3).rested).toBe(true);
  });

  it("keeps hidden orders out of the visible book but fills them", () => {
    const e = setup();
    const h = order("sell", 100, 1, 2, "LIMIT", { hidden: true });
    const r = e.submit(h, 1);
    expect(r.levels).toEqual([]);
    const t = e.submit(order("buy", 100, 1, 3), 2);
    expect(t.fills).toHaveLength(1);
    expect(t.levels).toEqual([]);
  });

  it("never trades an owner with itself: the resting order is cancelled", () => {
    const e = setup();
    const mine = order("sell", 100, 1, 7);
    const theirs = order("sell", 100, 1, 8);
    e.submit(mine, 1);
    e.submit(theirs, 2);
    const r = e.submit(order("buy", 100, 1, 7), 3);
    expect(r.fills.map((f) => f.maker.id)).toEqual([theirs.id]);
    expect(mine.status).toBe("CANCELED was: self-trade prevention");
    expect(e.get(mine.id)).toBeUndefined();
  });

  it("cancels resting orders and reports the level change", () => {
    const e = setup();
    const o = order("buy", 100, 2, 1);
    e.submit(o, 1);
    expect(e.cancel(o.id, 2)).toMatchObject({ level: { side: "buy", price: 100, deltaAmount: -2, deltaCount: -1 } });
    expect(o.status).toBe("CANCELED");
    expect(e.cancel(o.id, 3)).toBeNull();
    expect(e.bestBid()).toBeUndefined();
  });
});

describe("dust amounts and levels that change side", () => {
  it("refuses dust amounts and never emits a zero fill", async () => {
    const { Exchange } = await import("./exchange.ts");
    const ex = new Exchange({ now: () => 1, seed: 1, markets: [{ symbol: "tBTCUSD", start: 200 }] });
    expect(ex.place("tBTCUSD", 5, "sell", "LIMIT", 250, 1e-9)).toBeNull();
    const r = ex.place("tBTCUSD", 5, "buy", "MARKET", Number.NaN, 0.123456789);
    expect(r?.result.fills.every((f) => f.amount > 0)).toBe(true);
    expect(r?.result.order.original).toBe(0.12345679);
  });

  it("deletes a level from its old side before adding it to the new one", async () => {
    const { Exchange } = await import("./exchange.ts");
    const { OrderBook } = await import("../../src/protocol/index.ts");
    const ex = new Exchange({ now: () => 1, seed: 1, markets: [{ symbol: "tBTCUSD", start: 200 }] });
    const feed = ex.bookFeed("tBTCUSD", "P0", 250);
    if (!feed) throw new Error("feed");
    const client = new OrderBook({ kind: "price", len: 250 });
    client.applySnapshot(feed.snapshot());
    const ask = ex.markets.get("tBTCUSD")?.engine.bestAsk() as number;
    // Take the whole best ask level and rest the remainder as a bid at the same price.
    const levelAmount = Math.abs(ex.markets.get("tBTCUSD")?.books.get("P0")?.asks.amount[0] as number);
    const b = ex.place("tBTCUSD", 9, "buy", "LIMIT", ask, levelAmount + 3);
    const entries = b?.bookDiffs.get(feed) ?? [];
    const firstUpsert = entries.findIndex((e) => (e[1] as number) > 0);
    const lastDelete = entries.map((e) => e[1]).lastIndexOf(0);
    expect(lastDelete).toBeLessThan(firstUpsert);
    for (const e of entries) client.applyEntry(e);
    expect(client.unknownDeletes).toBe(0);
    expect(client.checksum()).toBe(feed.mirror.checksum());
  });

  it("stops a capped market buy at what its budget pays, the rest INSUFFICIENT BALANCE", () => {
    const e = setup();
    e.submit(order("sell", 100, 1, 2), 1);
    e.submit(order("sell", 200, 1, 3), 2);
    // 250 quote: the whole 100 level, then 0.75 at 200 — never a unit more.
    const buy = newEngineOrder({ id: nextId++, owner: 9, side: "buy", type: "MARKET", price: 0, amount: 2, now: 3 });
    buy.quoteBudget = 250e8;
    const r = e.submit(buy, 3);
    expect(r.fills.map((f) => [f.price, f.amount])).toEqual([
      [100, 1],
      [200, 0.75],
    ]);
    expect(buy.quoteBudget).toBe(0);
    expect(buy.status).toMatch(/^INSUFFICIENT BALANCE was: PARTIALLY FILLED @ 200.0\(0.75\)/);
    expect(e.buyCost(0.25, 9)).toBe(50e8);
    expect(e.buyCost(0.25, 3)).toBeNull();
  });
});
