#!/usr/bin/env node
// `npm run bench`: installs the peers (bench/package.json, devDependencies of the bench only) when
// missing, then runs the core bench, the embedded exchange's bench and the main-thread view bench.
// Extra arguments pass through to the TypeScript benches (e.g. --quick).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const dir = new URL(".", import.meta.url).pathname;

function run(args, env = process.env) {
  const r = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!existsSync(`${dir}node_modules/.package-lock.json`)) {
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
for (const bench of ["core-bench.ts", "server-bench.ts"]) {
  run([`${dir}../scripts/run-ts.mjs`, `${dir}${bench}`, ...process.argv.slice(2)]);
}
// The main-thread side in real Chromium (needs /usr/bin/chromium, which `npm test` installs).
run([`${dir}browser-view.mjs`], { ...process.env, ENTRY_DIR: dir });
