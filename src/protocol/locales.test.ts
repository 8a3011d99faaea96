import { describe, expect, it } from "vitest";
import { isLocale, LOCALE_NAMES, LOCALES, negotiateLocale } from "./locales";

describe("locales", () => {
  it("are the seven of docs/product-rules.md#locales, each with a name", () => {
    expect(LOCALES).toEqual(["en", "ru", "zh-CN", "zh-TW", "es-EM", "tr-TR", "pt-BR"]);
    for (const l of LOCALES) expect(LOCALE_NAMES[l]).not.toBe("");
    expect(isLocale("es-EM")).toBe(true);
    expect(isLocale("es")).toBe(false);
  });

  it("negotiate from browser languages", () => {
    expect(negotiateLocale(["ru-RU", "en"])).toBe("ru");
    expect(negotiateLocale(["pt-PT"])).toBe("pt-BR");
    expect(negotiateLocale(["es-AR"])).toBe("es-EM");
    expect(negotiateLocale(["zh-HK"])).toBe("zh-TW");
    expect(negotiateLocale(["zh-Hant-TW"])).toBe("zh-TW");
    expect(negotiateLocale(["zh"])).toBe("zh-CN");
    expect(negotiateLocale(["tr"])).toBe("tr-TR");
    expect(negotiateLocale(["de-DE", "fr"])).toBe("en");
    expect(negotiateLocale([])).toBe("en");
  });
});
