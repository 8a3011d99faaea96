/**
 * Converting USD into USDt as a new customer does it (docs/product-rules.md#conversions): a fresh
 * account (which opens with 10,000 paper dollars) receives a bank wire of 2,500 more (the exchange's development endpoint stands in for the
 * bank), opens its wallets, and converts from the USD row. The USDt terms come first (the
 * currency-agreement dialog); once accepted the quote shows its rate, fee, what is received and
 * its countdown, and converting changes both balances live. Bad amounts are refused with their
 * message, and a quote left to run out says so and is replaced by a new one.
 */
import type { Locator, Page } from "@playwright/test";
import { AUTH, accessibleAtBothWidths, confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

const DEV = { "x-orderflow-dev": "1" };

/** A number as the page prints it in English ("1,000.5"). */
const parse = (text: string | null): number => Number((text ?? "").replace(/,/g, ""));

function row(page: Page, type: string, currency: string): Locator {
  return page.getByTestId(`wallet-${type}-${currency}`);
}

async function balanceOf(page: Page, type: string, currency: string): Promise<number> {
  const r = row(page, type, currency);
  return (await r.count()) === 0 ? 0 : parse(await r.locator('[data-column="balance"]').textContent());
}

test("a new account converts dollars into USDt: terms, quote, conversion, an expired quote renewed", async ({
  page,
  request,
}) => {
  // The quote's 15 s lifetime is waited out once.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await confirmedAccount(request, "convert", "Convert-pass-2024!");

  // A dollar wire to the account's payment reference, credited after the bank's one settlement.
  await page.goto("/login?back=%2Fdeposit%2FUSD");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, account.password);
  await expect(page.getByRole("heading", { level: 1, name: "Deposit" })).toBeVisible();
  const reference = (await page.getByTestId("deposit-reference").textContent()) ?? "";
  expect(reference).toMatch(/^OF[0-9A-Z]{12}$/);
  const wire = await request.post(`${AUTH}/dev/deposit`, {
    headers: DEV,
    data: { method: "wireusd", reference, amount: "2500" },
  });
  expect(wire.status(), await wire.text()).toBe(200);
  expect(((await wire.json()) as { state: string }).state).toBe("PENDING");

  await page.goto("/wallets");
  await expect(page.getByRole("heading", { level: 1, name: "Wallets" })).toBeVisible();
  await expect.poll(() => balanceOf(page, "exchange", "USD"), { timeout: 20_000 }).toBe(12_500);

  // From the USD row: the dialog opens on that currency and wallet, USDt to receive.
  await row(page, "exchange", "USD").getByRole("button", { name: "Convert" }).click();
  const dialog = page.getByRole("dialog", { name: "Convert currency" });
  await expect(dialog.getByLabel("Wallet")).toHaveValue("exchange");
  await expect(dialog.getByLabel("Convert from")).toHaveValue("USD");
  await expect(dialog.getByLabel("Convert to")).toHaveValue("UST");
  await expect(dialog.getByText("Available: 12,500 USD")).toBeVisible();

  // Bad amounts: each refused with its message, nothing asked of the exchange, the text kept.
  for (const [amount, message] of [
    ["abc", "Enter an amount above zero, such as 25 or 0.5."],
    ["-5", "Enter an amount above zero, such as 25 or 0.5."],
    ["0.123456789", "Use at most 8 decimals for USD."],
    ["12500.01", "The wallet does not have that much available."],
  ] as const) {
    await dialog.getByLabel("Amount").fill(amount);
    await dialog.getByRole("button", { name: "Get quote" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(message);
    await expect(dialog.getByLabel("Amount")).toHaveValue(amount);
  }
  await dialog.getByRole("button", { name: "Max" }).click();
  await expect(dialog.getByLabel("Amount")).toHaveValue("12500");
  await dialog.getByLabel("Amount").fill("100");

  // The USDt terms first: Accept only once "I have read and agree" is ticked.
  await dialog.getByRole("button", { name: "Get quote" }).click();
  const terms = page.getByRole("dialog", { name: "USDt terms" });
  await expect(terms).toBeVisible();
  await expect(terms).toContainText("USDt is a stable coin issued and redeemed by Tether");
  await expect(terms.getByRole("button", { name: "Accept" })).toBeDisabled();
  await accessibleAtBothWidths(page, "conversions, USDt terms");
  // Escape cancels the terms only: the conversion dialog stays, with what was typed.
  await page.keyboard.press("Escape");
  await expect(terms).toBeHidden();
  await expect(dialog.getByLabel("Amount")).toHaveValue("100");
  await dialog.getByRole("button", { name: "Get quote" }).click();
  await expect(terms).toBeVisible();
  await terms.getByLabel("I have read and agree").check();
  await terms.getByRole("button", { name: "Accept" }).click();
  await expect(terms).toBeHidden();

  // The quote: a dollar is one USDt, 0.1 % kept, 99.9 received, and a countdown.
  const quote = dialog.getByRole("region", { name: "Quote" });
  await expect(quote).toContainText("1 USD = 1 USDt");
  await expect(quote).toContainText("0.1 USDt (0.1%)");
  await expect(quote.getByTestId("conversion-receive")).toHaveText("99.9 USDt");
  await expect(quote.getByRole("timer")).toHaveText(/^Quote valid for \d+ s$/);
  // Converted at once: the quote holds seconds, and the accessibility check (below, on the same
  // panel once a quote has run out) takes longer than that on a loaded machine.
  await quote.getByRole("button", { name: "Convert" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Converted 100 USD into 99.9 USDt.");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  // Both balances changed, from the account socket's wallet updates (no reload).
  await expect.poll(() => balanceOf(page, "exchange", "USD")).toBe(12_400);
  await expect.poll(() => balanceOf(page, "exchange", "UST")).toBe(99.9);

  // From the toolbar, the terms already accepted: a quote left to run out says so, and a new one converts.
  await page.getByTestId("open-conversion").click();
  await dialog.getByLabel("Convert from").selectOption("USD");
  await dialog.getByLabel("Convert to").selectOption("UST");
  await dialog.getByLabel("Amount").fill("50");
  await dialog.getByRole("button", { name: "Get quote" }).click();
  await expect(quote.getByTestId("conversion-receive")).toHaveText("49.95 USDt");
  await expect(quote.getByRole("alert")).toHaveText("This quote has expired. Get a new quote to convert.", {
    timeout: 20_000,
  });
  await expect(quote.getByRole("button", { name: "Convert" })).toHaveCount(0);
  await accessibleAtBothWidths(page, "conversions, a quote that has run out");
  await dialog.getByRole("button", { name: "Get a new quote" }).click();
  await expect(quote.getByRole("timer")).toBeVisible();
  await quote.getByRole("button", { name: "Convert" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Converted 50 USD into 49.95 USDt.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect.poll(() => balanceOf(page, "exchange", "USD")).toBe(12_350);
  await expect.poll(() => balanceOf(page, "exchange", "UST")).toBe(149.85);
});
