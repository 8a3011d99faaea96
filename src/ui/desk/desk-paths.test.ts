import { describe, expect, it } from "vitest";
import { deskAreaOf, deskPath, gridEditable, pairFromPath } from "./desk-paths";

describe("desk paths", () => {
  it("knows the area of a path", () => {
    expect(deskAreaOf("/tradedesk")).toBe("tradedesk");
    expect(deskAreaOf("/tradedesk/ETHUSD")).toBe("tradedesk");
    expect(deskAreaOf("/t/ETHUSD")).toBe("t");
    expect(deskAreaOf("/trading/ETHUSD")).toBe("trading");
  });

  it("reads the pair, falling back on anything malformed", () => {
    expect(pairFromPath("/t/ethusd")).toBe("ETHUSD");
    expect(pairFromPath("/tradedesk/TESTBTC:TESTUSD")).toBe("TESTBTC:TESTUSD");
    expect(pairFromPath("/tradedesk/TESTBTC%3ATESTUSD")).toBe("TESTBTC:TESTUSD");
    expect(pairFromPath("/tradedesk")).toBe("BTCUSD");
    expect(pairFromPath("/t/%E0%A4%A")).toBe("BTCUSD");
    expect(pairFromPath("/t/<x>")).toBe("BTCUSD");
    expect(pairFromPath("/t/TESTBTCTESTUSD")).toBe("BTCUSD");
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
