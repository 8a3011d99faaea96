import { describe, expect, it } from "vitest";
import { lastPrices } from "../../bitcoin-view";
import { quoteOf, shownAmount } from "./valuation";

const last = lastPrices(
  new Map([
    ["BTCUSD", { lastPrice: 50_000 }],
    ["ETHUSD", { lastPrice: 2_500 }],
    ["TESTBTC:TESTUSD", { lastPrice: 40_000 }],
  ]),
);

describe("bitcoin view in the tables", () => {
  it("reads a pair's quote currency", () => {
    expect([quoteOf("tBTCUSD"), quoteOf("ETHBTC"), quoteOf("tBTCF0:USTF0"), quoteOf("fUSD")]).toEqual([
      "USD",
      "BTC",
      "USTF0",
      null,
    ]);
  });

  it("converts an amount to the bitcoin unit with the balances' multiplier", () => {
    const btc = { unit: "BTC", last };
    expect(shownAmount(btc, "USD", 125, 2)).toEqual({ value: 0.0025, text: "0.0025", currency: "BTC" });
    expect(shownAmount(btc, "USD", -1_000, 2)).toEqual({ value: -0.02, text: "-0.02", currency: "BTC" });
    expect(shownAmount(btc, "ETH", 0.5, 8)?.text).toBe("0.025");
    expect(shownAmount({ unit: "TESTBTC", last }, "TESTUSD", 20_000, 2)?.text).toBe("0.5");
    // 8 decimals for bitcoin: a cent of P/L is still visible.
    expect(shownAmount(btc, "USD", 0.01, 2)?.text).toBe("0.0000002");
  });

  it("keeps the amount in its own currency when the mode is off or no price connects it", () => {
    expect(shownAmount({ unit: null, last }, "USD", 12.345, 2)).toEqual({
      value: 12.345,
      text: "12.35",
      currency: "USD",
    });
    expect(shownAmount({ unit: "BTC", last }, "USTF0", 7, 2)).toEqual({ value: 7, text: "7", currency: "USTF0" });
    expect(shownAmount({ unit: "BTC", last }, "USD", null, 2)).toBeNull();
  });
});
