import { describe, expect, it } from "vitest";
import { FUNDING_MIN_OFFER_USD, ORDER_FLAGS, type LedgerEntry } from "../../../protocol";
import {
  checkAutoRenew,
  checkOffer,
  EMPTY_OFFER,
  isHighCostBorrow,
  minimumAmount,
  rateText,
  sumEarnings,
  yearlyPercent,
  type OfferEnv,
  type OfferValues,
} from "./model";

const USD: OfferEnv = { currency: "USD", available: 1000, usdPrice: 1, frr: 0.0002 };
const offer = (v: Partial<OfferValues>): OfferValues => ({ ...EMPTY_OFFER, ...v });

describe("the offer form's checks", () => {
  it("builds a lend offer at a fixed rate, the rate typed as a percentage a day", () => {
    const c = checkOffer(offer({ rate: "0.025", period: "30", amount: "200", hidden: true, renew: true }), USD);
    expect(c).toEqual({
      ok: true,
      dailyRate: 0.00025,
      request: {
        type: "LIMIT",
        symbol: "fUSD",
        amount: "200",
        rate: "0.00025",
        period: 30,
        flags: ORDER_FLAGS.HIDDEN,
        renew: 1,
      },
    });
  });

  it("borrows with a negative amount, past what the wallet holds (borrowing reserves nothing)", () => {
    const c = checkOffer(offer({ side: "borrow", rate: "0,01", period: "2", amount: "5000" }), USD);
    expect(c.ok && c.request.amount).toBe("-5000");
  });

  it("offers at the FRR plus a delta: empty is at the FRR, a floating delta may not be negative", () => {
    const atFrr = checkOffer(offer({ mode: "frr-var", period: "2", amount: "150" }), USD);
    expect(atFrr.ok && atFrr.request).toMatchObject({ type: "FRRDELTAVAR", rate: "0" });
    expect(atFrr.ok && atFrr.dailyRate).toBe(0.0002);
    const below = checkOffer(offer({ mode: "frr-var", rate: "-0.01", period: "2", amount: "150" }), USD);
    expect(!below.ok && below.issues.rate).toEqual({ kind: "delta-negative" });
    const fixedBelow = checkOffer(offer({ mode: "frr-fix", rate: "-0.01", period: "2", amount: "150" }), USD);
    expect(fixedBelow.ok && fixedBelow.request.type).toBe("FRRDELTAFIX");
  });

  it("names every problem at once, each for its field", () => {
    const c = checkOffer(offer({ rate: "abc", period: "121", amount: "" }), USD);
    expect(c.ok).toBe(false);
    if (c.ok) return;
    expect(c.issues).toEqual({
      rate: { kind: "not-a-number" },
      period: { kind: "period-range", min: 2, max: 120 },
      amount: { kind: "required" },
    });
    const zero = checkOffer(offer({ rate: "0", period: "2.5", amount: "-3" }), USD);
    expect(!zero.ok && zero.issues).toEqual({
      rate: { kind: "rate-positive" },
      period: { kind: "period-range", min: 2, max: 120 },
      amount: { kind: "amount-positive" },
    });
    const high = checkOffer(offer({ rate: "7.5", period: "2", amount: "200" }), USD);
    expect(!high.ok && high.issues.rate).toEqual({ kind: "rate-too-high", max: 7 });
  });

  it("holds the exchange's minimum (150 USD or its worth) and, to lend, the funding wallet", () => {
    expect(minimumAmount(1)).toBe(FUNDING_MIN_OFFER_USD);
    expect(minimumAmount(30_000)).toBe(0.005);
    expect(minimumAmount(null)).toBeNull();
    const small = checkOffer(offer({ rate: "0.02", amount: "149.99" }), USD);
    expect(!small.ok && small.issues.amount).toEqual({ kind: "amount-minimum", minUsd: 150, min: 150 });
    const much = checkOffer(offer({ rate: "0.02", amount: "1000.01" }), USD);
    expect(!much.ok && much.issues.amount).toEqual({ kind: "amount-balance", available: 1000 });
    // The price unknown: the exchange says whether it is enough.
    expect(checkOffer(offer({ rate: "0.02", amount: "0.001" }), { ...USD, usdPrice: null }).ok).toBe(true);
  });
});

describe("the high-cost borrow", () => {
  it("is a borrow at 0.1 % a day or more, or above twice the FRR", () => {
    expect(isHighCostBorrow("borrow", 0.001, null)).toBe(true);
    expect(isHighCostBorrow("borrow", 0.0009, null)).toBe(false);
    expect(isHighCostBorrow("borrow", 0.0005, 0.0002)).toBe(true);
    expect(isHighCostBorrow("borrow", 0.0004, 0.0002)).toBe(false);
    expect(isHighCostBorrow("lend", 0.05, 0.0002)).toBe(false);
    expect(isHighCostBorrow("borrow", null, 0.0002)).toBe(false);
  });
});

describe("auto-renew", () => {
  it("turns off with the currency alone, on with its checked settings", () => {
    expect(checkAutoRenew({ active: false, period: "x", rate: "", threshold: "" }, "USD")).toEqual({
      ok: true,
      body: { status: 0, currency: "USD" },
    });
    expect(checkAutoRenew({ active: true, period: "7", rate: "0.03", threshold: "" }, "USD")).toEqual({
      ok: true,
      body: { status: 1, currency: "USD", period: 7, rate: "0.0003", amount: "0" },
    });
    const bad = checkAutoRenew({ active: true, period: "1", rate: "-1", threshold: "x" }, "USD");
    expect(!bad.ok && Object.keys(bad.issues).sort()).toEqual(["period", "rate", "threshold"]);
  });
});

describe("earnings", () => {
  const row = (amount: number, description: string): LedgerEntry => ({
    id: 1,
    currency: "USD",
    wallet: "funding",
    time: 0,
    amount,
    balance: null,
    description,
  });

  it("sums interest received and paid from the margin-funding rows only", () => {
    expect(
      sumEarnings([
        row(0.1, "Margin Funding Payment on wallet funding"),
        row(0.2, "Margin Funding Payment on wallet funding"),
        row(-0.05, "Margin Funding Charge on wallet margin"),
        row(500, "Deposit (USD) #1"),
      ]),
    ).toEqual({ earned: 0.3, paid: 0.05, payments: 2, charges: 1 });
  });
});

describe("rates as text", () => {
  it("never writes an exponent and says the yearly figure", () => {
    expect(rateText(0.00000123)).toBe("0.00000123");
    expect(rateText(0.1 + 0.2)).toBe("0.3");
    expect(yearlyPercent(0.0002)).toBe("7.30 %");
  });
});
