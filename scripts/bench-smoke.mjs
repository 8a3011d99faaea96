#!/usr/bin/env node
// The benches' smoke run, one counted step group of `npm test`: every bench once with --quick, into
// a temporary results folder (the committed results and bench/README.md stay as they are), then
// checks that each ran and that its figures are sane — finite, positive, every checksum agreed,
// the orders of magnitude right — and never that anything is fast: a shared, loaded machine makes
// any time limit a coin toss. Then the core A/B (--compare HEAD, --quick) and the HTML report of
// the run, opened in Chromium: no console error, no request off the file, every chart drawn.
//
// Each check counts as one test; `--json=FILE` writes {passed, failed, checks} for scripts/test.mjs.
// About 5 min on this 2-core machine (most of it the quick core bench's fixed scenarios and the
// desk's pages).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const out = mkdtempSync(join(tmpdir(), "bench-smoke-"));
const env = {
  ...process.env,
  BENCH_RESULTS_DIR: out,
  BENCH_UI_PORT: process.env["BENCH_UI_PORT"] ?? "5440",
  // The peers' install, the report and git need no test polyfills.
  NODE_OPTIONS: "",
};
const checks = [];

function check(name, fn) {
  let problems;
  try {
    problems = fn();
  } catch (err) {
    problems = [String(err?.stack ?? err)];
  }
  const ok = problems.length === 0;
  checks.push({ name, ok, problems });
  console.log(`${ok ? "✓" : "✗"} bench smoke: ${name}${ok ? "" : `\n    ${problems.join("\n    ")}`}`);
}

function run(args) {
  console.log(`\n$ node ${args.join(" ")}`);
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: "inherit", env });
  return r.status === 0 ? [] : [`exit ${r.status ?? r.signal}`];
}

const json = (name) => JSON.parse(readFileSync(join(out, name), "utf8"));
const positive = (x) => Number.isFinite(x) && x > 0;

// The peers are the bench's own devDependencies (bench/package.json), installed on first use as
// `npm run bench` does: a fresh clone (CI) has none.
check("bench peers installed", () => {
  if (existsSync(join(ROOT, "bench", "node_modules", ".package-lock.json"))) return [];
  console.log("\n$ npm ci (bench/)");
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: join(ROOT, "bench"), stdio: "inherit", env });
  return r.status === 0 ? [] : [`npm ci in bench/ exited ${r.status}`];
});
check("core bench --quick runs", () => run(["scripts/run-ts.mjs", "bench/core-bench.ts", "--quick"]));
check("core figures are sane", () => {
  const core = json("core-latest.json");
  const p = [];
  for (const d of [5, 25, 100, 250, 1000]) {
    const rows = core[`updates-${d}`]?.rows;
    if (!rows) {
      p.push(`no updates-${d}`);
      continue;
    }
    for (const r of rows) {
      if (!positive(r.cpuNsPerUpdate) || r.cpuNsPerUpdate > 1e6)
        p.push(`updates-${d} ${r.peer}: ${r.cpuNsPerUpdate} ns`);
      if (!r.peer.startsWith("JSON.parse") && (r.checksums.failed !== 0 || r.checksums.ok === 0))
        p.push(`updates-${d} ${r.peer}: checksums ${r.checksums.ok}/${r.checksums.failed}`);
    }
    // A loose order-of-magnitude check: the official library is several times slower at any depth.
    const bfx = rows.find((r) => r.peer === "bfx-api-node-models");
    if (bfx && !(bfx.ratioVsOurs > 1)) p.push(`updates-${d}: bfx-api-node-models ${bfx.ratioVsOurs}x ours`);
  }
  if (!core["rate-25"]?.curves?.every((c) => positive(c.fallsOverAtMultiple))) p.push("no feed-rate curve");
  if (!positive(core["snapshot-250"]?.scannedApplyNs)) p.push("no snapshot figure");
  if (!(core["memory-250"]?.bytesPerBook > 1000)) p.push("no memory figure");
  if (!core.machine?.loadBefore) p.push("no machine / load recorded");
  return p;
});

check("server bench --quick runs", () => run(["scripts/run-ts.mjs", "bench/server-bench.ts", "--quick"]));
check("server figures are sane", () => {
  const s = json("server-latest.json");
  const p = [];
  if (!positive(s.orders?.walFile?.modes?.wsPipelined?.perS)) p.push("no pipelined order rate");
  if (!s.fanout?.length || !s.fanout.every((r) => positive(r.framesPerS))) p.push("fan-out rows without frames");
  return p;
});

check("view bench runs", () => run(["bench/browser-view.mjs"]));
check("view figures are sane", () => {
  const v = json("view-latest.json");
  return positive(v.typedViewUs) && positive(v.arrayOfObjectsUs) ? [] : [`view figures ${JSON.stringify(v)}`];
});

// The desk at ×100 the strongest intensity, the books side by side there and a two-point
// books-on-screen curve, without the 250-row peer (the slowest pages): every part of the bench runs
// once, in about a minute.
const SMOKE_BOOKS = [1, 8];
check("ui bench --quick runs", () =>
  run([
    "bench/ui-bench.mjs",
    "--quick",
    "--only=60 ms/8 ×100",
    "--exact",
    `--scaling-books=${SMOKE_BOOKS.join(",")}`,
    "--no-full-peer",
  ]),
);
check("ui figures are sane", () => {
  const ui = json("ui-latest.json");
  const p = [];
  if (!(ui.results?.length >= 1)) p.push(`${ui.results?.length} desk scenarios`);
  for (const r of ui.results ?? []) {
    if (!(r.frames > 10)) p.push(`${r.scenario}: ${r.frames} frames`);
    if (!(r.frameP50 > 4 && r.frameP50 < 5000)) p.push(`${r.scenario}: frame p50 ${r.frameP50}`);
    if (!positive(r.viewToFrameP50) || !positive(r.latencyP50)) p.push(`${r.scenario}: no latency figures`);
    if (r.booksPainting !== 8) p.push(`${r.scenario}: ${r.booksPainting}/8 books painting`);
    if (!r.samples?.frameMs?.length) p.push(`${r.scenario}: no frame samples`);
  }
  const sc = ui.peers?.scaling;
  if (!sc || Object.keys(sc.impls).length < 2) p.push("no books-on-screen curve");
  else
    for (const [id, m] of Object.entries(sc.impls))
      if (m.points.length !== SMOKE_BOOKS.length || !m.points.every((x) => x.frames > 0))
        p.push(`scaling ${id}: ${JSON.stringify(m.points)}`);
  if (!ui.meta?.machine?.loadBefore) p.push("no machine / load recorded");
  return p;
});

const abStart = Date.now();
check("core A/B --compare HEAD --quick runs", () =>
  run(["bench/run.mjs", "--compare", "HEAD", "--quick", "--depths=25,250"]),
);
check("core A/B figures are sane", () => {
  const ab = json("ab-core-latest.json");
  const p = [];
  if (new Date(ab.date).getTime() < abStart - 1000) p.push("ab-core-latest.json not written by this run");
  if (ab.figures?.length !== 2) p.push(`${ab.figures?.length} figures`);
  for (const f of ab.figures ?? []) {
    const c = f.comparison;
    // The same commit on both sides: a ratio far from 1 means the harness favours a side.
    if (!(c.ratio > 0.5 && c.ratio < 2)) p.push(`${f.name}: head/base ${c.ratio}`);
    if (!(c.ci[0] <= c.ratio && c.ratio <= c.ci[1])) p.push(`${f.name}: interval ${c.ci} leaves out ${c.ratio}`);
    if (f.base.checksums.failed || f.head.checksums.failed || !f.base.checksums.ok)
      p.push(`${f.name}: checksums ${JSON.stringify([f.base.checksums, f.head.checksums])}`);
  }
  return p;
});
check("no worktree left behind", () => {
  const r = spawnSync("git", ["worktree", "list", "--porcelain"], { cwd: ROOT, encoding: "utf8" });
  const extra = r.stdout.split("\n").filter((l) => l.startsWith("worktree ") && l.includes("bench-ab-"));
  return extra.length ? [`left: ${extra.join(", ")}`] : [];
});

const reports = () =>
  readdirSync(out)
    .filter((f) => f.startsWith("report-"))
    .sort();
check("report opens in Chromium with every chart drawn", () => {
  const file = reports().at(-1);
  if (!file) return ["no report written"];
  const r = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { checkReport } from ${JSON.stringify(join(ROOT, "bench", "check-report.mjs"))};
       const r = await checkReport(${JSON.stringify(join(out, file))}, { mustHave: ["ab-core", "core-depth", "core-rate", "ui-frameMs", "ui-updateToPaintMs", "ui-viewToFrameEndMs", "ui-books"] });
       console.log(JSON.stringify(r));`,
    ],
    { cwd: ROOT, encoding: "utf8", env },
  );
  if (r.status !== 0) return [`check-report failed: ${r.stderr}`];
  const result = JSON.parse(r.stdout.trim().split("\n").at(-1));
  return result.problems;
});

const passed = checks.filter((c) => c.ok).length;
const failed = checks.length - passed;
console.log(
  `\nbench smoke: ${passed} of ${checks.length} checks passed${failed ? `, ${failed} failed` : ""} (results in ${out})`,
);
const jsonOut = process.argv.find((a) => a.startsWith("--json="))?.slice(7);
if (jsonOut) writeFileSync(jsonOut, `${JSON.stringify({ passed, failed, checks }, null, 2)}\n`);
if (failed === 0 && !process.argv.includes("--keep")) rmSync(out, { recursive: true, force: true });
process.exit(failed === 0 ? 0 : 1);
