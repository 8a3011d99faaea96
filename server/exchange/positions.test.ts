/**
 * Margin trading through Trading and the engine: positions opened, increased, reduced, closed and
 * flipped with the right base price and realized P/L; reduce-only and close flags; collateral
 * never negative; liquidation below maintenance. Liquidity comes from negative-owner (simulated)
 * orders placed inside the seeded spread, so every fill happens at a price the test chose.
 */
import { describe, expect, it } from "vitest";
import {
  liquidationCodec,
  positionCodec,
  TAKER_FEE_RATE as TAKER_FEE,
  walletCodec,
  type Position,
} from "../../src/protocol/index.ts";
import { toUnits } from "../store/db.ts";
import { FEE_RESERVE, INITIAL_MARGIN, MAINTENANCE_MARGIN } from "./positions.ts";
import { TEST_SYMBOL as SYM, testVenue } from "../test-support/venue.ts";

function setup(margin = 100_000) {
  const v = testVenue("m@example.com", "margin");
  const { exchange, balances, orders, positions, user } = v;
  balances.funds((move) => move(user, "margin", "USD", toUnits(margin), "Deposit"));
  const engine = exchange.markets.get(SYM)?.engine;
  if (!engine) throw new Error("market");
  const wallet = () => {
    const d = walletCodec.decode(balances.walletOf(user, "margin", "USD"));
    if (!d.ok) throw new Error("wallet");
    return d.value;
  };
  const position = (): Position | null => {
    const raw = positions.wireAll(user)[0];
    if (raw === undefined) return null;
    const d = positionCodec.decode(raw);
    if (!d.ok) throw new Error("position codec");
    return d.value;
  };
  /** A price strictly inside the spread, so provided liquidity there is the only thing to match. */
  const inside = (): number => {
    const bid = engine.bestBid() as number;
    const ask = engine.bestAsk() as number;
    const p = Math.round((bid + ask) / 2);
    if (!(p > bid && p < ask)) throw new Error(`no room inside the spread ${bid}–${ask}`);
    return p;
  };
  /** A margin order of `amount` at a price inside the spread, with the other side provided. */
  const trade = (amount: number, flags = 0, provide = Math.abs(amount)) => {
    const price = inside();
    exchange.place(SYM, -901, amount > 0 ? "sell" : "buy", "LIMIT", price, provide);
    const r = orders.place(user, { type: "LIMIT", symbol: SYM, amount, price, flags });
    return { r, price };
  };
  return { ...v, wallet, position, trade, engine };
}

const types = (events: [number, string, unknown][]) => events.map(([, t]) => t);

describe("margin positions", () => {
  it("opens, increases, reduces and closes a long with the right base price and realized P/L", () => {
    const t = setup();
    expect(FEE_RESERVE).toBe(TAKER_FEE);
    const a = t.trade(1);
    expect(a.r.ok).toBe(true);
    expect(t.position()).toMatchObject({ pair: SYM, status: "ACTIVE", amount: 1, basePrice: a.price, posType: 0 });
    expect(t.position()?.collateral).toBeCloseTo(a.price * INITIAL_MARGIN, 6);
    expect(t.position()?.leverage).toBeCloseTo(1 / INITIAL_MARGIN, 4);
    let w = t.wallet();
    expect(w.balance).toBeCloseTo(100_000 - a.price * TAKER_FEE, 6);
    expect(w.balance - (w.available ?? 0)).toBeCloseTo(a.price * INITIAL_MARGIN, 6);
    expect(types(t.events)).toContain("pn");

    const b = t.trade(2);
    expect(t.position()?.amount).toBe(3);
    expect(t.position()?.basePrice).toBeCloseTo((a.price + 2 * b.price) / 3, 6);
    expect(types(t.events)).toContain("pu");

    const base = t.position()?.basePrice as number;
    const before = t.wallet().balance;
    const c = t.trade(-1);
    expect(t.position()?.amount).toBe(2);
    expect(t.position()?.basePrice).toBeCloseTo(base, 6);
    const realized = 1 * (c.price - base);
    expect(t.wallet().balance).toBeCloseTo(before + realized - c.price * TAKER_FEE, 6);
    // What stays reserved is the remaining position's share of its collateral.
    w = t.wallet();
    expect(w.balance - (w.available ?? 0)).toBeCloseTo((t.position()?.collateral as number) ?? 0, 6);

    const d = t.trade(-2);
    expect(d.r.ok).toBe(true);
    expect(t.position()).toBeNull();
    const pc = t.events.filter(([, type]) => type === "pc").map(([, , p]) => positionCodec.decode(p));
    expect(pc).toHaveLength(1);
    expect(pc[0]?.ok && pc[0].value).toMatchObject({ status: "CLOSED", amount: 0 });
    w = t.wallet();
    expect(w.available).toBeCloseTo(w.balance, 6); // nothing left reserved
    const fees = (a.price + 2 * b.price + c.price + 2 * d.price) * TAKER_FEE;
    const pl = 1 * (c.price - base) + 2 * (d.price - base);
    expect(w.balance).toBeCloseTo(100_000 + pl - fees, 5);
  });

  it("flips a long into a short in one fill, and closes with the close flag", () => {
    const t = setup();
    const a = t.trade(1.5);
    const b = t.trade(-4);
    expect(b.r.ok).toBe(true);
    expect(t.position()).toMatchObject({ amount: -2.5, basePrice: b.price, status: "ACTIVE" });
    expect(t.position()?.collateral).toBeCloseTo(2.5 * b.price * INITIAL_MARGIN, 6);
    const kinds = types(t.events).filter((x) => x === "pn" || x === "pc");
    expect(kinds).toEqual(["pn", "pc", "pn"]);
    const balanceAfterFlip = t.wallet().balance;
    expect(balanceAfterFlip).toBeCloseTo(
      100_000 + 1.5 * (b.price - a.price) - (1.5 * a.price + 4 * b.price) * TAKER_FEE,
      5,
    );
    // Close (512): the amount given is ignored, the whole short is bought back.
    const c = t.trade(0.1, 512, 2.5);
    expect(c.r.ok).toBe(true);
    expect(t.position()).toBeNull();
    expect(t.wallet().balance).toBeCloseTo(balanceAfterFlip + 2.5 * (b.price - c.price) - 2.5 * c.price * TAKER_FEE, 5);
    expect(t.trade(0.1, 512).r).toMatchObject({ ok: false, msg: "Invalid order: no position to close" });
  });

  it("refuses a reduce-only order that would increase or flip the position", () => {
    const t = setup();
    const none = t.orders.place(t.user, { type: "MARKET", symbol: SYM, amount: 0.5, flags: 1024 });
    expect(none).toMatchObject({ ok: false, msg: "Invalid order: reduce-only order would increase the position" });
    t.trade(1);
    expect(t.orders.place(t.user, { type: "MARKET", symbol: SYM, amount: 0.5, flags: 1024 }).ok).toBe(false);
    expect(t.orders.place(t.user, { type: "MARKET", symbol: SYM, amount: -1.5, flags: 1024 }).ok).toBe(false);
    const ok = t.trade(-0.4, 1024);
    expect(ok.r.ok).toBe(true);
    expect(t.position()?.amount).toBeCloseTo(0.6, 8);
    const errors = t.events.filter(([, type, p]) => type === "n" && (p as unknown[])[6] === "ERROR");
    expect(errors).toHaveLength(3);
  });

  it("refuses what the margin wallet cannot cover, never going negative", () => {
    const t = setup(1_000);
    const price = 30_000;
    // 1 BTC at 10x needs 3 000 USD of collateral: refused with the tradable-balance error.
    const r = t.orders.place(t.user, { type: "LIMIT", symbol: SYM, amount: 1, price });
    expect(r).toMatchObject({ ok: false });
    expect(r.ok ? "" : r.msg).toContain("not enough tradable balance");
    const n = t.events.find(([, type]) => type === "n");
    expect((n?.[2] as unknown[])[6]).toBe("ERROR");
    expect(t.wallet()).toMatchObject({ balance: 1_000, available: 1_000 });
    // 0.3 BTC fits (900 + fee reserve); a second one does not fit beside it.
    const bid = t.engine.bestBid() as number;
    const low = Math.round(bid * 0.9);
    expect(t.orders.place(t.user, { type: "LIMIT", symbol: SYM, amount: 0.3, price: low }).ok).toBe(true);
    expect(t.orders.place(t.user, { type: "LIMIT", symbol: SYM, amount: 0.3, price: low }).ok).toBe(false);
    const w = t.wallet();
    expect(w.available).toBeGreaterThanOrEqual(0);
    expect(w.balance).toBe(1_000);
    expect(t.exchange.markets.get(SYM)?.engine.get(t.orders.openOrdersWire(t.user)[0]?.[0] as number)).toBeDefined();
    // A margin order and an exchange order draw on different wallets.
    expect(t.orders.place(t.user, { type: "EXCHANGE LIMIT", symbol: SYM, amount: 0.01, price: low }).ok).toBe(false);
  });

  it("marks positions to market and liquidates below maintenance, publishing the liquidation", async () => {
    const t = setup(10_000);
    const a = t.trade(3);
    expect(a.r.ok).toBe(true);
    const pos = t.position() as Position;
    // Cross margin: balance + P/L = 5 % of the marked notional at the liquidation price.
    const balance = t.wallet().balance;
    const expectedLiq = (3 * a.price - balance) / (3 * (1 - MAINTENANCE_MARGIN));
    expect(pos.liqPrice).toBeCloseTo(expectedLiq, 2);
    // A take-profit that would reduce the position: it goes with the position.
    const high = Math.round((t.engine.bestAsk() as number) * 1.1);
    const tp = t.orders.place(t.user, { type: "LIMIT", symbol: SYM, amount: -3, price: high, flags: 1024 });
    expect(tp.ok).toBe(true);
    const rows: unknown[][] = [];
    t.exchange.liquidations.on((row) => rows.push(row));
    t.events.length = 0;
    // A small move above the liquidation price: marked (pu with a loss), not liquidated.
    const dip = Math.round(a.price * 0.98);
    t.tick(5_000);
    t.exchange.place(SYM, -901, "sell", "LIMIT", dip, 1_000);
    // Marked at most once a second per position: the next trade's pu needs the clock to move.
    t.tick(1_000);
    t.events.length = 0;
    t.exchange.place(SYM, -902, "buy", "LIMIT", dip, 0.01);
    const pu = t.events.filter(([, type]) => type === "pu").map(([, , p]) => positionCodec.decode(p));
    expect(pu.length).toBeGreaterThan(0);
    const last = pu[pu.length - 1];
    expect(last?.ok && last.value.pl).toBeCloseTo(3 * (dip - a.price), 4);
    expect(t.position()?.status).toBe("ACTIVE");
    // Through the liquidation price.
    const crash = Math.floor(expectedLiq * 0.99);
    t.exchange.place(SYM, -901, "sell", "LIMIT", crash, 1_000);
    t.exchange.place(SYM, -902, "buy", "LIMIT", crash, 0.01);
    expect(t.position()).toBeNull();
    const pc = t.events.filter(([, type]) => type === "pc").map(([, , p]) => positionCodec.decode(p));
    expect(pc[0]?.ok && pc[0].value).toMatchObject({ status: "LIQUIDATED", id: pos.id });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
    expect(rows).toHaveLength(1);
    const liq = liquidationCodec.decode(rows[0]);
    expect(liq.ok && liq.value).toMatchObject({
      kind: "pos",
      posId: pos.id,
      symbol: SYM,
      amount: 3,
      basePrice: a.price,
    });
    const w = t.wallet();
    expect(w.balance).toBeGreaterThanOrEqual(0);
    expect(w.available).toBeCloseTo(w.balance, 6);
    expect(w.balance).toBeLessThan(balance);
  });

  it("updates a resting margin limit order, resizing its margin reservation", () => {
    const t = setup(10_000);
    const low = Math.round((t.engine.bestBid() as number) * 0.9);
    const reserved = () => {
      const w = t.wallet();
      return w.balance - (w.available ?? 0);
    };
    const r = t.orders.place(t.user, { type: "LIMIT", symbol: SYM, amount: 0.5, price: low });
    const id = r.ok ? (r.order[0] as number) : 0;
    expect(reserved()).toBeCloseTo(0.5 * low * (INITIAL_MARGIN + TAKER_FEE), 6);
    expect(t.orders.update(t.user, { id, amount: 1 }).ok).toBe(true);
    expect(reserved()).toBeCloseTo(1 * low * (INITIAL_MARGIN + TAKER_FEE), 6);
    expect(t.exchange.markets.get(SYM)?.engine.get(id)?.remaining).toBe(1);
    const tooBig = t.orders.update(t.user, { id, amount: 10 });
    expect(tooBig.ok ? "" : tooBig.msg).toContain("not enough tradable balance");
    expect(reserved()).toBeCloseTo(1 * low * (INITIAL_MARGIN + TAKER_FEE), 6);
    expect(t.orders.cancel(t.user, id).ok).toBe(true);
    expect(reserved()).toBeCloseTo(0, 8);
  });

  it("holds a margin stop off the book with its margin reserved, and opens a short when it fires", async () => {
    const t = setup(10_000);
    const last = t.exchange.markets.get(SYM)?.lastPrice() as number;
    const trigger = Math.round(last * 0.99);
    const r = t.orders.place(t.user, { type: "STOP", symbol: SYM, amount: -0.2, price: trigger });
    expect(r.ok).toBe(true);
    const w0 = t.wallet();
    expect(w0.balance - (w0.available ?? 0)).toBeCloseTo(0.2 * trigger * 1.05 * (INITIAL_MARGIN + TAKER_FEE), 6);
    expect(t.position()).toBeNull();
    // Trade through the trigger: the stop goes to the book as a market sell.
    t.exchange.place(SYM, -901, "sell", "LIMIT", trigger - 10, 1_000);
    t.exchange.place(SYM, -902, "buy", "LIMIT", trigger - 10, 0.01);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const pos = t.position();
    expect(pos).toMatchObject({ amount: -0.2, status: "ACTIVE" });
    expect(pos?.basePrice).toBeLessThan(trigger);
    const w = t.wallet();
    expect(w.balance - (w.available ?? 0)).toBeCloseTo(pos?.collateral as number, 6);
    expect(pos?.collateral).toBeCloseTo(0.2 * (pos?.basePrice as number) * INITIAL_MARGIN, 6);
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
  });

  it("cancels a resting reduce-only order once the position it would reduce is gone", async () => {
    const t = setup();
    t.trade(1);
    const high = Math.round((t.engine.bestAsk() as number) * 1.1);
    const ro = t.orders.place(t.user, { type: "LIMIT", symbol: SYM, amount: -1, price: high, flags: 1024 });
    expect(ro.ok).toBe(true);
    const id = ro.ok ? (ro.order[0] as number) : 0;
    // Partly reduced by another order: the reduce-only order (1) now exceeds the position (0.6).
    t.trade(-0.4);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const oc = t.events.find(([, type, p]) => type === "oc" && (p as unknown[])[0] === id);
    expect((oc?.[2] as unknown[] | undefined)?.[13]).toBe("CANCELED");
    expect(t.orders.openOrdersWire(t.user)).toHaveLength(0);
    expect(t.exchange.markets.get(SYM)?.engine.get(id)).toBeUndefined();
    const w = t.wallet();
    expect(w.balance - (w.available ?? 0)).toBeCloseTo(t.position()?.collateral as number, 6);
  });
});
