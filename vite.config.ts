/// <reference types="vitest/config" />
import { lingui } from "@lingui/vite-plugin";
import babel from "@rolldown/plugin-babel";
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin";
import react from "@vitejs/plugin-react";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig, type Plugin } from "vite";
import { prerender } from "./scripts/prerender-plugin.ts";
import { STATIC_PAGE_PATHS } from "./src/pages/site-map.ts";

/** One id per build; page data carries it so a tab running an older build can notice and reload. */
const BUILD_ID = process.env["BUILD_ID"] ?? `b${Date.now().toString(36)}`;

function pageDataFile(path: string): string {
  return `page-data${path === "/" ? "/index" : path}/page-data.json`;
}

/**
 * Page data for every static public page (docs/product-rules.md#page-data: page data is fetched per path):
 * emitted into the build, and served by the dev server, from the same site map the router uses.
 */
function pageData(): Plugin {
  const body = (path: string): string =>
    JSON.stringify({ path, page: path === "/" ? "home" : path.slice(1), build: BUILD_ID });
  return {
    name: "page-data",
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = (req.url ?? "").split("?")[0] ?? "";
        const path = STATIC_PAGE_PATHS.find((p) => `/${pageDataFile(p)}` === url);
        if (path === undefined) return next();
        res.setHeader("content-type", "application/json");
        res.end(body(path));
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "build.json", source: JSON.stringify({ build: BUILD_ID }) });
      for (const path of STATIC_PAGE_PATHS)
        this.emitFile({ type: "asset", fileName: pageDataFile(path), source: body(path) });
    },
  };
}

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  plugins: [
    react(),
    lingui(),
    // Babel's only job here is the lingui macros: files that use none skip it, which halves the
    // transform time of a build (and of the prerender's second build).
    babel({
      presets: [
        {
          preset: () => ({ plugins: ["@lingui/babel-plugin-lingui-macro"] }),
          rolldown: { filter: { code: /@lingui\/[a-z]+\/macro/ } },
        },
      ],
    }),
    vanillaExtractPlugin(),
    pageData(),
    // The public pages' HTML, sitemap and robots.txt (docs/product-rules.md#public-pages).
    prerender(),
  ],
  define: { __BUILD_ID__: JSON.stringify(BUILD_ID) },
  server: { host: "127.0.0.1", port: 5173, strictPort: true },
  build: {
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // An area's catalog chunk carries its area in its name (account-ru-….js), so the size budget
        // tells the catalogs loaded at start from those loaded with their routes.
        chunkFileNames: (chunk) => {
          const area = /\/locales\/([a-z]+)\/[^/]+\.po$/.exec(chunk.facadeModuleId ?? "")?.[1];
          return area ? `assets/${area}-[name]-[hash].js` : "assets/[name]-[hash].js";
        },
      },
    },
  },
  worker: { format: "es" },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          environment: "node",
          include: ["src/**/*.test.ts", "server/**/*.test.ts", "bench/**/*.test.ts", "tests/unit/**/*.test.ts"],
          exclude: ["**/*.browser.test.*", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        // Every browser dependency pre-bundled up front: a dependency first met in the middle of a
        // run (a test importing wouter/use-browser-location) made Vite re-optimize and reload, and
        // the test file loading at that moment never started.
        optimizeDeps: {
          include: [
            "react",
            "react/jsx-runtime",
            "react/jsx-dev-runtime",
            "react-dom",
            "react-dom/client",
            "wouter",
            "wouter/use-browser-location",
            "wouter/memory-location",
            "valtio",
            "valtio/utils",
            "comlink",
            "idb-keyval",
            "uplot",
            "@tanstack/react-virtual",
            "@lingui/core",
            "@lingui/react",
            "vitest-browser-react",
          ],
        },
        test: {
          name: "browser",
          include: ["src/**/*.browser.test.{ts,tsx}", "tests/browser/**/*.browser.test.{ts,tsx}"],
          globalSetup: ["tests/support/browser-global-setup.ts"],
          // Components throttle what they show (a badge once a second, books per frame): on a
          // loaded CI machine a second is not always enough for a poll to see the next state.
          expect: { poll: { timeout: 5000 } },
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS } }),
            instances: [{ browser: "chromium" }],
          },
          // Two runs on one machine (two engineers, or a run beside CI) collide on the default port.
          ...(process.env["VITEST_BROWSER_PORT"] ? { api: { port: Number(process.env["VITEST_BROWSER_PORT"]) } } : {}),
        },
      },
    ],
  },
});
