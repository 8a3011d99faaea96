/**
 * `npm run bench -- --compare REF`: our core at two versions, the working tree (head) and REF
 * (base), measured in one process, round by round, on the same frames: each round runs both
 * versions at every book depth, the order alternating between rounds (base first in odd rounds,
 * head first in even ones), round 0 a warm-up that does not count. Per depth the figure is CPU ns per
 * update (parse, apply, a `cs` verified every 10 updates), as in core-bench.ts; the ratio head/base
 * and its bootstrap interval come from ab-stats.ts.
 *
 * Both versions are bundles of ab-variant.ts built by compare.mjs (one from each tree's `src/`), given
 * here as --base=FILE and --head=FILE; the harness (this file, the generator, the statistics) is this
 * checkout's for both. BENCH_SLOWDOWN=N adds N rounds of integer work per frame to head only (the
 * test-only slowdown an A/B run must detect).
 *
 * Writes results/ab-core-<date>.json and results/ab-core-latest.json (or under BENCH_RESULTS_DIR).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { compareRounds, levelFor, roundsFor, verdictText, type Comparison } from "./ab-stats.ts";
import type { VariantRun } from "./ab-variant.ts";
import { generateStream, type GeneratedStream } from "./generator.ts";
import { loadNow, machineInfo } from "./machine.mjs";
import { createProgress } from "./progress.mjs";

const argValue = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const quick = process.argv.includes("--quick");
const DEPTHS = (argValue("depths") ?? "5,25,100,250,1000").split(",").map(Number);
const SLOWDOWN = Number(process.env["BENCH_SLOWDOWN"] ?? 0);
const LEVEL = levelFor(DEPTHS.length);
const ROUNDS = Number(argValue("rounds") ?? (quick ? roundsFor(LEVEL) + 2 : 15));

/** Fewer updates for the deepest book: the generator's reference model sorts the side per update. */
function updatesFor(len: number): number {
  if (quick) return 20_000;
  return len >= 1000 ? 100_000 : 200_000;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function cpuNs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) * 1000;
}

interface Variant {
  createOurs(stream: GeneratedStream, options?: { extraWork?: number }): VariantRun;
}

interface SideRuns {
  cpu: number[];
  wall: number[];
  checksums: { ok: number; failed: number };
}

/** Every book stays alive to the end, as in core-bench.ts (a dead book deoptimizes the code). */
const kept: VariantRun[] = [];

function runOnce(
  variant: Variant,
  stream: GeneratedStream,
  extraWork: number,
): { cpu: number; wall: number; ok: number; failed: number } {
  const book = variant.createOurs(stream, { extraWork });
  kept.push(book);
  gc();
  const c0 = cpuNs();
  const t0 = process.hrtime.bigint();
  const r = book.run(stream.frames);
  const wall = Number(process.hrtime.bigint() - t0);
  const cpu = cpuNs() - c0;
  return { cpu: cpu / stream.updates, wall: wall / stream.updates, ok: r.ok, failed: r.failed };
}

async function main(): Promise<void> {
  const basePath = argValue("base");
  const headPath = argValue("head");
  if (!basePath || !headPath) throw new Error("usage: core-ab.ts --base=FILE.mjs --head=FILE.mjs [--depths=25,250]");
  const meta = JSON.parse(process.env["BENCH_AB_META"] ?? "{}") as Record<string, unknown>;
  const loadBefore = loadNow();
  const base = (await import(pathToFileURL(basePath).href)) as Variant;
  const head = (await import(pathToFileURL(headPath).href)) as Variant;
  const streams = DEPTHS.map((len) => generateStream({ seed: len, len, updates: updatesFor(len), csEvery: 10 }));
  const empty = (): SideRuns => ({ cpu: [], wall: [], checksums: { ok: 0, failed: 0 } });
  const runs = streams.map(() => ({ base: empty(), head: empty() }));
  // Weight of a step: its updates, times 2 sides.
  const total = (ROUNDS + 1) * streams.reduce((n, s) => n + 2 * s.updates, 0);
  const progress = createProgress("core A/B", total);
  for (let round = 0; round <= ROUNDS; round++) {
    streams.forEach((stream, d) => {
      progress.begin(`updates-${stream.len} · round ${round === 0 ? "warm-up" : `${round}/${ROUNDS}`}`);
      const order: ("base" | "head")[] = round % 2 === 1 ? ["base", "head"] : ["head", "base"];
      for (const side of order) {
        const r = runOnce(side === "base" ? base : head, stream, side === "head" ? SLOWDOWN : 0);
        const into = runs[d]![side];
        into.checksums.ok += r.ok;
        into.checksums.failed += r.failed;
        if (round > 0) {
          into.cpu.push(r.cpu);
          into.wall.push(r.wall);
        }
        progress.advance(stream.updates);
      }
    });
  }
  progress.end();
  const loadAfter = loadNow();
  const figures = streams.map((stream, d) => {
    const r = runs[d]!;
    const comparison: Comparison = compareRounds(r.base.cpu, r.head.cpu, { level: LEVEL, seed: stream.len });
    return {
      name: `updates-${stream.len}`,
      depth: stream.len,
      measure: "ours CPU ns/update",
      updates: stream.updates,
      base: r.base,
      head: r.head,
      comparison,
      verdict: verdictText(comparison),
    };
  });
  const result = {
    kind: "core-ab",
    date: new Date().toISOString(),
    machine: { ...machineInfo(), loadBefore, loadAfter },
    base: meta["base"] ?? { path: basePath },
    head: { ...((meta["head"] as object | undefined) ?? { path: headPath }), slowdown: SLOWDOWN },
    note: meta["note"] ?? null,
    rounds: ROUNDS,
    level: LEVEL,
    quick,
    figures,
  };
  const dir = process.env["BENCH_RESULTS_DIR"] ?? join(process.env["ENTRY_DIR"] ?? ".", "results");
  mkdirSync(dir, { recursive: true });
  const stamp = result.date.replace(/[:.]/g, "-");
  const text = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(join(dir, `ab-core-${stamp}.json`), text);
  writeFileSync(join(dir, "ab-core-latest.json"), text);
  process.stdout.write(`\n${abCoreTable(result)}\n\nWritten to ${join(dir, `ab-core-${stamp}.json`)}\n`);
}

function abCoreTable(result: {
  base: unknown;
  head: unknown;
  rounds: number;
  level: number;
  machine: { loadBefore: number[]; loadAfter: number[] };
  figures: { name: string; comparison: Comparison; verdict: string; base: SideRuns; head: SideRuns }[];
}): string {
  const b = result.base as { short?: string };
  const h = result.head as { short?: string; dirty?: boolean; slowdown?: number };
  const f0 = (x: number): string => (Number.isFinite(x) ? x.toFixed(0) : "—");
  const lines = [
    `### Core A/B: head ${h.short ?? "?"}${h.dirty ? " + uncommitted changes" : ""}${h.slowdown ? ` (BENCH_SLOWDOWN=${h.slowdown})` : ""} vs base ${b.short ?? "?"}, ${result.rounds} interleaved rounds, load ${result.machine.loadBefore[0]} → ${result.machine.loadAfter[0]}`,
    "",
    "| scenario | base CPU ns/update, median (min–max) | head, median (min–max) | head/base (median of rounds) | CI | verdict | checksums ok/failed (base, head) |",
    "|---|---:|---:|---:|---:|---|---|",
  ];
  for (const f of result.figures) {
    const c = f.comparison;
    lines.push(
      `| ${f.name} | ${f0(c.base.median)} (${f0(c.base.min)}–${f0(c.base.max)}) | ${f0(c.head.median)} (${f0(c.head.min)}–${f0(c.head.max)}) | ${c.ratio.toFixed(3)} | ${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)} (${+(c.level * 100).toFixed(2)}%) | ${f.verdict} | ${f.base.checksums.ok}/${f.base.checksums.failed}, ${f.head.checksums.ok}/${f.head.checksums.failed} |`,
    );
  }
  return lines.join("\n");
}

await main();
