/**
 * What a search engine reads of the public site (docs/product-rules.md#public-pages): how a locale
 * is addressed (`?locale=`), a page's head (title, description, canonical, hreflang alternates, Open
 * Graph), the sitemap and robots.txt. Pure string building, shared by the build's prerender
 * (src/pages/prerender.tsx), the app (the `?locale=` it reads) and the static server (which file
 * answers an address).
 */
import { LOCALES, SOURCE_LOCALE, isLocale, type Locale } from "./locales";

/** The query parameter that addresses a locale's version of a page. */
export const LOCALE_PARAM = "locale";

/**
 * Stands for the site's origin in the prerendered files: the static server writes its public origin
 * in its place when it serves them, so one build serves any host (like /config.json).
 */
export const ORIGIN_TOKEN = "https://orderflow.origin.invalid";

export const SITE_NAME = "Orderflow";

/** A page's address in a locale: the source locale is the bare path (also the x-default). */
export function localeHref(path: string, locale: Locale): string {
  return locale === SOURCE_LOCALE ? path : `${path}?${LOCALE_PARAM}=${locale}`;
}

/** The locale a query string addresses; null when it names none (or an unknown one). */
export function localeFromSearch(search: string): Locale | null {
  const raw = new RegExp(`(?:^|[?&])${LOCALE_PARAM}=([^&#]*)`).exec(search)?.[1];
  if (raw === undefined) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return null;
  }
  return isLocale(value) ? value : null;
}

/** The file a page's prerendered HTML is written to, under the build's `prerender/` folder. */
export function prerenderFile(path: string, locale: Locale): string {
  return `${locale}${path === "/" ? "/index" : path}.html`;
}

/** The not-found page's prerendered file per locale (served with status 404). */
export function notFoundFile(locale: Locale): string {
  return `${locale}/404.html`;
}

export interface PageHead {
  readonly path: string;
  readonly locale: Locale;
  /** The page's own title, without the site name. */
  readonly title: string;
  readonly description: string;
  /** Kept out of search results (and of the sitemap). */
  readonly noindex: boolean;
  /** BCP 47 tag for `lang` and `og:locale`. */
  readonly lang: string;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The document title the app also sets after each navigation (PageHost's usePageTitle). */
export function documentTitle(title: string): string {
  return [title, SITE_NAME].join(" · ");
}

/** hreflang wants a language tag: "es-EM" is our label (see intlTag), hreflang says plain "es". */
export function hreflangOf(locale: Locale): string {
  return locale === "es-EM" ? "es" : locale;
}

/** The <head> tags of a public page: title, description, canonical, hreflang alternates, Open Graph. */
export function headTags(head: PageHead): string {
  const url = (locale: Locale): string => `${ORIGIN_TOKEN}${localeHref(head.path, locale)}`;
  const tags = [
    `<title>${escapeHtml(documentTitle(head.title))}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
  ];
  if (head.noindex) tags.push(`<meta name="robots" content="noindex" />`);
  else {
    tags.push(`<link rel="canonical" href="${url(head.locale)}" />`);
    for (const locale of LOCALES)
      tags.push(`<link rel="alternate" hreflang="${hreflangOf(locale)}" href="${url(locale)}" />`);
    tags.push(`<link rel="alternate" hreflang="x-default" href="${url(SOURCE_LOCALE)}" />`);
  }
  tags.push(
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${url(head.locale)}" />`,
    `<meta property="og:locale" content="${head.lang.replace("-", "_")}" />`,
    `<meta name="twitter:card" content="summary" />`,
  );
  return tags.join("\n    ");
}

/**
 * The whole document: the client build's index.html (its scripts and styles) with the page's lang,
 * head and rendered body. `body` null: the page could not be rendered at build, so the document is
 * the app shell with the page's head, and the client renders it from scratch.
 */
export function pageDocument(template: string, head: PageHead, body: string | null): string {
  const root =
    body === null
      ? `<div id="root"></div>`
      : `<div id="root" data-prerendered="${head.locale}" data-path="${escapeHtml(head.path)}">${body}</div>`;
  return template
    .replace(/<html lang="[^"]*">/, `<html lang="${head.lang}">`)
    .replace(/<title>[^<]*<\/title>/, headTags(head))
    .replace(`<div id="root"></div>`, root);
}

/** The sitemap: every indexable page once per locale, each with its locale alternates. */
export function sitemapXml(paths: readonly string[]): string {
  const entries = paths.flatMap((path) =>
    LOCALES.map((locale) => {
      const alternates = LOCALES.map(
        (l) =>
          `    <xhtml:link rel="alternate" hreflang="${hreflangOf(l)}" href="${escapeHtml(ORIGIN_TOKEN + localeHref(path, l))}"/>`,
      );
      alternates.push(
        `    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeHtml(ORIGIN_TOKEN + path)}"/>`,
      );
      return [
        `  <url>`,
        `    <loc>${escapeHtml(ORIGIN_TOKEN + localeHref(path, locale))}</loc>`,
        ...alternates,
        `  </url>`,
      ].join("\n");
    }),
  );
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">`,
    ...entries,
    `</urlset>`,
    "",
  ].join("\n");
}

/**
 * robots.txt: the public site is open; the signed-in area, the mailed links' pages and the API are
 * not for crawlers (they only show a sign-in form or an error to a robot).
 */
export function robotsTxt(disallow: readonly string[]): string {
  return [
    "User-agent: *",
    ...disallow.map((p) => `Disallow: ${p}`),
    "Allow: /",
    "",
    `Sitemap: ${ORIGIN_TOKEN}/sitemap.xml`,
    "",
  ].join("\n");
}
