/**
 * Sub-accounts, as the demo account's owner uses them (docs/product-rules.md#sub-accounts): create
 * one (the form checks the name first), move funds into it, switch to it (the page reloads, the
 * header says which account this is, the desk shows its balances), view it read-only (a transfer
 * is refused by the exchange with a clear message), and switch back to the main account.
 */
import type { Page } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

async function signIn(page: Page): Promise<void> {
  await page.goto("/login?back=%2Fsubaccounts");
  await acceptCookies(page);
  await page.getByLabel("E-mail or username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sub-accounts" })).toBeVisible();
}

test("create a sub-account, fund it, act as it, read-only, and back", async ({ page }) => {
  // The demo account is shared by the journeys: a name of this run's own.
  const name = `sub_${Date.now().toString(36)}`;
  // Four full page loads (two switches, the desk, back) and four axe runs on 2 shared cores.
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await expect(page.getByTestId("acting-as")).toHaveCount(0);

  const create = page.getByRole("region", { name: "Create a sub-account" });
  await create.getByLabel("Name").fill("x");
  await create.getByRole("button", { name: "Create sub-account" }).click();
  await expect(create.getByText("Use 3 to 32 letters, digits or underscores.")).toBeVisible();
  await create.getByLabel("Name").fill(name);
  await create.getByLabel("Used for").selectOption({ label: "Trading" });
  await create.getByRole("button", { name: "Create sub-account" }).click();
  await expect(create.getByRole("status")).toHaveText(`Sub-account ${name} created.`);
  const list = page.getByTestId("subaccounts-list");
  await expect(list.getByRole("row").filter({ hasText: name })).toContainText("Full access");

  const move = page.getByRole("region", { name: "Move funds to a sub-account" });
  await move.getByLabel("To account").selectOption({ label: name });
  await move.getByLabel("Currency").selectOption("USD");
  await move.getByLabel("Amount").fill("12.5.0");
  await move.getByRole("button", { name: "Transfer" }).click();
  await expect(move.getByText("Enter an amount above zero, such as 25 or 0.5.")).toBeVisible();
  await move.getByLabel("Amount").fill("250");
  await move.getByRole("button", { name: "Transfer" }).click();
  await expect(move.getByRole("status")).toHaveText("Transfer done.");
  await expect(page.getByTestId("combined-balances")).toBeVisible();
  await expectAccessible(page, "sub-accounts (main account), 1440 px");

  // Switching reloads the page as the sub-account.
  await list.getByRole("button", { name: `Switch to ${name}` }).click();
  await expect(page.getByTestId("acting-as")).toHaveText(`Acting as ${name}`);
  await expect(page.getByRole("heading", { name: `You are acting as ${name}` })).toBeVisible();
  await expect(page.getByTestId("own-balances").getByRole("row").filter({ hasText: "USD" })).toContainText("250");
  await expectAccessible(page, "sub-accounts (acting as a sub-account), 1440 px");

  // The desk is the sub-account's: its 250 USD, nothing of the main account's balances.
  await page.goto("/tradedesk/BTCUSD");
  const usd = page.getByTestId("table-balances").locator('tr[data-row="exchange:USD"]');
  await expect(usd).toContainText("250");
  await expect(page.getByTestId("table-balances").locator('tr[data-row="exchange:BTC"]')).toHaveCount(0);
  await expect(page.getByTestId("acting-as")).toHaveText(`Acting as ${name}`);

  // Back to the main account, then into the sub-account read-only.
  await page.goto("/subaccounts");
  await page.getByRole("button", { name: "Switch back to the main account" }).click();
  await expect(page.getByTestId("acting-as")).toHaveCount(0);
  await expect(page.getByTestId("subaccounts-list")).toBeVisible();
  await page.getByRole("button", { name: `View ${name} read-only` }).click();
  await expect(page.getByTestId("acting-as")).toHaveText(`Acting as ${name} (read-only)`);
  const back = page.getByRole("region", { name: "Move funds to the main account" });
  await back.getByLabel("Currency").selectOption("USD");
  await back.getByLabel("Amount").fill("10");
  await back.getByRole("button", { name: "Transfer" }).click();
  await expect(back.getByRole("alert")).toHaveText(
    "You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make changes.",
  );
  await expect(page.getByTestId("own-balances").getByRole("row").filter({ hasText: "USD" })).toContainText("250");

  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "sub-accounts (read-only context), 390 px");
  await page.getByRole("button", { name: "Switch back to the main account" }).click();
  await expect(page.getByTestId("acting-as")).toHaveCount(0);
  await expect(page.getByTestId("subaccounts-list").getByRole("row").filter({ hasText: name })).toBeVisible();
  await expectAccessible(page, "sub-accounts (main account), 390 px");
});
