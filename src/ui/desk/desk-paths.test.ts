import { describe, expect, it } from "vitest";
import { deskAreaOf, deskPath, gridEditable, deskMarketFromPath } from "./desk-paths";

describe("desk paths", () => {
  it("knows the area of a path", () => {
    expect(deskAreaOf("/tradedesk")).toBe("tradedesk");
    expect(deskAreaOf("/tradedesk/ETHUSD")).toBe("tradedesk");
    expect(deskAreaOf("/t/ETHUSD")).toBe("t");
    expect(deskAreaOf("/trading/ETHUSD")).toBe("trading");
  });

  it("reads the market a path names: a pair, a funding currency or unreadable text", () => {
    expect(deskMarketFromPath("/t/ethusd")).toEqual({ kind: "pair", pair: "ETHUSD" });
    expect(deskMarketFromPath("/tradedesk/TESTBTC:TESTUSD")).toEqual({ kind: "pair", pair: "TESTBTC:TESTUSD" });
    expect(deskMarketFromPath("/tradedesk/TESTBTC%3ATESTUSD")).toEqual({ kind: "pair", pair: "TESTBTC:TESTUSD" });
    expect(deskMarketFromPath("/tradedesk")).toEqual({ kind: "pair", pair: "BTCUSD" });
    // Not split as "FU/SD": a funding currency.
    expect(deskMarketFromPath("/tradedesk/fUSD")).toEqual({ kind: "funding", currency: "USD" });
    expect(deskMarketFromPath("/t/%E0%A4%A")).toEqual({ kind: "invalid", text: "%E0%A4%A" });
    expect(deskMarketFromPath("/t/<x>")).toEqual({ kind: "invalid", text: "<x>" });
    expect(deskMarketFromPath("/t/TESTBTCTESTUSD")).toEqual({ kind: "invalid", text: "TESTBTCTESTUSD" });
  });

  it("builds the path in the same area", () => {
    expect(deskPath("tradedesk", "ETHUSD")).toBe("/tradedesk/ETHUSD");
    expect(deskPath("t", "BTCF0:USTF0")).toBe("/t/BTCF0:USTF0");
  });

  it("offers the grid for rearranging only on /tradedesk, signed in, to credentials that may trade", () => {
    expect(gridEditable("/tradedesk/BTCUSD", true, undefined)).toBe(true);
    expect(gridEditable("/tradedesk", true, true)).toBe(true);
    // A read-only API key's session watches the desk.
    expect(gridEditable("/tradedesk/BTCUSD", true, false)).toBe(false);
    expect(gridEditable("/tradedesk/BTCUSD", false, true)).toBe(false);
    expect(gridEditable("/t/BTCUSD", true, true)).toBe(false);
    expect(gridEditable("/trading/BTCUSD", true, true)).toBe(false);
  });
});
