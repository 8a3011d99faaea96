import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servedConfig } from "./config.ts";
import { createAppServer, isApiPath } from "./static.ts";

let base = "";
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), "dist-"));
  await mkdir(join(root, "assets"));
  await mkdir(join(root, "page-data", "about"), { recursive: true });
  await writeFile(join(root, "index.html"), "<!doctype html><div id=root></div>");
  await writeFile(join(root, "assets", "app-abc123.js"), "console.log(1)");
  await writeFile(join(root, "page-data", "about", "page-data.json"), '{"path":"/about","page":"about","build":"b1"}');
  const server = createAppServer({ root, config: servedConfig({ BFX_PLATFORM: "jp" }, "http://127.0.0.1:1", "b1") });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(() => close());

describe("app server", () => {
  it("serves the shell for page paths, with a strict CSP and security headers", async () => {
    for (const path of ["/", "/about/", "/index.html", "/t/BTCUSD", "/tradedesk"]) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain("<div id=root>");
    }
    const res = await fetch(`${base}/about`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("caches hashed assets forever and serves page data, 404 for missing files", async () => {
    const asset = await fetch(`${base}/assets/app-abc123.js`);
    expect(asset.headers.get("cache-control")).toContain("immutable");
    expect(asset.headers.get("content-type")).toContain("javascript");
    expect(await (await fetch(`${base}/page-data/about/page-data.json`)).json()).toMatchObject({ page: "about" });
    expect((await fetch(`${base}/page-data/nope/page-data.json`)).status).toBe(404);
    expect((await fetch(`${base}/assets/missing.js`)).status).toBe(404);
  });

  it("never answers API paths with the app shell", async () => {
    for (const path of ["/v2/tickers", "/v1/ui_bootstrap", "/ws/2", "/api/session/keep-alive"]) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual(["error", 10020, "not found"]);
    }
    expect(isApiPath("/api")).toBe(false);
    expect(isApiPath("/v2")).toBe(true);
  });

  it("serves the runtime config from the environment", async () => {
    const config = (await (await fetch(`${base}/config.json`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ platform: "jp", backend: "embedded", build: "b1" });
  });

  it("refuses path traversal", async () => {
    const res = await fetch(`${base}/..%2f..%2fetc%2fpasswd`);
    expect([400, 404]).toContain(res.status);
    expect(await res.text()).not.toContain("root:");
  });

  it("answers a malformed percent escape with 400, not a server error", async () => {
    for (const path of ["/%E0%A4%A", "/%", "/about%zz"]) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(400);
    }
    expect((await fetch(`${base}/about`)).status).toBe(200);
  });
});

describe("served config", () => {
  it("points at the real Bitfinex hosts when asked", () => {
    const c = servedConfig({ BFX_BACKEND: "bitfinex" }, "http://127.0.0.1:5180", "b");
    expect(c.endpoints.restPublic).toBe("https://api-pub.bitfinex.com");
    expect(c.endpoints.restAuth).toBe("https://api.bitfinex.com");
    expect(c.endpoints.wsPublic).toBe("wss://api-pub.bitfinex.com/ws/2");
    expect(c.endpoints.wsAuth).toBe("wss://api.bitfinex.com/ws/2");
  });

  it("takes explicit overrides", () => {
    const c = servedConfig({ BFX_WS_PUBLIC: "ws://127.0.0.1:9/ws/2" }, "http://127.0.0.1:5180", "b");
    expect(c.endpoints.wsPublic).toBe("ws://127.0.0.1:9/ws/2");
    expect(c.endpoints.restPublic).toBe("http://127.0.0.1:5180");
  });
});

describe("app server with a prerendered build (docs/product-rules.md#public-pages)", () => {
  let site = "";
  let stop: () => Promise<void> = async () => {};
  const TOKEN = "https://orderflow.origin.invalid";

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), "dist-"));
    for (const dir of ["prerender/en", "prerender/ru"]) await mkdir(join(root, dir), { recursive: true });
    await writeFile(join(root, "index.html"), "<!doctype html><div id=root></div>");
    const page = (lang: string, what: string): string =>
      `<html lang="${lang}"><link rel="canonical" href="${TOKEN}/about"><main>${what}</main></html>`;
    await writeFile(join(root, "prerender/en/about.html"), page("en", "About us"));
    await writeFile(join(root, "prerender/ru/about.html"), page("ru", "О нас"));
    await writeFile(join(root, "prerender/en/index.html"), page("en", "Home"));
    await writeFile(join(root, "prerender/en/404.html"), page("en", "Page not found"));
    await writeFile(join(root, "prerender/ru/404.html"), page("ru", "Страница не найдена"));
    await writeFile(join(root, "prerender/sitemap.xml"), `<urlset><url><loc>${TOKEN}/about</loc></url></urlset>`);
    await writeFile(join(root, "prerender/robots.txt"), `User-agent: *\nSitemap: ${TOKEN}/sitemap.xml\n`);
    const routes = [
      { source: "^\\/?$" },
      { source: "^\\/about\\/?$" },
      { source: "^\\/tradedesk(?:\\/([^/]+?))?\\/?$" },
      { source: "^\\/securities\\/?$", feature: "securities" },
    ];
    await writeFile(join(root, "prerender/routes.json"), JSON.stringify(routes));
    const server = createAppServer({
      root,
      config: servedConfig({ BFX_PLATFORM: "jp" }, "http://127.0.0.1:1", "b1"),
      siteOrigin: "https://example.test",
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stop = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(() => stop());

  it("serves a published page's HTML in the locale ?locale= names, with the site's origin", async () => {
    for (const [path, lang, text] of [
      ["/about", "en", "About us"],
      ["/about/", "en", "About us"],
      ["/about?locale=ru", "ru", "О нас"],
      ["/about?locale=xx", "en", "About us"],
      ["/", "en", "Home"],
    ] as const) {
      const res = await fetch(site + path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, path).toContain(`<html lang="${lang}">`);
      expect(html, path).toContain(text);
      expect(html, path).toContain('href="https://example.test/about"');
      expect(html, path).not.toContain(TOKEN);
    }
  });

  it("answers 404 with the not-found page where no route is, and the app shell on other routes", async () => {
    for (const [path, text] of [
      ["/nowhere", "Page not found"],
      ["/about/more", "Page not found"],
      ["/nowhere?locale=ru", "Страница не найдена"],
      // A route of a feature this platform variant (jp) does not have.
      ["/securities", "Page not found"],
      ["/prerender/en/about", "Page not found"],
    ] as const) {
      const res = await fetch(site + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("text/html");
      expect(await res.text(), path).toContain(text);
    }
    expect((await fetch(`${site}/prerender/en/about.html`)).status).toBe(404);
    // Nor by an address that only resolves to them: the raw files carry the origin placeholder.
    for (const sly of [
      "/%2Fprerender/en/about.html",
      "/%2fprerender/routes.json",
      "/x/..%2F%2Fprerender/en/index.html",
    ]) {
      const res = await fetch(site + sly);
      expect(res.status, sly).not.toBe(200);
      expect(await res.text(), sly).not.toContain(TOKEN);
    }
    const desk = await fetch(`${site}/tradedesk/BTCUSD`);
    expect(desk.status).toBe(200);
    expect(await desk.text()).toContain("<div id=root></div>");
    const head = await fetch(`${site}/nowhere`, { method: "HEAD" });
    expect(head.status).toBe(404);
  });

  it("serves the sitemap and robots.txt with the site's origin", async () => {
    const sitemap = await fetch(`${site}/sitemap.xml`);
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get("content-type")).toContain("application/xml");
    expect(await sitemap.text()).toContain("<loc>https://example.test/about</loc>");
    const robots = await fetch(`${site}/robots.txt`);
    expect(robots.headers.get("content-type")).toContain("text/plain");
    expect(await robots.text()).toContain("Sitemap: https://example.test/sitemap.xml");
  });
});
