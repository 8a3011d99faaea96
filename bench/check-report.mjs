/**
 * Opens a bench report in Chromium from disk with the network cut off (it must need none), and
 * says what is wrong with it: console errors, page errors, requests leaving the file, charts not
 * drawn (each chart's uPlot canvas must exist, have a size and carry drawn pixels). Used by the
 * smoke step of `npm test` (scripts/bench-smoke.mjs); `node bench/check-report.mjs FILE` by hand.
 */
import { pathToFileURL } from "node:url";
import { chromium } from "playwright";

/** @returns {Promise<{ problems: string[], charts: number }>} */
export async function checkReport(file, options = {}) {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const problems = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.route(/^(?!file:)/, (route) => {
      problems.push(`network request: ${route.request().url()}`);
      return route.abort();
    });
    await page.goto(pathToFileURL(file).href);
    await page.waitForLoadState("load");
    const charts = await page.evaluate(() => {
      const out = [];
      for (const el of document.querySelectorAll(".chart")) {
        const canvas = el.querySelector("canvas");
        let inked = 0;
        if (canvas && canvas.width > 0 && canvas.height > 0) {
          const data = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
          for (let i = 3; i < data.length; i += 4) if (data[i] > 0) inked++;
        }
        out.push({ id: el.id, canvas: Boolean(canvas), inked });
      }
      return {
        list: out,
        expected: Number(document.body.dataset["charts"] ?? -1),
        drawn: Number(document.body.dataset["chartsDrawn"] ?? -1),
      };
    });
    if (charts.expected !== charts.list.length)
      problems.push(`${charts.list.length} chart boxes, ${charts.expected} chart specs`);
    if (charts.drawn !== charts.expected) problems.push(`${charts.drawn} of ${charts.expected} charts drawn`);
    for (const c of charts.list) {
      if (!c.canvas) problems.push(`chart ${c.id}: no canvas`);
      // Axes, grid and at least one series: a chart with only a few hundred pixels inked is empty.
      else if (c.inked < 2000) problems.push(`chart ${c.id}: only ${c.inked} pixels drawn`);
    }
    for (const id of options.mustHave ?? [])
      if (!charts.list.some((c) => c.id === id)) problems.push(`chart ${id} missing`);
    if (options.screenshot) await page.screenshot({ path: options.screenshot, fullPage: true });
    return { problems, charts: charts.list.length };
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write("usage: node bench/check-report.mjs REPORT.html [--screenshot=FILE.png]\n");
    process.exit(2);
  }
  const shot = process.argv.find((a) => a.startsWith("--screenshot="))?.slice(13);
  const r = await checkReport(file, { screenshot: shot });
  process.stdout.write(`${r.charts} charts; ${r.problems.length ? r.problems.join("\n") : "no problems"}\n`);
  process.exit(r.problems.length ? 1 : 0);
}
