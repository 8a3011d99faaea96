/**
 * The prerender build step (docs/product-rules.md#public-pages): after the client build, a second
 * Vite build bundles src/pages/prerender.tsx for Node with the same plugins (so class names, catalogs
 * and macros are the client's), runs it once, and writes what it returns under the client build's
 * `prerender/` folder: each published page in each locale, the not-found page, the sitemap,
 * robots.txt and the route patterns. The static server (server/static.ts) serves them.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin, type ResolvedConfig } from "vite";

/** What src/pages/prerender.tsx exports (the bundle is plain JS: its shape is checked here). */
interface PrerenderModule {
  prerenderSite(template: string): Promise<{
    readonly files: ReadonlyMap<string, string>;
    readonly failures: readonly string[];
    readonly pages: number;
  }>;
}

const PRERENDER_DIR = "prerender";

export function prerender(): Plugin {
  let config: ResolvedConfig;
  return {
    name: "prerender",
    apply: "build",
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      // The nested server build below loads this same config: it must not prerender itself.
      if (config.build.ssr !== false) return;
      // Builds of other pages with this config (the bench's side-by-side page) have no site to
      // prerender: only the app's own index.html build does.
      if (config.build.rolldownOptions.input !== undefined) return;
      const started = Date.now();
      const outDir = resolve(config.root, config.build.outDir);
      const ssrDir = join(config.root, "node_modules", ".prerender", String(process.pid));
      await build({
        configFile: config.configFile ?? false,
        mode: config.mode,
        logLevel: "warn",
        build: {
          ssr: "src/pages/prerender.tsx",
          outDir: ssrDir,
          emptyOutDir: true,
          sourcemap: false,
          minify: false,
          copyPublicDir: false,
        },
      });
      try {
        const mod = (await import(pathToFileURL(join(ssrDir, "prerender.js")).href)) as PrerenderModule;
        const template = await readFile(join(outDir, "index.html"), "utf8");
        const result = await mod.prerenderSite(template);
        const target = join(outDir, PRERENDER_DIR);
        await rm(target, { recursive: true, force: true });
        for (const [file, content] of result.files) {
          const path = join(target, file);
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, content);
        }
        for (const failure of result.failures) config.logger.warn(`prerender: ${failure}`);
        config.logger.info(`prerendered ${result.pages} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      } finally {
        await rm(ssrDir, { recursive: true, force: true });
      }
    },
  };
}
