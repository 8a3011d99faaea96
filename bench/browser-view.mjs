#!/usr/bin/env node
// The main thread's cost of receiving one 250-level book view from a worker, in Chromium: the view
// as the worker publishes it (a transferred Float64Array, 500 levels × 4 fields) against the same
// data as an array of objects. Chromium deserializes a message lazily, on the first read of
// `event.data`, so that read is what is timed, per message, median of several runs.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright";

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
const page = await browser.newPage();
// Cross-origin isolation (COOP/COEP on a localhost origin) gives performance.now() 5 µs resolution
// instead of 100 µs; the page is served by the route itself, no server needed.
await page.route("http://localhost:9/view", (route) =>
  route.fulfill({
    contentType: "text/html",
    body: "<!doctype html><title>view bench</title>",
    headers: { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" },
  }),
);
await page.goto("http://localhost:9/view");
const result = await page.evaluate(async () => {
  const src = `onmessage = (e) => {
    const { n, kind } = e.data;
    for (let i = 0; i < n; i++) {
      if (kind === "typed") {
        const levels = new Float64Array(2000);
        for (let k = 0; k < 2000; k++) levels[k] = 30000 + k;
        postMessage({ handle: "v1", symbol: "tBTCUSD", status: "SUBSCRIBED", bids: 250, asks: 250, levels, version: i,
          health: { lastUpdateAt: 1, messagesPerSecond: 1, resyncs: 0, checksumsOk: 1, checksumsFailed: 0, stale: false } }, [levels.buffer]);
      } else {
        const levels = [];
        for (let k = 0; k < 500; k++) levels.push({ price: 30000 + k, count: 3, amount: 1.5, total: k * 1.5 });
        postMessage({ handle: "v1", levels, version: i });
      }
    }
  };`;
  const worker = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
  const run = (kind, n) =>
    new Promise((resolve) => {
      let got = 0;
      const times = [];
      worker.onmessage = (e) => {
        const t0 = performance.now();
        const d = e.data;
        const touch = kind === "typed" ? d.levels[0] : d.levels[0].price;
        times.push(performance.now() - t0 + (touch < 0 ? 1 : 0));
        if (++got === n) {
          // The mean: with a 5 µs clock, single reads are quantized; their mean is not.
          resolve((times.reduce((x, y) => x + y, 0) / times.length) * 1000);
        }
      };
      worker.postMessage({ n, kind });
    });
  await run("typed", 200); // warm-up
  await run("objects", 200);
  const typed = [];
  const objects = [];
  for (let rep = 0; rep < 5; rep++) {
    typed.push(await run("typed", 500));
    objects.push(await run("objects", 500));
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { typedViewUs: med(typed), arrayOfObjectsUs: med(objects), crossOriginIsolated: self.crossOriginIsolated };
});
await browser.close();
const out = { date: new Date().toISOString(), chromium: browser.version?.() ?? "system", ...result };
const dir =
  process.env.BENCH_RESULTS_DIR ?? join(process.env.ENTRY_DIR ?? new URL(".", import.meta.url).pathname, "results");
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, "view-latest.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `\n### view-250 in Chromium (main-thread receive per message: mean of 500, median of 5 runs; isolated clock: ${result.crossOriginIsolated})\n\ntyped-array view ${result.typedViewUs.toFixed(1)} µs; array of objects ${result.arrayOfObjectsUs.toFixed(1)} µs`,
);
