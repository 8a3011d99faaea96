import { describe, expect, it } from "vitest";
import {
  otcFigures,
  otcHistoryCodec,
  otcProblem,
  otcQuoteCodec,
  otcRefusalOf,
  readOtcQuoteRequest,
  roundSignificant,
  OTC_REFUSALS,
} from "./otc";

describe("the block's price", () => {
  it("walks the levels for the amount and moves the average by the spread against the account", () => {
    const asks: [number, number][] = [
      [100, 0.5],
      [101, 1],
      [105, 10],
    ];
    // 0.5 at 100 and 1 at 101 = 151 for 1.5: average 100.666…, plus 0.5 % = 101.17 (5 digits, up).
    const buy = otcFigures(150_000_000, "buy", asks);
    expect(buy?.bookPrice).toBeCloseTo(151 / 1.5, 10);
    expect(buy?.price).toBe(101.17);
    // 1.5 × 101.17 = 151.755 exactly.
    expect(buy?.totalUnits).toBe(15_175_500_000);
    const bids: [number, number][] = [
      [99, 1],
      [98, 1],
    ];
    // 1 at 99 and 0.5 at 98: average 98.666…, less 0.5 % = 98.173 → 98.173 (down).
    const sell = otcFigures(150_000_000, "sell", bids);
    expect(sell?.price).toBe(98.173);
    expect(sell?.totalUnits).toBe(14_725_950_000);
  });

  it("rounds the total up for a buy and down for a sell, to the unit", () => {
    const one: [number, number][] = [[3, 10]];
    // One unit of the base at 3.015 (buy) is 3.015 units of the quote: 4; at 2.985 (sell): 2.
    expect(otcFigures(1, "buy", one)?.totalUnits).toBe(4);
    expect(otcFigures(1, "sell", one)?.totalUnits).toBe(2);
  });

  it("refuses what the levels cannot fill, and nonsense", () => {
    expect(otcFigures(200_000_000, "buy", [[100, 1]])).toBeNull();
    expect(otcFigures(0, "buy", [[100, 1]])).toBeNull();
    expect(otcFigures(1.5, "buy", [[100, 1]])).toBeNull();
    expect(otcFigures(100_000_000, "buy", [])).toBeNull();
  });

  it("prices a yen block exactly, and refuses a total beyond 2^53 units", () => {
    const f = otcFigures(123_456_789, "buy", [[13_000_000, 20]], 0);
    expect(f?.price).toBe(13_000_000);
    expect(f?.totalUnits).toBe(1_604_938_257_000_000);
    expect(otcFigures(1_000_000_000, "buy", [[13_000_000, 20]], 0)).toBeNull();
  });

  it("rounds to significant digits in the direction asked", () => {
    expect(roundSignificant(86_934.2, 5, "up")).toBe(86_935);
    expect(roundSignificant(86_934.2, 5, "down")).toBe(86_934);
    expect(roundSignificant(0.0370119, 5, "up")).toBe(0.037012);
    expect(roundSignificant(86_500, 5, "up")).toBe(86_500);
  });
});

describe("the request", () => {
  it("checks the pair, the side, the amount's form and the minimum block", () => {
    expect(otcProblem({ pair: "BTCUSD", side: "buy", amount: "0.05" })).toBeNull();
    expect(otcProblem({ pair: "BTCUSD", side: "buy", amount: "0.0499" })).toBe("tooSmall");
    expect(otcProblem({ pair: "XRPUSD", side: "sell", amount: 999 })).toBe("tooSmall");
    expect(otcProblem({ pair: "BTCTRY", side: "buy", amount: "1" })).toBe("pair");
    expect(otcProblem({ pair: "__proto__", side: "buy", amount: "1" })).toBe("pair");
    expect(otcProblem({ pair: "BTCUSD", side: "short", amount: "1" })).toBe("side");
    expect(otcProblem({ pair: "BTCUSD", side: "buy", amount: "abc" })).toBe("amount");
    expect(otcProblem({ pair: "BTCUSD", side: "buy", amount: "1.000000001" })).toBe("precision");
  });

  it("reads the amount as exact units", () => {
    expect(readOtcQuoteRequest({ pair: "ETHUSD", side: "sell", amount: "1.23456789" })).toEqual({
      ok: true,
      pair: "ETHUSD",
      side: "sell",
      amountUnits: 123_456_789,
    });
  });

  it("names every refusal by its message", () => {
    for (const [k, v] of Object.entries(OTC_REFUSALS)) expect(otcRefusalOf(v)).toBe(k);
    expect(otcRefusalOf("something else")).toBeNull();
  });
});

describe("the codecs", () => {
  const quote = {
    id: "a".repeat(32),
    pair: "BTCUSD" as const,
    side: "buy" as const,
    amount: 0.1,
    price: 87_000,
    total: 8700,
    mts: 1000,
    expires: 16_000,
  };

  it("round-trip a quote and a history, and refuse what is not one", () => {
    expect(otcQuoteCodec.decode(otcQuoteCodec.encode(quote))).toEqual(quote);
    expect(otcQuoteCodec.decode({ ...otcQuoteCodec.encode(quote), expires: 1000 })).toBeNull();
    expect(otcQuoteCodec.decode({ ...otcQuoteCodec.encode(quote), pair: "BTCTRY" })).toBeNull();
    const hist = [{ ...quote, status: "ACCEPTED" as const, accepted: 2000 }];
    expect(otcHistoryCodec.decode(otcHistoryCodec.encode(hist))).toEqual(hist);
    expect(otcHistoryCodec.decode([{ ...otcQuoteCodec.encode(quote), status: "DONE", accepted: null }])).toBeNull();
  });
});
