#!/usr/bin/env node
// Developer tool: screenshots of the running app in real Chromium, to look at what we build.
// usage: node scripts/screenshot.mjs URL OUT.png [theme] [mode] [locale] [width] [height]
import { chromium } from "playwright";

const [url, out, theme, mode, locale, width = "1280", height = "800"] = process.argv.slice(2);
if (!url || !out) {
  console.error("usage: node scripts/screenshot.mjs URL OUT.png [theme] [mode] [locale] [width] [height]");
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
// SHOT_MOBILE=1 emulates a phone (touch, mobile viewport); SHOT_CLICK=selector taps (or clicks) that
// element once the page is ready and themed, before the shot.
const mobile = process.env.SHOT_MOBILE === "1";
const page = await browser.newPage({
  viewport: { width: Number(width), height: Number(height) },
  ...(mobile ? { hasTouch: true, isMobile: true } : {}),
});
page.on("console", (m) => console.log(`[console.${m.type()}] ${m.text()}`));
page.on("pageerror", (e) => console.log(`[pageerror] ${e.message}`));
// SHOT_TOKEN=… acts as a logged-in user; SHOT_OPEN_DISPLAY=1 leaves the display menu open.
if (process.env.SHOT_TOKEN) {
  const token = process.env.SHOT_TOKEN;
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
}
await page.goto(url, { waitUntil: "networkidle" });
if (locale) await page.getByTestId("locale-select").selectOption(locale);
if (theme || mode) await page.getByTestId("display-menu").click();
if (theme) await page.getByTestId("theme-select").selectOption(theme);
if (mode) await page.getByTestId("mode-select").selectOption(mode);
if (theme || mode) await page.keyboard.press("Escape");
if (process.env.SHOT_OPEN_DISPLAY) await page.getByTestId("display-menu").click();
// Several selectors separated by "|" are tapped in turn (e.g. the cookie banner's button, then a tab).
for (const selector of process.env.SHOT_CLICK?.split("|") ?? []) {
  const target = page.locator(selector).first();
  if (mobile) await target.tap();
  else await target.click();
}
await page.waitForTimeout(400);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
