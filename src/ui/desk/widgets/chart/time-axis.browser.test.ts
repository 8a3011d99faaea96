import { i18n } from "@lingui/core";
import { afterEach, describe, expect, it } from "vitest";
import { legendTime, timeAxisLabels } from "./time-labels";

const at = (iso: string): number => Date.parse(iso) / 1000;
const DEFAULT = { pattern: "YY-MM-DD HH:mm:ss", utcOffset: 0 };

describe("chart time axis", () => {
  afterEach(() => i18n.activate("en"));

  it("labels ticks in the time format, with the date part under each day's first tick", () => {
    const splits = [at("2026-11-20T22:00:00Z"), at("2026-11-20T23:00:00Z"), at("2026-11-21T00:00:00Z")];
    expect(timeAxisLabels(splits, 3600, DEFAULT)).toEqual(["22:00\n26-11-20", "23:00", "00:00\n26-11-21"]);
    // The seconds stay when ticks are less than a minute apart.
    expect(timeAxisLabels([at("2026-11-20T22:00:30Z")], 30, DEFAULT)).toEqual(["22:00:30\n26-11-20"]);
    expect(timeAxisLabels([at("2026-11-20T00:00:00Z")], 86_400, { pattern: "DD.MM.YYYY HH:mm", utcOffset: 0 })).toEqual(
      ["20.11.2026"],
    );
  });

  it("shifts by the UTC offset, not the browser's zone: the day changes at the user's midnight", () => {
    const splits = [at("2026-11-20T20:00:00Z"), at("2026-11-20T21:00:00Z"), at("2026-11-20T22:00:00Z")];
    expect(timeAxisLabels(splits, 3600, { pattern: DEFAULT.pattern, utcOffset: 3 })).toEqual([
      "23:00\n26-11-20",
      "00:00\n26-11-21",
      "01:00",
    ]);
    expect(timeAxisLabels(splits, 3600, { pattern: DEFAULT.pattern, utcOffset: -5.5 })).toEqual([
      "14:30\n26-11-20",
      "15:30",
      "16:30",
    ]);
    expect(legendTime(at("2026-11-20T21:15:07Z") * 1000, { pattern: DEFAULT.pattern, utcOffset: 3 })).toBe(
      "26-11-21 00:15:07",
    );
  });

  it("keeps the locale's month names where the format has no date, in the active locale", () => {
    i18n.loadAndActivate({ locale: "ru", messages: {} });
    const splits = [at("2026-11-20T22:00:00Z"), at("2026-11-20T23:00:00Z"), at("2026-11-21T00:00:00Z")];
    const labels = timeAxisLabels(splits, 3600, { pattern: "HH:mm:ss", utcOffset: 0 });
    expect(labels[0]).toMatch(/^22:00\n20 нояб/);
    expect(labels[1]).toBe("23:00");
    expect(labels[2]).toMatch(/^00:00\n21 нояб/);
  });

  it("formats our es-EM label as Spanish (Intl does not know the EM region)", () => {
    i18n.loadAndActivate({ locale: "es-EM", messages: {} });
    expect(timeAxisLabels([at("2026-11-20T15:00:00Z")], 3600, { pattern: "HH:mm", utcOffset: 0 })).toEqual([
      "15:00\n20 nov",
    ]);
  });

  it("falls back to a 24-hour clock where the format has no time, at the user's offset", () => {
    i18n.loadAndActivate({ locale: "en", messages: {} });
    const dateOnly = { pattern: "DD/MM/YYYY", utcOffset: 2 };
    expect(timeAxisLabels([at("2026-11-20T13:00:00Z")], 3600, dateOnly)).toEqual(["15:00\n20/11/2026"]);
    i18n.loadAndActivate({ locale: "zh-CN", messages: {} });
    expect(timeAxisLabels([at("2026-11-20T00:00:00Z")], 86_400, { pattern: "HH:mm", utcOffset: 0 })).toEqual([
      "11月20日",
    ]);
  });
});
