import { describe, expect, it } from "vitest";
import { publishedPages, routeHref, routeMatches, routePatterns } from "../../src/pages/published";
import { ROUTES } from "../../src/pages/routes";
import {
  headTags,
  LOCALES,
  variantConfig,
  localeFromSearch,
  localeHref,
  ORIGIN_TOKEN,
  pageDocument,
  prerenderFile,
  robotsTxt,
  sitemapXml,
} from "../../src/protocol";
import { STATIC_PAGE_PATHS } from "../../src/pages/site-map";

describe("the published public pages (docs/product-rules.md#public-pages)", () => {
  const pages = publishedPages(variantConfig("default"));

  it("are every site-map path, each shown by its own route with a title and a description", () => {
    expect(pages.map((p) => p.path)).toEqual(STATIC_PAGE_PATHS);
    for (const { path, route } of pages) {
      expect(route.path, path).toBe(path);
      expect(route.pageData, path).toBe(true);
      expect(route.description, `${path} needs a description`).toBeDefined();
    }
    const ids = pages.map((p) => p.route.description?.id);
    expect(new Set(ids).size, "descriptions are unique").toBe(ids.length);
    const titles = pages.map((p) => p.route.title.id);
    expect(new Set(titles).size, "titles are unique").toBe(titles.length);
  });

  it("leave out the pages of a feature a platform variant does not have", () => {
    const jp = publishedPages(variantConfig("jp")).map((p) => p.path);
    expect(jp).not.toContain("/securities");
    expect(jp).toContain("/about");
  });

  it("match routes as the router does, and link to a route without its optional parameters", () => {
    expect(routeMatches("/tradedesk/:pair?", "/tradedesk")).toBe(true);
    expect(routeMatches("/tradedesk/:pair?", "/tradedesk/BTCUSD")).toBe(true);
    expect(routeMatches("/about", "/about/more")).toBe(false);
    expect(routeHref("/tradedesk/:pair?")).toBe("/tradedesk");
    expect(routeHref("/deposit/:currency?")).toBe("/deposit");
    expect(routeHref("/")).toBe("/");
    expect(routePatterns()).toHaveLength(ROUTES.length);
    expect(new RegExp(routePatterns()[0]?.source ?? "").test("/")).toBe(true);
  });
});

describe("a locale's address", () => {
  it("is the bare path in English and ?locale= in the others", () => {
    expect(localeHref("/fees", "en")).toBe("/fees");
    expect(localeHref("/fees", "zh-CN")).toBe("/fees?locale=zh-CN");
    expect(localeFromSearch("?locale=pt-BR")).toBe("pt-BR");
    expect(localeFromSearch("locale=xx")).toBeNull();
    expect(localeFromSearch("")).toBeNull();
    expect(prerenderFile("/", "ru")).toBe("ru/index.html");
    expect(prerenderFile("/fees", "en")).toBe("en/fees.html");
  });
});

describe("the head, the sitemap and robots.txt", () => {
  const head = {
    path: "/fees",
    locale: "ru" as const,
    lang: "ru",
    title: 'Fees & "limits"',
    description: "What <it> costs",
    noindex: false,
  };

  it("name the page, its canonical address and every locale's alternate, escaped", () => {
    const tags = headTags(head);
    expect(tags).toContain("<title>Fees &amp; &quot;limits&quot; · Orderflow</title>");
    expect(tags).toContain('content="What &lt;it&gt; costs"');
    expect(tags).toContain(`<link rel="canonical" href="${ORIGIN_TOKEN}/fees?locale=ru" />`);
    expect(tags).toContain(`hreflang="es" href="${ORIGIN_TOKEN}/fees?locale=es-EM"`);
    expect(tags).toContain(`hreflang="x-default" href="${ORIGIN_TOKEN}/fees"`);
    expect(tags.match(/rel="alternate"/g)).toHaveLength(LOCALES.length + 1);
    expect(tags).toContain('<meta property="og:locale" content="ru" />');
    const hidden = headTags({ ...head, noindex: true });
    expect(hidden).toContain('<meta name="robots" content="noindex" />');
    expect(hidden).not.toContain("canonical");
  });

  it("put the rendered page into the built index.html", () => {
    const template = '<html lang="en"><head><title>Orderflow</title></head><body><div id="root"></div></body></html>';
    const doc = pageDocument(template, head, "<main>hi</main>");
    expect(doc).toContain('<html lang="ru">');
    expect(doc).toContain('<div id="root" data-prerendered="ru" data-path="/fees"><main>hi</main></div>');
    expect(pageDocument(template, head, null)).toContain('<div id="root"></div>');
  });

  it("list each page once per locale with its alternates, and close the signed-in area", () => {
    const xml = sitemapXml(["/", "/fees"]);
    expect(xml.match(/<url>/g)).toHaveLength(2 * LOCALES.length);
    expect(xml).toContain(`<loc>${ORIGIN_TOKEN}/fees?locale=tr-TR</loc>`);
    expect(xml.match(/hreflang="x-default"/g)).toHaveLength(2 * LOCALES.length);
    const robots = robotsTxt(["/account$", "/account/"]);
    expect(robots).toContain("Disallow: /account/\n");
    expect(robots).toContain(`Sitemap: ${ORIGIN_TOKEN}/sitemap.xml`);
  });
});
