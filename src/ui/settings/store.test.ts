import "fake-indexeddb/auto";
import { get, set } from "idb-keyval";
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, type UserSettings } from "./schema";
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
  beforeEach(() => resetSettings());

  it("hydrates from storage and writes every change back before the next task", async () => {
    await set(SETTINGS_STORAGE_KEY, { chart_height: 640, theme: "experimental" });
    const stop = await hydrateAndPersistSettings();
    expect(settings.chart_height).toBe(640);
    expect(settings.theme).toBe("experimental");

    updateSetting("theme", "classic");
    updateSetting("theme_mode", "light");
    for (let h = 300; h < 310; h++) updateSetting("chart_height", h);
    await new Promise((r) => setTimeout(r, 20));
    expect(await get(SETTINGS_STORAGE_KEY)).toMatchObject({ theme: "classic", theme_mode: "light", chart_height: 309 });
    await stop();
  });

  it("writes the final state when stopped, even for a change made just before", async () => {
    const stop = await hydrateAndPersistSettings();
    updateSetting("book_layout", 3);
    await stop();
    expect((await get<Partial<UserSettings>>(SETTINGS_STORAGE_KEY))?.book_layout).toBe(3);
  });

  it("never stores a refused value", async () => {
    const stop = await hydrateAndPersistSettings();
    updateSetting("chart_height", 700);
    updateSetting("chart_height", 5);
    await stop();
    expect((await get<Partial<UserSettings>>(SETTINGS_STORAGE_KEY))?.chart_height).toBe(700);
  });
});
