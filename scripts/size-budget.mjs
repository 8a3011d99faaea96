#!/usr/bin/env node
// Size budget (HOUSE-STYLE 19): gzip sizes of the built entries against their budgets. The initial
// JS of a route is the entry script plus the chunks index.html preloads. Fails when any budget is
// exceeded; prints a table either way. Worker bundles are reported on their own line.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url).pathname;
const KB = 1024;
const BUDGETS = {
  initialJs: 130 * KB, // the shell; the desk route's budget (250 kB) is checked when it lands
  css: 16 * KB,
  pageChunk: 40 * KB,
  localeChunk: 24 * KB,
  worker: 64 * KB,
};

const gz = (file) => gzipSync(readFileSync(join(dist, file))).length;
const html = readFileSync(join(dist, "index.html"), "utf8");
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
const css = [...html.matchAll(/href="\/(assets\/[^"]+\.css)"/g)].map((m) => m[1]);
const assets = readdirSync(join(dist, "assets")).filter((f) => f.endsWith(".js"));
const LOCALE = /^(en|ru|zh-CN|zh-TW|es-EM|tr-TR|pt-BR)-/;

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
for (const f of assets) {
  const file = `assets/${f}`;
  if (initial.includes(file)) continue;
  if (/worker/i.test(f)) check(`worker ${f}`, gz(file), BUDGETS.worker);
  else if (LOCALE.test(f)) check(`locale ${f}`, gz(file), BUDGETS.localeChunk);
  else check(`chunk ${f}`, gz(file), BUDGETS.pageChunk);
}

console.table(rows);
const over = rows.filter((r) => !r.ok);
if (over.length) {
  console.error(`Over budget: ${over.map((r) => r.what).join(", ")}`);
  process.exit(1);
}
console.log("All bundles within budget.");
