/**
 * Perpetuals traded for real, over REST on a real HTTP host with SQLite behind it: orders at the
 * leverage they name (and refused beyond it, as EXCHANGE types, for want of balance, for residents
 * of Spain), the mark at the spot index, funding paid on the exchange's clock with the sign the
 * rules give, collateral set within its limits, liquidation when the mark crosses the liquidation
 * price with the insurance fund taking the rest, the status row's figures. Every record decodes
 * with src/protocol's codecs. Liquidity comes from simulated (negative-owner) orders placed inside
 * the seeded spread, so every fill happens at a price the test chose.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  decodeCollateralLimits,
  DERIV_MAINTENANCE_MARGIN,
  DERIV_REFUSALS,
  derivLiquidationPrice,
  derivStatusCodec,
  liquidationCodec,
  positionCodec,
  TAKER_FEE_RATE,
  walletCodec,
  type DerivStatus,
  type Position,
} from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { toUnits } from "../store/db.ts";
import { DEMO } from "../store/seed.ts";
import { listenApi } from "../test-support/api.ts";
import { INSURANCE_FUND_START } from "./derivatives.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const PERP = "tBTCF0:USTF0";
const SPOT = "tBTCUSD";
const DEV = { "x-orderflow-dev": "1" };
let shift = 0;
const venue = openVenue({
  dbPath: ":memory:",
  seed: 5,
  now: () => Date.now() + shift,
  markets: [
    { symbol: SPOT, start: 30_000 },
    { symbol: PERP, start: 30_000 },
  ],
});
const { exchange, gateway, balances, derivatives, db } = venue;
const demo = venue.seeded as number;
const perpEngine = exchange.markets.get(PERP)?.engine;
let api: ApiServer;
let base = "";
let host = "";
let token = "";

beforeAll(async () => {
  const started = await listenApi({ exchange, account: gateway });
  api = started.api;
  host = started.host;
  base = `http://${host}`;
  const login = await fetch(`${base}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
  });
  [token] = (await login.json()) as [string];
  // USDt in the exchange wallet, to move into the derivatives wallet as its collateral form.
  balances.funds((move) => move(demo, "exchange", "UST", toUnits(20_000), "Deposit"));
});
afterAll(() => api.close());

async function rest(path: string, body: unknown = {}): Promise<[number, unknown]> {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "bfx-token": token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return [res.status, await res.json()];
}

async function status(): Promise<DerivStatus> {
  const rows = (await (await fetch(`${base}/v2/status/deriv?keys=${PERP}`)).json()) as unknown[][];
  const d = derivStatusCodec.decode(rows[0]?.slice(1));
  if (!d.ok) throw new Error(`status row: ${JSON.stringify(rows)}`);
  return d.value;
}

async function position(): Promise<Position | null> {
  const [, rows] = await rest("/v2/auth/r/positions");
  const d = positionCodec.decodeList(rows);
  if (!d.ok) throw new Error("positions");
  return d.value.find((p) => p.pair === PERP) ?? null;
}

async function wallet(): Promise<{ balance: number; reserved: number }> {
  const [, rows] = await rest("/v2/auth/r/wallets");
  const d = walletCodec.decodeList(rows);
  const w = d.ok ? d.value.find((x) => x.type === "margin" && x.currency === "USTF0") : undefined;
  return { balance: w?.balance ?? 0, reserved: (w?.balance ?? 0) - (w?.available ?? 0) };
}

/** A price strictly inside the perpetual's spread, with `amount` of the other side resting there. */
function provide(amount: number): number {
  const bid = perpEngine?.bestBid() as number;
  const ask = perpEngine?.bestAsk() as number;
  const p = Math.round((bid + ask) / 2);
  if (!(p > bid && p < ask)) throw new Error(`no room inside the spread ${bid}–${ask}`);
  exchange.place(PERP, -901, amount > 0 ? "sell" : "buy", "LIMIT", p, Math.abs(amount));
  return p;
}

const submit = (body: Record<string, unknown>) => rest("/v2/auth/w/order/submit", { symbol: PERP, ...body });
const close =
  (t: number, digits = 6) =>
  (v: number) =>
    expect(v).toBeCloseTo(t, digits);

describe("derivatives", () => {
  it("funds the derivatives wallet with USDt as USTF0, opens a position at the order's leverage", async () => {
    const [s] = await rest("/v2/auth/w/transfer", {
      from: "exchange",
      to: "margin",
      currency: "UST",
      currency_to: "USTF0",
      amount: "10000",
    });
    expect(s).toBe(200);
    const price = provide(0.5);
    const [code, reply] = await submit({ type: "LIMIT", amount: "0.5", price: String(price), lev: 20 });
    expect(code, JSON.stringify(reply)).toBe(200);
    const p = await position();
    expect(p).toMatchObject({ status: "ACTIVE", amount: 0.5, basePrice: price, posType: 1 });
    close((0.5 * price) / 20)(p?.collateral as number);
    close(20, 3)(p?.leverage as number);
    close(derivLiquidationPrice(0.5, price, (0.5 * price) / 20) as number, 2)(p?.liqPrice as number);
    const w = await wallet();
    close(10_000 - 0.5 * price * TAKER_FEE_RATE)(w.balance);
    close((0.5 * price) / 20)(w.reserved);
    // The order's leverage is stored with it (the collateral of later fills).
    expect(db.prepare("SELECT lev FROM deriv_orders").all()).toEqual([{ lev: 20 }]);
  });

  it("refuses a leverage outside 1–100, EXCHANGE types, more than the wallet holds, and residents of Spain", async () => {
    const price = Math.round(perpEngine?.bestAsk() as number);
    for (const lev of [0, 101, 2.5, "ten"]) {
      const [code, body] = await submit({ type: "LIMIT", amount: "0.01", price: String(price), lev });
      expect(code).toBe(500);
      expect(body).toEqual(["error", 10001, DERIV_REFUSALS.lev]);
    }
    const [, exch] = await submit({ type: "EXCHANGE LIMIT", amount: "0.01", price: String(price), lev: 10 });
    expect(exch).toEqual(["error", 10001, DERIV_REFUSALS.orderType]);
    // 10 000 USTF0 at 1x does not buy 1 BTC at 30 000.
    const [, poor] = await submit({ type: "LIMIT", amount: "-1", price: String(price), lev: 1 });
    expect((poor as unknown[])[2]).toMatch(/^Invalid order: not enough tradable balance/);
    db.prepare(
      "INSERT INTO kyc_submissions (user_id, kind, level, data, status, submitted_at) VALUES (?, 'individual', 2, ?, 'approved', 0)",
    ).run(demo, JSON.stringify({ resid_country: "ES" }));
    const [, spain] = await submit({ type: "LIMIT", amount: "0.01", price: String(price), lev: 10 });
    expect(spain).toEqual(["error", 10001, DERIV_REFUSALS.spain]);
    db.prepare("DELETE FROM kyc_submissions WHERE user_id = ?").run(demo);
    expect(await position()).toMatchObject({ amount: 0.5 });
  });

  it("marks positions at the spot index, and reports it in the status row", async () => {
    const p0 = (await position()) as Position;
    exchange.printTrade(SPOT, -5, 30_300, 0.01);
    const s = await status();
    expect(s.markPrice).toBe(30_300);
    expect(s.priceSpot).toBe(30_300);
    expect(s.priceDerivative).toBe(exchange.markets.get(PERP)?.lastPrice());
    expect(s.openInterest).toBe(0.5);
    expect(s.insuranceFundBalance).toBe(INSURANCE_FUND_START);
    const p = (await position()) as Position;
    close(0.5 * (30_300 - p0.basePrice), 4)(p.pl as number);
  });

  it("pays funding on the clock: a long pays a positive rate, the insurance fund takes the other side", async () => {
    derivatives.fundingMs = 60_000;
    // Start just past an event time, so that only the interval the test moves the clock over ends.
    shift += 60_000 - ((Date.now() + shift) % 60_000) + 100;
    derivatives.tick();
    const before = await wallet();
    const fundBefore = (await status()).insuranceFundBalance as number;
    // The premium of the perpetual's book mid over the mark, sampled over the interval.
    const mid = ((perpEngine?.bestBid() as number) + (perpEngine?.bestAsk() as number)) / 2;
    const rate = Math.round(Math.max(-0.0025, Math.min(0.0025, mid / 30_300 - 1)) * 1e8) / 1e8;
    for (let i = 0; i < 3; i++) {
      shift += 1_000;
      derivatives.tick();
    }
    const s = await status();
    expect(s.fundingStep).toBeGreaterThanOrEqual(1);
    close(rate, 8)(s.fundingAccruedNext as number);
    expect(s.nextFundingEvtMts).toBeGreaterThan(Date.now() + shift);
    shift += 60_000;
    derivatives.tick();
    const owed = Math.round(0.5 * 30_300 * rate * 1e8) / 1e8;
    const [, ledgers] = await rest("/v2/auth/r/ledgers/USTF0/hist", {});
    const rows = (ledgers as unknown[][]).filter((l) => /funding (cost|payment)/.test(String(l[8])));
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row?.[8]).toMatch(owed > 0 ? /funding cost @ 30300 \(rate / : /funding payment @ 30300/);
    close(-owed, 8)(row?.[5] as number);
    close(before.balance - owed, 8)((await wallet()).balance);
    const after = await status();
    close(rate, 8)(after.fundingAccruedCurrent as number);
    close(fundBefore + owed, 8)(after.insuranceFundBalance as number);
    // The interval after it accrues from its first sample.
    expect(after.fundingStep).toBeLessThanOrEqual(1);
    // One event, one payment: a second tick in the same interval pays nothing.
    derivatives.tick();
    expect(db.prepare("SELECT COUNT(*) AS n FROM deriv_funding_payments").get()).toEqual({ n: 1 });
  });

  it("sets collateral within its limits and moves the liquidation price with it", async () => {
    const [, raw] = await rest("/v2/auth/calc/deriv/collateral/limits", { symbol: PERP });
    const limits = decodeCollateralLimits(raw);
    const p = (await position()) as Position;
    const w = await wallet();
    expect(limits?.max).toBeCloseTo((p.collateral as number) + (w.balance - w.reserved), 6);
    expect(limits?.min).toBeGreaterThanOrEqual((0.5 * 30_300) / 100);
    expect(p.minCollateral).toBe(limits?.min);
    expect(p.maxCollateral).toBe(limits?.max);
    const min = limits?.min as number;
    const max = limits?.max as number;
    expect(await rest("/v2/auth/w/deriv/collateral/set", { symbol: PERP, collateral: min / 2 })).toEqual([
      500,
      ["error", 10001, DERIV_REFUSALS.marketRisk],
    ]);
    expect(await rest("/v2/auth/w/deriv/collateral/set", { symbol: PERP, collateral: max + 1 })).toEqual([
      500,
      ["error", 10001, DERIV_REFUSALS.insufficient],
    ]);
    expect((await rest("/v2/auth/w/deriv/collateral/set", { symbol: "tBTCUSD", collateral: 1 }))[0]).toBe(400);
    const target = Math.round(min * 2 * 100) / 100;
    expect(await rest("/v2/auth/w/deriv/collateral/set", { symbol: PERP, collateral: String(target) })).toEqual([
      200,
      [[1]],
    ]);
    const q = (await position()) as Position;
    expect(q.collateral).toBe(target);
    close(derivLiquidationPrice(0.5, q.basePrice, target) as number, 2)(q.liqPrice as number);
    close(target, 8)((await wallet()).reserved);
  });

  it("liquidates when the mark crosses the liquidation price; the insurance fund takes the collateral and P/L", async () => {
    const p = (await position()) as Position;
    const w = await wallet();
    const fund = (await status()).insuranceFundBalance as number;
    const liq = p.liqPrice as number;
    // The public socket: the liquidation row on `liq:global`, the fund's new balance on the status channel.
    const ws = new WebSocket(`ws://${host}/ws/2`);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: "liq:global" }));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: `deriv:${PERP}` }));
    const chan = async (key: string): Promise<number> => {
      for (let i = 0; i < 100; i++) {
        const e = frames.find((f) => (f as Record<string, unknown>)["key"] === key) as Record<string, unknown>;
        if (e) return e["chanId"] as number;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`not subscribed: ${key}`);
    };
    const liqChan = await chan("liq:global");
    const statusChan = await chan(`deriv:${PERP}`);
    // Just above the liquidation price nothing happens…
    const [code] = await fetch(`${base}/dev/price`, {
      method: "POST",
      headers: DEV,
      body: JSON.stringify({ symbol: SPOT, price: Math.ceil(liq * 1.002) }),
    }).then(async (r) => [r.status, await r.json()] as const);
    expect(code).toBe(200);
    expect(await position()).not.toBeNull();
    // …below it the position is gone.
    const mark = Number((liq * 0.99).toPrecision(5));
    await fetch(`${base}/dev/price`, {
      method: "POST",
      headers: DEV,
      body: JSON.stringify({ symbol: SPOT, price: mark }),
    });
    expect(await position()).toBeNull();
    const [, hist] = await rest("/v2/auth/r/positions/hist", {});
    expect((hist as unknown[][])[0]?.[1]).toBe("LIQUIDATED");
    close(w.balance - (p.collateral as number), 8)((await wallet()).balance);
    expect((await wallet()).reserved).toBe(0);
    const taken = (p.collateral as number) + p.amount * (mark - p.basePrice);
    const s = await status();
    close(fund + taken, 6)(s.insuranceFundBalance as number);
    expect(s.openInterest).toBe(0);
    // Within maintenance when it was set, past it now: the fund gained what the collateral had left.
    expect(taken).toBeLessThan(p.amount * mark * DERIV_MAINTENANCE_MARGIN);
    const framed = async (find: () => unknown): Promise<void> => {
      for (let i = 0; i < 150 && !find(); i++) await new Promise((r) => setTimeout(r, 20));
    };
    const liqRow = () =>
      frames.find(
        (f) =>
          Array.isArray(f) &&
          f[0] === liqChan &&
          Array.isArray(f[1]) &&
          (f[1] as unknown[][]).some((r) => Array.isArray(r) && r[1] === p.id),
      );
    await framed(liqRow);
    expect(liqRow()).toBeDefined();
    const fundRow = () =>
      frames.find((f) => {
        if (!Array.isArray(f) || f[0] !== statusChan) return false;
        const d = derivStatusCodec.decode(f[1]);
        return d.ok && Math.abs((d.value.insuranceFundBalance as number) - (fund + taken)) < 1e-6;
      });
    await framed(fundRow);
    expect(fundRow()).toBeDefined();
    ws.close();
    const rows = (await (await fetch(`${base}/v2/liquidations/hist`)).json()) as unknown[][];
    // Each row wrapped in its own array (docs/protocol.md#liquidations).
    const d = liquidationCodec.decodeList(rows.map((r) => r[0]));
    expect(d.ok && d.value.some((l) => l.posId === p.id && l.symbol === PERP && l.amount === 0.5)).toBe(true);
  });

  it("takes a loss on the insurance fund when the mark gaps past the collateral", async () => {
    const price = provide(-0.2);
    await submit({ type: "LIMIT", amount: "-0.2", price: String(price), lev: 10 });
    const p = (await position()) as Position;
    expect(p.amount).toBe(-0.2);
    // A short takes the other side of the rule: it receives a positive rate and pays a negative one.
    const rate = derivatives.accrued(PERP) as number;
    const mark = exchange.markets.get(SPOT)?.lastPrice() as number;
    const balance = (await wallet()).balance;
    derivatives.fundNow(PERP);
    const received = Math.round(0.2 * mark * rate * 1e8) / 1e8;
    expect(received).not.toBe(0);
    close(balance + received, 8)((await wallet()).balance);
    const fund = (await status()).insuranceFundBalance as number;
    const gap = Number(((exchange.markets.get(SPOT)?.lastPrice() as number) * 1.15).toPrecision(5));
    await fetch(`${base}/dev/price`, {
      method: "POST",
      headers: DEV,
      body: JSON.stringify({ symbol: SPOT, price: gap }),
    });
    expect(await position()).toBeNull();
    const taken = (p.collateral as number) + p.amount * (gap - p.basePrice);
    expect(taken).toBeLessThan(0);
    close(fund + taken, 6)((await status()).insuranceFundBalance as number);
  });
});
