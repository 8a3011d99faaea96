import { describe, expect, it } from "vitest";
import {
  agreementRefusalCurrency,
  agreementRefusalOf,
  agreementsMissing,
  AGREEMENT_REFUSALS,
  acceptedAgreementsCodec,
  conversionAgreementRefusal,
  conversionCodec,
  conversionFeePpm,
  conversionFigures,
  conversionProblem,
  conversionQuoteCodec,
  conversionRefusalOf,
  CONVERSION_REFUSALS,
  conversionTargets,
  CURRENCY_AGREEMENTS,
  decimalToUnits,
  encodeConversionQuoteRequest,
  MAX_CONVERSION_AMOUNT,
  readAgreementRequest,
  readConversionQuoteRequest,
  type ConversionQuote,
} from "./conversions";
import { seededRandom } from "./random";

describe("which currencies convert to which", () => {
  it("fiat to USDt and back at 0.1 %, fiat to fiat at 0.2 %, USDt to its collateral form free", () => {
    expect(conversionFeePpm("USD", "UST")).toBe(1000);
    expect(conversionFeePpm("UST", "EUR")).toBe(1000);
    expect(conversionFeePpm("EUR", "USD")).toBe(2000);
    expect(conversionFeePpm("TRY", "BRL")).toBe(2000);
    expect(conversionFeePpm("UST", "USTF0")).toBe(0);
    expect(conversionFeePpm("USTF0", "UST")).toBe(0);
  });

  it("never converts a currency to itself, fiat straight to USTF0, or anything not in the table", () => {
    expect(conversionFeePpm("USD", "USD")).toBeNull();
    expect(conversionFeePpm("USD", "USTF0")).toBeNull();
    expect(conversionFeePpm("USTF0", "EUR")).toBeNull();
    expect(conversionFeePpm("BTC", "USD")).toBeNull();
    expect(conversionFeePpm("TESTUSD", "USD")).toBeNull();
    expect(conversionFeePpm("constructor", "USD")).toBeNull();
    expect(conversionTargets("USTF0")).toEqual(["UST"]);
    expect(conversionTargets("USD")).toEqual(["EUR", "JPY", "TRY", "BRL", "UST"]);
    expect(conversionTargets("BTC")).toEqual([]);
  });
});

describe("a conversion's figures", () => {
  it("rounds the gross down and the fee up, in exact units", () => {
    // 100 USD at 1 with 0.1 %: 99.9 UST, 0.1 kept.
    expect(conversionFigures(100e8, 1, 1000)).toEqual({
      rate: 1,
      grossUnits: 100e8,
      feeUnits: 0.1e8,
      receiveUnits: 99.9e8,
    });
    // 1 unit at 0.5: the half unit is not paid out; no fee is rounded up from nothing.
    expect(conversionFigures(1, 0.5, 1000)).toEqual({ rate: 0.5, grossUnits: 0, feeUnits: 0, receiveUnits: 0 });
    // 3 units at 1 with 0.1 %: a fee of 0.003 units is one whole unit.
    expect(conversionFigures(3, 1, 1000)?.feeUnits).toBe(1);
    expect(conversionFigures(3, 1, 0)?.feeUnits).toBe(0);
  });

  it("rounds the rate to 10 decimals and computes from the rounded rate", () => {
    const f = conversionFigures(1e8, 1 / 3, 0);
    expect(f?.rate).toBe(0.3333333333);
    expect(f?.receiveUnits).toBe(33_333_333);
  });

  it("refuses what is not a positive finite amount or rate", () => {
    expect(conversionFigures(0, 1, 0)).toBeNull();
    expect(conversionFigures(-5, 1, 0)).toBeNull();
    expect(conversionFigures(1.5, 1, 0)).toBeNull();
    expect(conversionFigures(1e8, 0, 0)).toBeNull();
    expect(conversionFigures(1e8, Number.NaN, 0)).toBeNull();
    expect(conversionFigures(1e8, Number.POSITIVE_INFINITY, 0)).toBeNull();
    expect(conversionFigures(1e8, 1e-12, 0)).toBeNull();
  });

  it("never pays out more than the rate gives, and fee plus receive is the gross (seeded random amounts)", () => {
    const rnd = seededRandom(905);
    for (let i = 0; i < 2000; i++) {
      const units = 1 + Math.floor(rnd() * MAX_CONVERSION_AMOUNT * 1e8);
      const rate = 10 ** (rnd() * 6 - 3);
      const ppm = [0, 1000, 2000][i % 3] ?? 0;
      const f = conversionFigures(units, rate, ppm);
      // Exact: the rounded rate as a fraction of 1e10, in BigInt.
      const exactRate = BigInt(Math.round(rate * 1e10));
      const gross = (BigInt(units) * exactRate) / 10_000_000_000n;
      if (gross > BigInt(Number.MAX_SAFE_INTEGER)) {
        expect(f).toBeNull();
        continue;
      }
      if (f === null) throw new Error("figures refused");
      expect(BigInt(f.grossUnits)).toBe(gross);
      expect(BigInt(f.grossUnits) * 10_000_000_000n).toBeLessThanOrEqual(BigInt(units) * exactRate);
      expect(f.feeUnits + f.receiveUnits).toBe(f.grossUnits);
      const feeTimesMillion = BigInt(f.feeUnits) * 1_000_000n;
      expect(feeTimesMillion).toBeGreaterThanOrEqual(gross * BigInt(ppm));
      expect(feeTimesMillion).toBeLessThan(gross * BigInt(ppm) + 1_000_000n);
    }
  });

  it("refuses figures beyond the integer range the exchange counts in", () => {
    expect(conversionFigures(MAX_CONVERSION_AMOUNT * 1e8, 1000, 0)).toBeNull();
  });
});

describe("decimal text as units", () => {
  it("reads plain decimals exactly, refuses more than 8 decimals and what is not a decimal", () => {
    expect(decimalToUnits("12.5")).toBe(1_250_000_000);
    expect(decimalToUnits(".00000001")).toBe(1);
    expect(decimalToUnits("0.1")).toBe(10_000_000);
    expect(decimalToUnits("5.")).toBe(500_000_000);
    expect(decimalToUnits(" 3 ")).toBe(300_000_000);
    expect(decimalToUnits("1.100000000")).toBe(110_000_000);
    expect(decimalToUnits("0.123456789")).toBeNull();
    expect(decimalToUnits("1e3")).toBeNull();
    expect(decimalToUnits("-1")).toBeNull();
    expect(decimalToUnits("")).toBeNull();
    expect(decimalToUnits("100000000")).toBeNull();
  });
});

describe("the form's rules", () => {
  const ok = { from: "USD", to: "UST", wallet: "exchange", amount: "100" };

  it("accepts a convertible pair with a good amount", () => {
    expect(conversionProblem(ok)).toBeNull();
    expect(conversionProblem({ ...ok, amount: 0.5 })).toBeNull();
  });

  it("names the first bad field", () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ wallet: "savings" }, "wallet"],
      [{ wallet: "__proto__" }, "wallet"],
      [{ from: "BTC" }, "from"],
      [{ from: "hasOwnProperty" }, "from"],
      [{ to: "XYZ" }, "to"],
      [{ to: "USD" }, "sameCurrency"],
      [{ to: "USTF0" }, "pair"],
      [{ amount: "NaN" }, "amount"],
      [{ amount: "Infinity" }, "amount"],
      [{ amount: Number.POSITIVE_INFINITY }, "amount"],
      [{ amount: "-5" }, "amount"],
      [{ amount: "0" }, "amount"],
      [{ amount: "1e3" }, "amount"],
      [{ amount: "0x10" }, "amount"],
      [{ amount: null }, "amount"],
      [{ amount: "0.123456789" }, "precision"],
      [{ amount: 1e-9 }, "precision"],
      [{ amount: String(MAX_CONVERSION_AMOUNT + 1) }, "tooLarge"],
    ];
    for (const [patch, refusal] of cases)
      expect(conversionProblem({ ...ok, ...patch }), JSON.stringify(patch)).toBe(refusal);
  });

  it("reads the request the dialog encodes, with the amount in exact units", () => {
    const body = encodeConversionQuoteRequest({ from: "EUR", to: "UST", wallet: "margin", amount: " 12.34 " });
    expect(body).toEqual({ from: "EUR", to: "UST", wallet: "margin", amount: "12.34" });
    expect(readConversionQuoteRequest(body)).toEqual({
      ok: true,
      value: { from: "EUR", to: "UST", wallet: "margin", amountUnits: 1_234_000_000 },
    });
    expect(readConversionQuoteRequest({ ...body, amount: "1e2" })).toEqual({ ok: false, refusal: "amount" });
  });
});

describe("refusals", () => {
  it("maps every message back to its refusal, the agreement one with its currency", () => {
    for (const [k, v] of Object.entries(CONVERSION_REFUSALS)) expect(conversionRefusalOf(v)).toBe(k);
    expect(conversionRefusalOf(conversionAgreementRefusal("UST"))).toBe("agreement");
    expect(agreementRefusalCurrency(conversionAgreementRefusal("TRY"))).toBe("TRY");
    expect(agreementRefusalCurrency("amount: invalid")).toBeNull();
    expect(conversionRefusalOf("something else")).toBeNull();
    for (const [k, v] of Object.entries(AGREEMENT_REFUSALS)) expect(agreementRefusalOf(v)).toBe(k);
  });
});

describe("quote and conversion records", () => {
  const quote: ConversionQuote = {
    id: "0123456789abcdef0123456789abcdef",
    from: "USD",
    to: "UST",
    wallet: "exchange",
    amount: 100,
    rate: 1,
    fee: 0.1,
    receive: 99.9,
    mts: 1_700_000_000_000,
    expires: 1_700_000_015_000,
  };

  it("round-trip and refuse malformed bodies", () => {
    expect(conversionQuoteCodec.decode(JSON.parse(JSON.stringify(conversionQuoteCodec.encode(quote))))).toEqual(quote);
    expect(conversionQuoteCodec.decode({ ...conversionQuoteCodec.encode(quote), id: "nope" })).toBeNull();
    expect(conversionQuoteCodec.decode({ ...conversionQuoteCodec.encode(quote), expires: quote.mts })).toBeNull();
    expect(conversionQuoteCodec.decode({ ...conversionQuoteCodec.encode(quote), wallet: "savings" })).toBeNull();
    expect(conversionQuoteCodec.decode({ ...conversionQuoteCodec.encode(quote), receive: "99.9" })).toBeNull();
    expect(conversionQuoteCodec.decode([quote])).toBeNull();
    const { expires: _, ...done } = quote;
    expect(conversionCodec.decode(conversionCodec.encode(done))).toEqual(done);
  });
});

describe("currency agreements", () => {
  it("lists what a conversion still needs, by the current version", () => {
    const ust = CURRENCY_AGREEMENTS["UST"]?.version ?? "";
    expect(agreementsMissing(["USD", "UST"], new Map())).toEqual(["UST"]);
    expect(agreementsMissing(["USD", "UST"], new Map([["UST", ust]]))).toEqual([]);
    expect(agreementsMissing(["TRY", "UST"], new Map([["UST", "0.1"]]))).toEqual(["TRY", "UST"]);
    expect(agreementsMissing(["USD", "EUR"], new Map())).toEqual([]);
  });

  it("accepts only a currency with an agreement at its current version", () => {
    const ust = CURRENCY_AGREEMENTS["UST"]?.version ?? "";
    expect(readAgreementRequest({ currency: "UST", version: ust })).toEqual({
      ok: true,
      currency: "UST",
      version: ust,
    });
    expect(readAgreementRequest({ currency: "UST", version: "0.9" })).toEqual({ ok: false, refusal: "version" });
    expect(readAgreementRequest({ currency: "USD", version: ust })).toEqual({ ok: false, refusal: "currency" });
    expect(readAgreementRequest({ currency: "toString", version: ust })).toEqual({ ok: false, refusal: "currency" });
    expect(readAgreementRequest({})).toEqual({ ok: false, refusal: "currency" });
  });

  it("reads the accepted list, refusing a malformed row", () => {
    const list = [{ currency: "UST", version: "1.0", mts: 5 }];
    expect(acceptedAgreementsCodec.decode(acceptedAgreementsCodec.encode(list))).toEqual(list);
    expect(acceptedAgreementsCodec.decode([{ currency: "UST", version: 1, mts: 5 }])).toBeNull();
    expect(acceptedAgreementsCodec.decode({})).toBeNull();
  });
});
