/** The product's locales (docs/product-rules.md#locales). `en` is the source locale of every catalog. */
export const LOCALES = ["en", "ru", "zh-CN", "zh-TW", "es-EM", "tr-TR", "pt-BR"] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = "en";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/**
 * Picks the best supported locale for a list of browser language tags (navigator.languages):
 * an exact match first, then a match on the language subtag (`pt-PT` → `pt-BR`, `es-AR` → `es-EM`).
 */
export function negotiateLocale(preferred: readonly string[]): Locale {
  // In the user's order of preference: the first tag we can serve wins, exactly or by language.
  for (const tag of preferred) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const lang = tag.split("-")[0]?.toLowerCase();
    if (!lang) continue;
    if (lang === "zh") {
      // Traditional script regions read zh-TW; everything else Simplified.
      return /-(tw|hk|mo|hant)/i.test(tag) ? "zh-TW" : "zh-CN";
    }
    const byLang = LOCALES.find((l) => l.split("-")[0] === lang);
    if (byLang) return byLang;
  }
  return SOURCE_LOCALE;
}

/** Each locale's name in its own language (endonym): the same in every catalog by design. */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  ru: "Русский",
  "zh-CN": "简体中文",
  "zh-TW": "繁體中文",
  "es-EM": "Español",
  "tr-TR": "Türkçe",
  "pt-BR": "Português (Brasil)",
};
