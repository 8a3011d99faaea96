import { describe, expect, it } from "vitest";
import {
  decodeCollateralLimits,
  decodeCollateralSet,
  decodeCollateralSetRequest,
  DERIV_MAINTENANCE_MARGIN,
  DERIV_REFUSALS,
  derivLiquidationPrice,
  encodeCollateralLimits,
  encodeCollateralSet,
  isDerivativeSymbol,
  orderLeverage,
  spotIndexOf,
} from "./derivatives";

describe("derivatives rules", () => {
  it("reads an order's lev: absent is 10, else a whole number from 1 to 100", () => {
    expect(orderLeverage(undefined)).toBe(10);
    expect(orderLeverage(1)).toBe(1);
    expect(orderLeverage("100")).toBe(100);
    for (const bad of [0, 101, 2.5, "2.5", "ten", -3, true, "0x10"]) expect(orderLeverage(bad)).toBeNull();
  });

  it("names perpetuals and the spot market each tracks", () => {
    expect(isDerivativeSymbol("tBTCF0:USTF0")).toBe(true);
    expect(isDerivativeSymbol("tBTCUSD")).toBe(false);
    expect(spotIndexOf("tBTCF0:USTF0")).toBe("tBTCUSD");
    expect(spotIndexOf("tETHF0:USTF0")).toBe("tETHUSD");
    expect(spotIndexOf("tETHF0:BTCF0")).toBeNull();
    expect(spotIndexOf("tBTCUSD")).toBeNull();
  });

  it("puts the liquidation price where collateral plus P/L meets the maintenance margin", () => {
    for (const [amount, base, collateral] of [
      [0.5, 30_000, 750],
      [-2, 3_000, 60],
    ] as const) {
      const l = derivLiquidationPrice(amount, base, collateral) as number;
      const equity = collateral + amount * (l - base);
      expect(equity).toBeCloseTo(Math.abs(amount) * l * DERIV_MAINTENANCE_MARGIN, 3);
    }
    // A long backed by its whole notional has no liquidation price.
    expect(derivLiquidationPrice(1, 100, 100)).toBe(0);
    expect(derivLiquidationPrice(0, 100, 1)).toBeNull();
  });

  it("reads the collateral call's body and builds and reads its answers", () => {
    expect(decodeCollateralSetRequest({ symbol: "tBTCF0:USTF0", collateral: "12.5" })).toEqual({
      ok: true,
      symbol: "tBTCF0:USTF0",
      collateral: 12.5,
    });
    expect(decodeCollateralSetRequest({ symbol: "tBTCUSD", collateral: 1 })).toEqual({
      ok: false,
      reason: DERIV_REFUSALS.symbol,
    });
    for (const collateral of [0, -1, "1e3", "abc", null])
      expect(decodeCollateralSetRequest({ symbol: "tBTCF0:USTF0", collateral })).toEqual({
        ok: false,
        reason: DERIV_REFUSALS.collateral,
      });
    expect(decodeCollateralSet(encodeCollateralSet())).toBe(true);
    expect(decodeCollateralSet([])).toBe(false);
    expect(decodeCollateralLimits(encodeCollateralLimits({ min: 1.5, max: 20 }))).toEqual({ min: 1.5, max: 20 });
    expect(decodeCollateralLimits(["x"])).toBeNull();
  });
});
