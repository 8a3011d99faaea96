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
