import { describe, expect, it } from "vitest";
import { BLOCK_TIME_MS, countdownParts, estimateHalving, REFERENCE_BLOCK } from "./halving";

describe("halving estimate", () => {
  it("puts the fifth halving at block 1,050,000, 210,000 ten-minute blocks after the fourth", () => {
    const e = estimateHalving(Date.UTC(2026, 10, 26));
    expect(e.halvingHeight).toBe(1_050_000);
    expect(e.mts).toBe(REFERENCE_BLOCK.mts + 210_000 * BLOCK_TIME_MS);
    expect(new Date(e.mts).toISOString().slice(0, 10)).toBe("2028-04-17");
    expect([e.subsidy, e.nextSubsidy]).toEqual([3.125, 1.5625]);
    expect(e.height + e.blocksLeft).toBe(1_050_000);
  });

  it("moves on to the next halving once the estimate passes one", () => {
    const e = estimateHalving(REFERENCE_BLOCK.mts + 210_000 * BLOCK_TIME_MS + 1000);
    expect([e.halvingHeight, e.nextSubsidy]).toEqual([1_260_000, 0.78125]);
  });

  it("splits the time left into days, hours, minutes and seconds, never below zero", () => {
    expect(countdownParts(90_061_000, 0)).toEqual([1, 1, 1, 1]);
    expect(countdownParts(0, 5000)).toEqual([0, 0, 0, 0]);
  });
});
