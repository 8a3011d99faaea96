/**
 * The guarded settlement rate over real HTTP (docs/product-rules.md#conversions, #withdrawals):
 * conversions are quoted and withdrawals valued in USD at the markets' mids, so one account that
 * pushes a thin market's last price through its book neither converts at the pushed price nor makes
 * a large withdrawal look small to its daily limit and the travel rule; a swept (one-sided) or just
 * pushed book refuses instead; and conversions wait, as trading does, while the platform is in
 * maintenance.
 */
import { describe, expect, it } from "vitest";
import {
  CONVERSION_REFUSALS,
  conversionQuoteCodec,
  CURRENCY_AGREEMENTS,
  SETTLEMENT_MAX_LAST_GAP,
  WITHDRAW_REFUSALS,
} from "../../src/protocol/index.ts";
import { DEFAULT_LIMITS } from "../rate-limit.ts";
import { demoSession, signedPost } from "../test-support/session.ts";
import { fxRate, settlementRate } from "./derived.ts";
import { openVenue } from "./venue.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 905 });
for (let i = 0; i < 30; i++) venue.exchange.simulator.step();
const db = venue.accounts.db;
let platformStatus = 1;

/** A level-2 account (withdrawal limit 50,000 USD a day) with a session and a withdraw key. */
function account(name: string): { id: number; key: { key: string; secret: string } } {
  const id = venue.accounts.createUser(`${name}@example.test`, name, "Settle-pass-2024!", Date.now(), true);
  db.prepare("UPDATE users SET verification_level = 2 WHERE id = ?").run(id);
  return { id, key: venue.accounts.createApiKey(id, "settlement", ["o", "w", "wd"], Date.now()) };
}
const a = account("settle_a");
const b = account("settle_b");
venue.funds.deposit(a.id, "BTC", 1, "Deposit");
venue.funds.deposit(a.id, "BRL", 5_000_000, "Deposit");
venue.funds.deposit(a.id, "XRP", 200_000, "Deposit");
venue.funds.deposit(b.id, "USD", 10, "Deposit");
const s = demoSession({
  exchange: venue.exchange,
  account: venue.gateway,
  login: { username: "settle_a", password: "Settle-pass-2024!" },
  platformStatus: () => platformStatus,
  limits: { ...DEFAULT_LIMITS, public: 1000, auth: 1000, login: 20 },
});

const place = (userId: number, order: Record<string, string>): void => {
  const r = venue.orders.place(userId, order);
  expect(r.ok, JSON.stringify(r)).toBe(true);
};

/** Steps the simulated makers until `done`, at most `max` times. */
function stepUntil(done: () => boolean, what: string, max = 400): void {
  for (let i = 0; i < max && !done(); i++) venue.exchange.simulator.step();
  if (!done()) throw new Error(`the market never reached: ${what}`);
}

const BRL_TO_USD = { from: "BRL", to: "USD", wallet: "exchange", amount: "5000000" };

describe("conversions at the settlement rate", () => {
  it("refuses a quote while the account's own sell has swept one side of the book, and after, while the pushed print stands", async () => {
    await s.rest("/v2/auth/w/int/currency/agreement", {
      currency: "BRL",
      version: CURRENCY_AGREEMENTS["BRL"]?.version,
    });
    const fair = settlementRate(venue.exchange, "BRL", "USD") ?? Number.NaN;
    const brl = venue.exchange.markets.get("tBTCBRL");
    if (!brl) throw new Error("no tBTCBRL");
    // The exploit: a market sell larger than the thin book's bids empties them and prints low.
    place(a.id, { type: "EXCHANGE MARKET", symbol: "tBTCBRL", amount: "-0.2" });
    expect(brl.engine.bestBid()).toBeUndefined();
    // What calc/fx (the last prices) now says: BRL looks over 1 % dearer than it is.
    expect((fxRate(venue.exchange, "BRL", "USD") ?? 0) / fair).toBeGreaterThan(1.01);

    const swept = await s.rest("/v2/auth/w/int/convert/quote", BRL_TO_USD);
    expect(swept.status).toBe(500);
    expect((swept.body as unknown[])[2]).toBe(CONVERSION_REFUSALS.unreliableRate);

    // The makers bid again, but the last trade is still the pushed print, far from the new mid.
    stepUntil(() => brl.engine.bestBid() !== undefined, "bids again");
    const mid = ((brl.engine.bestBid() ?? 0) + (brl.engine.bestAsk() ?? 0)) / 2;
    expect(Math.abs((brl.lastPrice() ?? 0) - mid) / mid).toBeGreaterThan(SETTLEMENT_MAX_LAST_GAP);
    const pushed = await s.rest("/v2/auth/w/int/convert/quote", BRL_TO_USD);
    expect((pushed.body as unknown[])[2]).toBe(CONVERSION_REFUSALS.unreliableRate);

    // Once the market trades near its mid again, the quote is at the mids: the fair rate, not the pushed one.
    stepUntil(() => settlementRate(venue.exchange, "BRL", "USD") !== null, "a trusted mid");
    const r = await s.rest("/v2/auth/w/int/convert/quote", BRL_TO_USD);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const q = conversionQuoteCodec.decode(r.body);
    const now = settlementRate(venue.exchange, "BRL", "USD") ?? Number.NaN;
    expect(q?.rate).toBe(Math.round(now * 1e10) / 1e10);
    expect(Math.abs((q?.rate ?? 0) / fair - 1)).toBeLessThan(0.003);
  });

  it("waits with a 503 while the platform is in maintenance, as trading does", async () => {
    platformStatus = 0;
    try {
      for (const path of ["/v2/auth/w/int/convert/quote", "/v2/auth/w/int/convert"]) {
        const r = await s.rest(path, BRL_TO_USD);
        expect([r.status, r.body], path).toEqual([503, ["error", 20060, "platform: maintenance"]]);
      }
    } finally {
      platformStatus = 1;
    }
  });
});

describe("withdrawals valued at the settlement rate", () => {
  const XRP_OUT = { wallet: "exchange", method: "ripple", address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh" };
  const movements = (): number =>
    (db.prepare("SELECT COUNT(*) AS n FROM movements WHERE user_id = ? AND amount < 0").get(a.id) as { n: number }).n;

  it("does not let a pushed last price shrink a large withdrawal below the daily limit and the travel rule", async () => {
    const xrp = venue.exchange.markets.get("tXRPUSD");
    if (!xrp) throw new Error("no tXRPUSD");
    // The exploit: A sweeps the bids, B bids 0.0001 and A sells into it, so XRP's last price is 0.0001.
    place(a.id, { type: "EXCHANGE MARKET", symbol: "tXRPUSD", amount: "-20000" });
    place(b.id, { type: "EXCHANGE LIMIT", symbol: "tXRPUSD", amount: "10", price: "0.0001" });
    place(a.id, { type: "EXCHANGE LIMIT", symbol: "tXRPUSD", amount: "-10", price: "0.0001" });
    expect(fxRate(venue.exchange, "XRP", "USD")).toBe(0.0001);
    // About 400,000 USD of XRP, eight times the level's daily limit, that the last price values at 19 USD.
    const big = { ...XRP_OUT, amount: "180000" };

    const [, pushed] = await signedPost(s.host, a.key, "/v2/auth/w/withdraw", big);
    expect((pushed as unknown[])[2], JSON.stringify(pushed)).toBe(WITHDRAW_REFUSALS.noRate);
    expect(movements()).toBe(0);

    // Once the book trades near its mid again, the same withdrawal is valued at it and is over the limit.
    stepUntil(() => settlementRate(venue.exchange, "XRP", "USD") !== null, "a trusted mid");
    const [, valued] = await signedPost(s.host, a.key, "/v2/auth/w/withdraw", big);
    expect((valued as unknown[])[2], JSON.stringify(valued)).toBe(WITHDRAW_REFUSALS.dailyLimit);
    // And one worth a few thousand dollars asks for the travel rule.
    const [, small] = await signedPost(s.host, a.key, "/v2/auth/w/withdraw", { ...XRP_OUT, amount: "2000" });
    expect((small as unknown[])[2], JSON.stringify(small)).toBe(WITHDRAW_REFUSALS.travelRuleRequired);
    expect(movements()).toBe(0);
  });
});
