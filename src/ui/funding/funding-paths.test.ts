import { describe, expect, it } from "vitest";
import {
  DEFAULT_FUNDING_CURRENCY,
  fundingMarketFromPath,
  fundingPath,
  fundingSymbol,
  parseFundingCurrency,
  pinnedCurrency,
  suggestCurrencies,
} from "./funding-paths";

describe("funding desk paths", () => {
  it("reads the currency of /funding, /funding/{ccy} and /f/{ccy}, with or without its f prefix", () => {
    expect(fundingMarketFromPath("/funding")).toEqual({ kind: "currency", currency: DEFAULT_FUNDING_CURRENCY });
    expect(fundingMarketFromPath("/funding/")).toEqual({ kind: "currency", currency: "USD" });
    expect(fundingMarketFromPath("/funding/btc")).toEqual({ kind: "currency", currency: "BTC" });
    expect(fundingMarketFromPath("/f/USD")).toEqual({ kind: "currency", currency: "USD" });
    expect(fundingMarketFromPath("/f/fUST")).toEqual({ kind: "currency", currency: "UST" });
    expect(fundingMarketFromPath("/f/%E0%A4%A")).toEqual({ kind: "invalid", text: "%E0%A4%A" });
    expect(fundingMarketFromPath("/f/%3Cb%3E")).toEqual({ kind: "invalid", text: "<b>" });
  });

  it("keeps `f` plus a code as the prefix only when the code is upper case", () => {
    // "fusd" is not a prefixed symbol but a (five-letter) code.
    expect(parseFundingCurrency("fusd")).toEqual({ kind: "currency", currency: "FUSD" });
    expect(parseFundingCurrency("fUSD")).toEqual({ kind: "currency", currency: "USD" });
    expect(parseFundingCurrency("U")).toEqual({ kind: "invalid", text: "U" });
    expect(parseFundingCurrency("ABCDEFGHIJK")).toEqual({ kind: "invalid", text: "ABCDEFGHIJK" });
  });

  it("builds addresses in the area the user is in, and the funding symbol", () => {
    expect(fundingPath("/f/USD", "BTC")).toBe("/f/BTC");
    expect(fundingPath("/funding", "ETH")).toBe("/funding/ETH");
    expect(fundingSymbol("USD")).toBe("fUSD");
  });

  it("reads a saved layout's funding pin (f/{ccy} or funding/{ccy}) and nothing else", () => {
    expect(pinnedCurrency("f/BTC")).toBe("BTC");
    expect(pinnedCurrency("funding/UST")).toBe("UST");
    expect(pinnedCurrency("BTCUSD")).toBeNull();
    expect(pinnedCurrency("t/BTCUSD")).toBeNull();
    expect(pinnedCurrency(undefined)).toBeNull();
  });

  it("suggests the currencies that start like the one asked for first, then the rest alphabetically", () => {
    expect(suggestCurrencies("USX", ["BTC", "ETH", "USD", "UST"])).toEqual(["USD", "UST", "BTC", "ETH"]);
    expect(suggestCurrencies("usd", ["BTC", "USD", "UST"])).toEqual(["UST", "BTC"]);
    expect(suggestCurrencies("FOO", ["BTC", "ETH", "USD"], 2)).toEqual(["BTC", "ETH"]);
  });
});
