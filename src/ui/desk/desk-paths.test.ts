import { describe, expect, it } from "vitest";
import { deskAreaOf, deskPath, pairFromPath } from "./desk-paths";

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
});
