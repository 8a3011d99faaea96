import { describe, expect, it } from "vitest";
import { lastPrices, unitDecimals, valuationUnit, valueIn } from "./bitcoin-view";

const last = lastPrices(
  new Map([
    ["BTCUSD", { lastPrice: 50_000 }],
    ["ETHBTC", { lastPrice: 0.05 }],
    ["ETHUSD", { lastPrice: 2_500 }],
    ["TESTBTC:TESTUSD", { lastPrice: 40_000 }],
  ]),
);

describe("bitcoin view mode", () => {
  it("values in the equivalent currency unless bitcoin view is on", () => {
    const s = { bitcoin_view_enabled: false, bitcoin_view_mode: "BTC", total_equivalent_currency: "USD" };
    expect(valuationUnit(s)).toBe("USD");
    expect(valuationUnit({ ...s, bitcoin_view_enabled: true })).toBe("BTC");
    expect(valuationUnit({ ...s, bitcoin_view_enabled: true, bitcoin_view_mode: "TESTBTC" })).toBe("TESTBTC");
  });

  it("converts with the currency's price in the unit", () => {
    expect(valueIn("USD", 1_000, "BTC", last)).toBeCloseTo(0.02);
    expect(valueIn("ETH", 2, "BTC", last)).toBeCloseTo(0.1);
    expect(valueIn("BTC", 0.5, "BTC", last)).toBe(0.5);
    expect(valueIn("TESTUSD", 20_000, "TESTBTC", last)).toBeCloseTo(0.5);
    expect(valueIn("BTC", 1, "USD", last)).toBe(50_000);
    // No price connects a real currency with paper bitcoin.
    expect(valueIn("EUR", 10, "TESTBTC", last)).toBeNaN();
    expect(valueIn("EUR", 0, "TESTBTC", last)).toBe(0);
    expect([unitDecimals("BTC"), unitDecimals("TESTBTC"), unitDecimals("USD")]).toEqual([8, 8, 2]);
  });
});
