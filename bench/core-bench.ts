/**
 * `npm run bench`: the market-data core measured side by side with its peers, in one run, on the
 * same frames. Scenarios (fixed list):
 *   updates-5 … updates-1000  per update incl. JSON.parse and a `cs` verification every 10 updates,
 *                             at book depths 5, 25, 100, 250 and 1000 levels a side
 *   checksum-250              one checksum verification (cached, and after a top-of-book change)
 *   snapshot-250              snapshot apply vs JSON.parse of the snapshot alone
 *   memory-250                bytes retained per 250-level book
 *   view-250                  the main thread's cost of receiving one 250-level view
 *   stress                    core time per second of feed at the stress intensities and far beyond,
 *                             and per peer the feed rate (multiple of 60 ms/8) past which it needs
 *                             more than one core (derived from the updates-25 medians)
 *   recording                 the real 2018 recording through the core vs JSON.parse alone
 * Each timing is the median of 7 runs after a warm-up. Raw JSON and a markdown table go to
 * bench/results/ (or BENCH_RESULTS_DIR); report.mjs draws them, readme-tables.mjs puts their tables
 * into bench/README.md. Progress (scenario, round, time left) goes to stderr.
 *
 * `--only=updates-25,updates-250` runs a subset (scenario names as above) and `--reps=N` changes the
 * run count; such partial runs write results/core-<date>-partial.json (git-ignored) and leave core-latest alone.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { newScannedUpdate, OrderBook, STRESS_INTENSITIES } from "../src/protocol/index.ts";
import { generateStream, type GeneratedStream } from "./generator.ts";
import { bfxModels, ccxt, loadCcxt, naive, ours, parseOnly, type Peer, type PeerRun } from "./peers.ts";
import { parseRecording, readRecordingText, sharedBitfinexDir } from "../server/exchange/recordings.ts";
import { FeedCore } from "../src/workers/core/index.ts";
import { loadNow, machineInfo } from "./machine.mjs";
import { createProgress } from "./progress.mjs";

const argValue = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const REPS = Number(argValue("reps") ?? 7);
const ONLY = argValue("only")?.split(",") ?? null;
const wanted = (scenario: string): boolean => ONLY === null || ONLY.includes(scenario);
const quick = process.argv.includes("--quick");
const UPDATES = quick ? 20_000 : 200_000;
/** The book depths of the per-update scenarios (levels a side). */
const DEPTHS = [5, 25, 100, 250, 1000];
/** Fewer updates for the deepest book: the generator's reference model sorts the side per update. */
const updatesFor = (len: number): number => (len >= 1000 && !quick ? UPDATES / 2 : UPDATES);
/** Multiples of the strongest stress intensity (60 ms/8) on the feed-rate curve. */
const RATE_MULTIPLIERS = [1, 3, 10, 30, 100, 300, 1000, 3000, 10000];
const wantedDepths = DEPTHS.filter((len) => wanted(`updates-${len}`));
/**
 * Weights for the time-left estimate, in ~ms as measured on this machine: a round of the peers
 * costs ~15 µs per update over all five; the other scenarios cost about the same whatever --quick.
 */
const ROUND_MS_PER_UPDATE = 0.015;
const OTHER_MS: Record<string, number> = {
  "checksum-250": 12_000,
  "snapshot-250": 12_000,
  "memory-250": 1_000,
  "view-250": 6_000,
  recording: 50_000,
};
const progress = createProgress(
  "core",
  wantedDepths.reduce((n, len) => n + (REPS + 1) * updatesFor(len) * ROUND_MS_PER_UPDATE, 0) +
    Object.entries(OTHER_MS).reduce((n, [name, ms]) => n + (wanted(name) ? ms : 0), 0),
);
/** Runs one of the other scenarios under the progress line. */
function step<T>(name: string, fn: () => T): T {
  progress.begin(name);
  const r = fn();
  progress.advance(OTHER_MS[name] ?? 0);
  return r;
}

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function timeNs(fn: () => void): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0);
}

/** CPU time of this process (user + system), in ns: time spent descheduled does not count. */
function cpuNs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) * 1000;
}

interface PeerResult {
  peer: string;
  /** Median wall-clock ns per update. */
  nsPerUpdate: number;
  runsNs: number[];
  /** Median CPU ns per update (the process's user + system time over the run). */
  cpuNsPerUpdate: number;
  runsCpuNs: number[];
  /** Median over the rounds of (this peer's CPU time / ours) in the same round. */
  ratioVsOurs: number;
  checksums: { ok: number; failed: number };
}

/**
 * Every book the bench makes stays alive to the end. V8 deoptimizes optimized code when an object
 * embedded in it dies, so a book collected by the gc() before the next run took the code
 * specialized on it along: each round then measured re-optimization (measured: ours ~1.8x slower,
 * the peers far less), which a session's one long-lived feed never pays.
 */
const keptRuns: PeerRun[] = [];

/**
 * Rounds of every peer one after another (round 0 warms the JIT), so a busy spell on the shared
 * machine falls on all peers alike rather than on whichever peer ran then; ratios are taken per
 * round, from CPU time, and their median reported.
 */
function measureUpdates(stream: GeneratedStream, peers: Peer[]): PeerResult[] {
  const wall = peers.map((): number[] => []);
  const cpu = peers.map((): number[] => []);
  const checks = peers.map(() => ({ ok: 0, failed: 0 }));
  for (let rep = 0; rep <= REPS; rep++) {
    progress.begin(`updates-${stream.len} · round ${rep === 0 ? "warm-up" : `${rep}/${REPS}`}`);
    peers.forEach((peer, p) => {
      const book = peer.create(stream);
      keptRuns.push(book);
      gc();
      let result = { ok: 0, failed: 0 };
      const c0 = cpuNs();
      const ns = timeNs(() => {
        result = book.run(stream.frames);
      });
      const c = cpuNs() - c0;
      if (rep > 0) {
        wall[p]!.push(ns / stream.updates);
        cpu[p]!.push(c / stream.updates);
      }
      checks[p] = result;
    });
    progress.advance(stream.updates * ROUND_MS_PER_UPDATE);
  }
  return peers.map((peer, p) => ({
    peer: peer.name,
    nsPerUpdate: median(wall[p]!),
    runsNs: wall[p]!,
    cpuNsPerUpdate: median(cpu[p]!),
    runsCpuNs: cpu[p]!,
    ratioVsOurs: median(cpu[p]!.map((c, r) => c / cpu[0]![r]!)),
    checksums: checks[p]!,
  }));
}

function measureChecksum(): Record<string, number> {
  const stream = generateStream({ seed: 7, len: 250, updates: 10, csEvery: 10 });
  const book = new OrderBook({ kind: "price", len: 250 });
  book.applySnapshot((JSON.parse(stream.snapshot) as [number, unknown])[1]);
  const N = 200_000;
  const cached: number[] = [];
  const afterChange: number[] = [];
  const top = book.bids.k1[0] as number;
  let sink = 0;
  for (let rep = 0; rep <= REPS; rep++) {
    const a = timeNs(() => {
      for (let i = 0; i < N; i++) sink ^= book.checksum();
    });
    const b = timeNs(() => {
      for (let i = 0; i < N; i++) {
        book.applyPrice(top, 1 + (i & 3), 1 + (i & 7) / 8);
        sink ^= book.checksum();
      }
    });
    if (rep > 0) {
      cached.push(a / N);
      afterChange.push(b / N);
    }
  }
  const { OrderBook: BfxOB } = bfxRequire();
  const bfx = new BfxOB((JSON.parse(stream.snapshot) as [number, number[][]])[1], false);
  const peerRuns: number[] = [];
  for (let rep = 0; rep <= REPS; rep++) {
    const M = 20_000;
    const ns = timeNs(() => {
      for (let i = 0; i < M; i++) sink ^= bfx.checksum();
    });
    if (rep > 0) peerRuns.push(ns / M);
  }
  if (sink === 0.5) process.stdout.write("");
  return {
    oursCachedNs: median(cached),
    oursAfterTopChangeNs: median(afterChange),
    bfxModelsNs: median(peerRuns),
  };
}

function bfxRequire(): { OrderBook: new (s: number[][], raw: boolean) => { checksum(): number } } {
  return peerRequire("bfx-api-node-models") as {
    OrderBook: new (s: number[][], raw: boolean) => { checksum(): number };
  };
}

import { createRequire } from "node:module";
const peerRequire = createRequire(
  join(process.env["ENTRY_DIR"] ?? new URL(".", import.meta.url).pathname, "package.json"),
);

function measureSnapshot(): Record<string, number> {
  const stream = generateStream({ seed: 11, len: 250, updates: 0, csEvery: 10 });
  const text = stream.snapshot;
  const N = 2000;
  const parse: number[] = [];
  const apply: number[] = [];
  const book = new OrderBook({ kind: "price", len: 250 });
  for (let rep = 0; rep <= REPS; rep++) {
    const p = timeNs(() => {
      for (let i = 0; i < N; i++) JSON.parse(text);
    });
    const a = timeNs(() => {
      for (let i = 0; i < N; i++) book.applySnapshot((JSON.parse(text) as [number, unknown])[1]);
    });
    if (rep > 0) {
      parse.push(p / N);
      apply.push(a / N);
    }
  }
  // Ours as the feed runs it: the snapshot frame text scanned straight into the book.
  const scanned: number[] = [];
  const u = newScannedUpdate();
  const start = text.indexOf(",") + 1;
  for (let rep = 0; rep <= REPS; rep++) {
    const a = timeNs(() => {
      for (let i = 0; i < N; i++) book.applySnapshotText(text, start, u);
    });
    if (rep > 0) scanned.push(a / N);
  }
  return {
    jsonParseNs: median(parse),
    parsePlusApplyNs: median(apply),
    scannedApplyNs: median(scanned),
    ratio: median(scanned) / median(parse),
  };
}

function measureMemory(): Record<string, number> {
  const stream = generateStream({ seed: 13, len: 250, updates: 0, csEvery: 10 });
  const snap = (JSON.parse(stream.snapshot) as [number, unknown])[1];
  const N = 400;
  gc();
  const before = process.memoryUsage();
  const books: OrderBook[] = [];
  for (let i = 0; i < N; i++) {
    const b = new OrderBook({ kind: "price", len: 250 });
    b.applySnapshot(snap);
    b.checksum(); // fill the token cache, as a live book has it
    books.push(b);
  }
  gc();
  const after = process.memoryUsage();
  const heap = after.heapUsed - before.heapUsed;
  const buffers = after.arrayBuffers - before.arrayBuffers;
  const perBook = (heap + buffers) / books.length;
  return {
    bytesPerBook: Math.round(perBook),
    heapBytesPerBook: Math.round(heap / N),
    arrayBufferBytesPerBook: Math.round(buffers / N),
  };
}

function measureView(): Record<string, number> {
  // A 250-level-per-side view as the worker publishes it (price, count, amount, cumulative per level)
  // against the same data as an array of objects. structuredClone is postMessage's serializer.
  const levels = 500;
  const typed = new Float64Array(levels * 4);
  for (let i = 0; i < typed.length; i++) typed[i] = 30000 + i * 0.1;
  const objects = Array.from({ length: levels }, (_, i) => ({
    price: 30000 + i,
    count: 3,
    amount: 1.5,
    total: i * 1.5,
  }));
  const N = 5000;
  const t: number[] = [];
  const o: number[] = [];
  let sink = 0;
  for (let rep = 0; rep <= REPS; rep++) {
    const a = timeNs(() => {
      for (let i = 0; i < N; i++) sink += structuredClone(typed).length;
    });
    const b = timeNs(() => {
      for (let i = 0; i < N; i++) sink += structuredClone(objects).length;
    });
    if (rep > 0) {
      t.push(a / N);
      o.push(b / N);
    }
  }
  if (sink < 0) process.stdout.write("");
  return { typedArrayViewNs: median(t), arrayOfObjectsNs: median(o) };
}

function measureRecording(): Record<string, number> | null {
  const shared = sharedBitfinexDir();
  if (!shared) return null;
  const rec = parseRecording(
    readRecordingText(join(shared, "recordings", "marfusios__bitfinex_raw_2018-11-12.txt.gz")),
  );
  const texts = rec.items.flatMap((i) => (i.kind === "frame" ? [i.text] : []));
  const core: number[] = [];
  const parse: number[] = [];
  for (let rep = 0; rep <= 3; rep++) {
    const feed = new FeedCore({ send: () => {}, now: () => 0 });
    feed.onOpen();
    gc();
    const a = timeNs(() => {
      for (const t of texts) feed.onMessage(t);
    });
    const b = timeNs(() => {
      for (const t of texts) JSON.parse(t);
    });
    if (rep > 0) {
      core.push(a / texts.length);
      parse.push(b / texts.length);
    }
  }
  return { frames: texts.length, coreNsPerFrame: median(core), jsonParseNsPerFrame: median(parse) };
}

async function main(): Promise<void> {
  await loadCcxt();
  const peers = [ours, bfxModels, ccxt, naive, parseOnly];
  const loadBefore = loadNow();
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: (await import("node:os")).cpus().map((c) => c.model)[0],
    reps: REPS,
    updates: UPDATES,
    quick,
    depths: wantedDepths,
  };
  const table: string[] = [];
  for (const len of wantedDepths) {
    const stream = generateStream({ seed: len, len, updates: updatesFor(len), csEvery: 10 });
    const rows = measureUpdates(stream, peers);
    results[`updates-${len}`] = { updates: stream.updates, checksums: stream.checksums, rows };
    table.push(
      `\n### updates-${len} (${stream.updates} updates, a cs every 10)\n`,
      "| peer | CPU ns/update (median) | wall ns/update (median) | updates/s (CPU) | ratio vs ours (median of rounds) | checksums ok/failed |",
      "|---|---:|---:|---:|---:|---:|",
    );
    for (const r of rows) {
      table.push(
        `| ${r.peer} | ${r.cpuNsPerUpdate.toFixed(0)} | ${r.nsPerUpdate.toFixed(0)} | ${(1e9 / r.cpuNsPerUpdate).toExponential(2)} | ${r.ratioVsOurs.toFixed(2)}x | ${r.checksums.ok}/${r.checksums.failed} |`,
      );
    }
  }
  if (wanted("checksum-250")) {
    const cs = step("checksum-250", measureChecksum);
    results["checksum-250"] = cs;
    table.push(
      "\n### checksum-250\n",
      "| measure | ns |",
      "|---|---:|",
      `| ours, no change since last | ${cs["oursCachedNs"]?.toFixed(0)} |`,
      `| ours, after a top-of-book change (incl. the update) | ${cs["oursAfterTopChangeNs"]?.toFixed(0)} |`,
      `| bfx-api-node-models checksum() | ${cs["bfxModelsNs"]?.toFixed(0)} |`,
    );
  }
  if (wanted("snapshot-250")) {
    const snap = step("snapshot-250", measureSnapshot);
    results["snapshot-250"] = snap;
    table.push(
      "\n### snapshot-250\n",
      `JSON.parse alone ${snap["jsonParseNs"]?.toFixed(0)} ns; ours (scanned into the book) ${snap["scannedApplyNs"]?.toFixed(0)} ns, ratio ${snap["ratio"]?.toFixed(2)}x; JSON.parse + apply ${snap["parsePlusApplyNs"]?.toFixed(0)} ns`,
    );
  }
  if (wanted("memory-250")) {
    const mem = step("memory-250", measureMemory);
    results["memory-250"] = mem;
    table.push(
      "\n### memory-250\n",
      `${mem["bytesPerBook"]} bytes retained per 250-level book (heap ${mem["heapBytesPerBook"]}, array buffers ${mem["arrayBufferBytesPerBook"]})`,
    );
  }
  if (wanted("view-250")) {
    const view = step("view-250", measureView);
    results["view-250"] = view;
    table.push(
      "\n### view-250 (structuredClone, postMessage's serializer, in Node)\n",
      `typed-array view ${view["typedArrayViewNs"]?.toFixed(0)} ns; array of objects ${view["arrayOfObjectsNs"]?.toFixed(0)} ns`,
    );
  }
  if (wanted("stress") && results["updates-25"]) {
    const u25 = (results["updates-25"] as { rows: PeerResult[] }).rows;
    const stress: Record<string, unknown>[] = [];
    table.push(
      "\n### stress (core ms per second of feed, 25 levels; derived from updates-25 medians)\n",
      "| intensity | ×1 | ×10 | ×100 | ×1000 | ×10000 | bfx-api-node-models ×1000 |",
      "|---|---:|---:|---:|---:|---:|---:|",
    );
    for (const it of STRESS_INTENSITIES) {
      const rate = (it.count * 1000) / it.intervalMs;
      const cost = (mult: number, ns: number): number => (rate * mult * ns) / 1e6;
      const oursNs = u25[0]?.cpuNsPerUpdate ?? 0;
      const bfxNs = u25[1]?.cpuNsPerUpdate ?? 0;
      const row = [1, 10, 100, 1000, 10000].map((m) => cost(m, oursNs));
      stress.push({
        intervalMs: it.intervalMs,
        count: it.count,
        updatesPerSecond: rate,
        oursMsPerSecond: row,
        bfxMsPerSecondX1000: cost(1000, bfxNs),
      });
      table.push(
        `| ${it.intervalMs} ms/${it.count} | ${row.map((v) => v.toFixed(3)).join(" | ")} | ${cost(1000, bfxNs).toFixed(1)} |`,
      );
    }
    results["stress"] = stress;
    // The feed-rate curve: CPU ms per second of feed for every peer at 1x…10 000x 60 ms/8 on a
    // 25-level book, and the multiple past which a peer needs more than one core (1000 ms a second)
    // and so falls behind the feed, whatever else the machine does.
    const strongest = STRESS_INTENSITIES.at(-1);
    if (strongest) {
      const rate = (strongest.count * 1000) / strongest.intervalMs;
      const curves = u25
        .filter((r) => !r.peer.startsWith("JSON.parse"))
        .map((r) => ({
          peer: r.peer,
          msPerSecond: RATE_MULTIPLIERS.map((m) => (rate * m * r.cpuNsPerUpdate) / 1e6),
          fallsOverAtMultiple: 1e9 / (rate * r.cpuNsPerUpdate),
        }));
      results["rate-25"] = { updatesPerSecondAt1x: rate, multipliers: RATE_MULTIPLIERS, curves };
      table.push(
        `\n### feed rate (25 levels; CPU ms per second of feed at multiples of ${strongest.intervalMs} ms/${strongest.count}, derived from updates-25)\n`,
        `| peer | ${RATE_MULTIPLIERS.map((m) => `×${m}`).join(" | ")} | needs a whole core past |`,
        `|---|${RATE_MULTIPLIERS.map(() => "---:").join("|")}|---:|`,
        ...curves.map(
          (c) =>
            `| ${c.peer} | ${c.msPerSecond.map((v) => (v < 10 ? v.toFixed(2) : v.toFixed(0))).join(" | ")} | ×${c.fallsOverAtMultiple.toFixed(0)} |`,
        ),
      );
    }
  }
  if (wanted("recording")) {
    const rec = step("recording", measureRecording);
    results["recording"] = rec ?? "skipped: ../shared/bitfinex not found";
    if (rec) {
      table.push(
        "\n### recording (marfusios 2018-11-12, real tBTCUSD book + trades)\n",
        `${rec["frames"]} frames: core ${rec["coreNsPerFrame"]?.toFixed(0)} ns/frame, JSON.parse alone ${rec["jsonParseNsPerFrame"]?.toFixed(0)} ns/frame`,
      );
    }
  }
  progress.end();
  results["machine"] = { ...machineInfo(), loadBefore, loadAfter: loadNow() };
  const dir =
    process.env["BENCH_RESULTS_DIR"] ??
    join(process.env["ENTRY_DIR"] ?? new URL(".", import.meta.url).pathname, "results");
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  if (ONLY !== null || REPS !== 7) {
    results["only"] = ONLY;
    writeFileSync(join(dir, `core-${stamp}-partial.json`), `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${table.join("\n")}\n\nPartial run written to ${join(dir, `core-${stamp}-partial.json`)}\n`);
    return;
  }
  writeFileSync(join(dir, `core-${stamp}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(dir, "core-latest.json"), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(dir, "core-latest.md"), `# Core bench ${results["date"] as string}\n${table.join("\n")}\n`);
  process.stdout.write(`${table.join("\n")}\n\nResults written to ${join(dir, `core-${stamp}.json`)}\n`);
}

void main();
