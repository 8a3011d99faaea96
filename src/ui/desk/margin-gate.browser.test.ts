/**
 * Margin is a platform feature (docs/product-rules.md#margin-positions): variants without it (jp,
 * tr) offer neither the margin info widget nor the positions table, in the grid's list or the
 * default layout; the others offer both.
 */
import { describe, expect, it } from "vitest";
import { variantConfig } from "../../protocol";
import { deskOffers } from "./features";
import { defaultLayout, offeredWidgets } from "./registry";

describe("margin on the desk by platform variant", () => {
  it("leaves the margin widgets out where the variant has no margin", () => {
    for (const variant of ["jp", "tr"] as const) {
      const offered = offeredWidgets(variantConfig(variant));
      expect(offered.has("margin")).toBe(false);
      expect(offered.has("positions")).toBe(false);
      expect(offered.has("order-form")).toBe(true);
      const keys = defaultLayout("", variantConfig(variant)).items.map((i) => i.key);
      expect(keys.filter((k) => k.includes("/margin/") || k.includes("/positions/"))).toEqual([]);
    }
    for (const variant of ["default", "br"] as const) {
      const offered = offeredWidgets(variantConfig(variant));
      expect(offered.get("margin")?.feature).toBe("margin");
      expect(offered.has("positions")).toBe(true);
      expect(defaultLayout("", variantConfig(variant)).items.map((i) => i.key)).toContain("widget/margin/main");
    }
  });

  it("offers everything before a runtime configuration is loaded (a component on its own)", () => {
    expect(deskOffers("margin")).toBe(true);
  });
});
