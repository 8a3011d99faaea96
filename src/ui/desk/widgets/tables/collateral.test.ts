import { describe, expect, it } from "vitest";
import { collateralLimits, setCollateral, type CollateralCall } from "./collateral";

function replying(status: number, body: unknown, seen: unknown[][] = []): CollateralCall {
  return (path, b) => {
    seen.push([path, b]);
    return Promise.resolve({ status, body });
  };
}

describe("derivatives collateral", () => {
  it("reads the limits and refuses an answer that is not [MIN, MAX]", async () => {
    const seen: unknown[][] = [];
    expect(await collateralLimits(replying(200, [12.5, 480], seen), "tBTCF0:USTF0")).toEqual({ min: 12.5, max: 480 });
    expect(seen).toEqual([["/v2/auth/calc/deriv/collateral/limits", { symbol: "tBTCF0:USTF0" }]]);
    expect(await collateralLimits(replying(200, ["x", 1]), "tBTCF0:USTF0")).toBeNull();
    expect(await collateralLimits(replying(500, ["error", 10020, "nope"]), "tBTCF0:USTF0")).toBeNull();
    expect(await collateralLimits(() => Promise.reject(new Error("down")), "tBTCF0:USTF0")).toBeNull();
  });

  it("sets the collateral and sorts the refusals", async () => {
    const seen: unknown[][] = [];
    expect(await setCollateral(replying(200, [[1]], seen), "tBTCF0:USTF0", 150)).toBeNull();
    expect(seen).toEqual([["/v2/auth/w/deriv/collateral/set", { symbol: "tBTCF0:USTF0", collateral: 150 }]]);
    const refused = (msg: string) => setCollateral(replying(500, ["error", 10001, msg]), "tBTCF0:USTF0", 1);
    expect(await refused("collateral: market risk")).toEqual({ kind: "min" });
    expect(await refused("collateral: insufficient balance")).toEqual({ kind: "max" });
    expect(await refused("symbol: no open position")).toEqual({ kind: "no-position" });
    expect(await refused("something else")).toEqual({ kind: "other", text: "something else" });
    expect(await setCollateral(replying(0, null), "tBTCF0:USTF0", 1)).toEqual({ kind: "unreachable" });
    expect(await setCollateral(() => Promise.reject(new Error("down")), "tBTCF0:USTF0", 1)).toEqual({
      kind: "unreachable",
    });
  });
});
