import { defineConfig } from "@lingui/cli";
import { formatter } from "@lingui/format-po";
// Plain JS so that lingui, vite and the catalogs test read one plan (locales/README.md).
import { CATALOG_AREAS, catalogPlan } from "./scripts/catalog-areas.mjs";

const root = new URL(".", import.meta.url).pathname;
const plan = catalogPlan(root);
const notSource = ["**/*.test.*", "**/node_modules/**"];
const areaFiles = (area: string): string[] => [...(plan.areas[area] ?? [])];

// Annotated: the inferred type names @lingui/conf, a package this project does not depend on itself.
const config: ReturnType<typeof defineConfig> = defineConfig({
  sourceLocale: "en",
  locales: ["en", "ru", "zh-CN", "zh-TW", "es-EM", "tr-TR", "pt-BR"],
  fallbackLocales: { default: "en" },
  catalogs: [
    // Core: loaded at start. Everything but the areas' own files.
    {
      path: "<rootDir>/locales/{locale}",
      include: ["<rootDir>/src/ui", "<rootDir>/src/pages"],
      exclude: [...notSource, ...CATALOG_AREAS.flatMap(areaFiles)],
    },
    // One catalog per area, loaded with the routes that declare it.
    ...CATALOG_AREAS.map((area) => ({
      path: `<rootDir>/locales/${area}/{locale}`,
      include: areaFiles(area),
      exclude: notSource,
    })),
  ],
  format: formatter({ lineNumbers: false }),
});

export default config;
