/**
 * Lingui activation. Each locale's catalogs are lazily loaded chunks (the .po files compiled by the
 * lingui vite plugin), so a visitor downloads only the language they read: the core catalog at
 * start, and an area's catalog (locales/README.md) with the first route that needs it.
 */
import { i18n, type Messages } from "@lingui/core";
import type { Locale } from "../protocol";

type Loader = () => Promise<{ messages: Messages }>;

const core: Record<Locale, Loader> = {
  en: () => import("../../locales/en.po"),
  ru: () => import("../../locales/ru.po"),
  "zh-CN": () => import("../../locales/zh-CN.po"),
  "zh-TW": () => import("../../locales/zh-TW.po"),
  "es-EM": () => import("../../locales/es-EM.po"),
  "tr-TR": () => import("../../locales/tr-TR.po"),
  "pt-BR": () => import("../../locales/pt-BR.po"),
};

/** The catalog areas besides core (scripts/catalog-areas.mjs decides which messages are whose). */
const areas = {
  account: {
    en: () => import("../../locales/account/en.po"),
    ru: () => import("../../locales/account/ru.po"),
    "zh-CN": () => import("../../locales/account/zh-CN.po"),
    "zh-TW": () => import("../../locales/account/zh-TW.po"),
    "es-EM": () => import("../../locales/account/es-EM.po"),
    "tr-TR": () => import("../../locales/account/tr-TR.po"),
    "pt-BR": () => import("../../locales/account/pt-BR.po"),
  },
  site: {
    en: () => import("../../locales/site/en.po"),
    ru: () => import("../../locales/site/ru.po"),
    "zh-CN": () => import("../../locales/site/zh-CN.po"),
    "zh-TW": () => import("../../locales/site/zh-TW.po"),
    "es-EM": () => import("../../locales/site/es-EM.po"),
    "tr-TR": () => import("../../locales/site/tr-TR.po"),
    "pt-BR": () => import("../../locales/site/pt-BR.po"),
  },
  company: {
    en: () => import("../../locales/company/en.po"),
    ru: () => import("../../locales/company/ru.po"),
    "zh-CN": () => import("../../locales/company/zh-CN.po"),
    "zh-TW": () => import("../../locales/company/zh-TW.po"),
    "es-EM": () => import("../../locales/company/es-EM.po"),
    "tr-TR": () => import("../../locales/company/tr-TR.po"),
    "pt-BR": () => import("../../locales/company/pt-BR.po"),
  },
  learn: {
    en: () => import("../../locales/learn/en.po"),
    ru: () => import("../../locales/learn/ru.po"),
    "zh-CN": () => import("../../locales/learn/zh-CN.po"),
    "zh-TW": () => import("../../locales/learn/zh-TW.po"),
    "es-EM": () => import("../../locales/learn/es-EM.po"),
    "tr-TR": () => import("../../locales/learn/tr-TR.po"),
    "pt-BR": () => import("../../locales/learn/pt-BR.po"),
  },
  trade: {
    en: () => import("../../locales/trade/en.po"),
    ru: () => import("../../locales/trade/ru.po"),
    "zh-CN": () => import("../../locales/trade/zh-CN.po"),
    "zh-TW": () => import("../../locales/trade/zh-TW.po"),
    "es-EM": () => import("../../locales/trade/es-EM.po"),
    "tr-TR": () => import("../../locales/trade/tr-TR.po"),
    "pt-BR": () => import("../../locales/trade/pt-BR.po"),
  },
} satisfies Record<string, Record<Locale, Loader>>;

export type CatalogArea = keyof typeof areas;

/** BCP 47 tags for Intl and the lang attribute: "es-EM" is our label, not a registered region. */
export function intlTag(locale: Locale): string {
  return locale === "es-EM" ? "es" : locale;
}

let current: Locale | null = null;
/** The locale being switched to, so a slower earlier switch cannot land after a later one. */
let wanted: Locale | null = null;
/** Areas a page has needed: a locale switch loads them too, before the switch shows. */
const needed = new Set<CatalogArea>();
/** Area catalogs loaded or loading, by `locale/area`. */
const loading = new Map<string, Promise<void>>();

function loadArea(locale: Locale, area: CatalogArea): Promise<void> {
  const key = `${locale}/${area}`;
  let pending = loading.get(key);
  if (!pending) {
    // Merged into the locale's messages (`load` adds; `loadAndActivate` would replace them).
    pending = areas[area][locale]().then(({ messages }) => i18n.load(locale, messages));
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

export async function activateLocale(locale: Locale): Promise<void> {
  if (current === locale && wanted === locale) return;
  wanted = locale;
  const [{ messages }] = await Promise.all([core[locale](), ...[...needed].map((a) => loadArea(locale, a))]);
  if (wanted !== locale) return;
  i18n.load(locale, messages);
  i18n.activate(locale);
  current = locale;
  if (typeof document !== "undefined") document.documentElement.lang = intlTag(locale);
}

/**
 * Loads an area's catalog in the locale shown or being switched to; the area's pages wait for it (a
 * message missing from the loaded catalogs would show as its id). Once per locale; a later locale
 * switch loads it before it shows.
 */
export function loadCatalog(area: CatalogArea): Promise<void> {
  needed.add(area);
  // Before the first activation there is none (activateLocale loads it with core); during a switch,
  // both the locale shown and the one coming.
  const locales = new Set([current, wanted].filter((l): l is Locale => l !== null));
  return Promise.all([...locales].map((l) => loadArea(l, area))).then(() => undefined);
}

/**
 * A page's messages as the app has them once the page shows: core, then the page's area over it
 * (loadCatalog loads an area after core). The build's prerender activates exactly these per page,
 * so a message two areas translate differently renders as the page's own area has it.
 */
export async function pageMessages(locale: Locale, area: CatalogArea | undefined): Promise<Messages> {
  const [{ messages }, own] = await Promise.all([core[locale](), area ? areas[area][locale]() : null]);
  return { ...messages, ...own?.messages };
}

export { i18n };
