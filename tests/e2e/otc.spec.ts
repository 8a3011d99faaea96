/**
 * An OTC block trade as a new customer does it (docs/product-rules.md#otc-block-trades): a fresh
 * account (which opens with 10,000 paper dollars and 0.5 bitcoin) finds OTC in the main navigation,
 * is told a block below the minimum is too small without anything being sent, requests a quote for
 * a block of bitcoin, accepts it and sees its wallet and the history change; then lets a quote for
 * a sale run out, is told it can no longer be accepted, and requests a new one.
 */
import type { Locator } from "@playwright/test";
import { accessibleAtBothWidths, confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

/** A number as the page prints it in English ("4,350.25 USD" → 4350.25). */
const parse = (text: string | null): number => Number((text ?? "").replace(/[^0-9.]/g, ""));

async function figure(l: Locator): Promise<number> {
  return parse(await l.textContent());
}

test("a new account trades a block over the counter: minimum, quote, accept, an expired quote renewed", async ({
  page,
}) => {
  // One quote's 15 s lifetime is waited out.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await confirmedAccount(page.request, "otc", "Otc-pass-2024!");
  await page.goto("/login?back=%2Fotc");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, account.password);
  await expect(page.getByRole("heading", { level: 1, name: "OTC block trades" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "OTC" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  const usd = page.getByTestId("otc-available-USD");
  const btc = page.getByTestId("otc-available-BTC");
  await expect(usd).toHaveText("10,000");
  await expect(btc).toHaveText("0.5");
  await expect(page.getByText("No quotes yet.", { exact: false })).toBeVisible();

  // Below the minimum block: refused on the page, nothing asked of the exchange, the text kept.
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/otc/quote")) asked.push(r.url());
  });
  const amount = page.getByLabel("Amount (BTC)");
  await expect(page.getByText("Minimum block: 0.05 BTC")).toBeVisible();
  await amount.fill("0.01");
  await page.getByRole("button", { name: "Request a quote" }).click();
  await expect(page.getByRole("alert")).toHaveText("A block trade is at least 0.05 BTC.");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(amount).toHaveValue("0.01");
  expect(asked).toEqual([]);

  // A block of 0.05 BTC: the quote shows its price, its total and its countdown; Accept trades it.
  await amount.fill("0.05");
  await page.getByRole("button", { name: "Request a quote" }).click();
  const quote = page.getByRole("region", { name: "Quote" });
  await expect(quote.getByRole("timer")).toHaveText(/^Quote valid for (1[0-5]|[1-9]) s$/);
  await expect(quote.getByText(/^1 BTC = [\d,.]+ USD$/)).toBeVisible();
  const total = await figure(page.getByTestId("otc-total"));
  expect(total).toBeGreaterThan(1000);
  await quote.getByRole("button", { name: "Accept" }).click();
  await expect(page.getByTestId("otc-result")).toHaveText(/^Bought 0\.05 BTC at [\d,.]+ USD for [\d,.]+ USD\.$/);
  await expect(btc).toHaveText("0.55");
  await expect.poll(() => figure(usd)).toBeCloseTo(10_000 - total, 6);
  const history = page.getByRole("table");
  await expect(history.getByRole("row").nth(1)).toContainText("Accepted");
  await expect(history.getByRole("row").nth(1)).toContainText("Buy");
  await accessibleAtBothWidths(page, "the OTC page after a block trade");

  // A sale quoted and left to run out: Accept is disabled with the reason, and a new quote replaces it.
  await page.getByRole("radio", { name: "Sell" }).check();
  await amount.fill("0.1");
  await page.getByRole("button", { name: "Request a quote" }).click();
  await expect(quote.getByRole("timer")).toBeVisible();
  await expect(quote.getByRole("alert")).toHaveText(
    "This quote has expired: its price no longer holds. Request a new quote to trade.",
    { timeout: 20_000 },
  );
  await expect(quote.getByRole("button", { name: "Accept" })).toBeDisabled();
  await expect(history.getByRole("row").nth(1)).toContainText("Expired");
  await expect(btc).toHaveText("0.55");
  await page.getByRole("button", { name: "Request a new quote" }).click();
  await expect(quote.getByRole("timer")).toBeVisible();
  await expect(quote.getByRole("button", { name: "Accept" })).toBeEnabled();
  await expect(history.getByRole("row").nth(1)).toContainText("Open");
});
