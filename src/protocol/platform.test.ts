import { describe, expect, it } from "vitest";
import { isFeatureEnabled, PLATFORM_VARIANTS, variantConfig } from "./platform";

describe("platform variants", () => {
  it("have the default pair and display currency of docs/product-rules.md#platform-variants", () => {
    expect(PLATFORM_VARIANTS.map((v) => [v, variantConfig(v).defaultPair, variantConfig(v).defaultCurrency])).toEqual([
      ["default", "BTCUSD", "USD"],
      ["jp", "BTCJPY", "JPY"],
      ["br", "BTCBRL", "BRL"],
      ["tr", "BTCTRY", "TRY"],
    ]);
  });

  it("disable the features the product names for jp and tr", () => {
    const jp = variantConfig("jp");
    for (const f of ["margin", "derivatives", "securities", "staking", "borrow"] as const)
      expect(isFeatureEnabled(jp, f)).toBe(false);
    const tr = variantConfig("tr");
    for (const f of ["funding", "staking", "securities", "otc"] as const) expect(isFeatureEnabled(tr, f)).toBe(false);
    const def = variantConfig("default");
    expect(def.disabledFeatures.size).toBe(0);
    expect(variantConfig("br").disabledFeatures.size).toBeGreaterThan(0);
  });

  it("fall back to default for unknown names", () => {
    expect(variantConfig("xx").variant).toBe("default");
    expect(variantConfig(undefined).variant).toBe("default");
  });
});
