// Which source files' messages go into which locale catalog (locales/README.md "Catalogs by area").
//
// The core catalog (`locales/{locale}.po`) is loaded at start; an area's catalog
// (`locales/{area}/{locale}.po`) is loaded with the routes that declare it (`catalog` in
// src/pages/routes.ts) before their page shows. A message must therefore sit in a catalog that is
// loaded whenever its file can run:
//
// - core: every file the app can reach from its entry without entering an area's page — through
//   static and dynamic imports alike, since a lazily loaded public page or dialog has no catalog of
//   its own to wait for;
// - an area: every file reachable from that area's pages that core does not reach.
//
// A file shared by the desk and an account page is thus core, and an account-only dialog is the
// account area's. The plan is computed from the import graph each time lingui reads its config, so
// moving a component never strands its messages in a catalog that is not loaded.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The catalog areas besides core; each is `locales/{area}/{locale}.po`. */
export const CATALOG_AREAS = ["account", "site", "company", "learn", "trade"];

const SOURCE_DIRS = ["src/ui", "src/pages"];
const ENTRY = "src/pages/main.tsx";
const ROUTES = "src/pages/routes.ts";

function sourceFiles(root) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx)$/.test(name) && !/\.test\.|\.d\.ts$/.test(name)) out.push(path);
    }
  };
  for (const d of SOURCE_DIRS) walk(join(root, d));
  return out;
}

// Imports that bring code along: `import … from`, `export … from`, bare `import "…"` and
// `import("…")`. Type-only imports and re-exports carry no messages and are left out.
const IMPORT =
  /(?:^|[;\s])(?:import(?!\s+type\b)[\s\S]*?\bfrom\s*|export(?!\s+type\b)[^;]*?\bfrom\s*|import\s*\(\s*|import\s+)["']([^"']+)["']/g;

function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

function importsOf(file, cache) {
  let list = cache.get(file);
  if (!list) {
    const text = readFileSync(file, "utf8");
    list = [...text.matchAll(IMPORT)].map((m) => resolveImport(file, m[1])).filter((f) => f !== null);
    cache.set(file, list);
  }
  return list;
}

/**
 * The routes' page modules and catalogs, read from routes.ts: each route object names its page
 * with `import("./Page")` and its area with `catalog: "area"`. `tests/unit/catalog-areas.test.ts`
 * checks this reading against the route table itself.
 */
export function routeCatalogs(root) {
  const text = readFileSync(join(root, ROUTES), "utf8");
  const routes = [];
  for (const block of text.split(/\n {2}\{\n/).slice(1)) {
    const id = /\bid: "([^"]+)"/.exec(block)?.[1];
    const page = /import\("\.\/([^"]+)"\)/.exec(block)?.[1];
    const catalog = /\bcatalog: "([^"]+)"/.exec(block)?.[1] ?? null;
    if (id && page) routes.push({ id, page: join(root, "src/pages", `${page}.tsx`), catalog });
  }
  return routes;
}

/** `{ core: files, areas: { account: files } }`, absolute paths, each list sorted. */
export function catalogPlan(root) {
  const cache = new Map();
  const routes = routeCatalogs(root);
  const areaPages = new Map(routes.filter((r) => r.catalog).map((r) => [r.page, r.catalog]));
  const reach = (starts, stopAt) => {
    const seen = new Set();
    const stack = [...starts];
    while (stack.length) {
      const f = stack.pop();
      if (seen.has(f) || stopAt.has(f)) continue;
      seen.add(f);
      stack.push(...importsOf(f, cache));
    }
    return seen;
  };
  const core = reach([join(root, ENTRY)], new Set(areaPages.keys()));
  const areas = {};
  for (const area of CATALOG_AREAS) {
    const pages = [...areaPages].filter(([, a]) => a === area).map(([p]) => p);
    areas[area] = [...reach(pages, new Set())].filter((f) => !core.has(f)).sort();
  }
  // Files nothing reaches (a component not used yet) stay in core, where a message is always loaded.
  const inAreas = new Set(Object.values(areas).flat());
  return {
    core: sourceFiles(root)
      .filter((f) => !inAreas.has(f))
      .sort(),
    areas,
  };
}

/** For messages: a plan's file as a repository-relative path. */
export function relativePlan(root, plan) {
  const rel = (list) => list.map((f) => relative(root, f));
  return {
    core: rel(plan.core),
    areas: Object.fromEntries(Object.entries(plan.areas).map(([a, l]) => [a, rel(l)])),
  };
}
