/**
 * Lingui activation. Each locale's catalog is its own lazily loaded chunk (the .po file compiled by
 * the lingui vite plugin), so a visitor downloads only the language they read.
 */
import { i18n, type Messages } from "@lingui/core";
import type { Locale } from "../protocol";

const loaders: Record<Locale, () => Promise<{ messages: Messages }>> = {
  en: () => import("../../locales/en.po"),
  ru: () => import("../../locales/ru.po"),
  "zh-CN": () => import("../../locales/zh-CN.po"),
  "zh-TW": () => import("../../locales/zh-TW.po"),
  "es-EM": () => import("../../locales/es-EM.po"),
  "tr-TR": () => import("../../locales/tr-TR.po"),
  "pt-BR": () => import("../../locales/pt-BR.po"),
};

/** BCP 47 tags for Intl and the lang attribute: "es-EM" is our label, not a registered region. */
export function intlTag(locale: Locale): string {
  return locale === "es-EM" ? "es" : locale;
}

let current: Locale | null = null;

export async function activateLocale(locale: Locale): Promise<void> {
  if (current === locale) return;
  const { messages } = await loaders[locale]();
  i18n.loadAndActivate({ locale, messages });
  current = locale;
  if (typeof document !== "undefined") document.documentElement.lang = intlTag(locale);
}

export { i18n };
