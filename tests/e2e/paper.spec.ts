/**
 * Paper trading as a new user meets it (docs/product-rules.md#paper-trading): the header's switch
 * opens and enters the paper account (the page reloads on the paper desk, the TEST pair), the banner
 * says so on every page, a margin order on the TEST pair fills with test funds and no verification,
 * the deposit page shows the demo-block dialog, and its "Switch to live" lands on the live deposit page.
 */
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";
import { accessibleAtBothWidths, confirmedAccount, signInWithPassword } from "./account-helpers";

test("a new user trades on paper, meets the demo block and goes back to live", async ({ page, request }) => {
  // Three full page loads (sign-in and two switches) and three axe runs, one of them on the whole
  // desk, on 2 shared cores.
  test.setTimeout(120_000);
  const user = await confirmedAccount(request, "paper", "paper-trading-pw-1");
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Ft");
  await acceptCookies(page);
  await signInWithPassword(page, user.username, user.password);

  const mode = page.getByRole("group", { name: "Trading mode" });
  await expect(mode.getByRole("button", { name: "Live" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Paper trading" })).toHaveCount(0);

  // The switch reloads the page as the paper account, on paper trading's own pair.
  await mode.getByRole("button", { name: "Paper" }).click();
  const banner = page.getByRole("region", { name: "Paper trading" });
  await expect(banner).toContainText("test funds only");
  await expect(mode.getByRole("button", { name: "Paper" })).toHaveAttribute("aria-pressed", "true");
  await expect(page).toHaveURL(/\/t\/TESTBTC:TESTUSD$/);
  await expect(page.getByTestId("desk-pair")).toHaveText("TESTBTC/TESTUSD");

  // A margin buy at market: a new account trades paper margin without any verification.
  const form = page.getByRole("form", { name: /Order form/ });
  await form.getByRole("radio", { name: "Margin" }).click();
  await form.getByRole("radio", { name: "Buy" }).click();
  await page.getByTestId("order-kind").selectOption({ label: "Market" });
  await form.getByLabel("Amount", { exact: true }).fill("0.01");
  await form.getByRole("button", { name: /Buy TESTBTC/ }).click();
  await page.getByTestId("confirm-order").click();
  await expect(
    page
      .getByTestId("toast")
      .filter({ hasText: /Bought/ })
      .first(),
  ).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, "the paper desk with its banner, 1440 px");

  // Deposits are live-only: the dialog says so over the deposit page.
  await page.getByText("My account").click();
  await page.getByRole("navigation", { name: "Account pages" }).getByRole("link", { name: "Deposit" }).click();
  const dialog = page.getByRole("dialog", { name: "Not available in paper trading" });
  await expect(dialog).toContainText("Deposits are for your live account.");
  await accessibleAtBothWidths(page, "the demo-block dialog");

  // Back to live: the page reloads where the person was going, as the live account.
  await dialog.getByRole("button", { name: "Switch to live" }).click();
  await expect(mode.getByRole("button", { name: "Live" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Paper trading" })).toHaveCount(0);
  await expect(page).toHaveURL(/\/deposit$/);
  await expect(page.getByRole("dialog", { name: "Not available in paper trading" })).toHaveCount(0);
});
