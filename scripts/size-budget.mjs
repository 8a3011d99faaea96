#!/usr/bin/env node
// Size budget, a step of `npm test`: gzip sizes of the built entries against their budgets. The initial
// JS of a route is the entry script plus the chunks index.html preloads. Fails when any budget is
// exceeded; prints a table either way. Worker bundles are reported on their own line.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = process.env.DIST_DIR ?? new URL("../dist/", import.meta.url).pathname;
const KB = 1024;
const BUDGETS = {
  initialJs: 130 * KB, // the shell, what every page loads first
  deskRouteJs: 250 * KB, // the shell plus everything the trading desk's chunk imports (issue 5)
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
