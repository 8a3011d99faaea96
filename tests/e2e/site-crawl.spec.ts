import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";

/**
 * The public site as a search engine and a visitor meet it (docs/product-rules.md#public-pages):
 * walk /sitemap.xml, fetch every page in every locale as served (the prerendered HTML, no
 * JavaScript) and check what a crawler reads; then open a sample in the browser that covers every
 * page once, spread over the locales, and check the app shows the page its HTML carried.
 */

const LOCALES = ["en", "ru", "zh-CN", "zh-TW", "es-EM", "tr-TR", "pt-BR"] as const;
const HREFLANG: Record<string, string> = { "es-EM": "es" };
/** Words a page that is not finished would show (TODO in capitals: Spanish "todo" is a word). */
const isPlaceholder = (s: string): boolean =>
  /lorem ipsum|coming soon|placeholder text/i.test(s) || /\bTODO\b|\bTBD\b/.test(s);
/**
 * A lingui message id shown instead of its text (a message missing from the loaded catalogs): six
 * characters of base64 with a digit, a slash or a plus, or a capital inside ("V/2eqf", "xlquNT"), not
 * a six-letter word ("Inicio").
 */
const isMessageId = (s: string): boolean => /^[A-Za-z0-9+/]{6}$/.test(s) && /[0-9+/]|[a-z][A-Z]/.test(s);

interface SitemapEntry {
  /** Path and query, as served here. */
  readonly address: string;
  readonly path: string;
  readonly locale: string;
  readonly alternates: ReadonlyMap<string, string>;
}

async function readSitemap(request: APIRequestContext): Promise<SitemapEntry[]> {
  const res = await request.get("/sitemap.xml");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("xml");
  const xml = await res.text();
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body = ""]) => {
    const loc = new URL(/<loc>([^<]+)<\/loc>/.exec(body)?.[1] ?? "");
    const alternates = new Map(
      [...body.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map(([, lang = "", href = ""]) => [lang, href]),
    );
    return {
      address: loc.pathname + loc.search,
      path: loc.pathname,
      locale: loc.searchParams.get("locale") ?? "en",
      alternates,
    };
  });
}

const attr = (html: string, re: RegExp): string | null => re.exec(html)?.[1] ?? null;
const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&[a-z#0-9]+;/g, " ")
    .replace(/\s+/g, " ")
    .trim();

test("every sitemap page is prerendered with its content, title, description and hreflang in every locale", async ({
  request,
  baseURL,
}) => {
  // Some 250 documents: about a minute on a loaded two-core machine.
  test.setTimeout(240_000);
  const entries = await readSitemap(request);
  const paths = [...new Set(entries.map((e) => e.path))];
  // Fetched a few at a time (a crawler's pace): hundreds of documents one by one take long on a
  // loaded machine.
  const fetched = new Map<string, { status: number; html: string }>();
  for (let i = 0; i < entries.length; i += 12) {
    await Promise.all(
      entries.slice(i, i + 12).map(async ({ address }) => {
        // Node's own fetch: the documents are read as a crawler reads them, without the browser's
        // request context in between (several times faster here).
        const res = await fetch(`${baseURL}${address}`);
        fetched.set(address, { status: res.status, html: await res.text() });
      }),
    );
  }
  // The site's public pages, each in all seven locales.
  expect(paths.length).toBeGreaterThanOrEqual(5);
  expect(entries).toHaveLength(paths.length * LOCALES.length);
  const titles = new Map<string, string>();
  const descriptions = new Map<string, string>();

  for (const entry of entries) {
    const where = entry.address;
    const { status, html } = fetched.get(where) ?? { status: 0, html: "" };
    expect(status, where).toBe(200);
    const lang = HREFLANG[entry.locale] ?? entry.locale;
    expect(attr(html, /<html lang="([^"]+)"/), where).toBe(lang);
    expect(attr(html, /<div id="root" data-prerendered="([^"]+)"/), `${where} is prerendered`).toBe(entry.locale);
    expect(html, where).not.toContain('data-testid="not-found"');

    const title = attr(html, /<title>([^<]*)<\/title>/) ?? "";
    const description = attr(html, /<meta name="description" content="([^"]*)"/) ?? "";
    expect(title, where).toMatch(/ · Orderflow$/);
    expect(isMessageId(title.replace(/ · Orderflow$/, "")), `${where} title: ${title}`).toBe(false);
    expect(description.length, `${where} description`).toBeGreaterThan(20);
    expect(isMessageId(description), `${where} description: ${description}`).toBe(false);
    expect(titles.get(`${entry.locale} ${title}`), `${where}: title shared with another page`).toBeUndefined();
    expect(descriptions.get(`${entry.locale} ${description}`), `${where}: description shared`).toBeUndefined();
    titles.set(`${entry.locale} ${title}`, where);
    descriptions.set(`${entry.locale} ${description}`, where);

    // The content is in the HTML itself: one h1, a real body, nothing unfinished.
    const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1] ?? "";
    expect(main.match(/<h1[\s>]/g) ?? [], `${where}: one h1`).toHaveLength(1);
    // Chinese says in 30 characters what takes 80 letters elsewhere.
    expect(text(main).length, `${where}: content`).toBeGreaterThan(entry.locale.startsWith("zh") ? 30 : 80);
    expect(isPlaceholder(text(main)), `${where}: placeholder text`).toBe(false);
    expect(html, `${where}: landmarks`).toMatch(/<header[\s>][\s\S]*<main[\s\S]*<footer[\s>]/);

    // Canonical, hreflang alternates and Open Graph all name this page at this server's origin.
    const self = `${baseURL}${where}`;
    expect(attr(html, /<link rel="canonical" href="([^"]+)"/), where).toBe(self);
    expect(attr(html, /<meta property="og:url" content="([^"]+)"/), where).toBe(self);
    expect(attr(html, /<meta property="og:title" content="([^"]+)"/), where).toBeTruthy();
    for (const locale of LOCALES) {
      const href = `${baseURL}${entry.path}${locale === "en" ? "" : `?locale=${locale}`}`;
      const hreflang = HREFLANG[locale] ?? locale;
      expect(attr(html, new RegExp(`<link rel="alternate" hreflang="${hreflang}" href="([^"]+)"`)), where).toBe(href);
      expect(entry.alternates.get(hreflang), `${where} sitemap alternate ${hreflang}`).toBe(href);
    }
    expect(attr(html, /<link rel="alternate" hreflang="x-default" href="([^"]+)"/), where).toBe(
      `${baseURL}${entry.path}`,
    );
  }
});

test("a sample covering every page renders in the browser with the content its HTML carried", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const entries = await readSitemap(request);
  const paths = [...new Set(entries.map((e) => e.path))];
  const errors: string[] = [];
  page.on("console", (m) => {
    // React reports a hydration mismatch on the console; so would a missing message be reported.
    if (m.type() === "error" && /hydrat|did not match/i.test(m.text())) errors.push(m.text());
  });
  // The h1 the prerendered HTML carried, taken before the app's script runs.
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      (window as unknown as { prerenderedH1: Element | null }).prerenderedH1 = document.querySelector("h1");
    });
  });
  for (const [i, path] of paths.entries()) {
    const locale = LOCALES[i % LOCALES.length] ?? "en";
    // Named in the address even for English: a locale opened before is kept (docs/product-rules.md#locales).
    const address = `${path}?locale=${locale}`;
    const res = await page.goto(address);
    expect(res?.status(), address).toBe(200);
    const h1 = page.getByRole("heading", { level: 1 });
    await expect(h1, address).toHaveCount(1);
    await expect(h1, address).toBeVisible();
    await expect(page.getByTestId("not-found"), address).toHaveCount(0);
    await expect(page.locator("html"), address).toHaveAttribute("lang", HREFLANG[locale] ?? locale);
    // The app's render shows the page the HTML brought (src/pages/main.tsx: rendered, not hydrated).
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { prerenderedH1: Element | null }).prerenderedH1?.textContent ===
          document.querySelector("h1")?.textContent,
      ),
      `${address} shows the prerendered heading`,
    ).toBe(true);
  }
  expect(errors).toEqual([]);
});

test("with JavaScript off a visitor still reads the page", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/about?locale=ru");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main")).not.toBeEmpty();
  await expect(page.getByRole("contentinfo").getByRole("link").first()).toBeVisible();
  await context.close();
});

test("the server answers 404 with the not-found page, and the sitemap and robots.txt", async ({ page, request }) => {
  for (const address of ["/no-such-page", "/about/more", "/prerender/en/about"]) {
    const res = await request.get(address);
    expect(res.status(), address).toBe(404);
    expect(await res.text(), address).toContain('data-testid="not-found"');
  }
  // The build's files are served through their pages only.
  expect((await request.get("/prerender/en/about.html")).status()).toBe(404);
  const ru = await request.get("/no-such-page?locale=ru");
  expect(ru.status()).toBe(404);
  expect(await ru.text()).toContain('<html lang="ru">');
  // The app's own routes that are not prerendered are still the app.
  for (const address of ["/tradedesk/BTCUSD", "/login?back=%2Faccount", "/signup"])
    expect((await request.get(address)).status(), address).toBe(200);

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  const body = await robots.text();
  expect(body).toMatch(/^User-agent: \*$/m);
  expect(body).toMatch(/^Disallow: \/account\/$/m);
  expect(body).toMatch(/^Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml$/m);

  // In the browser, the unknown address shows the not-found page in the visitor's language.
  const res = await page.goto("/no-such-page?locale=zh-CN");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
  await expect(page).toHaveTitle(/Orderflow/);
});

test("the header's and footer's links are real addresses", async ({ page }) => {
  await page.goto("/");
  const hrefs = await page
    .locator("header a[href], footer a[href]")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  expect(hrefs.length).toBeGreaterThan(5);
  for (const href of hrefs) expect(href, href).not.toMatch(/:[a-z]+\??/i);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Trade" }).click();
  await expect(page).toHaveURL(/\/tradedesk/);
  // The skip link is the first stop of the keyboard and takes it to the content.
  await page.goto("/about");
  // The app's render replaces the prerendered page (src/pages/main.tsx): a key pressed before it
  // lands on an element about to go.
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});
