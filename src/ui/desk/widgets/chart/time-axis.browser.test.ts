import { i18n } from "@lingui/core";
import { afterEach, describe, expect, it } from "vitest";
import { timeAxisLabels } from "./candle-chart";

const at = (iso: string): number => Date.parse(iso) / 1000;

describe("chart time axis", () => {
  afterEach(() => i18n.activate("en"));

  it("labels times in the active locale, with the date under each day's first tick", () => {
    i18n.loadAndActivate({ locale: "ru", messages: {} });
    const splits = [at("2026-11-20T22:00:00"), at("2026-11-20T23:00:00"), at("2026-11-21T00:00:00")];
    const labels = timeAxisLabels(splits, 3600);
    expect(labels[0]).toMatch(/^22:00\n20 нояб/);
    expect(labels[1]).toBe("23:00");
    expect(labels[2]).toMatch(/^00:00\n21 нояб/);
  });

  it("formats our es-EM label as Spanish (Intl does not know the EM region)", () => {
    i18n.loadAndActivate({ locale: "es-EM", messages: {} });
    expect(timeAxisLabels([at("2026-11-20T15:00:00")], 3600)).toEqual(["15:00\n20 nov"]);
  });

  it("labels dates when ticks are a day apart", () => {
    i18n.loadAndActivate({ locale: "zh-CN", messages: {} });
    expect(timeAxisLabels([at("2026-11-20T00:00:00")], 86_400)).toEqual(["11月20日"]);
  });
});
