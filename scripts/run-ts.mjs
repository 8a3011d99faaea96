#!/usr/bin/env node
// Runs a TypeScript entry (bench, replay) as one bundled ES module, the way the worker's code runs
// in the browser. Measured here: the same hot code runs 3–4x slower under a TypeScript loader
// (per-call overhead on every cross-module function), which would make every figure a lie.
// usage: node scripts/run-ts.mjs ENTRY.ts [args…]
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { build } from "rolldown";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-ts.mjs ENTRY.ts [args…]");
  process.exit(2);
}
const root = new URL("..", import.meta.url).pathname;
const outDir = join(root, "node_modules", ".cache", "run-ts");
mkdirSync(outDir, { recursive: true });
const out = join(outDir, `${basename(entry).replace(/\.ts$/, "")}.mjs`);
await build({
  input: resolve(entry),
  platform: "node",
  // Packages stay imports, resolved at run time from node_modules (the bench's peers included).
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0"),
  output: { file: out, format: "esm", sourcemap: true },
  logLevel: "warn",
});
const r = spawnSync(process.execPath, ["--enable-source-maps", out, ...args], {
  stdio: "inherit",
  env: { ...process.env, ENTRY_DIR: resolve(entry, "..") },
});
process.exit(r.status ?? 1);
