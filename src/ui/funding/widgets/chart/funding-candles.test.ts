import { describe, expect, it } from "vitest";
import { FUNDING_CHART_PERIODS, fundingSeries, periodFromValue, periodValue } from "./funding-candles";

describe("funding candle series", () => {
  it("names one period as p{days} and a range as the 30-aggregate a30:p{from}:p{to}", () => {
    expect(fundingSeries("fUSD", [30, 30])).toBe("fUSD:p30");
    expect(fundingSeries("fUSD", [2, 30])).toBe("fUSD:a30:p2:p30");
  });

  it("offers the product's default range [2, 30] first, and reads its options back", () => {
    expect(FUNDING_CHART_PERIODS[0]).toEqual([2, 30]);
    for (const p of FUNDING_CHART_PERIODS) expect(periodFromValue(periodValue(p))).toEqual(p);
    expect(periodFromValue("3-9")).toBeNull();
  });
});
