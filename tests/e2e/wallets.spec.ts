/**
 * The wallets page as the demo account's owner uses it (docs/product-rules.md#wallets-and-ledgers):
 * every wallet with its value — BRL, EUR, JPY and TRY included — and the totals in USD, then in EUR;
 * hiding small balances below a chosen threshold; a transfer from the exchange wallet to the margin
 * wallet that changes both balances live (the account socket's wallet updates), and bad amounts
 * refused with a clear message and nothing moved.
 */
import type { Locator, Page } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

async function signIn(page: Page): Promise<void> {
  await page.goto("/login?back=%2Fwallets");
  await acceptCookies(page);
  await page.getByLabel("E-mail or username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Wallets" })).toBeVisible();
}

/** A number as the page prints it in English ("100,000.5"). */
const parse = (text: string | null): number => Number((text ?? "").replace(/,/g, ""));

/** The row of one wallet (`type` as the page names it: Exchange, Margin, …). */
function row(page: Page, type: string, currency: string): Locator {
  return page.getByTestId(`wallet-${type.toLowerCase()}-${currency}`);
}

async function balanceOf(page: Page, type: string, currency: string): Promise<number> {
  const r = row(page, type, currency);
  return (await r.count()) === 0 ? 0 : parse(await r.locator('[data-column="balance"]').textContent());
}

test("wallets with their value, totals in USD then EUR, small balances hidden, a transfer", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);

  // Every currency has a value in USD: the fiat ones too (the exchange converts them through BTC).
  const table = page.getByTestId("wallets-table");
  await expect(table.getByRole("columnheader", { name: "Value (USD)" })).toBeVisible();
  for (const ccy of ["BRL", "EUR", "JPY", "TRY", "BTC"]) {
    const value = row(page, "Exchange", ccy).locator('[data-column="value"]');
    await expect(value).toHaveText(/^[\d,]+\.\d{2}$/);
    expect(parse(await value.textContent())).toBeGreaterThan(0);
  }
  await expect(row(page, "Exchange", "EUR").getByRole("rowheader")).toContainText("Euro");
  const aum = page.getByTestId("wallets-aum");
  await expect(aum).toContainText(/[\d,]+\.\d{2} USD/);
  const aumUsd = parse((await aum.getByRole("paragraph").textContent())?.replace(" USD", "") ?? "");
  await expectAccessible(page, "wallets, 1440 px");

  // The totals in EUR: the EUR wallet is worth its own balance, and the total is smaller in EUR.
  await page.getByLabel("Show values in").selectOption("EUR");
  await expect(table.getByRole("columnheader", { name: "Value (EUR)" })).toBeVisible();
  await expect(aum).toContainText(/[\d,]+\.\d{2} EUR/);
  const eurBalance = await balanceOf(page, "Exchange", "EUR");
  await expect(row(page, "Exchange", "EUR").locator('[data-column="value"]')).toHaveText(
    eurBalance.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  );
  const aumEur = parse((await aum.getByRole("paragraph").textContent())?.replace(" EUR", "") ?? "");
  expect(aumEur).toBeGreaterThan(0);
  expect(aumEur).toBeLessThan(aumUsd);

  // Bitcoin view: values in BTC, the BTC wallet worth its own balance; off again.
  await page.getByRole("button", { name: "Bitcoin view" }).click();
  await expect(table.getByRole("columnheader", { name: "Value (BTC)" })).toBeVisible();
  const btc = await balanceOf(page, "Exchange", "BTC");
  await expect(row(page, "Exchange", "BTC").locator('[data-column="value"]')).toHaveText(
    btc.toLocaleString("en", { minimumFractionDigits: 8, maximumFractionDigits: 8 }),
  );
  await page.getByRole("button", { name: "Bitcoin view" }).click();
  await expect(table.getByRole("columnheader", { name: "Value (EUR)" })).toBeVisible();

  // Hide small balances: below 1000, the 2 BTC go; a bad threshold is refused.
  await page.getByRole("button", { name: "Wallet settings" }).click();
  const settings = page.getByRole("dialog", { name: "Wallet settings" });
  await expect(settings.getByLabel("Hide small balances")).toBeChecked();
  await settings.getByLabel("Hide balances below").fill("lots");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings.getByText("Enter a number from 0 to 1000, such as 0.00001.")).toBeVisible();
  await settings.getByLabel("Hide balances below").fill("1000");
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(settings).toBeHidden();
  await expect(row(page, "Exchange", "BTC")).toHaveCount(0);
  await expect(table.locator("caption")).toContainText("small balances hidden, below 1000");
  await page.getByRole("button", { name: "Wallet settings" }).click();
  await settings.getByLabel("Hide small balances").uncheck();
  await settings.getByRole("button", { name: "Save" }).click();
  await expect(row(page, "Exchange", "BTC")).toHaveCount(1);

  // A transfer from the exchange wallet to the margin wallet: bad amounts first, then 250 EUR.
  const exchangeBefore = await balanceOf(page, "Exchange", "EUR");
  const marginBefore = await balanceOf(page, "Margin", "EUR");
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Transfer between wallets" });
  await dialog.getByLabel("From wallet").selectOption({ label: "Exchange" });
  await dialog.getByLabel("To wallet").selectOption({ label: "Margin" });
  await dialog.getByLabel("Currency").selectOption("EUR");
  for (const [amount, message] of [
    ["abc", "Enter an amount above zero, such as 25 or 0.5."],
    ["-5", "Enter an amount above zero, such as 25 or 0.5."],
    ["Infinity", "Enter an amount above zero, such as 25 or 0.5."],
    ["0.123456789", "Use at most 8 decimals for EUR."],
    [String(exchangeBefore + 1), "The source wallet does not have that much available."],
  ] as const) {
    await dialog.getByLabel("Amount").fill(amount);
    await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText(message);
  }
  await dialog.getByLabel("Amount").fill("250");
  await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(dialog.getByRole("status")).toHaveText("Moved 250 EUR from Exchange to Margin.");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "wallets transfer dialog, 390 px");
  await dialog.getByRole("button", { name: "Close" }).click();
  // Both wallets changed, from the account socket's updates (no reload).
  await expect.poll(() => balanceOf(page, "Exchange", "EUR")).toBeCloseTo(exchangeBefore - 250, 6);
  await expect.poll(() => balanceOf(page, "Margin", "EUR")).toBeCloseTo(marginBefore + 250, 6);
  await expectAccessible(page, "wallets, 390 px");
});
