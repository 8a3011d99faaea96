#!/usr/bin/env node
// Size budget, a step of `npm test`: gzip sizes of the built entries against their budgets. The initial
// JS of a route is the entry script plus the chunks index.html preloads. Fails when any budget is
// exceeded; prints a table either way. Worker bundles are reported on their own line.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = process.env.DIST_DIR ?? new URL("../dist/", import.meta.url).pathname;
const KB = 1024;
const BUDGETS = {
  // The shell, what every page loads first. 140 KB since the public site is prerendered: the shell
  // now also hydrates, carries the footer's site map and the app-wide 429/maintenance handling
  // (128 → 134.5 KB). Next saving: the protocol chunk holds every page's share of src/protocol.
  initialJs: 140 * KB,
  deskRouteJs: 250 * KB, // the shell plus everything the trading desk's chunk imports (issue 5)
  // The public site's first page (docs/product-rules.md#public-pages): the shell plus the home page's
  // chunk and what it imports (its live markets table shares the desk's small ticker helpers); none
  // of it may be the desk's own code: its page, its components or its workers.
  homeRouteJs: 150 * KB,
  css: 16 * KB,
  pageChunk: 40 * KB,
  // A locale's core catalog is loaded at start (the shell, the desk, public pages); an area's
  // catalog (account, …) with its routes, in parallel with the page chunk (locales/README.md).
  localeChunk: 16 * KB,
  areaLocaleChunk: 32 * KB,
  worker: 64 * KB,
};

const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;
const html = readFileSync(join(dist, "index.html"), "utf8");
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const css = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]);
const assets = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".js"));
const LOCALE = /^(en|ru|zh-CN|zh-TW|es-EM|tr-TR|pt-BR)-/;
const AREA_LOCALE = /^[a-z]+-(en|ru|zh-CN|zh-TW|es-EM|tr-TR|pt-BR)-/;

const rows = [];
const check = (what, size, budget) =>
  rows.push({ what, kB: +(size / KB).toFixed(1), budgetKB: budget / KB, ok: size <= budget });

check(
  `initial JS (${initial.length} files)`,
  initial.reduce((n, f) => n + gz(f), 0),
  BUDGETS.initialJs,
);
check(
  "initial CSS",
  css.reduce((n, f) => n + gz(f), 0),
  BUDGETS.css,
);
// A route's initial JS: the shell plus its page chunk and every chunk that chunk imports
// statically (dynamic imports load later, on demand). Read from the built files' import statements.
function closure(start) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(join(dist, file), "utf8");
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*"\.\/([^"]+\.js)"/g)) visit(`assets/${m[1]}`);
  };
  visit(start);
  return seen;
}
const deskChunk = assets.find((f) => /^DeskPage-/.test(f));
const deskFiles = new Set([...initial, ...(deskChunk ? closure(`assets/${deskChunk}`) : [])]);
for (const f of initial) for (const c of closure(f)) deskFiles.add(c);
check(
  `desk route initial JS (${deskFiles.size} files)`,
  [...deskFiles].reduce((n, f) => n + gz(f), 0),
  deskChunk ? BUDGETS.deskRouteJs : 0,
);

// The home page: what a visitor's first load fetches, and the proof it carries no desk code.
const homeChunk = assets.find((f) => /^HomePage-/.test(f));
const homeFiles = new Set(initial);
for (const f of [...initial, ...(homeChunk ? [`assets/${homeChunk}`] : [])])
  for (const c of closure(f)) homeFiles.add(c);
// Read from the source maps: which of the app's source files the home page's chunks carry.
const DESK_SOURCES = /src\/(pages\/DeskPage\.tsx|ui\/desk\/.*\.tsx|workers\/)/;
const deskOnly = [...homeFiles].filter((f) => {
  const map = join(dist, `${f}.map`);
  if (!existsSync(map)) return false;
  const sources = JSON.parse(readFileSync(map, "utf8")).sources ?? [];
  return sources.some((s) => DESK_SOURCES.test(s));
});
check(
  `home route initial JS (${homeFiles.size} files)`,
  [...homeFiles].reduce((n, f) => n + gz(f), 0),
  homeChunk ? BUDGETS.homeRouteJs : 0,
);
rows.push({
  what: `desk code on the home page: ${deskOnly.join(", ") || "none"}`,
  kB: 0,
  budgetKB: 0,
  ok: deskOnly.length === 0,
});

for (const f of assets) {
  const file = `assets/${f}`;
  if (initial.includes(file)) continue;
  // Chunks of the desk route are budgeted together above.
  if (deskFiles.has(file)) continue;
  if (/worker/i.test(f)) check(`worker ${f}`, gz(file), BUDGETS.worker);
  else if (LOCALE.test(f)) check(`locale ${f}`, gz(file), BUDGETS.localeChunk);
  else if (AREA_LOCALE.test(f)) check(`area locale ${f}`, gz(file), BUDGETS.areaLocaleChunk);
  else check(`chunk ${f}`, gz(file), BUDGETS.pageChunk);
}

console.table(rows);
const over = rows.filter((r) => !r.ok);
if (over.length) {
  console.error(`Over budget: ${over.map((r) => r.what).join(", ")}`);
  process.exit(1);
}
console.log("All bundles within budget.");
