/**
 * bench/README.md's tables of figures are generated from the results, never typed: each sits
 * between `<!-- begin generated:NAME -->` and `<!-- end generated:NAME -->`, and this script rewrites
 * every such block from the latest results (report.mjs calls it after every run that is not a
 * --quick one; `node bench/readme-tables.mjs` does it by hand). Blocks:
 *   report   the link to the latest HTML report
 *   core     per-update cost of ours and the peers at every depth (results/core-latest.json)
 *   rate     the feed-rate curve and where each peer needs more than a core
 *   ui       the desk scenarios (results/ui-latest.json)
 *   peers    the books side by side, and the books-on-screen curve
 * `node bench/readme-tables.mjs --ab=FILE.json` prints the markdown of one A/B result (to quote a
 * dated comparison in the README, as its "Refactor A/B" section does, in a block named ab:<file>).
 * The file is formatted with the repository's Prettier settings, as `npm test` checks it.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join, relative } from "node:path";

const BENCH = new URL(".", import.meta.url).pathname;
const README = join(BENCH, "README.md");
const RESULTS = join(BENCH, "results");

const n0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : "—");
const n1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "—");
const load = (m) =>
  m?.loadBefore ? `load average ${m.loadBefore[0]} before, ${m.loadAfter?.[0] ?? "?"} after` : "load not recorded";
const machine = (m, chromium) =>
  m
    ? `${m.cpu}, ${m.cores} cores, Node ${m.node.replace(/^v/, "")}${chromium ? `, Chromium ${chromium}` : ""}, commit ${m.commit}${m.dirty ? " + uncommitted changes" : ""}, ${load(m)}`
    : "machine not recorded";

/** The machine of an A/B run: its commits are the two sides, named already. */
const abMachine = (m) =>
  m
    ? `${m.cpu}, ${m.cores} cores, Node ${m.node.replace(/^v/, "")}${m.chromium ? `, Chromium ${m.chromium}` : ""}, ${load(m)}`
    : "machine not recorded";

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
}

export function coreTable(core) {
  const depths = (core.depths ?? [25, 250]).filter((d) => core[`updates-${d}`]);
  const peers = core[`updates-${depths[0]}`].rows.map((r) => r.peer);
  const lines = [
    `\`results/core-latest.json\`, ${core.date}${core.quick ? " (**quick run**)" : ""}: ${machine(core.machine)}. CPU ns per update (parse, apply, a \`cs\` verified every 10 updates), median of ${core.reps} rounds; in brackets the ratio to ours, median of the per-round ratios.`,
    "",
    `| peer | ${depths.map((d) => `${d} levels`).join(" | ")} |`,
    `| --- | ${depths.map(() => "---:").join(" | ")} |`,
  ];
  for (const p of peers)
    lines.push(
      `| ${p} | ${depths
        .map((d) => {
          const r = core[`updates-${d}`].rows.find((x) => x.peer === p);
          if (!r) return "—";
          const cell =
            p === peers[0] ? `**${n0(r.cpuNsPerUpdate)}**` : `${n0(r.cpuNsPerUpdate)} (${r.ratioVsOurs.toFixed(1)}x)`;
          return r.checksums.failed ? `${cell}, ${r.checksums.failed} cs failed` : cell;
        })
        .join(" | ")} |`,
    );
  return lines.join("\n");
}

export function rateTable(core) {
  const r = core["rate-25"];
  if (!r) return "_No feed-rate curve in the latest core results._";
  return [
    `CPU ms per second of feed on a 25-level book at multiples of 60 ms/8 (${r.updatesPerSecondAt1x.toFixed(1)} updates/s), derived from the same run's per-update medians; past the last column's multiple a peer needs more than a whole core and falls behind the feed.`,
    "",
    `| peer | ${r.multipliers.map((m) => `×${m}`).join(" | ")} | falls over past |`,
    `| --- | ${r.multipliers.map(() => "---:").join(" | ")} | ---: |`,
    ...r.curves.map(
      (c) =>
        `| ${c.peer} | ${c.msPerSecond.map((v) => (v < 10 ? v.toFixed(2) : v.toFixed(0))).join(" | ")} | ×${c.fallsOverAtMultiple.toFixed(0)} |`,
    ),
  ].join("\n");
}

export function uiTable(ui) {
  const meta = ui.meta ?? {};
  return [
    `\`results/ui-latest.json\`, ${meta.date ?? "?"}${meta.quick ? " (**quick run**)" : ""}: ${machine(meta.machine, meta.chromium)}; ${(meta.warmupMs ?? 0) / 1000} s warm-up + ${(meta.measureMs ?? 0) / 1000} s measured per scenario.`,
    "",
    "| scenario | frames | frame p50 / p99 / max ms | frames > 25 ms | long tasks | update→paint p50 / p99 / max ms | view→frame end p50 / p99 / max ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...ui.results.map(
      (r) =>
        `| ${r.scenario} | ${r.frames} | ${n1(r.frameP50)} / ${n1(r.frameP99)} / ${n1(r.frameMax)} | ${r.framesMissed ?? "—"} | ${r.longTasks} | ${n0(r.latencyP50)} / ${n0(r.latencyP99)} / ${n0(r.latencyMax)} | ${n0(r.viewToFrameP50)} / ${n0(r.viewToFrameP99)} / ${n0(r.viewToFrameMax)} |`,
    ),
  ].join("\n");
}

export function peersTable(ui) {
  const side = ui.peers;
  if (!side?.summary) return "_No side-by-side results._";
  const lines = [
    `\`results/ui-latest.json\` → \`peers\`, ${side.meta.date}: medians over ${side.meta.rounds} interleaved round(s) of ${side.meta.measureMs / 1000} s after ${side.meta.warmupMs / 1000} s warm-up; ${machine(side.meta.machine, side.meta.chromium)}.`,
    "",
    "| scenario | book | frames | frame p50 ms | p99 ms | long tasks | view→frame end p50 ms | p99 ms | views painted |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const row of side.summary) {
    let first = true;
    for (const [id, m] of Object.entries(row.impls)) {
      lines.push(
        `| ${first ? row.scenario : ""} | ${id} | ${n0(m.frames)} | ${n1(m.frameP50)} | ${n1(m.frameP99)} | ${n0(m.longTasks)} | ${n0(m.viewToFrameP50)} | ${n0(m.viewToFrameP99)} | ${n0(m.paintedViews)} |`,
      );
      first = false;
    }
  }
  const x = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "n/0");
  lines.push(
    "",
    "Ratios, peer / orderflow (medians; above 1 the peer is slower or has more; n/0: ours had none):",
    "",
    "| scenario | peer | frame p50 | frame p99 | long tasks | view→frame end p50 | p99 | views painted |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const row of side.summary) {
    let first = true;
    for (const [name, q] of Object.entries(row.ratios ?? {})) {
      lines.push(
        `| ${first ? row.scenario : ""} | ${name.replace("/orderflow", "")} | ${x(q.frameP50)} | ${x(q.frameP99)} | ${x(q.longTasks)} | ${x(q.viewToFrameP50)} | ${x(q.viewToFrameP99)} | ${x(q.paintedViews)} |`,
      );
      first = false;
    }
  }
  const sc = side.scaling;
  if (sc) {
    lines.push(
      "",
      `Books on screen at ${sc.scenario} (frame p50 / p99 ms; "falls over" = the fewest books with a frame p99 over 25 ms, i.e. missed frames):`,
      "",
      `| book | ${sc.books.map((b) => `${b} book${b > 1 ? "s" : ""}`).join(" | ")} | falls over at |`,
      `| --- | ${sc.books.map(() => "---:").join(" | ")} | --- |`,
      ...Object.entries(sc.impls).map(
        ([id, m]) =>
          `| ${id} | ${m.points.map((p) => `${n1(p.frameP50)} / ${n1(p.frameP99)}`).join(" | ")} | ${m.fallsOverAt ? `**${m.fallsOverAt} books**` : `holds up to ${sc.books.at(-1)}`} |`,
      ),
    );
  }
  return lines.join("\n");
}

/** The markdown of one A/B result file: what was compared, on what, and every figure's verdict. */
export function abTable(ab, file) {
  const digits = ab.kind === "core-ab" ? n0 : n1;
  const what = ab.kind === "core-ab" ? "Core A/B, ours CPU ns per update" : "Desk A/B in Chromium, ms";
  return [
    `${what}: head ${ab.head.short}${ab.head.dirty ? " + uncommitted changes" : ""}${ab.head.slowdown ? ` with BENCH_SLOWDOWN=${ab.head.slowdown}` : ""} vs base ${ab.base.short} (\`${file}\`, ${ab.date}${ab.quick ? ", --quick" : ""}); ${ab.rounds} interleaved rounds, ${+(ab.level * 100).toFixed(2)}% bootstrap intervals; ${abMachine(ab.machine)}.`,
    "",
    "| figure | base median (min–max) | head median (min–max) | head/base | interval | verdict |",
    "| --- | ---: | ---: | ---: | ---: | --- |",
    ...ab.figures.map((f) => {
      const c = f.comparison;
      const verdict = c.verdict === "no change beyond noise" ? "no change beyond noise" : `**${c.verdict}**`;
      return `| ${f.name} | ${digits(c.base.median)} (${digits(c.base.min)}–${digits(c.base.max)}) | ${digits(c.head.median)} (${digits(c.head.min)}–${digits(c.head.max)}) | ${c.ratio.toFixed(3)} | ${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)} | ${verdict} |`;
    }),
  ].join("\n");
}

function newestReport() {
  if (!existsSync(RESULTS)) return null;
  const reports = readdirSync(RESULTS)
    .filter((f) => /^report-.*\.html$/.test(f))
    .sort();
  return reports.at(-1) ?? null;
}

/** Replaces the body of every generated block it has figures for. */
export function renderReadme(text, blocks) {
  return text.replace(
    /(<!-- begin generated:([\w:./-]+) -->)([\s\S]*?)(<!-- end generated:\2 -->)/g,
    (whole, open, name, _body, close) =>
      blocks[name] === undefined ? whole : `${open}\n\n${blocks[name]}\n\n${close}`,
  );
}

export async function updateReadme(options = {}) {
  const core = readJson(join(RESULTS, "core-latest.json"));
  const ui = readJson(join(RESULTS, "ui-latest.json"));
  const blocks = {};
  const report = options.report ? basename(options.report) : newestReport();
  if (report)
    blocks["report"] =
      `**Latest report: [\`results/${report}\`](results/${report})** (open it in a browser: self-contained, charts drawn with uPlot inlined).`;
  if (core) {
    blocks["core"] = coreTable(core);
    blocks["rate"] = rateTable(core);
  }
  if (ui?.results?.length) blocks["ui"] = uiTable(ui);
  if (ui?.peers) blocks["peers"] = peersTable(ui);
  const text = readFileSync(README, "utf8");
  // Quoted A/B results: a block named ab:<results file> is rendered from that file.
  for (const m of text.matchAll(/<!-- begin generated:ab:([\w./-]+) -->/g)) {
    const ab = readJson(join(RESULTS, m[1]));
    if (ab) blocks[`ab:${m[1]}`] = abTable(ab, `results/${m[1]}`);
  }
  const prettier = await import("prettier");
  const config = (await prettier.resolveConfig(README)) ?? {};
  const next = await prettier.format(renderReadme(text, blocks), { ...config, filepath: README });
  if (next !== text) writeFileSync(README, next);
  return relative(process.cwd(), README);
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const ab = process.argv.find((a) => a.startsWith("--ab="))?.slice(5);
  if (ab) {
    const file = join(RESULTS, basename(ab));
    process.stdout.write(`${abTable(readJson(file), `results/${basename(ab)}`)}\n`);
  } else process.stdout.write(`${await updateReadme()}\n`);
}
