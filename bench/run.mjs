#!/usr/bin/env node
// `npm run bench`: installs the peers (bench/package.json, devDependencies of the bench only) when
// missing, then runs the core bench. Extra arguments pass through (e.g. --quick).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const dir = new URL(".", import.meta.url).pathname;
if (!existsSync(`${dir}node_modules/.package-lock.json`)) {
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) if (r.status !== 0) process.exit(r.status ?? 1);
  // The main-thread side in real Chromium (needs /usr/bin/chromium, which `npm test` installs).
  const v = spawnSync(process.execPath, [`${dir}browser-view.mjs`], {
    stdio: "inherit",
    env: { ...process.env, ENTRY_DIR: dir },
  });
  process.exit(v.status ?? 1);
}
const r = spawnSync(
  process.execPath,
  [`${dir}../scripts/run-ts.mjs`, `${dir}core-bench.ts`, ...process.argv.slice(2)],
  {
    stdio: "inherit",
  },
);
if (r.status !== 0) process.exit(r.status ?? 1);
// The main-thread side in real Chromium (needs /usr/bin/chromium, which `npm test` installs).
const v = spawnSync(process.execPath, [`${dir}browser-view.mjs`], {
  stdio: "inherit",
  env: { ...process.env, ENTRY_DIR: dir },
});
process.exit(v.status ?? 1);
