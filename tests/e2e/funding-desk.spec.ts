/**
 * The funding desk as a new user meets it: /funding asks to sign in, then opens USD funding with the
 * flash return rate in the headline, the funding book's rates and periods (a coarser precision
 * groups periods into ranges), the funding trades and the candles of a period range; a currency
 * without a funding market gets the "unknown market" state with the currencies that have one; a
 * phone gets tabs instead of the grid. Accessible at 1440 and 390 px.
 */
import type { Locator, Page } from "@playwright/test";
import { confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const PASSWORD = "Funding-desk-2026!";
const RATE = /^\d+\.\d{5}%$/;

/** Candles the chart draws, through the inspector on its plot (ChartWidget.tsx). */
function candles(plot: Locator): Promise<number> {
  return plot.evaluate((el) => {
    const inspector = (el as unknown as { chartInspector?: { view(): { candles: number } } }).chartInspector;
    return inspector ? inspector.view().candles : 0;
  });
}

const book = (page: Page): Locator => page.getByRole("region", { name: "Funding book: offers above, bids below" });

test.use({ viewport: { width: 1440, height: 900 } });
// Sign-up, sign-in and six widgets on a shared machine: more than the default 30 s.
test.setTimeout(90_000);

test("a new user opens the funding desk: FRR, book rates and periods, precision, trades, candles; unknown currency; phone", async ({
  page,
  request,
}) => {
  const { username } = await confirmedAccount(request, "fdesk", PASSWORD);
  await page.goto("/funding");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/funding$/);

  // The headline: the currency and its flash return rate, live from the funding ticker.
  await expect(page.getByRole("heading", { name: "USD Funding" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Funding" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const frr = page.getByTestId("funding-frr");
  await expect(frr).toContainText("FRR");
  await expect(frr.getByText(RATE)).toBeVisible();

  // The book: offers and bids with a rate a day and a period each.
  await expect(book(page).getByText(RATE).first()).toBeVisible();
  await expect(
    book(page)
      .getByText(/^(2|3|4|5|6|7|10|14|15|20|30|60|90|120)$/)
      .first(),
  ).toBeVisible();
  // A coarser precision groups the periods offered at one rate into a range.
  await page.getByLabel("Precision").selectOption("P2");
  await expect(
    book(page)
      .getByText(/^\d+–\d+$/)
      .first(),
  ).toBeVisible();
  await page.getByLabel("Precision").selectOption("R0");
  await expect(book(page).getByText(RATE).first()).toBeVisible();

  // The tape: funding trades with their rates.
  await expect(page.getByRole("region", { name: "Market trades" }).getByText(RATE).first()).toBeVisible();

  // The candles of the default period range, then of 30-day offers alone.
  const plot = page.getByRole("region", { name: /^Rate chart/ });
  await expect.poll(() => candles(plot)).toBeGreaterThan(10);
  await page.getByLabel("Days", { exact: true }).selectOption({ label: "30" });
  await expect.poll(() => candles(plot)).toBeGreaterThan(10);
  await expectAccessible(page, "the funding desk at 1440 px");

  // A currency without a funding market: said plainly, with those that have one.
  await page.goto("/f/FOO");
  await expect(page.getByRole("heading", { name: "Unknown market" })).toBeVisible();
  await expect(page.getByText("There is no funding market for “FOO” on this exchange.")).toBeVisible();
  await page.getByRole("link", { name: "BTC", exact: true }).click();
  await expect(page).toHaveURL(/\/f\/BTC$/);
  await expect(page.getByRole("heading", { name: "BTC Funding" })).toBeVisible();

  // A phone: tabs over the same widgets.
  await page.setViewportSize({ width: 390, height: 844 });
  const tabs = page.getByRole("tablist", { name: "Funding desk" });
  await expect(tabs).toBeVisible();
  await tabs.getByRole("tab", { name: "Funding book" }).click();
  await expect(book(page).getByText(RATE).first()).toBeVisible();
  await expectAccessible(page, "the funding desk at 390 px");
});
