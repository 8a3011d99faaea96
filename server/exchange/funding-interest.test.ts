/**
 * Funding over simulated days, on a clock the test moves: credits pay their interest daily and
 * close at the end of their period, variable credits follow the FRR, manual loans are charged
 * daily and expire, offers with the renew flag (or a currency with auto-renew, set over REST) offer
 * what comes back again, and FRR offers float with the FRR while they rest.
 */
import { describe, expect, it } from "vitest";
import {
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  type FundingCredit,
  type FundingOffer,
} from "../../src/protocol/index.ts";
import { toUnits } from "../store/db.ts";
import { LENDER_FEE } from "./funding-credits.ts";
import { fundingRest } from "./funding-api.ts";
import { openVenue } from "./venue.ts";

const DAY = 86_400_000;
/** Renewals and FRR re-pegs happen a microtask after the batch that caused them. */
const settle = () => new Promise((r) => setTimeout(r, 0));

function setup(seed = 21) {
  let clock = 1_800_000_000_000;
  const v = openVenue({ dbPath: ":memory:", seed, now: () => clock, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  const user = v.seeded as number;
  const events: [string, unknown][] = [];
  v.events.onEvent((u, t, p) => {
    if (u === user) events.push([t, p]);
  });
  v.balances.funds((move) => {
    move(user, "exchange", "USD", -toUnits(60_000), "to funding");
    move(user, "funding", "USD", toUnits(50_000), "from exchange");
    move(user, "margin", "USD", toUnits(10_000), "from exchange");
  });
  const fx = v.exchange.funding;
  const market = fx.markets.get("fUSD");
  if (!market || !v.funding || !v.loans) throw new Error("venue");
  /** A funding batch that fills nothing (a lend nobody takes), so the FRR stays where it is. */
  const poke = (): void => {
    const b = fx.place("fUSD", { owner: -99, amount: 1, rate: 0.069, period: 2 });
    if (b) fx.cancel("fUSD", b.result.order.id);
  };
  const decode = <T>(list: readonly unknown[], d: (x: unknown) => { ok: boolean; value?: T }): T[] =>
    list.map((x) => {
      const r = d(x);
      if (!r.ok) throw new Error(`does not decode: ${JSON.stringify(x)}`);
      return r.value as T;
    });
  const credits = (): FundingCredit[] => decode(v.credits.creditsWire(user) ?? [], (x) => fundingCreditCodec.decode(x));
  const offers = (): FundingOffer[] => decode(v.funding?.offersWire(user) ?? [], (x) => fundingOfferCodec.decode(x));
  const of = (type: string) => events.filter(([t]) => t === type).map(([, p]) => p);
  return {
    v,
    user,
    events,
    market,
    funding: v.funding,
    loans: v.loans,
    poke,
    credits,
    offers,
    of,
    tick: (ms: number) => (clock += ms),
  };
}

describe("funding interest and renewal", () => {
  it("pays credits daily, closes them at the end of their period, and renews the offer", async () => {
    const t = setup();
    // Lending far under the borrowers' bids at 120 days: taken at once, credits for the bids' periods.
    const r = t.funding.submit(t.user, {
      type: "LIMIT",
      symbol: "fUSD",
      amount: "3000",
      rate: "0.00001",
      period: 120,
      renew: 1,
    });
    expect(r.ok).toBe(true);
    const fon = fundingOfferCodec.decode(t.of("fon")[0]);
    expect(fon.ok && fon.value.renew).toBe(true);
    const open = t.credits();
    expect(open.length).toBeGreaterThan(0);
    const shortest = Math.min(...open.map((c) => c.period));
    const before = t.v.balances.available(t.user, "funding", "USD");

    // One day: one payment per credit (amount × rate, less 15 %), the credits still open.
    t.tick(DAY);
    t.events.length = 0;
    t.poke();
    const daily = open.reduce((s, c) => s + Math.floor(toUnits(c.amount) * c.rate * (1 - LENDER_FEE)), 0);
    expect(t.v.balances.available(t.user, "funding", "USD") - before).toBe(daily);
    const updated = t.of("fcu").map((p) => fundingCreditCodec.decode(p));
    expect(updated.length).toBe(open.length);
    expect(updated.every((c) => c.ok && c.value.mtsLastPayout === (c.value.mtsCreate ?? 0) + DAY)).toBe(true);
    expect(t.credits().length).toBe(open.length);

    // To the end of the shortest period: those credits close, and their amounts are offered again.
    t.tick((shortest - 1) * DAY);
    t.events.length = 0;
    t.poke();
    await settle();
    const closed = t.of("fcc").map((p) => fundingCreditCodec.decode(p));
    const ending = open.filter((c) => c.period === shortest);
    expect(closed.map((c) => c.ok && c.value.status)).toEqual(ending.map(() => "CLOSED (expired)"));
    const renewed = t.of("fon").map((p) => fundingOfferCodec.decode(p));
    const expected = ending
      .filter((c) => c.amount >= 150)
      .map((c) => c.amount)
      .sort((a, b) => a - b);
    expect(expected.length).toBeGreaterThan(0);
    expect(renewed.map((o) => (o.ok ? o.value.amountOrig : null)).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      expected,
    );
    expect(renewed.every((o) => o.ok && o.value.renew && o.value.rate === 0.00001 && o.value.period === 120)).toBe(
      true,
    );
  });

  it("offers what comes back again with auto-renew on, and stops when it is off", async () => {
    const t = setup(22);
    const on = fundingRest(t.v, t.user, "/v2/auth/w/funding/auto", {
      status: 1,
      currency: "USD",
      rate: 0,
      period: 30,
    });
    expect(on?.status).toBe(200);
    expect((on?.body as unknown[])[4]).toEqual(["USD", 30, 0, 0]);
    expect(fundingRest(t.v, t.user, "/v2/auth/w/funding/auto", { status: 1, currency: "NOPE" })?.status).toBe(500);
    t.funding.submit(t.user, { type: "LIMIT", symbol: "fUSD", amount: "2000", rate: "0.00001", period: 120 });
    const open = t.credits();
    const shortest = Math.min(...open.map((c) => c.period));
    t.tick(shortest * DAY);
    t.events.length = 0;
    t.poke();
    await settle();
    const renewed = t.of("fon").map((p) => fundingOfferCodec.decode(p));
    expect(renewed.length).toBeGreaterThan(0);
    // Rate 0 is "at the FRR": an FRRDELTAVAR offer with delta 0 for the stored period.
    expect(renewed.every((o) => o.ok && o.value.type === "FRRDELTAVAR" && o.value.period === 30)).toBe(true);

    expect(fundingRest(t.v, t.user, "/v2/auth/w/funding/auto", { status: 0, currency: "USD" })?.status).toBe(200);
    if (t.credits().length > 0) {
      t.tick(121 * DAY);
      t.events.length = 0;
      t.poke();
      await settle();
      expect(t.of("fcc").length).toBeGreaterThan(0);
      expect(t.of("fon")).toEqual([]);
    }
  });

  it("floats resting FRR offers with the FRR, and variable credits follow it at each payment", async () => {
    const t = setup(23);
    // Far over the FRR: no borrower takes it, so it rests and floats.
    const r = t.funding.submit(t.user, {
      type: "FRRDELTAFIX",
      symbol: "fUSD",
      amount: "1000",
      rate: "0.0005",
      period: 30,
    });
    expect(r.ok).toBe(true);
    const first = t.offers()[0] as FundingOffer;
    expect(first.rateReal).toBe(Number((t.market.frr() + 0.0005).toPrecision(8)));
    const start = t.market.frr();
    for (let i = 0; i < 400 && Math.abs(t.market.frr() - start) <= start * 0.01; i++) {
      t.v.exchange.simulator.step();
      await settle();
    }
    expect(Math.abs(t.market.frr() - start)).toBeGreaterThan(start * 0.01);
    t.poke();
    await settle();
    const now = t.offers()[0] as FundingOffer;
    expect(now.id).toBe(first.id);
    expect(Math.abs((now.rateReal as number) - (t.market.frr() + 0.0005))).toBeLessThanOrEqual(
      t.market.frr() * 0.0011 + 1e-9,
    );
    expect(now.rateReal).not.toBe(first.rateReal);
    expect(t.market.engine.get(first.id)?.rate).toBe(now.rateReal);
    expect(t.of("fou").some((p) => (p as unknown[])[0] === first.id)).toBe(true);

    // At the FRR (delta 0, variable): taken by the borrowers; each credit's rate follows the FRR.
    t.funding.cancel(t.user, first.id);
    t.funding.submit(t.user, { type: "FRRDELTAVAR", symbol: "fUSD", amount: "2000", rate: "0", period: 120 });
    for (let i = 0; i < 300 && t.credits().length === 0; i++) t.v.exchange.simulator.step();
    const vars = t.credits();
    expect(vars.length).toBeGreaterThan(0);
    expect(vars.every((c) => c.type === "VAR")).toBe(true);
    t.tick(DAY);
    t.poke();
    const frr = Number(t.market.frr().toPrecision(8));
    expect(t.credits().every((c) => c.rate === frr)).toBe(true);
  });

  it("charges a manual loan daily and closes it at the end of its period", () => {
    const t = setup(24);
    const r = t.funding.submit(t.user, { type: "LIMIT", symbol: "fUSD", amount: "-1000", rate: "0.01", period: 2 });
    expect(r.ok).toBe(true);
    const loans = t.loans.loansWire(t.user).map((l) => fundingLoanCodec.decode(l));
    expect(loans.length).toBeGreaterThan(0);
    const daily = loans.reduce((s, l) => s + (l.ok ? Math.round(toUnits(l.value.amount) * l.value.rate) : 0), 0);
    const before = t.v.balances.available(t.user, "margin", "USD");
    t.tick(DAY);
    t.events.length = 0;
    t.poke();
    // An unused loan's interest is charged in its own currency to the margin wallet.
    expect(before - t.v.balances.available(t.user, "margin", "USD")).toBe(daily);
    expect(t.of("flu").length).toBe(loans.length);
    t.tick(DAY);
    t.events.length = 0;
    t.poke();
    expect(before - t.v.balances.available(t.user, "margin", "USD")).toBe(2 * daily);
    const closed = t.of("flc").map((p) => fundingLoanCodec.decode(p));
    expect(closed.map((l) => l.ok && l.value.status)).toEqual(loans.map(() => "CLOSED (expired)"));
    expect(t.loans.loansWire(t.user)).toEqual([]);
  });
});
