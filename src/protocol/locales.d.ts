/** The product's locales (SPEC section 1). `en` is the source locale of every catalog. */
export declare const LOCALES: readonly ["en", "ru", "zh-CN", "zh-TW", "es-EM", "tr-TR", "pt-BR"];
export type Locale = (typeof LOCALES)[number];
export declare const SOURCE_LOCALE: Locale;
export declare function isLocale(value: unknown): value is Locale;
/**
 * Picks the best supported locale for a list of browser language tags (navigator.languages):
 * an exact match first, then a match on the language subtag (`pt-PT` → `pt-BR`, `es-AR` → `es-EM`).
 */
export declare function negotiateLocale(preferred: readonly string[]): Locale;
/** Each locale's name in its own language (endonym): the same in every catalog by design. */
export declare const LOCALE_NAMES: Record<Locale, string>;
