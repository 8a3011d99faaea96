import { describe, expect, it } from "vitest";
import {
  closeFlag,
  DEFAULT_FAULTS,
  devFlags,
  devRequested,
  faultSettings,
  faultsFromUrl,
  flagOn,
  stressSetting,
  toggleFlag,
} from "./flags";

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

  it("reads ?faults= into fault settings, refusing what does not parse", () => {
    expect(faultsFromUrl("")).toBeNull();
    expect(faultsFromUrl("?faults=nonsense")).toBeNull();
    expect(faultsFromUrl("?faults=drop:0.05,corrupt:.01,lose-subscribed:1,seed:7")).toEqual({
      ...DEFAULT_FAULTS,
      drop: 0.05,
      corrupt: 0.01,
      loseSubscribed: 1,
      seed: 7,
    });
    expect(faultsFromUrl("?faults=delay:0.5:800,freeze")).toMatchObject({ delay: 0.5, delayMs: 800, freeze: true });
    expect(faultsFromUrl("?faults=drop:2")).toBeNull();
    expect(faultSettings({ pinned: {}, faults: DEFAULT_FAULTS })).toBeNull();
    expect(faultSettings({ pinned: { faults: true }, faults: DEFAULT_FAULTS })).toEqual(DEFAULT_FAULTS);
  });
});
