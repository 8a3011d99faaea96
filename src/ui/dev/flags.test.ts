import { describe, expect, it } from "vitest";
import { closeFlag, devFlags, devRequested, flagOn, stressSetting, toggleFlag } from "./flags";

describe("developer flags", () => {
  it("toggling pins a flag, closing removes it", () => {
    expect(flagOn(devFlags, "stress")).toBe(false);
    toggleFlag("stress");
    expect(devFlags.pinned).toEqual({ stress: true });
    toggleFlag("stress");
    expect(devFlags.pinned).toEqual({ stress: false });
    closeFlag("stress");
    expect(devFlags.pinned).toEqual({});
  });

  it("turns the stress flag into an intensity with its multiplier", () => {
    expect(stressSetting(devFlags)).toBeNull();
    toggleFlag("stress");
    devFlags.stressIntensity = 3;
    devFlags.stressMultiplier = 100;
    expect(stressSetting(devFlags)).toEqual({ intervalMs: 60, count: 800 });
    devFlags.stressIntensity = 0;
    devFlags.stressMultiplier = 1;
    expect(stressSetting(devFlags)).toEqual({ intervalMs: 500, count: 1 });
    closeFlag("stress");
  });

  it("opens from ?dev=1", () => {
    expect(devRequested("?dev=1")).toBe(true);
    expect(devRequested("?dev=0")).toBe(false);
  });
});
