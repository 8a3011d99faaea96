import { describe, expect, it } from "vitest";
import type { Position } from "../../protocol";
import { liquidationDistance, liquidationPrice, nearLiquidation, positionMark } from "./margin-risk";

const position = (over: Partial<Position>): Position => ({
  pair: "tBTCUSD",
  status: "ACTIVE",
  amount: 1,
  basePrice: 30_000,
  swap: 0,
  swapType: 0,
  pl: 0,
  plPercent: 0,
  liqPrice: 27_000,
  leverage: 10,
  id: 1,
  mtsCreate: 0,
  mtsUpdate: 0,
  posType: 0,
  collateral: 3000,
  minCollateral: 1500,
  maxCollateral: null,
  ...over,
});

describe("liquidation warning", () => {
  it("reads the mark from the position's P/L", () => {
    expect(positionMark(position({ amount: 2, pl: -1000 }))).toBe(29_500);
    expect(positionMark(position({ amount: -0.5, pl: 100 }))).toBe(29_800);
    expect(positionMark(position({ pl: null }))).toBeNull();
  });

  it("warns within 5 % of the liquidation price, on the side that liquidates", () => {
    // A long marked at 28 500 is 5.26 % above 27 000: not yet; at 28 400, 4.9 %: near.
    expect(nearLiquidation(position({ pl: -1500 }))).toBe(false);
    expect(nearLiquidation(position({ pl: -1600 }))).toBe(true);
    expect(liquidationDistance(position({ pl: -1600 }))).toBeCloseTo(1400 / 28_400, 10);
    // A short is liquidated above: 33 000 liquidates, a mark of 31 500 is 4.8 % below it.
    const short = position({ amount: -1, liqPrice: 33_000, pl: -1500 });
    expect(nearLiquidation(short)).toBe(true);
    expect(nearLiquidation({ ...short, pl: 0 })).toBe(false);
    // Past the price (between marks), the distance is 0 and the warning stays.
    expect(liquidationDistance(position({ pl: -3500 }))).toBe(0);
  });

  it("has no warning without a liquidation price or a mark", () => {
    expect(liquidationPrice(position({ liqPrice: 0 }))).toBeNull();
    expect(nearLiquidation(position({ liqPrice: 0, pl: -2900 }))).toBe(false);
    expect(nearLiquidation(position({ liqPrice: null }))).toBe(false);
    expect(nearLiquidation(position({ pl: null }))).toBe(false);
  });
});
