/**
 * `npm run bench:ui`: the desk in real Chromium under the stress intensities (docs/product-rules.md#constants:
 * 500 ms/1, 250 ms/2, 100 ms/5, 60 ms/8) and 10x, 100x, 1000x the strongest, with 8 live books,
 * 8 trade tapes and a chart on screen. The stress source is the worker's (the developer flag), so
 * the feed goes through the same socket-frame → book → checksum → view path as a live feed; the
 * tapes and the chart are fed by the embedded exchange's simulator.
 *
 * Per scenario it records main-thread frame times (p50/p99 of requestAnimationFrame deltas), long
 * tasks over 50 ms (PerformanceObserver), and update-to-paint latency: for every view a book paints,
 * the frame time minus the time the worker received the newest update in that view
 * (`data-painted-update-at` on each book), to compare with the book throttle (the worker holds an
 * update for at most one throttle interval; the screen should add no more than a frame or two), and
 * view→frame end: from the time the worker published the view (`data-painted-published-at`) to the
 * end of the frame that shows it, the main thread's own share of the latency (p50, p99 and max: how
 * far behind the worker the screen ever was). Frames over 25 ms are frames the page missed at 60 Hz.
 * One more scenario scrolls the first book through its 250 levels (24 px a frame, to the end and
 * back) while everything streams at 100x, and counts the frames whose canvas showed the list at
 * another offset than the scroller's (rows lagging the scrollbar).
 * The JSON also keeps the start-of-frame samples (view→paint) and the data age (now minus the
 * newest update's time at every frame, which also counts the feed's own quiet spells). Results go
 * to bench/results/ui-latest.{json,md}.
 * Wall-clock numbers from a shared machine: read the medians, compare scenarios of one run.
 *
 * Then "books side by side": the desk's order book against a real open-source React order book,
 * @lab49/react-order-book (bench/package.json), each as 8 desk-sized books on one page
 * (bench/ui-peers, built for production with the app's Vite config and served by a tiny static
 * server) fed by one market worker's stress book. They run interleaved (orderflow, lab49,
 * lab49-250, orderflow, …; 3 rounds, --quick 1) at 60 ms/8 and ×10, ×100, ×1000, with the same
 * measurements; the medians over the rounds and the ratios to orderflow are reported.
 * --peers-only runs just that section (no product server), --desk-only just the desk; --only=NAME
 * filters both sections. A section or desk scenario not run keeps its previous figures in
 * ui-latest.{json,md}.
 *
 * Then, unless --no-scaling, the books-on-screen curve: 1, 4, 8, 16 books of each implementation on
 * that page at 60 ms/8 ×100, and for each the fewest books at which its frame p99 passes 25 ms.
 * `--compare REF` runs instead the desk A/B of this tree (or `--head-ref REF2`) against REF
 * (compareDesk). Progress (scenario, round, time left) goes to stderr; every run ends with the HTML
 * report (report.mjs). BENCH_RESULTS_DIR sends the results elsewhere.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright";
import { takeCompare, takeOption } from "./compare.mjs";
import { loadNow, machineInfo } from "./machine.mjs";
import { createProgress } from "./progress.mjs";
import { addWorktree, describeHead, onCleanup } from "./worktree.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const PORT = Number(process.env["BENCH_UI_PORT"] ?? 5400);
const BASE = `http://127.0.0.1:${PORT}`;
/** The base side of --compare: its app and its exchange's two ports clear of head's. */
const BASE_PORT = PORT + 10;
const QUICK = process.argv.includes("--quick");
/** --profile: a CPU profile of the page's main thread per scenario, printed as self time per function. */
const PROFILE = process.argv.includes("--profile");
/** --trace: a Chromium trace per scenario, printed as main-thread time per event (style, layout, paint…). */
const TRACE = process.argv.includes("--trace");
/** --only=NAME: run the scenarios whose name contains NAME (with --exact: whose name is NAME). */
const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
const EXACT = process.argv.includes("--exact");
const picked = (name) => !ONLY || (EXACT ? name === ONLY : name.includes(ONLY));
/** --peers-only: only the side-by-side section (the desk's figures stay as last written). */
const PEERS_ONLY = process.argv.includes("--peers-only");
/** --desk-only: the desk scenarios without the side-by-side section. */
const DESK_ONLY = process.argv.includes("--desk-only");
/** --rounds=N: rounds of the side-by-side section (each runs every implementation once). */
const ROUNDS = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice(9) ?? (QUICK ? 1 : 3));
const WARMUP_MS = QUICK ? 1500 : 3000;
const MEASURE_MS = QUICK ? 3000 : 8000;
const THROTTLE_MS = 100;
/** --compare REF: the desk at this working tree against REF, interleaved (compareDesk below). */
const [COMPARE_REF] = takeCompare(process.argv.slice(2));
/** --head-ref REF2: head is REF2's product (a second worktree) instead of this working tree's. */
const [HEAD_REF] = takeOption(process.argv.slice(2), "head-ref");
/** --no-scaling: without the books-on-screen curve (1, 4, 8, 16 books of each implementation). */
const SCALING = !process.argv.includes("--no-scaling") && !DESK_ONLY;
/** --scaling-books=1,8: a shorter curve (the smoke run of npm test only checks that it is drawn). */
const SCALING_BOOKS = (process.argv.find((a) => a.startsWith("--scaling-books="))?.slice(16) ?? "1,4,8,16")
  .split(",")
  .map(Number);
/** Setup of one measured page (context, navigation, layout), for the time-left estimate. */
const SETUP_MS = 2500;
const RUN_MS = WARMUP_MS + MEASURE_MS + SETUP_MS;
/** BENCH_RESULTS_DIR: where results go (the smoke run of npm test writes to a temporary one). */
const OUT = process.env["BENCH_RESULTS_DIR"] ?? join(ROOT, "bench", "results");

/** Index into STRESS_INTENSITIES (500/1, 250/2, 100/5, 60/8) and the multiplier of the dev flags. */
const SCENARIOS = [
  { name: "500 ms/1", intensity: 0, multiplier: 1 },
  { name: "250 ms/2", intensity: 1, multiplier: 1 },
  { name: "100 ms/5", intensity: 2, multiplier: 1 },
  { name: "60 ms/8", intensity: 3, multiplier: 1 },
  { name: "60 ms/8 ×10", intensity: 3, multiplier: 10 },
  { name: "60 ms/8 ×100", intensity: 3, multiplier: 100 },
  { name: "60 ms/8 ×1000", intensity: 3, multiplier: 1000 },
  // A trader scrolling one book through its 250 levels while all of it streams at 100x.
  { name: "60 ms/8 ×100, scrolling", intensity: 3, multiplier: 100, scroll: true },
];

/** The side-by-side section: the strongest stress intensity and its multiples, on 8 books only. */
const PEER_SCENARIOS = SCENARIOS.filter((s) => s.intensity === 3 && !s.scroll);
/**
 * The books compared: ours; the peer with as many rows as ours shows at this size; the peer with the
 * whole 250-level book in a scrolling box, which is what ours offers (by scrolling; it has no
 * virtualization, so every row is in the DOM).
 */
const IMPLS = [
  { id: "orderflow", query: "impl=orderflow" },
  { id: "lab49", query: "impl=lab49" },
  { id: "lab49-250", query: "impl=lab49&rows=250" },
];
/** --no-full-peer: without the 250-row peer (a shorter run). */
const impls = process.argv.includes("--no-full-peer") ? IMPLS.filter((i) => i.id !== "lab49-250") : IMPLS;

const TAPE_PAIRS = ["BTCUSD", "ETHUSD", "ETHBTC", "LTCUSD", "XRPUSD", "SOLUSD", "BTCEUR", "BTCJPY"];

/** 8 books on the stress feed, 8 tapes on live pairs, one chart: the layout issue 5 asks for. */
function benchLayout() {
  const items = [];
  for (let i = 0; i < 8; i++)
    items.push({ key: `widget/book/b${i}`, x: (i % 4) * 6, y: Math.floor(i / 4) * 14, w: 6, h: 14, pair: "STRESS" });
  for (let i = 0; i < 8; i++)
    items.push({
      key: `widget/trades/t${i}`,
      x: (i % 4) * 6,
      y: 28 + Math.floor(i / 4) * 8,
      w: 6,
      h: 8,
      pair: TAPE_PAIRS[i],
    });
  items.push({ key: "widget/chart/c0", x: 0, y: 44, w: 24, h: 18, pair: "BTCUSD" });
  return {
    version: "1.0.0",
    currentId: "bench",
    savedAt: Date.now() + 60_000,
    layouts: [{ id: "bench", name: "bench", version: "1.0.0", items }],
  };
}

/** Self time per function (ms) from a V8 CPU profile, the heaviest first. */
function topFunctions(profile, n = 18) {
  const self = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const dt = profile.timeDeltas ?? [];
  profile.samples?.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) return;
    const f = node.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  // Native functions (fillText, querySelectorAll…) say little alone: attribute them to their caller.
  const parent = new Map();
  for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node);
  const via = new Map();
  profile.samples?.forEach((id, i) => {
    const node = byId.get(id);
    if (!node || node.callFrame.url) return;
    const up = parent.get(id)?.callFrame;
    if (!up || !node.callFrame.functionName || node.callFrame.functionName.startsWith("(")) return;
    const key = `${node.callFrame.functionName} ← ${up.functionName || "(anonymous)"} ${up.url.split("/").pop()}:${up.lineNumber + 1}:${up.columnNumber + 1}`;
    via.set(key, (via.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const line = ([k, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${k}`;
  const callers = [...via.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(line);
  return [
    ...[...self.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(line),
    "  native functions by caller:",
    ...callers,
  ].join("\n");
}

/** Wall time per trace event name on the renderer's main thread. */
function traceSummary(trace, n = 16) {
  const events = trace.traceEvents ?? trace;
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  const total = new Map();
  for (const e of events) {
    if (e.ph !== "X" || !main || e.pid !== main.pid || e.tid !== main.tid) continue;
    total.set(e.name, (total.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  }
  return [...total.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, ms]) => `  ${ms.toFixed(1).padStart(8)} ms  ${k}`)
    .join("\n");
}

function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[at];
}

/**
 * Runs in every measured page before its own scripts: after each animation-frame callback, the
 * measurement's hook (if set) looks for books painted in it (see the frame-exact view→paint).
 */
function hookFrameCallbacks() {
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) =>
    raf((now) => {
      try {
        callback(now);
      } finally {
        window.__benchAfterFrameCallback?.();
      }
    });
}

async function waitForServer(base = BASE) {
  for (let i = 0; i < 240; i++) {
    try {
      const res = await fetch(`${base}/config.json`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the product did not start");
}

async function runScenario(browser, s, base = BASE) {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  await page.addInitScript(hookFrameCallbacks);
  const flags = { open: false, pinned: { stress: true }, stressIntensity: s.intensity, stressMultiplier: s.multiplier };
  await page.addInitScript(
    ([f, consent]) => {
      localStorage.setItem("dev-flags", f);
      localStorage.setItem("cookie-consent", consent);
    },
    [
      JSON.stringify(flags),
      JSON.stringify({ decidedAt: Date.now(), necessary: true, analytical: false, marketing: false }),
    ],
  );
  // Seed the bench layout into IndexedDB (idb-keyval's default store) before the desk reads it.
  await page.goto(`${base}/about`);
  await page.evaluate(async (layout) => {
    await new Promise((resolve, reject) => {
      const open = indexedDB.open("keyval-store");
      open.onupgradeneeded = () => open.result.createObjectStore("keyval");
      open.onerror = () => reject(new Error("cannot open the layout store", { cause: open.error }));
      open.onsuccess = () => {
        const tx = open.result.transaction("keyval", "readwrite");
        tx.objectStore("keyval").put(layout, "desk-layouts");
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(new Error("cannot write the bench layout", { cause: tx.error }));
      };
    });
  }, benchLayout());
  await page.goto(`${base}/tradedesk/BTCUSD`);
  await page.waitForSelector('[data-testid="order-book"]');
  await page.waitForTimeout(WARMUP_MS);
  const r = await measure(browser, context, page, s.name, Boolean(s.scroll));
  await context.close();
  return r;
}

/**
 * Measures the open page for MEASURE_MS: frame times, long tasks, and update→paint and view→paint of
 * every book (`[data-testid="order-book"]` with its data-painted-* times). The same code measures
 * the desk and the side-by-side page.
 */
async function measure(browser, context, page, label, scroll = false) {
  let cdp = null;
  if (PROFILE) {
    cdp = await context.newCDPSession(page);
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    await cdp.send("Profiler.start");
  }
  if (TRACE)
    await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline"] });
  const r = await page.evaluate(
    async ([ms, scroll]) => {
      const deltas = [];
      const behind = [];
      const latency = [];
      const delivery = [];
      const longs = [];
      const obs = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) longs.push(e.duration);
      });
      obs.observe({ type: "longtask", buffered: false });
      const books = [...document.querySelectorAll('[data-testid="order-book"]')];
      // What each book shows as the measurement starts is not a new paint.
      const seen = books.map((b) => Number(b.dataset["paintedUpdateAt"] ?? 0));
      const seenView = books.map((b) => Number(b.dataset["paintedPublishedAt"] ?? 0));
      let painting = 0;
      // Frame-exact view→paint: each view a book shows is assigned to the frame that renders it (a
      // write inside an animation-frame callback: that frame; a write in a task between frames: the
      // next), and timed at the end of that frame's main-thread work (a message posted from the
      // frame's first callback runs only after its rendering). The sampled figures above read the
      // books at the start of each frame, before the books' own frame callbacks: a view painted in a
      // frame callback counts one frame late there, a view committed in a task does not.
      const exact = [];
      const seenExact = [...seenView];
      const pending = [];
      let frameId = 0;
      const scan = () => {
        books.forEach((b, i) => {
          const published = Number(b.dataset["paintedPublishedAt"] ?? 0);
          if (published > 0 && published !== seenExact[i]) {
            seenExact[i] = published;
            pending.push({ frame: frameId, published });
          }
        });
      };
      const channel = new MessageChannel();
      channel.port1.onmessage = (e) => {
        const wall = Date.now();
        for (let k = pending.length - 1; k >= 0; k--)
          if (pending[k].frame <= e.data) {
            exact.push(wall - pending[k].published);
            pending.splice(k, 1);
          }
      };
      window.__benchAfterFrameCallback = scan;
      // Scrolling: the first book's list moves 24 px a frame, down to its end and back. At the start of
      // each frame (after the scroll events of the last one), the canvas must show the list where it
      // is: a frame whose drawn offset differs from the scroller's is a frame the rows lagged.
      const scroller = scroll ? books[0]?.querySelector('[data-testid="book-scroller"]') : null;
      const drawnAt = () => books[0]?.bookInspector?.scrollTop?.() ?? Number.NaN;
      let step = 24;
      let scrolled = 0;
      let lagged = 0;
      await new Promise((done) => {
        const start = performance.now();
        let last = start;
        const frame = (now) => {
          // Writes made in tasks since the last frame render in this one.
          scan();
          frameId++;
          channel.port2.postMessage(frameId);
          deltas.push(now - last);
          last = now;
          if (scroller) {
            if (Math.abs(drawnAt() - scroller.scrollTop) > 0.5) lagged++;
            const max = scroller.scrollHeight - scroller.clientHeight;
            if (scroller.scrollTop + step > max || scroller.scrollTop + step < 0) step = -step;
            scroller.scrollTop += step;
            scrolled++;
          }
          const wall = Date.now();
          books.forEach((b, i) => {
            const at = Number(b.dataset["paintedUpdateAt"] ?? 0);
            if (at <= 0) return;
            behind.push(wall - at);
            if (at !== seen[i]) {
              seen[i] = at;
              latency.push(wall - at);
            }
            const published = Number(b.dataset["paintedPublishedAt"] ?? 0);
            if (published > 0 && published !== seenView[i]) {
              seenView[i] = published;
              delivery.push(wall - published);
            }
          });
          if (now - start < ms) requestAnimationFrame(frame);
          else done();
        };
        requestAnimationFrame(frame);
      });
      obs.disconnect();
      window.__benchAfterFrameCallback = undefined;
      channel.port1.close();
      for (const b of books) if (Number(b.dataset["paintedUpdateAt"] ?? 0) > 0) painting++;
      return { deltas: deltas.slice(1), behind, latency, delivery, exact, longs, painting, scrolled, lagged };
    },
    [MEASURE_MS, scroll],
  );
  if (TRACE) {
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
    process.stdout.write(
      `\n${label}: renderer main thread by event (ms, nested events counted in their parents too)\n${traceSummary(trace)}\n`,
    );
  }
  if (cdp) {
    const { profile } = await cdp.send("Profiler.stop");
    process.stdout.write(`\n${label}: main-thread self time by function\n${topFunctions(profile)}\n`);
  }
  const d = [...r.deltas].sort((a, b) => a - b);
  const b = [...r.behind].sort((a, b) => a - b);
  const l = [...r.latency].sort((a, b) => a - b);
  const v = [...r.delivery].sort((a, b) => a - b);
  const x = [...r.exact].sort((a, b) => a - b);
  // The distributions, for the report's charts (0.1 ms is finer than any of these clocks).
  const tenth = (xs) => xs.map((ms) => Math.round(ms * 10) / 10);
  return {
    scenario: label,
    samples: { frameMs: tenth(r.deltas), updateToPaintMs: tenth(r.latency), viewToFrameEndMs: tenth(r.exact) },
    frames: d.length,
    frameP50: quantile(d, 0.5),
    frameP99: quantile(d, 0.99),
    frameMax: d.at(-1) ?? Number.NaN,
    // A delta over one and a half vsyncs (60 Hz) is a frame the page missed.
    framesMissed: d.filter((ms) => ms > 25).length,
    longTasks: r.longs.length,
    longTaskMaxMs: r.longs.length ? Math.max(...r.longs) : 0,
    latencyP50: quantile(l, 0.5),
    latencyP99: quantile(l, 0.99),
    paintedViews: l.length,
    viewToPaintP50: quantile(v, 0.5),
    viewToPaintP99: quantile(v, 0.99),
    viewToFrameP50: quantile(x, 0.5),
    viewToFrameP99: quantile(x, 0.99),
    viewToFrameMax: x.at(-1) ?? Number.NaN,
    viewsToFrame: x.length,
    latencyMax: l.at(-1) ?? Number.NaN,
    scrolledFrames: r.scrolled,
    scrollLaggedFrames: r.lagged,
    // What this row was measured with (a partial run keeps other rows from earlier runs).
    measuredAt: new Date().toISOString(),
    warmupMs: WARMUP_MS,
    measureMs: MEASURE_MS,
    behindP50: quantile(b, 0.5),
    behindP99: quantile(b, 0.99),
    booksPainting: r.painting,
  };
}

function table(results) {
  const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : "—");
  const lines = [
    "| scenario | frames | frame p50 ms | frame p99 ms | frame max ms | frames > 25 ms | long tasks (>50 ms) | update→paint p50 / p99 / max ms | view→frame end p50 / p99 / max ms | views painted | scrolled frames (rows lagging) | books painting | measured |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ...results.map(
      (r) =>
        `| ${r.scenario} | ${r.frames} | ${f(r.frameP50)} | ${f(r.frameP99)} | ${f(r.frameMax)} | ${r.framesMissed ?? "—"} | ${r.longTasks} | ${f(r.latencyP50)} / ${f(r.latencyP99)} / ${f(r.latencyMax)} | ${f(r.viewToFrameP50)} / ${f(r.viewToFrameP99)} / ${f(r.viewToFrameMax)} | ${r.viewsToFrame ?? r.paintedViews} | ${r.scrolledFrames ? `${r.scrolledFrames} (${r.scrollLaggedFrames})` : "—"} | ${r.booksPainting}/8 | ${r.measuredAt ? `${r.measuredAt.slice(11, 16)} UTC, ${r.warmupMs / 1000}+${r.measureMs / 1000} s` : "—"} |`,
    ),
  ];
  return lines.join("\n");
}

/** Installs the bench's own dependencies (the peer) when missing, as `npm run bench` does. */
function ensureBenchDeps() {
  const dir = join(ROOT, "bench");
  if (existsSync(join(dir, "node_modules", "@lab49", "react-order-book", "package.json"))) return;
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  if (r.status !== 0) throw new Error("npm ci in bench/ failed");
}

async function runPeer(browser, base, s, impl, round, books = 8) {
  // Books are 302 px tall, 4 to a row: 16 need a taller window than 1080 px to be all on screen.
  const height = Math.max(1080, Math.ceil(books / 4) * 302 + 40);
  const context = await browser.newContext({ viewport: { width: 1920, height } });
  const page = await context.newPage();
  await page.addInitScript(hookFrameCallbacks);
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}?${impl.query}&intensity=${s.intensity}&multiplier=${s.multiplier}&books=${books}`);
  await page.waitForSelector("body[data-ready]");
  await page.waitForTimeout(WARMUP_MS);
  const label = `${s.name} ${impl.id} #${round + 1}`;
  const r = await measure(browser, context, page, label);
  // What each book shows: the peer's DOM rows a side, ours the canvas rows in its list's height.
  r.rowsPerSide = await page.evaluate(() => {
    const book = document.querySelector('[data-testid="order-book"]');
    const peerRows = book?.querySelectorAll(".rob_OrderBook__side--bids li").length ?? 0;
    const list = book?.querySelector('[data-testid="book-scroller"]');
    return peerRows || (list ? Math.ceil(list.clientHeight / 20) : 0);
  });
  await context.close();
  if (errors.length) throw new Error(`${label}: page errors: ${errors.join("; ")}`);
  delete r.samples;
  return { ...r, impl: impl.id, round, books, intensity: s.intensity, multiplier: s.multiplier, scenario: s.name };
}

function median(values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

const PEER_FIELDS = [
  "frames",
  "frameP50",
  "frameP99",
  "longTasks",
  "viewToPaintP50",
  "viewToPaintP99",
  "viewToFrameP50",
  "viewToFrameP99",
  "paintedViews",
];

/** Per scenario and implementation: the median of each figure over the rounds, and lab49/orderflow. */
function summarizePeers(runs) {
  const out = [];
  for (const name of [...new Set(runs.map((r) => r.scenario))]) {
    const row = { scenario: name, impls: {}, ratios: {} };
    for (const id of [...new Set(runs.map((r) => r.impl))]) {
      const mine = runs.filter((r) => r.scenario === name && r.impl === id);
      row.impls[id] = Object.fromEntries(PEER_FIELDS.map((f) => [f, median(mine.map((r) => r[f]))]));
      row.impls[id].rounds = mine.length;
      row.impls[id].rowsPerSide = mine[0]?.rowsPerSide ?? 0;
    }
    const ours = row.impls["orderflow"];
    for (const [id, m] of Object.entries(row.impls)) {
      if (id === "orderflow" || !ours) continue;
      row.ratios[`${id}/orderflow`] = Object.fromEntries(
        PEER_FIELDS.map((f) => {
          const a = m[f];
          const b = ours[f];
          return [f, b > 0 ? a / b : a === 0 && b === 0 ? 1 : Number.NaN];
        }),
      );
    }
    out.push(row);
  }
  return out;
}

function peerTable(summary) {
  const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : "—");
  // A ratio to a zero of ours (e.g. no long tasks) has no value: "n/0".
  const x = (n) => (Number.isFinite(n) ? `${n.toFixed(2)}x` : "n/0");
  const lines = [
    "| scenario | book | rows a side | frames | frame p50 ms | frame p99 ms | long tasks (>50 ms) | view→paint p50 ms | view→paint p99 ms | view→frame end p50 ms | view→frame end p99 ms | views painted |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const row of summary) {
    for (const [impl, m] of Object.entries(row.impls)) {
      lines.push(
        `| ${row.scenario} | ${impl} | ${m.rowsPerSide} | ${f(m.frames)} | ${f(m.frameP50)} | ${f(m.frameP99)} | ${f(m.longTasks)} | ${f(m.viewToPaintP50)} | ${f(m.viewToPaintP99)} | ${f(m.viewToFrameP50)} | ${f(m.viewToFrameP99)} | ${f(m.paintedViews)} |`,
      );
    }
    for (const [name, q] of Object.entries(row.ratios))
      lines.push(
        `| ${row.scenario} | **${name}** | | ${x(q.frames)} | ${x(q.frameP50)} | ${x(q.frameP99)} | ${x(q.longTasks)} | ${x(q.viewToPaintP50)} | ${x(q.viewToPaintP99)} | ${x(q.viewToFrameP50)} | ${x(q.viewToFrameP99)} | ${x(q.paintedViews)} |`,
      );
  }
  return lines.join("\n");
}

/** A configuration "falls over" when it misses frames at its p99 (over 1.5 vsyncs at 60 Hz). */
function fallsOver(m) {
  return m.frameP99 > 25;
}

/**
 * The side-by-side section: build and serve the page, then every scenario's rounds, interleaved;
 * then (unless --no-scaling) the books-on-screen curve: 1, 4, 8, 16 books of each implementation at
 * 60 ms/8 ×100, and for each the fewest books at which it falls over.
 */
async function runPeers(browser) {
  const scenarios = PEER_SCENARIOS.filter((x) => picked(x.name));
  if (scenarios.length === 0) return null;
  ensureBenchDeps();
  const { buildPeerPage, PEERS_PAGE } = await import("./ui-peers/build.mjs");
  const { serveStatic } = await import("./ui-peers/serve.mjs");
  process.stdout.write("\nBuilding the side-by-side page…\n");
  const dist = await buildPeerPage();
  const server = await serveStatic(dist);
  const runs = [];
  const scalingRuns = [];
  const scalingScenario = PEER_SCENARIOS.find((x) => x.multiplier === 100);
  const steps = scenarios.length * ROUNDS * impls.length + (SCALING ? SCALING_BOOKS.length * ROUNDS * impls.length : 0);
  const progress = createProgress("ui side by side", steps * RUN_MS);
  const log = (r) =>
    process.stdout.write(
      `${r.scenario}${r.books !== 8 ? `, ${r.books} books` : ""} ${r.impl} #${r.round + 1}: frames ${r.frames}, p50 ${r.frameP50.toFixed(1)}, p99 ${r.frameP99.toFixed(1)}, long tasks ${r.longTasks}, view→frame end p50 ${r.viewToFrameP50.toFixed(1)} p99 ${r.viewToFrameP99.toFixed(1)}, views ${r.paintedViews}\n`,
    );
  try {
    for (const s of scenarios)
      for (let round = 0; round < ROUNDS; round++)
        for (const impl of impls) {
          progress.begin(`${s.name} · ${impl.id} · round ${round + 1}/${ROUNDS}`);
          const r = await runPeer(browser, `${server.url}${PEERS_PAGE}`, s, impl, round);
          runs.push(r);
          log(r);
          progress.advance(RUN_MS);
        }
    if (SCALING && scalingScenario)
      for (let round = 0; round < ROUNDS; round++)
        for (const books of SCALING_BOOKS)
          for (const impl of impls) {
            progress.begin(`${books} book(s) · ${impl.id} · round ${round + 1}/${ROUNDS}`);
            const r = await runPeer(browser, `${server.url}${PEERS_PAGE}`, scalingScenario, impl, round, books);
            scalingRuns.push(r);
            log(r);
            progress.advance(RUN_MS);
          }
  } finally {
    await server.close();
    progress.end();
  }
  return {
    meta: { date: new Date().toISOString(), rounds: ROUNDS, warmupMs: WARMUP_MS, measureMs: MEASURE_MS },
    summary: summarizePeers(runs),
    runs,
    scaling: SCALING ? summarizeScaling(scalingRuns) : null,
  };
}

/** Per implementation and book count: medians over the rounds, and where it falls over. */
function summarizeScaling(runs) {
  const out = { scenario: runs[0]?.scenario ?? "", books: SCALING_BOOKS, impls: {} };
  for (const id of [...new Set(runs.map((r) => r.impl))]) {
    const points = SCALING_BOOKS.map((books) => {
      const mine = runs.filter((r) => r.impl === id && r.books === books);
      return { books, ...Object.fromEntries(PEER_FIELDS.map((f) => [f, median(mine.map((r) => r[f]))])) };
    });
    out.impls[id] = { points, fallsOverAt: points.find(fallsOver)?.books ?? null };
  }
  return out;
}

function scalingTable(scaling) {
  const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : "—");
  const lines = [
    `Books on screen at ${scaling.scenario} (median over the rounds; "falls over" = frame p99 over 25 ms):`,
    "",
    `| book | ${scaling.books.map((n) => `${n} book${n > 1 ? "s" : ""}: frame p50 / p99 ms`).join(" | ")} | falls over at |`,
    `|---|${scaling.books.map(() => "---:").join("|")}|---|`,
  ];
  for (const [id, m] of Object.entries(scaling.impls))
    lines.push(
      `| ${id} | ${m.points.map((p) => `${f(p.frameP50)} / ${f(p.frameP99)}`).join(" | ")} | ${m.fallsOverAt ? `${m.fallsOverAt} books` : `not up to ${scaling.books.at(-1)}`} |`,
    );
  return lines.join("\n");
}

/** The product as `npm start` serves it, from `dir` (this checkout or a worktree), on `port`. */
function startProduct(dir, port) {
  return spawn(process.execPath, [join(dir, "scripts/start.mjs")], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), EXCHANGE_DB: ":memory:" },
    stdio: ["ignore", "inherit", "inherit"],
  });
}

function launchBrowser() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"],
  });
}

/** The desk figures an A/B run compares (each a cost: lower is better). */
const AB_FIELDS = [
  ["frameP50", "frame p50 ms"],
  ["frameP99", "frame p99 ms"],
  ["latencyP50", "update→paint p50 ms"],
  ["latencyP99", "update→paint p99 ms"],
  ["viewToFrameP50", "view→frame end p50 ms"],
  ["viewToFrameP99", "view→frame end p99 ms"],
];

/**
 * `--compare REF`: the desk scenarios on this working tree (head, this checkout's product on PORT)
 * and on REF (base: its worktree's own build and server on PORT+1), in rounds: each round runs both,
 * the order alternating, each in a fresh browser context; one warm-up run of each first, not
 * counted. Both servers run for the whole comparison, so each side's measurement has the other's
 * idle exchange beside it. Base listens on BENCH_UI_PORT+10 (a product takes its port and the next
 * two, for its exchange). The side-by-side page is not part of it (its peers are the same code on
 * both sides).
 */
async function compareDesk(ref) {
  const { compareRounds, levelFor, roundsFor, verdictText } = await importTs("./ab-stats.ts");
  // --quick: the four strongest scenarios unless --only says otherwise.
  const scenarios = SCENARIOS.filter((x) => (ONLY ? picked(x.name) : !QUICK || (x.intensity === 3 && !x.scroll)));
  const level = levelFor(scenarios.length * AB_FIELDS.length);
  const rounds = Number(process.argv.find((a) => a.startsWith("--rounds="))?.slice(9) ?? roundsFor(level));
  const loadBefore = loadNow();
  const wt = addWorktree(ref);
  const headWt = HEAD_REF ? addWorktree(HEAD_REF) : null;
  const head = headWt
    ? { ref: HEAD_REF, sha: headWt.sha, short: headWt.short, subject: headWt.subject, dirty: false }
    : describeHead();
  process.stdout.write(
    `Base: ${wt.short} ${wt.subject} (worktree ${wt.dir}, port ${BASE_PORT})\nHead: ${head.short} ${head.subject}${head.dirty ? " + uncommitted changes" : ""} (port ${PORT})\n`,
  );
  const servers = [startProduct(headWt?.dir ?? ROOT, PORT), startProduct(wt.dir, BASE_PORT)];
  const stopServers = () => {
    for (const server of servers) server.kill("SIGTERM");
  };
  // Ctrl+C: the servers run from the worktrees, so they stop before those are removed.
  const unregister = onCleanup(stopServers);
  const sides = { head: BASE, base: `http://127.0.0.1:${BASE_PORT}` };
  const runs = { head: [], base: [] };
  let browser = null;
  try {
    await waitForServer(sides.head);
    await waitForServer(sides.base);
    browser = await launchBrowser();
    const progress = createProgress("ui A/B", scenarios.length * (rounds + 1) * 2 * RUN_MS);
    for (const s of scenarios) {
      for (let round = 0; round <= rounds; round++) {
        const order = round % 2 === 1 ? ["base", "head"] : ["head", "base"];
        for (const side of order) {
          progress.begin(`${s.name} · ${side} · round ${round === 0 ? "warm-up" : `${round}/${rounds}`}`);
          const r = await runScenario(browser, s, sides[side]);
          if (round > 0) runs[side].push({ ...r, round });
          progress.advance(RUN_MS);
        }
      }
    }
    progress.end();
    const chromiumVersion = browser.version();
    const figures = [];
    for (const s of scenarios) {
      const of = (side, field) => runs[side].filter((r) => r.scenario === s.name).map((r) => r[field]);
      for (const [field, label] of AB_FIELDS) {
        const comparison = compareRounds(of("base", field), of("head", field), { level, seed: figures.length + 1 });
        figures.push({
          scenario: s.name,
          field,
          name: `${s.name}: ${label}`,
          base: of("base", field),
          head: of("head", field),
          comparison,
          verdict: verdictText(comparison),
        });
      }
    }
    const loadAfter = loadNow();
    const result = {
      kind: "ui-ab",
      date: new Date().toISOString(),
      machine: { ...machineInfo(), chromium: chromiumVersion, loadBefore, loadAfter },
      base: { ref, sha: wt.sha, short: wt.short, subject: wt.subject },
      head,
      note: "each side is its own tree's product (build and server); both servers ran throughout",
      rounds,
      level,
      quick: QUICK,
      warmupMs: WARMUP_MS,
      measureMs: MEASURE_MS,
      figures,
      // The per-run distributions stay out of the A/B file; its figures are what it compares.
      runs: { base: runs.base.map(({ samples: _, ...r }) => r), head: runs.head.map(({ samples: _, ...r }) => r) },
    };
    mkdirSync(OUT, { recursive: true });
    const stamp = result.date.replace(/[:.]/g, "-");
    writeFileSync(join(OUT, `ab-ui-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(OUT, "ab-ui-latest.json"), `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(`\n${abUiTable(result)}\n\nWritten to ${join(OUT, `ab-ui-${stamp}.json`)}\n`);
  } finally {
    await browser?.close();
    stopServers();
    unregister();
    wt.remove();
    headWt?.remove();
  }
}

function abUiTable(result) {
  const f = (n) => (Number.isFinite(n) ? n.toFixed(1) : "—");
  const lines = [
    `### Desk A/B: head ${result.head.short}${result.head.dirty ? " + uncommitted changes" : ""} vs base ${result.base.short}, ${result.rounds} interleaved rounds, ${result.warmupMs / 1000}+${result.measureMs / 1000} s each, load ${result.machine.loadBefore[0]} → ${result.machine.loadAfter[0]}`,
    "",
    "| scenario: figure | base median (min–max) | head median (min–max) | head/base | CI | verdict |",
    "|---|---:|---:|---:|---:|---|",
  ];
  for (const x of result.figures) {
    const c = x.comparison;
    lines.push(
      `| ${x.name} | ${f(c.base.median)} (${f(c.base.min)}–${f(c.base.max)}) | ${f(c.head.median)} (${f(c.head.min)}–${f(c.head.max)}) | ${c.ratio.toFixed(3)} | ${c.ci[0].toFixed(3)}–${c.ci[1].toFixed(3)} (${+(c.level * 100).toFixed(2)}%) | ${x.verdict} |`,
    );
  }
  return lines.join("\n");
}

/** A TypeScript module of the bench (ab-stats.ts), through tsx: its figures are not timed. */
async function importTs(path) {
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(path, import.meta.url);
}

async function main() {
  const out = OUT;
  let previous = {};
  try {
    previous = JSON.parse(readFileSync(join(out, "ui-latest.json"), "utf8"));
  } catch {
    // first run
  }
  const loadBefore = loadNow();
  const deskScenarios = PEERS_ONLY ? [] : SCENARIOS.filter((x) => picked(x.name));
  let server = null;
  if (deskScenarios.length > 0 && !process.env["BENCH_UI_EXTERNAL"]) server = startProduct(ROOT, PORT);
  try {
    if (deskScenarios.length > 0) await waitForServer();
    const browser = await launchBrowser();
    const results = [];
    const progress = createProgress("ui desk", deskScenarios.length * RUN_MS);
    for (const s of deskScenarios) {
      progress.begin(s.name);
      const r = await runScenario(browser, s);
      results.push(r);
      process.stdout.write(`${table([r]).split("\n").at(-1)}\n`);
      progress.advance(RUN_MS);
    }
    if (deskScenarios.length > 0) progress.end();
    // The product server is not needed by the side-by-side page; stop it so it takes no CPU.
    server?.kill("SIGTERM");
    server = null;
    const peers = DESK_ONLY ? null : await runPeers(browser);
    const chromiumVersion = browser.version();
    await browser.close();
    mkdirSync(out, { recursive: true });
    const machine = { ...machineInfo(), chromium: chromiumVersion, loadBefore, loadAfter: loadNow() };
    const meta =
      results.length > 0
        ? {
            date: new Date().toISOString(),
            warmupMs: WARMUP_MS,
            measureMs: MEASURE_MS,
            bookThrottleMs: THROTTLE_MS,
            viewport: "1920x1080",
            chromium: chromiumVersion,
            quick: QUICK,
            machine,
          }
        : (previous.meta ?? { viewport: "1920x1080", bookThrottleMs: THROTTLE_MS });
    // A run of some scenarios (--only) replaces those rows and keeps the others.
    const desk = SCENARIOS.map(
      (x) => results.find((r) => r.scenario === x.name) ?? previous.results?.find((r) => r.scenario === x.name),
    ).filter(Boolean);
    // Figures kept from an earlier run only when written in this format.
    const side = peers ?? (previous.peers?.summary?.[0]?.impls ? previous.peers : null);
    if (side) {
      side.meta.chromium ??= chromiumVersion;
      if (peers) side.meta.machine = machine;
    }
    writeFileSync(join(out, "ui-latest.json"), `${JSON.stringify({ meta, results: desk, peers: side }, null, 2)}\n`);
    let md = `# UI bench (${meta.date})\n\n8 books (stress feed, 250 levels), 8 tapes and a chart on /tradedesk, ${meta.viewport}, measure ${meta.measureMs} ms after ${meta.warmupMs} ms warm-up, book throttle ${THROTTLE_MS} ms.\n\n${table(desk)}\n`;
    if (side) {
      md += `\n## Books side by side (${side.meta.date})\n\n8 books of one implementation on a page of their own (bench/ui-peers), ${meta.viewport}, each 468×302 px as on the desk, all on one market worker's stress book (tSTRESS, 250 levels, views every ${THROTTLE_MS} ms); orderflow = the desk's OrderBook widget (canvas rows under a virtualized scroller, 250 levels reachable by scrolling), lab49 = @lab49/react-order-book 0.1.4 fed each view through React state with as many rows a side as ours shows, lab49-250 = the same with all 250 levels a side in a scrolling box (DOM rows, no virtualization). Medians over ${side.meta.rounds} interleaved round(s) of ${side.meta.measureMs} ms after ${side.meta.warmupMs} ms warm-up; ratios are the peer's figure / orderflow's (above 1: the peer has more of it). view→paint is sampled as in the desk table (at the start of each frame); view→frame end assigns each view to the frame that renders it and times it at the end of that frame's main-thread work, which is fair to both ways of painting (a React commit in a task, ours in an animation-frame callback).\n\n${peerTable(side.summary)}\n`;
      if (side.scaling) md += `\n${scalingTable(side.scaling)}\n`;
    }
    writeFileSync(join(out, "ui-latest.md"), md);
    process.stdout.write(`\n${md}`);
  } finally {
    server?.kill("SIGTERM");
  }
  const { writeReport } = await import("./report.mjs");
  process.stdout.write(`\nReport: ${await writeReport({ quick: QUICK, abSince: Infinity })}\n`);
}

const STARTED = Date.now();
if (COMPARE_REF) {
  await compareDesk(COMPARE_REF);
  const { writeReport } = await import("./report.mjs");
  process.stdout.write(`\nReport: ${await writeReport({ quick: QUICK, abSince: STARTED })}\n`);
} else await main();
