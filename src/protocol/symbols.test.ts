import { describe, expect, it } from "vitest";
import {
  isDerivativePair,
  isPaperPair,
  joinPair,
  parseMarketPath,
  parseSymbol,
  parseWidgetKey,
  splitPair,
  tradingSymbol,
  widgetKey,
} from "./symbols";

describe("symbols (docs/product-rules.md#symbols)", () => {
  it("splits pairs of up to 6 characters 3+3 and longer ones at the separator", () => {
    expect(splitPair("BTCUSD")).toEqual({ base: "BTC", quote: "USD" });
    expect(splitPair("TESTBTC:TESTUSD")).toEqual({ base: "TESTBTC", quote: "TESTUSD" });
    expect(splitPair("AAVE/USD")).toEqual({ base: "AAVE", quote: "USD" });
    expect(splitPair("AAVEUSD")).toBeNull();
    expect(splitPair("A:B:C")).toBeNull();
    expect(joinPair("BTC", "USD")).toBe("BTCUSD");
    expect(joinPair("AAVE", "USD")).toBe("AAVE:USD");
  });

  it("parses prefixed symbols, derivatives and paper pairs", () => {
    expect(parseSymbol("tBTCUSD")).toMatchObject({
      kind: "trading",
      pair: "BTCUSD",
      base: "BTC",
      quote: "USD",
      derivative: false,
    });
    expect(parseSymbol("tBTCF0:USTF0")).toMatchObject({ derivative: true, base: "BTCF0" });
    expect(parseSymbol("tTESTBTC:TESTUSD")).toMatchObject({ paper: true });
    expect(parseSymbol("fUSD")).toEqual({ kind: "funding", symbol: "fUSD", currency: "USD" });
    expect(parseSymbol("xBTCUSD")).toBeNull();
    expect(parseSymbol("tBTCUSDT")).toBeNull();
    expect(isDerivativePair("ETHF0:USTF0")).toBe(true);
    expect(isDerivativePair("BTCUSD")).toBe(false);
    expect(isPaperPair("TESTBTC:TESTUSD")).toBe(true);
    expect(tradingSymbol("BTCUSD")).toBe("tBTCUSD");
    expect(tradingSymbol("tBTCUSD")).toBe("tBTCUSD");
  });

  it("reads widget keys and market paths", () => {
    expect(widgetKey("book", "a1")).toBe("widget/book/a1");
    expect(parseWidgetKey("widget/book/a1")).toEqual({ type: "book", id: "a1" });
    expect(parseWidgetKey("widget/book")).toBeNull();
    expect(parseMarketPath("trading/BTCUSD")).toEqual({ market: "trading", pair: "BTCUSD" });
    expect(parseMarketPath("/t/tbtcusd")).toBeNull();
    expect(parseMarketPath("/t/btcusd")).toEqual({ market: "trading", pair: "BTCUSD" });
    expect(parseMarketPath("t/TESTBTC:TESTUSD/")).toEqual({ market: "trading", pair: "TESTBTC:TESTUSD" });
    expect(parseMarketPath("funding/USD")).toEqual({ market: "funding", currency: "USD" });
    expect(parseMarketPath("f/usd")).toEqual({ market: "funding", currency: "USD" });
    expect(parseMarketPath("x/BTCUSD")).toBeNull();
  });
});
