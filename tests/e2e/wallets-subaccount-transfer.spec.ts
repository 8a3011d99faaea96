/**
 * The wallets page's transfer dialog credits a sub-account (docs/product-rules.md#sub-accounts and
 * #transfers-between-wallets): the demo account's owner opens a sub-account, then from /wallets
 * moves 40 USD from its exchange wallet to the sub-account's; its own wallet drops by 40 live, and
 * the sub-accounts page shows the 40 USD in the sub-account's balance.
 */
import type { Locator, Page } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

/** A number as the page prints it in English ("100,000.5"). */
const parse = (text: string | null): number => Number((text ?? "").replace(/,/g, ""));

function usdRow(page: Page): Locator {
  return page.getByTestId("wallet-exchange-USD");
}

test("the wallets page's transfer dialog moves money to a sub-account", async ({ page }) => {
  // The demo account is shared by the journeys: a sub-account of this run's own.
  const name = `tf_${Date.now().toString(36)}`;
  // Two page loads of account pages and two axe runs on 2 shared cores.
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Fsubaccounts");
  await acceptCookies(page);
  await page.getByLabel("E-mail or username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const create = page.getByRole("region", { name: "Create a sub-account" });
  await create.getByLabel("Name").fill(name);
  await create.getByRole("button", { name: "Create sub-account" }).click();
  await expect(create.getByRole("status")).toHaveText(`Sub-account ${name} created.`);

  await page.goto("/wallets");
  await expect(usdRow(page)).toBeVisible();
  const before = parse(await usdRow(page).locator('[data-column="balance"]').textContent());
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Transfer between wallets" });
  // The own account is the default; the sub-accounts are read when the dialog opens.
  await expect(dialog.getByLabel("To account")).toHaveValue("own");
  await dialog.getByLabel("To account").selectOption({ label: name });
  await dialog.getByLabel("From wallet").selectOption({ label: "Exchange" });
  await dialog.getByLabel("To wallet").selectOption({ label: "Exchange" });
  await dialog.getByLabel("Currency").selectOption("USD");
  await dialog.getByLabel("Amount").fill("40");
  await expectAccessible(page, "wallets transfer dialog with a sub-account, 1440 px");
  await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(dialog.getByRole("status")).toHaveText("Transfer done.");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "wallets transfer dialog with a sub-account, 390 px");
  await dialog.getByRole("button", { name: "Close" }).click();
  // The own exchange wallet gave the 40, from the account socket's update (no reload).
  await expect
    .poll(async () => parse(await usdRow(page).locator('[data-column="balance"]').textContent()))
    .toBeCloseTo(before - 40, 6);

  // The sub-account holds them: its USD balance in the list of sub-accounts.
  await page.goto("/subaccounts");
  const row = page.getByTestId("subaccounts-list").getByRole("row").filter({ hasText: name });
  await expect(row.getByRole("cell").nth(3)).toHaveText("40");
});
