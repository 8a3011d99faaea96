/**
 * What a request's numbers and names may be, over real HTTP and SQLite: decimal text only for
 * amounts and prices, nothing below a currency's precision, no order too small to reserve
 * anything, a cap on open orders, and names that are object-prototype keys answered as the bad
 * input they are (400-class refusal, not a server error) — each refusal changing nothing.
 */
import { describe, expect, it } from "vitest";
import { demoSession } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { MAX_OPEN_ORDERS, MIN_ORDER_SIZE } from "./orders.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 41, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

async function wallets(): Promise<string> {
  return JSON.stringify((await s.rest("/v2/auth/r/wallets")).body);
}
async function openOrders(): Promise<unknown[]> {
  return (await s.rest("/v2/auth/r/orders")).body as unknown[];
}
const order = (over: Record<string, unknown>) => ({
  type: "EXCHANGE LIMIT",
  symbol: "tBTCUSD",
  amount: "0.01",
  price: "1000",
  ...over,
});

describe("request numbers", () => {
  it("refuses hex, binary, octal, padded and exponent text as an amount or price", async () => {
    const before = await wallets();
    for (const bad of ["0x10", "0b1", "0o7", " 1", "1 ", "1e1", "Infinity", "NaN", "+1", "1_0", ""]) {
      for (const field of ["amount", "price"]) {
        const r = await s.rest("/v2/auth/w/order/submit", order({ [field]: bad }));
        expect(r.status, `${field} ${JSON.stringify(bad)}`).not.toBe(200);
      }
    }
    expect(await openOrders()).toEqual([]);
    expect(await wallets()).toBe(before);
    // Plain decimal text and JSON numbers still work.
    expect((await s.rest("/v2/auth/w/order/submit", order({ amount: "0.01", price: "1000.5" }))).status).toBe(200);
    expect((await s.rest("/v2/auth/w/order/submit", order({ amount: 0.01, price: 1000 }))).status).toBe(200);
    await s.rest("/v2/auth/w/order/cancel/multi", { all: 1 });
  });

  it("refuses a transfer below the currency's precision instead of moving 0", async () => {
    const before = await wallets();
    for (const amount of ["0.000000001", 1e-9, "0.123456789"]) {
      const r = await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "USD", amount });
      expect(r.status, String(amount)).not.toBe(200);
      expect(JSON.stringify(r.body)).toMatch(/precision|amount/);
    }
    expect(await wallets()).toBe(before);
    const ok = await s.rest("/v2/auth/w/transfer", {
      from: "exchange",
      to: "margin",
      currency: "USD",
      amount: "0.00000001",
    });
    expect(ok.status).toBe(200);
  });

  it("answers prototype names as wallet or method with a refusal, not a server error, and moves nothing", async () => {
    const before = await wallets();
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const t = await s.rest("/v2/auth/w/transfer", { from: "exchange", to: name, currency: "USD", amount: "1" });
      expect(t.status, `transfer to ${name}`).toBe(400);
      const f = await s.rest("/v2/auth/w/transfer", { from: name, to: "margin", currency: "USD", amount: "1" });
      expect(f.status, `transfer from ${name}`).toBe(400);
      const w = await s.rest("/v2/auth/w/withdraw", { wallet: "exchange", method: name, amount: "1", address: "x" });
      expect(w.status, `withdraw method ${name}`).toBe(400);
      const d = await s.rest("/v2/auth/w/deposit/address", { wallet: name, method: "bitcoin" });
      expect(d.status, `deposit wallet ${name}`).toBe(400);
    }
    expect(await wallets()).toBe(before);
  });
});

describe("order size and count", () => {
  it("refuses an order worth less than the minimum (it would reserve nothing)", async () => {
    const r = await s.rest("/v2/auth/w/order/submit", order({ amount: "0.00000001", price: "1" }));
    expect(r.status).not.toBe(200);
    expect(JSON.stringify(r.body)).toContain("minimum");
    expect(MIN_ORDER_SIZE).toBeGreaterThan(0);
    expect(await openOrders()).toEqual([]);
  });

  it(`caps an account's open orders at ${MAX_OPEN_ORDERS}`, async () => {
    const ops = Array.from({ length: 75 }, () => ["on", order({ amount: "0.001", price: "1000" })]);
    for (let placed = 0; placed < MAX_OPEN_ORDERS; placed += 75) {
      const n = Math.min(75, MAX_OPEN_ORDERS - placed);
      const r = await s.rest("/v2/auth/w/order/multi", { ops: ops.slice(0, n) });
      expect(r.status).toBe(200);
    }
    expect((await openOrders()).length).toBe(MAX_OPEN_ORDERS);
    const over = await s.rest("/v2/auth/w/order/submit", order({ amount: "0.001", price: "1000" }));
    expect(over.status).not.toBe(200);
    expect(JSON.stringify(over.body)).toContain("open orders");
    expect((await openOrders()).length).toBe(MAX_OPEN_ORDERS);
    await s.rest("/v2/auth/w/order/cancel/multi", { all: 1 });
    expect(await openOrders()).toEqual([]);
  }, 60_000);
});
