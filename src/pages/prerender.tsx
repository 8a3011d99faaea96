/**
 * The build's prerender (docs/product-rules.md#public-pages): every published page (published.ts)
 * rendered to HTML in every locale with its catalogs (core plus its area), its head (seo.ts), the
 * not-found page, the sitemap, robots.txt and the route patterns the static server answers 404
 * outside of. Bundled for Node by the prerender plugin (scripts/prerender-plugin.ts) and run once
 * per build; the client hydrates what it rendered (main.tsx).
 */
import { msg } from "@lingui/core/macro";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import {
  LOCALE_PARAM,
  LOCALES,
  notFoundFile,
  pageDocument,
  prerenderFile,
  robotsTxt,
  sitemapXml,
  SOURCE_LOCALE,
  variantConfig,
  type Locale,
  type PageHead,
} from "../protocol";
import { defaultConfig, setStaticConfig } from "../ui/config";
import { i18n, intlTag, pageMessages } from "../ui/i18n";
import { settings } from "../ui/settings/store";
import { PROTECTED_PREFIXES } from "../ui/routing/paths";
import { App } from "./App";
import { markPageReady } from "./page-host";
import { publishedPages, routePatterns, type PublishedPage } from "./published";

const NOT_FOUND_TITLE = msg`Page not found`;
const NOT_FOUND_DESCRIPTION = msg`The address may be mistyped, or the page has moved.`;

/** An address no route matches: the app shows its not-found page there. */
const UNMATCHED_PATH = "/__not-found__";

export interface PrerenderResult {
  /** File contents by path relative to the build's `prerender/` folder. */
  readonly files: ReadonlyMap<string, string>;
  /** Pages that could not be rendered (they are served as the app shell with their head). */
  readonly failures: readonly string[];
  /** How many page documents were written. */
  readonly pages: number;
}

/** The page as the app renders it at its address in a locale (`?locale=` is part of the address). */
function render(path: string, locale: Locale): string {
  return renderToString(
    <StrictMode>
      <App at={{ path, search: locale === SOURCE_LOCALE ? "" : `${LOCALE_PARAM}=${locale}` }} />
    </StrictMode>,
  );
}

export async function prerenderSite(template: string): Promise<PrerenderResult> {
  // The default platform variant: the build does not know where it will be served.
  setStaticConfig(defaultConfig("http://prerender.invalid"));
  const pages = publishedPages(variantConfig("default"));
  const files = new Map<string, string>();
  const failures: string[] = [];

  for (const page of pages) markPageReady(page.route.id, await page.route.load());

  for (const locale of LOCALES) {
    settings.locale = locale;
    const lang = intlTag(locale);
    for (const page of pages) {
      files.set(prerenderFile(page.path, locale), await renderPage(template, page, locale, lang, failures));
    }
    i18n.loadAndActivate({ locale, messages: await pageMessages(locale, undefined) });
    const head: PageHead = {
      path: UNMATCHED_PATH,
      locale,
      lang,
      title: i18n._(NOT_FOUND_TITLE),
      description: i18n._(NOT_FOUND_DESCRIPTION),
      noindex: true,
    };
    files.set(notFoundFile(locale), pageDocument(template, head, render(UNMATCHED_PATH, locale)));
  }

  files.set("sitemap.xml", sitemapXml(pages.filter((p) => p.route.noindex !== true).map((p) => p.path)));
  // The signed-in area and the API are no crawler's business. A prefix is closed as itself (`$`, which
  // the major crawlers read) and below it, so `/t` does not also close `/terms` or `/tradedesk`.
  const closed = [...PROTECTED_PREFIXES, "/v1", "/v2", "/ws"].flatMap((p) => [`${p}$`, `${p}/`]);
  files.set("robots.txt", robotsTxt(closed));
  files.set("routes.json", JSON.stringify(routePatterns()));
  return { files, failures, pages: pages.length * LOCALES.length };
}

async function renderPage(
  template: string,
  page: PublishedPage,
  locale: Locale,
  lang: string,
  failures: string[],
): Promise<string> {
  const { route } = page;
  i18n.loadAndActivate({ locale, messages: await pageMessages(locale, route.catalog) });
  const title = i18n._(route.title);
  // eslint-disable-next-line lingui/no-unlocalized-strings -- a build log line, not shown to anyone
  if (route.description === undefined) failures.push(`${page.path}: the route has no description`);
  const head: PageHead = {
    path: page.path,
    locale,
    lang,
    title,
    description: route.description ? i18n._(route.description) : title,
    noindex: route.noindex === true,
  };
  try {
    return pageDocument(template, head, render(page.path, locale));
  } catch (err) {
    // One page that cannot render at build must not stop the build (everyone's tests run on it):
    // it is served as the app shell and tests/e2e/site-crawl.spec.ts reports it.
    failures.push(`${page.path} (${locale}): ${err instanceof Error ? err.message : String(err)}`);
    return pageDocument(template, head, null);
  }
}
