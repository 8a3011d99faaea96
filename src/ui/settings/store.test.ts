import "fake-indexeddb/auto";
import { get, set } from "idb-keyval";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeScheduler } from "../../../tests/support/fake-timers";
import { DEFAULT_SETTINGS } from "./schema";
import {
  applyStoredSettings,
  hydrateAndPersistSettings,
  resetSettings,
  settings,
  SETTINGS_STORAGE_KEY,
  updateSetting,
} from "./store";

describe("settings store", () => {
  beforeEach(() => resetSettings());

  it("ignores an update outside its bound and keeps the old value", () => {
    expect(updateSetting("chart_height", 600)).toBe(true);
    expect(settings.chart_height).toBe(600);
    expect(updateSetting("chart_height", 99_999)).toBe(false);
    expect(updateSetting("chart_height", -1)).toBe(false);
    expect(settings.chart_height).toBe(600);
    expect(updateSetting("derivative_leverage", 0)).toBe(false);
    expect(settings.derivative_leverage).toBe(10);
  });

  it("keeps theme_with_mode in step with theme and mode", () => {
    updateSetting("theme", "classic");
    updateSetting("theme_mode", "light");
    expect(settings.theme_with_mode).toBe("classic:light");
  });

  it("applies stored settings key by key, keeping defaults for corrupt or unknown entries", () => {
    const applied = applyStoredSettings({
      chart_height: 700,
      theme: "bogus",
      book_precision: 9,
      nope: 1,
      locale: "ru",
    });
    expect(applied).toBe(2);
    expect(settings.chart_height).toBe(700);
    expect(settings.theme).toBe(DEFAULT_SETTINGS.theme);
    expect(settings.book_precision).toBe(0);
    expect(settings.locale).toBe("ru");
    expect(applyStoredSettings("garbage")).toBe(0);
  });

  it("copies object values so later edits to the caller's object do not leak in", () => {
    const favs = ["tBTCUSD"];
    updateSetting("favorite_symbols", favs);
    favs.push("tETHUSD");
    expect(settings.favorite_symbols).toEqual(["tBTCUSD"]);
  });
});

describe("settings persistence (IndexedDB)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
    resetSettings();
  });
  afterEach(() => vi.useRealTimers());

  it("hydrates from storage, writes a lone change at once and coalesces a burst", async () => {
    await set(SETTINGS_STORAGE_KEY, { chart_height: 640, theme: "experimental" });
    const stop = await hydrateAndPersistSettings({ timers: fakeScheduler(), production: false });
    expect(settings.chart_height).toBe(640);
    expect(settings.theme).toBe("experimental");

    updateSetting("theme", "classic");
    await vi.advanceTimersByTimeAsync(0);
    expect((await get(SETTINGS_STORAGE_KEY)).theme).toBe("classic");

    for (let h = 300; h < 310; h++) updateSetting("chart_height", h);
    await vi.advanceTimersByTimeAsync(0);
    expect((await get(SETTINGS_STORAGE_KEY)).chart_height).toBe(640);
    await vi.advanceTimersByTimeAsync(350);
    expect((await get(SETTINGS_STORAGE_KEY)).chart_height).toBe(309);
    await stop();
  });

  it("flushes a pending write when stopped", async () => {
    const stop = await hydrateAndPersistSettings({ timers: fakeScheduler(), production: true });
    updateSetting("sidebar_side", "right");
    updateSetting("book_layout", 3);
    await stop();
    expect((await get(SETTINGS_STORAGE_KEY)).book_layout).toBe(3);
  });
});
