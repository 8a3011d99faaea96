import { describe, expect, it } from "vitest";
import type { BookView } from "../../../../protocol";
import { periodLabel, ratePercent, yearlyPercent } from "../funding-format";
import { indexOf, rowText, slotOf } from "./funding-book-rows";

/** A view with the worker's layout: bids then asks, [rate, count, amount, cumulative] per level. */
function view(bids: number[][], asks: number[][], periods: number[][]): BookView {
  const rows = [...bids, ...asks];
  const levels: number[] = [];
  for (const side of [bids, asks]) {
    let cum = 0;
    for (const [rate, count, amount] of side) {
      cum += amount as number;
      levels.push(rate as number, count as number, amount as number, cum);
    }
  }
  return {
    handle: "h",
    symbol: "fUSD",
    status: "SUBSCRIBED",
    bids: bids.length,
    asks: asks.length,
    levels: new Float64Array(levels),
    periods: new Float64Array(periods.flat()),
    health: { lastUpdateAt: 0, messagesPerSecond: 0, resyncs: 0, checksumsOk: 0, checksumsFailed: 0, stale: false },
    version: rows.length,
    publishedAt: 0,
  };
}

describe("funding book rows", () => {
  it("stacks the offers over the bids, each side's best level next to the middle", () => {
    expect(slotOf(0, 3)).toEqual({ side: "ask", level: 2 });
    expect(slotOf(2, 3)).toEqual({ side: "ask", level: 0 });
    expect(slotOf(3, 3)).toEqual({ side: "bid", level: 0 });
    expect(slotOf(5, 3)).toEqual({ side: "bid", level: 2 });
    expect(slotOf(6, 3)).toBeNull();
    expect(slotOf(-1, 3)).toBeNull();
    for (let i = 0; i < 6; i++) expect(indexOf(slotOf(i, 3) as NonNullable<ReturnType<typeof slotOf>>, 3)).toBe(i);
  });

  it("writes a level's rate a day, its period range, its count and amount, and its depth", () => {
    const v = view(
      [
        [0.0002, 3, 150],
        [0.00019, 1, 50],
      ],
      [[0.00021, 2, 100]],
      [
        [2, 30],
        [7, 7],
        [2, 120],
      ],
    );
    expect(rowText(v, { side: "bid", level: 0 }, false)).toEqual({
      rate: "0.02000%",
      period: "2–30",
      count: "3",
      amount: "150.0000",
      depth: 0.75,
    });
    expect(rowText(v, { side: "bid", level: 1 }, false)?.period).toBe("7");
    expect(rowText(v, { side: "bid", level: 1 }, false)?.depth).toBe(1);
    expect(rowText(v, { side: "ask", level: 0 }, false)).toMatchObject({ rate: "0.02100%", period: "2–120" });
    expect(rowText(v, { side: "ask", level: 1 }, false)).toBeNull();
    // A raw book's row is one offer.
    expect(rowText(v, { side: "ask", level: 0 }, true)?.count).toBe("1");
  });

  it("formats rates, yearly rates and periods", () => {
    expect(ratePercent(0.00004)).toBe("0.00400%");
    expect(ratePercent(Number.NaN)).toBe("—");
    expect(yearlyPercent(0.0002)).toBe("7.30%");
    expect(periodLabel(30, 30)).toBe("30");
    expect(periodLabel(2, 120)).toBe("2–120");
    expect(periodLabel(Number.NaN, 2)).toBe("");
  });
});
