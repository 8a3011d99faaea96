/**
 * The funding desk's account side, as a new user meets it: with 1 000 USD moved to the funding
 * wallet, a lend offer placed from the form is taken by a simulated borrower (`/dev/funding/take`)
 * and becomes a credit, which pays its first interest after one funding day (`FUNDING_DAY_MS` in
 * playwright.config.ts) — the summary's "Interest earned" shows it; an expensive borrow asks first
 * and becomes a loan; a resting offer is cancelled; a bad amount is refused in words and places
 * nothing. Accessible at 1440 and 390 px; screenshots at both widths and in Chinese.
 */
import type { Page } from "@playwright/test";
import { API, AUTH, confirmedAccount, DEV_HEADERS, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const PASSWORD = "Funding-account-2026!";

test.use({ viewport: { width: 1440, height: 900 } });

const form = (page: Page) => page.getByRole("form", { name: "Funding offer, USD" });
const records = (page: Page) => page.getByRole("region", { name: "Funding, USD" });

test("a new user lends, earns, borrows, cancels and is told what is wrong", async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const { username } = await confirmedAccount(request, "flend", PASSWORD);
  const login = await request.post(`${API}/v2/login`, { data: { login: username, password: PASSWORD } });
  const [token] = (await login.json()) as [string];
  const moved = await request.post(`${AUTH}/v2/auth/w/transfer`, {
    headers: { "bfx-token": token },
    data: { from: "exchange", to: "funding", currency: "USD", amount: "1000" },
  });
  expect(moved.status(), await moved.text()).toBe(200);

  await page.goto("/login?back=%2Ff%2FUSD");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/f\/USD$/);

  // 1. A lend offer at 1 % a day: far above what the simulated borrowers bid, so it rests.
  const offer = form(page);
  await expect(offer.getByText("Available 1000")).toBeVisible();
  await offer.getByLabel("Rate, % a day").fill("1");
  await offer.getByLabel("Period, days").fill("30");
  await offer.getByLabel("Amount, USD").fill("200");
  await offer.getByRole("button", { name: "Lend USD" }).click();
  await expect(offer.getByRole("status")).toHaveText("Offer placed.");
  const lendRow = records(page).getByTestId("funding-offers").locator("tbody tr").filter({ hasText: "1.0000 %" });
  await expect(lendRow).toHaveCount(1);
  const lendId = Number(await lendRow.getAttribute("data-row"));

  // 2. A borrower takes it: a credit at that rate, which pays after one (short) funding day.
  const taken = await request.post(`${AUTH}/dev/funding/take`, { headers: DEV_HEADERS, data: { id: lendId } });
  expect(taken.status(), await taken.text()).toBe(200);
  await expect(lendRow).toHaveCount(0);
  await records(page).getByRole("tab", { name: "Credits" }).click();
  await expect(
    records(page).getByTestId("funding-credits").locator("tbody tr").filter({ hasText: "1.0000 %" }),
  ).toHaveCount(1);
  // 200 USD × 1 % for each day paid, less the platform's 15 %: 1.7 USD a day.
  const earned = async (): Promise<number> =>
    Number(/([\d.]+) USD/.exec(await page.getByTestId("funding-earned").innerText())?.[1] ?? 0);
  await expect.poll(earned, { timeout: 30_000 }).toBeGreaterThan(0);
  const days = (await earned()) / 1.7;
  expect(Math.abs(days - Math.round(days))).toBeLessThan(1e-6);
  await expect(page.getByTestId("funding-yield-lend")).toContainText("1.0000 % a day");

  // 3. Bad input: said in words under the field, and nothing is placed.
  await offer.getByLabel("Amount, USD").fill("12abc");
  await offer.getByRole("button", { name: "Lend USD" }).click();
  await expect(offer.getByText("Enter a number.")).toBeVisible();
  await expect(offer.getByLabel("Amount, USD")).toHaveAttribute("aria-invalid", "true");
  await offer.getByLabel("Amount, USD").fill("20");
  await expect(offer.getByText("The minimum is 150 USD (150 USD).")).toBeVisible();
  await records(page).getByRole("tab", { name: "Offers" }).click();
  await expect(records(page).getByText("No open offers.")).toBeVisible();

  // 4. An expensive borrow (1 % a day) asks first, then becomes a loan.
  await offer.getByRole("radio", { name: "Borrow" }).click();
  await offer.getByLabel("Period, days").fill("2");
  await offer.getByLabel("Amount, USD").fill("300");
  await offer.getByRole("button", { name: "Borrow USD" }).click();
  const warning = page.getByRole("dialog", { name: "This loan is expensive" });
  await expect(warning).toContainText("1.0000 % a day (365.00 % a year)");
  await warning.getByRole("button", { name: "Borrow anyway" }).click();
  await expect(offer.getByRole("status")).toHaveText("Offer placed.");
  await records(page).getByRole("tab", { name: "Loans" }).click();
  // Filled by the simulated lenders' offers, at their (lower) rates: a loan for each one taken.
  await expect(records(page).getByTestId("funding-loans").locator("tbody tr").first()).toBeVisible();

  // 5. A cheap borrow rests (nobody lends that low) and is cancelled.
  await offer.getByLabel("Rate, % a day").fill("0.0001");
  await offer.getByLabel("Amount, USD").fill("150");
  await offer.getByRole("button", { name: "Borrow USD" }).click();
  await expect(offer.getByRole("status")).toHaveText("Offer placed.");
  await records(page).getByRole("tab", { name: "Offers" }).click();
  const cheap = records(page).getByTestId("funding-offers").locator("tbody tr").filter({ hasText: "0.0001 %" });
  await expect(cheap).toHaveCount(1);
  await cheap.getByRole("button", { name: /^Cancel offer \d+$/ }).click();
  await expect(cheap).toHaveCount(0);

  // 6. Accessible, and looked at: both widths, then in Chinese.
  await expectAccessible(page, "the funding account widgets at 1440 px");
  await page.screenshot({ path: info.outputPath("funding-account-1440.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("tab", { name: /New offer/ }).click();
  await expect(form(page)).toBeVisible();
  await expectAccessible(page, "the funding account widgets at 390 px");
  await page.screenshot({ path: info.outputPath("funding-account-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/f/USD?locale=zh-CN");
  await expect(page.getByRole("form", { name: "融资报价，USD" })).toBeVisible();
  await expect(page.getByTestId("funding-earned")).toContainText("已赚利息");
  await page.screenshot({ path: info.outputPath("funding-account-zh-CN.png"), fullPage: true });
});
