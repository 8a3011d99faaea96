import { describe, expect, it } from "vitest";
import { decodePositionIncreaseInfo, encodePositionIncreaseInfo, type PositionIncreaseInfo } from "./position-increase";

const INFO: PositionIncreaseInfo = {
  maxPos: 0.5,
  currentPos: -0.2,
  baseBalance: 0.5,
  fundingAvail: 0,
  tradableQuote: 4000,
  tradableQuoteTotal: 5000,
  tradableBase: 0.4,
  tradableBaseTotal: 0.5,
  fundingValue: 0,
  fundingRequired: 0,
  fundingValueCurrency: "USD",
  fundingRequiredCurrency: "BTC",
};

describe("position increase info", () => {
  it("nests the documented arrays and reads them back", () => {
    const wire = encodePositionIncreaseInfo(INFO);
    expect(wire).toEqual([[0.5, -0.2], [0.5, [4000, 5000, 0.4, 0.5], 0], null, null, [0, 0], ["USD", "BTC"]]);
    expect(decodePositionIncreaseInfo(JSON.parse(JSON.stringify(wire)))).toEqual({ ok: true, value: INFO });
  });

  it("takes an answer without the funding parts and refuses a broken one", () => {
    const d = decodePositionIncreaseInfo([
      [1, 0],
      [0, [1, 1, 0, 0], null],
    ]);
    expect(d.ok && [d.value.maxPos, d.value.fundingRequired, d.value.fundingValueCurrency]).toEqual([1, null, null]);
    expect(
      decodePositionIncreaseInfo([
        [1, 0],
        [0, "x"],
      ]).ok,
    ).toBe(false);
    expect(decodePositionIncreaseInfo({}).ok).toBe(false);
    expect(
      decodePositionIncreaseInfo([
        ["a", 0],
        [0, [1, 1, 0, 0]],
      ]).ok,
    ).toBe(false);
  });
});
