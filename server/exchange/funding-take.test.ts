/**
 * The test hooks of the funding desk: `POST /dev/funding/take` (a simulated counterparty takes one
 * account offer whole, whatever else is on the book), a shortened funding day (`FUNDING_DAY_MS`:
 * the credit pays its interest after one such day) and `r/funding/auto`, the read of a currency's
 * auto-renew settings.
 */
import { describe, expect, it } from "vitest";
import {
  fundingAutoCodec,
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  notificationCodec,
} from "../../src/protocol/index.ts";
import { fundingDayFromEnv } from "../exchange-host.ts";
import { toUnits } from "../store/db.ts";
import { demoSession } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

let clock = 1_800_000_000_000;
const venue = openVenue({ dbPath: ":memory:", seed: 9, now: () => clock });
const user = venue.seeded as number;
venue.credits.dayMs = 10_000;
venue.balances.funds((move) => {
  move(user, "exchange", "USD", -toUnits(5_000), "to funding");
  move(user, "funding", "USD", toUnits(5_000), "from exchange");
});
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
const DEV = { "x-orderflow-dev": "1" };

async function take(id: unknown): Promise<number> {
  const r = await fetch(`http://${s.host}/dev/funding/take`, {
    method: "POST",
    headers: DEV,
    body: JSON.stringify({ id }),
  });
  return r.status;
}

async function offer(amount: number, rate: number, period: number): Promise<number> {
  const r = await s.rest("/v2/auth/w/funding/offer/submit", {
    type: "LIMIT",
    symbol: "fUSD",
    amount: String(amount),
    rate: String(rate),
    period,
  });
  expect(r.status).toBe(200);
  const n = notificationCodec.decode(r.body);
  const o = fundingOfferCodec.decode(n.ok ? n.value.data : null);
  if (!o.ok) throw new Error("no offer in the answer");
  return o.value.id;
}

/** A funding batch that fills nothing: the credits' clock is checked on every batch. */
function poke(): void {
  const b = venue.exchange.funding.place("fUSD", { owner: -99, amount: 1, rate: 0.069, period: 2 });
  if (b) venue.exchange.funding.cancel("fUSD", b.result.order.id);
}

describe("a simulated counterparty takes one offer", () => {
  it("turns a lend offer far above the market into a credit that pays after one funding day", async () => {
    // 1 % a day: far above every simulated borrower, so only the hook can take it.
    const id = await offer(1000, 0.01, 30);
    expect(await take(id)).toBe(200);
    const credits = venue.credits.creditsWire(user).map((c) => fundingCreditCodec.decode(c));
    const credit = credits.find((c) => c.ok && c.value.amount === 1000 && c.value.rate === 0.01);
    expect(credit?.ok).toBe(true);
    expect(venue.funding.offersWire(user)).toHaveLength(0);
    const before = venue.balances.wallet(user, "funding", "USD").balance;
    clock += 10_000;
    poke();
    // 1000 × 1 % for one day, less the platform's 15 %.
    expect(venue.balances.wallet(user, "funding", "USD").balance - before).toBe(toUnits(8.5));
    // Taken once: the offer is gone.
    expect(await take(id)).toBe(400);
  });

  it("gives a borrow offer a loan, and refuses what is not an open offer", async () => {
    const id = await offer(-200, 0.00001, 2);
    expect(await take(id)).toBe(200);
    const loans = venue.loans.loansWire(user).map((l) => fundingLoanCodec.decode(l));
    expect(loans.some((l) => l.ok && Math.abs(l.value.amount) === 200 && l.value.side === -1)).toBe(true);
    expect(await take(999_999)).toBe(400);
    expect(await take("1")).toBe(400);
  });
});

describe("the funding day", () => {
  it("reads FUNDING_DAY_MS and refuses what does not parse", () => {
    expect(fundingDayFromEnv({})).toEqual({});
    expect(fundingDayFromEnv({ FUNDING_DAY_MS: "5000" })).toEqual({ fundingDayMs: 5000 });
    expect(() => fundingDayFromEnv({ FUNDING_DAY_MS: "10" })).toThrow(/FUNDING_DAY_MS/);
    expect(() => fundingDayFromEnv({ FUNDING_DAY_MS: "1e4" })).toThrow(/FUNDING_DAY_MS/);
  });
});

describe("r/funding/auto", () => {
  it("answers null while off, the settings once on", async () => {
    const off = await s.rest("/v2/auth/r/funding/auto", { currency: "USD" });
    expect(off.body).toBeNull();
    const on = await s.rest("/v2/auth/w/funding/auto", {
      status: 1,
      currency: "USD",
      amount: 300,
      rate: 0.0003,
      period: 7,
    });
    expect(on.status).toBe(200);
    const read = await s.rest("/v2/auth/r/funding/auto", { currency: "USD" });
    const auto = fundingAutoCodec.decode(read.body);
    expect(auto.ok && auto.value).toEqual({ currency: "USD", period: 7, rate: 0.0003, threshold: 300 });
    const bad = await s.rest("/v2/auth/r/funding/auto", { currency: "NOPE" });
    expect(bad.status).toBe(500);
  });
});
