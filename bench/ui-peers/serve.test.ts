import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentType, fileFor, serveStatic } from "./serve.mjs";

const dir = mkdtempSync(join(tmpdir(), "ui-peers-serve-"));
let server: Awaited<ReturnType<typeof serveStatic>>;

beforeAll(async () => {
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), "<!doctype html>");
  writeFileSync(join(dir, "assets", "market.worker-x.js"), "export {};");
  server = await serveStatic(dir);
});

afterAll(() => server.close());

describe("the side-by-side page's static server", () => {
  it("serves module scripts (the worker too) as JavaScript and pages as HTML", async () => {
    const js = await fetch(`${server.url}/assets/market.worker-x.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await js.text()).toBe("export {};");
    const html = await fetch(`${server.url}/?impl=lab49`);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(contentType("a/b.css")).toMatch(/^text\/css/);
    expect(contentType("a/b.unknown")).toBe("application/octet-stream");
  });

  it("answers 404 for missing files and for paths that leave its directory", async () => {
    expect((await fetch(`${server.url}/nope.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/assets`)).status).toBe(404);
    expect(fileFor(dir, "/../etc/passwd")).toBeNull();
    expect(fileFor(dir, "/%2e%2e/%2e%2e/etc/passwd")).toBeNull();
    expect(fileFor(dir, "/assets/market.worker-x.js")).toBe(join(dir, "assets", "market.worker-x.js"));
  });
});
