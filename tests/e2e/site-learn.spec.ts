/**
 * A visitor reads the guides: how to buy bitcoin with its live price, a step's link to the real
 * page, the price's error state, and each guide, app, tools and partner page at desktop and phone
 * width.
 */
import type { Page } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const USD = new Intl.NumberFormat("en", { style: "currency", currency: "USD", maximumFractionDigits: 2 });

/** Every price the exchange answered on `/v2/ticker/{symbol}`, in order. */
function recordTicker(page: Page, symbol: string): { url: string; price: number }[] {
  const answers: { url: string; price: number }[] = [];
  page.on("response", (res) => {
    if (!res.url().endsWith(`/v2/ticker/${symbol}`) || !res.ok()) return;
    void res.json().then((row: unknown) => {
      if (Array.isArray(row) && typeof row[6] === "number") answers.push({ url: res.url(), price: row[6] });
    });
  });
  return answers;
}

test("a visitor learns how to buy bitcoin at the live price and follows a step", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const answers = recordTicker(page, "tBTCUSD");
  await page.goto("/how-to-buy-bitcoin");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How to buy bitcoin");

  // The price shown is the exchange's last answer for tBTCUSD, and near what it answers us now.
  const shown = page.getByTestId("coin-price");
  await expect(shown).toBeVisible();
  await expect
    .poll(async () => {
      const last = answers.at(-1);
      return last !== undefined && (await shown.textContent()) === USD.format(last.price);
    })
    .toBe(true);
  // The exchange's own address for the ticker (its API is on another port than the pages).
  const url = answers.at(-1)?.url ?? "";
  const row = (await (await page.request.get(url)).json()) as unknown[];
  const now = Number(row[6]);
  const onPage = Number(await shown.getAttribute("data-price"));
  expect(Math.abs(onPage - now) / now).toBeLessThan(0.05);
  await expect(page.getByText("Last price on BTC/USD")).toBeVisible();

  const steps = page.getByRole("region", { name: "Five steps to your first BTC" });
  await expect(steps.getByRole("heading", { level: 3 })).toHaveText([
    "Open an account",
    "Verify your identity",
    "Deposit US dollars",
    "Place your first order",
    "Keep it or withdraw it",
  ]);
  await expect(steps.getByRole("link", { name: "BTC deposit address" })).toHaveAttribute("href", "/deposit/BTC");
  await expect(steps.getByRole("link", { name: "BTC/USD market" })).toHaveAttribute("href", "/tradedesk/BTCUSD");
  await expect(steps.getByRole("link", { name: "withdraw BTC" })).toHaveAttribute("href", "/withdraw/BTC");
  await expectAccessible(page, "how to buy bitcoin at 1440 px");

  await steps.getByRole("link", { name: "Sign up", exact: true }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Create your account");
});

test("the price says when the exchange does not answer, and tries again", async ({ page }) => {
  await page.route("**/v2/ticker/tETHUSD", (route) => route.fulfill({ status: 503, body: "[]" }));
  await page.goto("/how-to-buy-ethereum");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("How to buy ethereum");
  await expect(page.getByRole("alert")).toContainText("the ETH/USD price cannot be shown right now");
  await expect(page.getByTestId("coin-price")).toHaveCount(0);

  await page.unroute("**/v2/ticker/tETHUSD");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("coin-price")).toHaveText(/^\$[\d,]+(\.\d{1,2})?$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

const PAGES: readonly { path: string; h1: string; text: string }[] = [
  { path: "/how-to-buy-bitcoin", h1: "How to buy bitcoin", text: "supply is capped at 21 million coins" },
  { path: "/how-to-buy-ethereum", h1: "How to buy ethereum", text: "runs programs called smart contracts" },
  { path: "/how-to-buy-litecoin", h1: "How to buy litecoin", text: "supply cap of 84 million coins" },
  { path: "/verification", h1: "Verification", text: "each at its US dollar value when you requested it" },
  { path: "/pro", h1: "Orderflow Pro: the trading desk", text: "250 price levels a side" },
  { path: "/mobile-trading", h1: "Mobile trading", text: "Orderflow is an installable web app." },
  { path: "/app", h1: "The Orderflow app", text: "We do not publish an app in the App Store or Google Play." },
  { path: "/download", h1: "Download Orderflow", text: "Tap Share, then Add to Home Screen." },
  { path: "/utilities", h1: "Trading tools", text: "an optional list of IP addresses" },
  { path: "/buy-with-cards", h1: "Buy crypto with a card", text: "No card partner is connected to Orderflow yet" },
  { path: "/bitrefill/start", h1: "Spend crypto with Bitrefill", text: "it needs verification level 2" },
];

for (const width of [1440, 390]) {
  test(`every guide, app and tools page reads well at ${width} px`, async ({ page }) => {
    // Eleven pages, each with an accessibility analysis: a minute and more on a loaded machine.
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/verification");
    await acceptCookies(page);
    for (const p of PAGES) {
      await page.goto(p.path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(p.h1);
      await expect(page.getByText(p.text)).toBeVisible();
      // The page's content is never wider than the screen (a wide table scrolls inside its own box).
      const main = page.getByRole("main");
      expect(await main.evaluate((m) => m.scrollWidth <= m.clientWidth)).toBe(true);
      await expectAccessible(page, `${p.path} at ${width} px`);
    }
  });
}

test("the verification levels are the limits the exchange enforces", async ({ page }) => {
  await page.goto("/verification");
  await acceptCookies(page);
  const table = page.getByTestId("level-rules");
  await expect(table.getByRole("row")).toHaveCount(5);
  await expect(table.getByRole("row", { name: /Basic plus/ })).toContainText("YesNoNo—");
  await expect(table.getByRole("row", { name: /Intermediate/ })).toContainText("$50,000");
  await expect(table.getByRole("row", { name: /Full/ })).toContainText("$1,000,000");
  await expect(page.getByText("A withdrawal worth $1,000 or more must also name its recipient")).toBeVisible();
});
