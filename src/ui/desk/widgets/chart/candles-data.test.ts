import { describe, expect, it } from "vitest";
import { candleKey, COL, decodeCandleRows, historyPath, mergeRows, TIMEFRAME_MS, toColumns } from "./candles-data";

function rows(...candles: number[][]): Float64Array {
  return new Float64Array(candles.flat());
}

describe("candle rows", () => {
  it("merges history and live rows by mts, the live copy winning on the same mts", () => {
    const history = rows([1000, 1, 2, 3, 0, 10], [2000, 2, 3, 4, 1, 20], [3000, 3, 4, 5, 2, 30]);
    const live = rows([3000, 3, 9, 9, 2, 99], [4000, 9, 8, 9, 7, 40]);
    const merged = mergeRows(history, live);
    expect(Array.from(merged)).toEqual([
      1000, 1, 2, 3, 0, 10, 2000, 2, 3, 4, 1, 20, 3000, 3, 9, 9, 2, 99, 4000, 9, 8, 9, 7, 40,
    ]);
    expect(mergeRows(new Float64Array(0), live)).toBe(live);
    expect(Array.from(mergeRows(live, history)).slice(12, 18)).toEqual([3000, 3, 4, 5, 2, 30]);
  });

  it("interleaves overlapping ranges in time order", () => {
    const a = rows([1, 0, 0, 0, 0, 1], [3, 0, 0, 0, 0, 3], [5, 0, 0, 0, 0, 5]);
    const b = rows([2, 0, 0, 0, 0, 2], [3, 0, 0, 0, 0, 33], [6, 0, 0, 0, 0, 6]);
    const merged = mergeRows(a, b);
    const mts = [];
    for (let i = 0; i < merged.length; i += 6) mts.push([merged[i], merged[i + 5]]);
    expect(mts).toEqual([
      [1, 1],
      [2, 2],
      [3, 33],
      [5, 5],
      [6, 6],
    ]);
  });

  it("decodes the REST answer in either order, skipping malformed rows", () => {
    const body = [[2000, 1, 2, 3, 0.5, 7], [1000, 1, 1, 1, 1, 1], ["x"], [3000, 1, null, 1, 1, 1], 5];
    expect(Array.from(decodeCandleRows(body))).toEqual([1000, 1, 1, 1, 1, 1, 2000, 1, 2, 3, 0.5, 7]);
    expect(decodeCandleRows({ error: 1 }).length).toBe(0);
  });

  it("turns wire rows (open, close, high, low) into uPlot columns (open, high, low, close) in seconds", () => {
    const cols = toColumns(rows([60_000, 10, 12, 13, 9, 5]));
    expect([cols[COL.x][0], cols[COL.open][0], cols[COL.high][0], cols[COL.low][0], cols[COL.close][0]]).toEqual([
      60, 10, 13, 9, 12,
    ]);
    expect(cols[COL.volume][0]).toBe(5);
  });

  it("asks the public history with start, end, limit and ascending sort", () => {
    const key = candleKey("30m", "tBTCUSD");
    expect(key).toBe("trade:30m:tBTCUSD");
    const end = 1_700_000_000_000;
    expect(historyPath(key, end, "30m", 100)).toBe(
      `/v2/candles/trade:30m:tBTCUSD/hist?start=${end - 100 * TIMEFRAME_MS["30m"]}&end=${end}&limit=100&sort=1`,
    );
    expect(historyPath(key, 1000, "1D")).toContain("start=0&");
  });
});
