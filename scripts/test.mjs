#!/usr/bin/env node
// The one test command (`npm test`) and CI contract (.ci/run calls it):
//   install → format → types → lint → dead code → i18n → unit → build → size budget → browser → E2E
//   → bench smoke (every bench once with --quick, its figures checked for sanity, never for speed)
// It installs what it needs on a fresh machine (npm ci when node_modules is missing or stale,
// Debian's chromium when /usr/bin/chromium is missing), runs every step even after a failure so one
// run shows everything, and ends with one line `N passed, N failed` summed over every runner
// (vitest unit, vitest browser, Playwright; each static check counts as one).
// `--no-install` (npm run verify) skips the install step.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const results = join(root, "test-results");
mkdirSync(results, { recursive: true });
const polyfills = `--import ${join(root, "scripts", "node-polyfills.mjs")}`;
const env = { ...process.env, NODE_OPTIONS: [process.env.NODE_OPTIONS, polyfills].filter(Boolean).join(" ") };

function run(cmd, args, extraEnv = {}) {
  console.log(`\n$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...env, ...extraEnv } });
  return r.status === 0;
}

function install() {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    if (!run("npm", ["ci", "--no-audit", "--no-fund"])) throw new Error("npm ci failed");
  }
  if (!existsSync("/usr/bin/chromium")) {
    const sudo = process.getuid && process.getuid() !== 0 ? ["sudo"] : [];
    const apt = (args) =>
      run(sudo[0] ?? "apt-get", sudo.length ? ["apt-get", ...args] : args, { DEBIAN_FRONTEND: "noninteractive" });
    if (!apt(["update"]) || !apt(["install", "-y", "--no-install-recommends", "chromium"])) {
      throw new Error("could not install Debian's chromium");
    }
  }
}

const tally = [];
// The failing tests by name, printed again just above the summary: CI keeps only the tail of the
// output, and "1 failed" alone does not say which test to look at.
const failures = [];
// Playwright's messages carry terminal colours.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
// Each step's wall time in the summary, so the CI budget can be watched step by step.
let stepStart = Date.now();
function record(step, passed, failed) {
  const seconds = Math.round((Date.now() - stepStart) / 1000);
  tally.push({ step, passed, failed, seconds });
  stepStart = Date.now();
}
function check(name, ok) {
  record(name, ok ? 1 : 0, ok ? 0 : 1);
}

function vitest(project) {
  const out = join(results, `${project}.json`);
  const ok = run("npx", [
    "vitest",
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${out}`,
  ]);
  let passed = 0;
  let failed = ok ? 0 : 1;
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, "utf8"));
    passed = r.numPassedTests;
    failed = r.numFailedTests + (ok || r.numFailedTests > 0 ? 0 : 1);
    if (r.numTotalTests === 0) failed += 1; // a runner that ran nothing has failed
    // So has a test file that ran nothing: vitest reports a file whose browser iframe never started
    // as "passed" with no tests (it happened when Vite reloaded mid-run: 12 of 14 files).
    failed += (r.testResults ?? []).filter((t) => (t.assertionResults ?? []).length === 0).length;
    for (const file of r.testResults ?? []) {
      const rel = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
      if ((file.assertionResults ?? []).length === 0) failures.push(`${project}: ${rel} (ran no test)`);
      for (const a of file.assertionResults ?? []) {
        if (a.status !== "failed") continue;
        const why = (a.failureMessages ?? [])[0]?.split("\n")[0] ?? "";
        failures.push(`${project}: ${rel} > ${a.fullName}\n    ${why.slice(0, 300)}`);
      }
    }
  }
  record(`vitest ${project}`, passed, failed);
}

/** The benches' smoke run (scripts/bench-smoke.mjs): each of its checks counts as one test. */
function benchSmoke() {
  const out = join(results, "bench-smoke.json");
  rmSync(out, { force: true });
  const ok = run("node", ["scripts/bench-smoke.mjs", `--json=${out}`]);
  let passed = 0;
  let failed = ok ? 0 : 1;
  if (existsSync(out)) {
    const r = JSON.parse(readFileSync(out, "utf8"));
    passed = r.passed;
    failed = r.failed + (ok || r.failed > 0 ? 0 : 1);
    if (r.passed + r.failed === 0) failed += 1;
    for (const c of r.checks ?? [])
      if (!c.ok) failures.push(`bench smoke: ${c.name}: ${(c.problems ?? []).join("; ")}`);
  }
  record("bench smoke", passed, failed);
}

function playwright() {
  const out = join(results, "e2e.json");
  const ok = run("npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: out });
  let passed = 0;
  let failed = ok ? 0 : 1;
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, "utf8"));
    const s = report.stats;
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status !== "unexpected") continue;
          const last = (t.results ?? []).at(-1);
          // The message's first lines name the assertion, the locator and what it found instead.
          const why = (last?.error?.message ?? "")
            .replace(ANSI, "")
            .split("\n")
            .filter((l) => l.trim() !== "")
            .slice(0, 4)
            .join("\n    ");
          failures.push(`e2e: ${spec.file} > ${[...titles, spec.title].join(" > ")}\n    ${why.slice(0, 600)}`);
        }
      }
      for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
    };
    for (const suite of report.suites ?? []) walk(suite, []);
    // The slowest journeys, so a run's log says where E2E time goes.
    const durations = [];
    const time = (suite) => {
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? [])
          for (const r of t.results ?? []) durations.push([r.duration ?? 0, `${spec.file} > ${spec.title}`]);
      for (const child of suite.suites ?? []) time(child);
    };
    for (const suite of report.suites ?? []) time(suite);
    durations.sort((a, b) => b[0] - a[0]);
    console.log(`\nSlowest E2E tests (of ${durations.length}, ${Math.round(s.duration / 1000)} s wall):`);
    for (const [ms, name] of durations.slice(0, 12)) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${name}`);
    passed = s.expected + s.flaky;
    failed = s.unexpected + (ok || s.unexpected > 0 ? 0 : 1);
    if (s.expected + s.unexpected + s.flaky === 0) failed += 1;
  }
  record("playwright e2e", passed, failed);
}

if (!process.argv.includes("--no-install")) {
  try {
    install();
    check("install", true);
  } catch (err) {
    console.error(String(err));
    check("install", false);
  }
}

check("format (prettier)", run("npx", ["prettier", "--check", "."]));
check("types (tsc -b)", run("npx", ["tsc", "-b"]));
check("lint (eslint)", run("npx", ["eslint", ".", "--max-warnings", "0"]));
check("dead code (knip)", run("npx", ["knip", "--no-progress"]));
check("i18n extract", run("npx", ["lingui", "extract", "--clean"]));
vitest("unit");
const built = run("npx", ["vite", "build", "--logLevel", "warn"]);
check("build (vite)", built);
check("size budget", built && run("node", ["scripts/size-budget.mjs"]));
vitest("browser");
playwright();
benchSmoke();

if (failures.length > 0) {
  console.log(`\nFailed tests (${failures.length}):`);
  for (const f of failures) console.log(`- ${f}`);
}
console.log("\nSummary");
console.table(tally);
const passed = tally.reduce((n, t) => n + t.passed, 0);
const failed = tally.reduce((n, t) => n + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
