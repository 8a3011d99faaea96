#!/usr/bin/env node
// `npm run bench`: installs the peers (bench/package.json, devDependencies of the bench only) when
// missing, then runs the core bench, the embedded exchange's bench and the main-thread view bench,
// and writes the HTML report of the run (report.mjs) and the README's generated tables.
// Extra arguments pass through to the TypeScript benches (e.g. --quick).
// `--compare REF` (or --compare=REF): instead, the core A/B run of this working tree against REF
// (compare.mjs, core-ab.ts), e.g. `npm run bench -- --compare HEAD~3 --depths=25,250`.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { compareCore, takeCompare } from "./compare.mjs";
import { writeReport } from "./report.mjs";

const dir = new URL(".", import.meta.url).pathname;
const started = Date.now();

function run(args, env = process.env) {
  const r = spawnSync(process.execPath, args, { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const [ref, args] = takeCompare(process.argv.slice(2));

if (!existsSync(`${dir}node_modules/.package-lock.json`)) {
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
if (ref) {
  const status = await compareCore(ref, args);
  if (status !== 0) process.exit(status);
} else {
  for (const bench of ["core-bench.ts", "server-bench.ts"]) {
    run([`${dir}../scripts/run-ts.mjs`, `${dir}${bench}`, ...args]);
  }
  // The main-thread side in real Chromium (needs /usr/bin/chromium, which `npm test` installs).
  run([`${dir}browser-view.mjs`], { ...process.env, ENTRY_DIR: dir });
}
const report = await writeReport({ quick: args.includes("--quick"), abSince: ref ? started : Infinity });
console.log(`\nReport: ${report}`);
