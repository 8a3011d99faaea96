#!/usr/bin/env node
// The README's screenshots, taken from the running product: the home page and the trading desk at a
// laptop's width, and a public page at a phone's. Start the product first (`npm start`), then
//   node scripts/readme-screenshots.mjs [BASE_URL]   (default: http://127.0.0.1:$PORT, PORT 5180 as npm start)
// It writes docs/screenshots/{home,desk,phone}.png, the files README.md shows.
import { mkdirSync } from "node:fs";
import { chromium } from "playwright";

const base = process.argv[2] ?? `http://127.0.0.1:${process.env.PORT ?? 5180}`;
const out = new URL("../docs/screenshots/", import.meta.url).pathname;
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"],
});

/** A fresh visitor at a viewport size; the cookie choice made so the banner does not cover the page. */
async function visitor(width, height) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, locale: "en-US" });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error(`[pageerror] ${e.message}`));
  await page.goto(`${base}/`);
  const necessary = page.getByRole("button", { name: "Necessary only" });
  await necessary.click({ timeout: 5000 }).catch(() => undefined);
  return { context, page };
}

async function shot(width, height, path, file, ready) {
  const { context, page } = await visitor(width, height);
  await page.goto(`${base}${path}`, { waitUntil: "networkidle" }).catch(() => undefined);
  await ready(page);
  // Live figures settle (books fill, the first candles draw).
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${out}${file}` });
  console.log(`wrote docs/screenshots/${file} (${path} at ${width}×${height})`);
  await context.close();
}

const h1 = (page) => page.getByRole("heading", { level: 1 }).first().waitFor();
await shot(1440, 900, "/", "home.png", h1);
await shot(1440, 900, "/tradedesk/BTCUSD", "desk.png", (page) =>
  page.locator("[data-desk]").first().waitFor({ timeout: 20_000 }),
);
await shot(390, 844, "/fees", "phone.png", h1);
await browser.close();
