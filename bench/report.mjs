/**
 * The HTML report of a bench run: one self-contained file (results/report-<date>.html) with the
 * figures of the latest results, drawn with uPlot inlined (its script and CSS are copied into the
 * page: no network, opens from disk). Sections, each from its own results file, each with the date
 * and machine it was measured on:
 *   - per-update cost of ours and each peer across book depths (core-latest.json);
 *   - the feed-rate curve, 1x–10 000x 60 ms/8, and where each peer needs more than a core;
 *   - the desk's frame times, update→paint and view→frame end per scenario, as CDFs (ui-latest.json);
 *   - the books-on-screen curve (1, 4, 8, 16) of ours and the peer, with where each falls over;
 *   - the A/B comparisons written by this run (ab-core-latest.json, ab-ui-latest.json);
 *   - the machine: CPU, cores, load before and after, Node, Chromium, commit.
 * `node bench/report.mjs [--ab=FILE.json,…]` writes a report of whatever results are there (with
 * those A/B results, by default the latest of each kind); the benches call
 * writeReport() at the end of a run, and it rewrites README's generated tables (readme-tables.mjs).
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { machineInfo } from "./machine.mjs";
import { updateReadme } from "./readme-tables.mjs";

const BENCH = new URL(".", import.meta.url).pathname;
const require = createRequire(join(BENCH, "..", "package.json"));

export function resultsDir() {
  return process.env["BENCH_RESULTS_DIR"] ?? join(BENCH, "results");
}

function readJson(dir, name) {
  const file = join(dir, name);
  if (!existsSync(file)) return null;
  try {
    return { ...JSON.parse(readFileSync(file, "utf8")), __mtimeMs: statSync(file).mtimeMs };
  } catch {
    return null;
  }
}

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const num = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "—");

function machineRows(m, extra = {}) {
  if (!m) return "<p class=note>machine not recorded (results from before issue 17)</p>";
  const rows = {
    CPU: `${m.cpu} (${m.cores} cores)`,
    "load average (1, 5, 15 min) before": m.loadBefore?.join(", ") ?? m.load?.join(", ") ?? "—",
    "load average after": m.loadAfter?.join(", ") ?? "—",
    Node: m.node,
    Chromium: m.chromium ?? extra.chromium ?? "—",
    commit: `${m.commit}${m.dirty ? " + uncommitted changes" : ""}`,
  };
  return `<table class=machine>${Object.entries(rows)
    .map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`)
    .join("")}</table>`;
}

/** The chart specs the page draws: {id, title, x, y, logX, logY, xs, series: [{label, ys}]}. */
function coreSection(core, charts) {
  if (!core)
    return "<section><h2>Core: per-update cost</h2><p class=note>no core results (npm run bench)</p></section>";
  const depths = (core.depths ?? [25, 250]).filter((d) => core[`updates-${d}`]);
  const peers = core[`updates-${depths[0]}`]?.rows.map((r) => r.peer) ?? [];
  const cost = (peer, d) => core[`updates-${d}`]?.rows.find((r) => r.peer === peer)?.cpuNsPerUpdate ?? null;
  charts.push({
    id: "core-depth",
    title: "CPU ns per update vs book depth (levels a side; log–log)",
    x: "levels a side",
    y: "CPU ns / update",
    logX: true,
    logY: true,
    xs: depths,
    series: peers.map((p) => ({ label: p, ys: depths.map((d) => cost(p, d)) })),
  });
  const table = `<table><tr><th>peer</th>${depths.map((d) => `<th>${d} levels</th>`).join("")}</tr>${peers
    .map(
      (p) =>
        `<tr><td>${esc(p)}</td>${depths
          .map((d) => {
            const row = core[`updates-${d}`]?.rows.find((r) => r.peer === p);
            return `<td>${num(row?.cpuNsPerUpdate)} ns${row && p !== peers[0] ? ` (${num(row.ratioVsOurs, 2)}x)` : ""}${row?.checksums.failed ? ` <b>${row.checksums.failed} cs failed</b>` : ""}</td>`;
          })
          .join("")}</tr>`,
    )
    .join("")}</table>`;
  let rate = "";
  const r25 = core["rate-25"];
  if (r25) {
    charts.push({
      id: "core-rate",
      title: "CPU ms per second of feed vs feed rate (multiple of 60 ms/8, 25 levels; log–log); 1000 = one whole core",
      x: "× 60 ms/8",
      y: "CPU ms / s",
      logX: true,
      logY: true,
      xs: r25.multipliers,
      series: [
        ...r25.curves.map((c) => ({ label: c.peer, ys: c.msPerSecond })),
        { label: "one core (1000 ms/s)", ys: r25.multipliers.map(() => 1000), dash: true },
      ],
    });
    rate = `<h3>Feed rate</h3><p>Derived from the 25-level per-update medians (cost × rate); ${num(r25.updatesPerSecondAt1x, 1)} updates/s at 1x. A peer falls over where it needs more than one core: past that multiple it cannot keep up with the feed on any machine like this one.</p><div class=chart id=core-rate></div><table><tr><th>peer</th><th>falls over past</th></tr>${r25.curves
      .map((c) => `<tr><td>${esc(c.peer)}</td><td>×${num(c.fallsOverAtMultiple)}</td></tr>`)
      .join("")}</table>`;
  }
  return `<section><h2>Core: per-update cost across book depths</h2><p>${esc(core.date)}${core.quick ? " — <b>quick run</b> (smoke figures, not for comparison)" : ""}; ${core.updates} updates per stream, ${core.reps} rounds, median CPU time per update including parsing and a cs verification every 10 updates.</p>${machineRows(core.machine)}<div class=chart id=core-depth></div>${table}${rate}</section>`;
}

function cdf(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return s;
}

function uiSection(ui, charts) {
  if (!ui?.results?.length)
    return "<section><h2>Desk in Chromium</h2><p class=note>no UI results (npm run bench:ui)</p></section>";
  const withSamples = ui.results.filter((r) => r.samples);
  let dists = "<p class=note>these results carry no distributions (measured before issue 17)</p>";
  if (withSamples.length) {
    // CDF: x = the time, y = the share of samples at or below it; one series per scenario, on a
    // common x grid so uPlot can draw them together.
    for (const [key, title] of [
      ["frameMs", "Frame times (requestAnimationFrame deltas), CDF"],
      ["updateToPaintMs", "update→paint latency, CDF"],
      ["viewToFrameEndMs", "view→frame end latency, CDF"],
    ]) {
      const sorted = withSamples.map((r) => cdf(r.samples[key] ?? []));
      const max = Math.max(1, ...sorted.map((s) => s.at(-1) ?? 0));
      const xs = Array.from({ length: 201 }, (_, i) => (max * i) / 200);
      charts.push({
        id: `ui-${key}`,
        title,
        x: "ms",
        y: "share ≤ x",
        xs,
        series: withSamples.map((r, i) => {
          const s = sorted[i];
          let k = 0;
          return {
            label: r.scenario,
            ys: xs.map((x) => {
              while (k < s.length && s[k] <= x) k++;
              return s.length ? k / s.length : null;
            }),
          };
        }),
      });
    }
    dists = ["frameMs", "updateToPaintMs", "viewToFrameEndMs"]
      .map((k) => `<div class=chart id=ui-${k}></div>`)
      .join("");
  }
  const table = `<table><tr><th>scenario</th><th>frames</th><th>frame p50 / p99 / max ms</th><th>long tasks</th><th>update→paint p50 / p99 / max ms</th><th>view→frame end p50 / p99 / max ms</th></tr>${ui.results
    .map(
      (r) =>
        `<tr><td>${esc(r.scenario)}</td><td>${r.frames}</td><td>${num(r.frameP50, 1)} / ${num(r.frameP99, 1)} / ${num(r.frameMax, 1)}</td><td>${r.longTasks}</td><td>${num(r.latencyP50)} / ${num(r.latencyP99)} / ${num(r.latencyMax)}</td><td>${num(r.viewToFrameP50)} / ${num(r.viewToFrameP99)} / ${num(r.viewToFrameMax)}</td></tr>`,
    )
    .join("")}</table>`;
  let scaling = "";
  const sc = ui.peers?.scaling;
  if (sc) {
    const ids = Object.keys(sc.impls);
    charts.push({
      id: "ui-books",
      title: `Frame p99 vs books on screen (${sc.scenario}; log y); over 25 ms = missed frames`,
      logY: true,
      x: "books",
      integerX: true,
      y: "frame p99 ms",
      xs: sc.books,
      series: [
        ...ids.map((id) => ({ label: id, ys: sc.impls[id].points.map((p) => p.frameP99) })),
        { label: "25 ms (1.5 vsyncs)", ys: sc.books.map(() => 25), dash: true },
      ],
    });
    scaling = `<h3>Books on screen</h3><div class=chart id=ui-books></div><table><tr><th>book</th>${sc.books
      .map((n) => `<th>${n}: frame p50 / p99 ms</th>`)
      .join("")}<th>falls over at</th></tr>${ids
      .map(
        (id) =>
          `<tr><td>${esc(id)}</td>${sc.impls[id].points.map((p) => `<td>${num(p.frameP50, 1)} / ${num(p.frameP99, 1)}</td>`).join("")}<td>${sc.impls[id].fallsOverAt ? `<b>${sc.impls[id].fallsOverAt} books</b>` : `holds up to ${sc.books.at(-1)}`}</td></tr>`,
      )
      .join("")}</table>`;
  }
  let side = "";
  if (ui.peers?.summary) {
    side = `<h3>Books side by side (${esc(ui.peers.meta.date)}, ${ui.peers.meta.rounds} round(s))</h3><table><tr><th>scenario</th><th>book</th><th>frames</th><th>frame p50 / p99 ms</th><th>long tasks</th><th>view→frame end p50 / p99 ms</th><th>views painted</th></tr>${ui.peers.summary
      .flatMap((row) =>
        Object.entries(row.impls).map(
          ([id, m]) =>
            `<tr><td>${esc(row.scenario)}</td><td>${esc(id)}</td><td>${num(m.frames)}</td><td>${num(m.frameP50, 1)} / ${num(m.frameP99, 1)}</td><td>${num(m.longTasks)}</td><td>${num(m.viewToFrameP50)} / ${num(m.viewToFrameP99)}</td><td>${num(m.paintedViews)}</td></tr>`,
        ),
      )
      .join("")}</table>`;
  }
  return `<section><h2>Desk in Chromium: frame times and latency per scenario</h2><p>${esc(ui.meta?.date ?? "")}${ui.meta?.quick ? " — <b>quick run</b>" : ""}; ${ui.meta?.warmupMs / 1000 || "?"} s warm-up, ${ui.meta?.measureMs / 1000 || "?"} s measured per scenario, ${esc(ui.meta?.viewport ?? "")}.</p>${machineRows(ui.meta?.machine, { chromium: ui.meta?.chromium })}${dists}${table}${scaling}${side}</section>`;
}

/** A log scale has no place for 0 or below (a ratio to a side with none of something). */
const positiveOrNull = (x) => (Number.isFinite(x) && x > 0 ? x : null);

function abSection(ab, charts, id) {
  if (!ab) return "";
  const title = ab.kind === "core-ab" ? "Core A/B (CPU ns per update)" : "Desk A/B (Chromium)";
  charts.push({
    id,
    title: `${title}: head/base per figure, with its ${+(ab.level * 100).toFixed(2)}% interval; 1 = no change (log y)`,
    x: "figure #",
    integerX: true,
    y: "head / base",
    logY: true,
    xs: ab.figures.map((_, i) => i + 1),
    points: true,
    series: [
      { label: "CI low", ys: ab.figures.map((f) => positiveOrNull(f.comparison.ci[0])) },
      { label: "ratio (median of rounds)", ys: ab.figures.map((f) => positiveOrNull(f.comparison.ratio)) },
      { label: "CI high", ys: ab.figures.map((f) => positiveOrNull(f.comparison.ci[1])) },
      { label: "1", ys: ab.figures.map(() => 1), dash: true, line: true },
    ],
  });
  const changed = ab.figures.filter((f) => f.comparison.verdict !== "no change beyond noise").length;
  const digits = ab.kind === "core-ab" ? 0 : 1;
  return `<section><h2>${title}: head ${esc(ab.head.short)}${ab.head.dirty ? " + uncommitted changes" : ""}${ab.head.slowdown ? ` with BENCH_SLOWDOWN=${ab.head.slowdown}` : ""} vs base ${esc(ab.base.short)}</h2><p>${esc(ab.date)}${ab.quick ? " — <b>quick run</b>" : ""}; base ${esc(ab.base.short)} “${esc(ab.base.subject)}”, head ${esc(ab.head.short)} “${esc(ab.head.subject)}”; ${ab.rounds} interleaved rounds; ${esc(ab.note ?? "")}. <b>${changed === 0 ? "No change beyond noise in any figure." : `${changed} of ${ab.figures.length} figures changed beyond noise.`}</b></p>${machineRows({ ...ab.machine, commit: `head ${ab.head.short}${ab.head.ref ? ` (${ab.head.ref})` : ""}, base ${ab.base.short} (${ab.base.ref})`, dirty: ab.head.dirty })}<div class=chart id=${id}></div><table><tr><th>#</th><th>figure</th><th>base median (min–max)</th><th>head median (min–max)</th><th>head/base</th><th>interval</th><th>verdict</th></tr>${ab.figures
    .map((f, i) => {
      const c = f.comparison;
      return `<tr><td>${i + 1}</td><td>${esc(f.name)}</td><td>${num(c.base.median, digits)} (${num(c.base.min, digits)}–${num(c.base.max, digits)})</td><td>${num(c.head.median, digits)} (${num(c.head.min, digits)}–${num(c.head.max, digits)})</td><td>${num(c.ratio, 3)}</td><td>${num(c.ci[0], 3)}–${num(c.ci[1], 3)}</td><td class=${c.verdict === "no change beyond noise" ? "same" : "changed"}>${esc(f.verdict)}</td></tr>`;
    })
    .join("")}</table></section>`;
}

/** The page's own script: draws every chart spec with uPlot, reports what it drew. */
function pageScript() {
  /* global uPlot */
  const specs = JSON.parse(document.getElementById("chart-data").textContent);
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
  let drawn = 0;
  for (const spec of specs) {
    const el = document.getElementById(spec.id);
    if (!el) throw new Error(`no element for chart ${spec.id}`);
    const series = [
      { label: spec.x },
      ...spec.series.map((s, i) => ({
        label: s.label,
        stroke: s.dash ? "#888" : colours[i % colours.length],
        dash: s.dash ? [6, 4] : undefined,
        width: 1.5,
        spanGaps: true,
        points: { show: Boolean(spec.points && !s.line), size: 7 },
        paths: spec.points && !s.line ? () => null : undefined,
      })),
    ];
    const chart = new uPlot(
      {
        title: spec.title,
        width: Math.min(980, el.clientWidth || 980),
        height: 320,
        scales: { x: { time: false, distr: spec.logX ? 3 : 1 }, y: { distr: spec.logY ? 3 : 1 } },
        // Figure numbers and book counts are whole: no ticks between them.
        axes: [
          { label: spec.x, incrs: spec.integerX ? [1, 2, 5, 10] : undefined },
          { label: spec.y, size: 70 },
        ],
        series,
      },
      [spec.xs, ...spec.series.map((s) => s.ys)],
      el,
    );
    if (chart) drawn++;
  }
  document.body.dataset["charts"] = String(specs.length);
  document.body.dataset["chartsDrawn"] = String(drawn);
}

/** Writes results/report-<date>.html from the latest results; returns its path. */
export async function writeReport(options = {}) {
  const dir = options.dir ?? resultsDir();
  // A/B results are shown when this run wrote them (abSince: the run's start), or, by hand, the latest.
  const since = options.abSince ?? 0;
  const core = readJson(dir, "core-latest.json");
  const ui = readJson(dir, "ui-latest.json");
  const view = readJson(dir, "view-latest.json");
  // options.abFiles: these A/B results (file names in the results folder), e.g. dated ones quoted in the README.
  const abs = options.abFiles
    ? options.abFiles.map((f) => readJson(dir, f)).filter(Boolean)
    : [readJson(dir, "ab-core-latest.json"), readJson(dir, "ab-ui-latest.json")].filter(
        (ab) => ab && ab.__mtimeMs >= since,
      );
  const charts = [];
  const date = new Date().toISOString();
  const sections = [
    ...abs.map((ab, i) =>
      abSection(ab, charts, i === 0 ? (ab.kind === "core-ab" ? "ab-core" : "ab-ui") : `ab-${i + 1}`),
    ),
    coreSection(core, charts),
    uiSection(ui, charts),
    view
      ? `<section><h2>Main thread: receiving one 250-level view (Chromium)</h2><p>${esc(view.date)}: typed-array view ${num(view.typedViewUs, 1)} µs, array of objects ${num(view.arrayOfObjectsUs, 1)} µs.</p></section>`
      : "",
  ];
  const uplotJs = readFileSync(require.resolve("uplot/dist/uPlot.iife.min.js"), "utf8");
  const uplotCss = readFileSync(
    join(dirname(require.resolve("uplot/dist/uPlot.iife.min.js")), "uPlot.min.css"),
    "utf8",
  );
  const m = machineInfo();
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Bench report ${esc(date)}</title>
<link rel="icon" href="data:,">
<style>${uplotCss}
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1020px;color:#222}
h1{font-size:22px}h2{font-size:18px;margin-top:36px;border-top:1px solid #ddd;padding-top:12px}h3{font-size:15px}
table{border-collapse:collapse;margin:10px 0;font-size:13px}td,th{border:1px solid #ddd;padding:3px 7px;text-align:right}
td:first-child,th:first-child,td:nth-child(2){text-align:left}.machine th{text-align:left;font-weight:normal;color:#555}
.note{color:#777}.same{color:#276}.changed{color:#b00;font-weight:bold}.chart{margin:12px 0;min-height:340px}
</style></head><body>
<h1>Bench report</h1>
<p>Written ${esc(date)} on ${esc(m.cpu)} (${m.cores} cores), Node ${esc(m.node)}, commit ${esc(m.commit)}${m.dirty ? " + uncommitted changes" : ""}, load now ${m.load.join(", ")}. Each section says when and on what its figures were measured; a shared machine's load moves them (read the A/B intervals, not one figure against an older run's).</p>
${sections.join("\n")}
<script>${uplotJs}</script>
<script type="application/json" id="chart-data">${JSON.stringify(charts).replace(/</g, "\\u003c")}</script>
<script>(${pageScript.toString()})();</script>
</body></html>
`;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `report-${date.replace(/[:.]/g, "-")}.html`);
  writeFileSync(file, html);
  // A quick run's figures are smoke figures: the README keeps those of the last full run.
  if (options.readme !== false && !options.quick && !process.env["BENCH_RESULTS_DIR"])
    await updateReadme({ report: file });
  return file;
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const abFiles = process.argv
    .find((a) => a.startsWith("--ab="))
    ?.slice(5)
    .split(",");
  process.stdout.write(`${await writeReport(abFiles ? { abFiles } : {})}\n`);
}
