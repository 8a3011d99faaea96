import "fake-indexeddb/auto";
import { get, set } from "idb-keyval";
import { beforeEach, describe, expect, it } from "vitest";
import {
  clearKnownTimeframes,
  forgetWidgetTimeframe,
  knownWidgetTimeframe,
  loadWidgetTimeframe,
  saveWidgetTimeframe,
  timeframeStorageKey,
} from "./widget-timeframe";

const A = "widget/chart/a";
const B = "widget/chart/b";

describe("per-widget chart timeframe", () => {
  beforeEach(async () => {
    await forgetWidgetTimeframe(A);
    await forgetWidgetTimeframe(B);
    clearKnownTimeframes();
  });

  it("stores each widget's choice under its own key and reads it back after a reload", async () => {
    expect(await loadWidgetTimeframe(A)).toBeNull();
    saveWidgetTimeframe(A, "1h");
    saveWidgetTimeframe(B, "1D");
    expect(knownWidgetTimeframe(A)).toBe("1h");
    await expect.poll(() => get(timeframeStorageKey(A))).toBe("1h");
    await expect.poll(() => get(timeframeStorageKey(B))).toBe("1D");
    clearKnownTimeframes();
    expect(knownWidgetTimeframe(A)).toBeUndefined();
    expect(await loadWidgetTimeframe(A)).toBe("1h");
    expect(await loadWidgetTimeframe(B)).toBe("1D");
  });

  it("ignores a stored value that is not a timeframe", async () => {
    await set(timeframeStorageKey(A), "7m");
    expect(await loadWidgetTimeframe(A)).toBeNull();
  });

  it("keeps a choice made while the stored value was still being read", async () => {
    await set(timeframeStorageKey(A), "5m");
    const loading = loadWidgetTimeframe(A);
    saveWidgetTimeframe(A, "12h");
    expect(await loading).toBe("12h");
    expect(knownWidgetTimeframe(A)).toBe("12h");
  });

  it("forgets a removed widget's choice", async () => {
    saveWidgetTimeframe(A, "1h");
    await expect.poll(() => get(timeframeStorageKey(A))).toBe("1h");
    await forgetWidgetTimeframe(A);
    expect(await get(timeframeStorageKey(A))).toBeUndefined();
    clearKnownTimeframes();
    expect(await loadWidgetTimeframe(A)).toBeNull();
  });
});
