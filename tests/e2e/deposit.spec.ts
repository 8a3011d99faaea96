/**
 * The deposit page as its users meet it (docs/product-rules.md#deposits): the demo account's owner
 * opens Deposit from the account menu, picks Bitcoin, sees a Bitcoin address with its QR code, sends
 * a deposit to it (the exchange's development endpoint stands in for the Bitcoin network) and watches
 * it arrive pending, confirm and be credited, the balance rising; USDt offers its two networks and
 * XRP its destination tag. An account below the verification level deposits need (a new one, set
 * to basic by the reviewer's development endpoint) gets the required-level dialog instead of an address.
 */
import type { Page } from "@playwright/test";
import {
  accessibleAtBothWidths,
  confirmedAccount,
  setVerificationLevel,
  signInWithPassword,
  simulateDeposit,
} from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

/** A number as the page prints it in English ("2.6"). */
const parse = (text: string | null): number => Number((text ?? "").replace(/[^\d.]/g, ""));

async function balance(page: Page): Promise<number> {
  return parse(await page.getByTestId("deposit-balance").locator("strong").textContent());
}

test("a Bitcoin deposit: the address and QR code, then pending, confirming and credited", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login");
  await acceptCookies(page);
  await signInWithPassword(page, "demo", "demo-password");
  await expect(page).not.toHaveURL(/\/login/);

  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Deposit", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deposit" })).toBeVisible();
  await expect(page.getByText("Choose the currency you want to deposit.")).toBeVisible();
  await page.getByLabel("Currency").selectOption("BTC");
  await expect(page).toHaveURL(/\/deposit\/BTC$/);

  // A native segwit (bech32 P2WPKH) address, its QR code, the minimum and the confirmations.
  const address = page.getByTestId("deposit-address");
  await expect(address).toHaveText(/^bc1q[02-9ac-hj-np-z]{38}$/);
  const btc = (await address.textContent()) ?? "";
  await expect(page.getByRole("img", { name: "QR code of the deposit address" })).toBeVisible();
  await expect(page.getByText("Minimum deposit: 0.0001 BTC. A smaller deposit is not credited.")).toBeVisible();
  await expect(page.getByText("Network confirmations needed before it is credited: 3.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy the address" })).toBeVisible();
  await accessibleAtBothWidths(page, "deposit, Bitcoin address");

  const before = await balance(page);
  const id = await simulateDeposit(request, { method: "bitcoin", address: btc, amount: "0.5" });
  const row = page.getByTestId(`deposit-${id}`);
  // The deposit shows up waiting, its confirmations rise, and it is credited at three.
  await expect(row).toContainText("0.5 BTC");
  await expect(row.locator('[data-column="status"]')).toHaveText(/Pending|Confirming/);
  await expect(row.locator('[data-column="confirmations"]')).toHaveText(/^[0-2]\/3$/);
  await expect(row.locator('[data-column="confirmations"]')).toHaveText("3/3", { timeout: 30_000 });
  await expect(row.locator('[data-column="status"]')).toHaveText("Credited");
  await expect.poll(() => balance(page)).toBeCloseTo(before + 0.5, 8);

  // A new address is another valid one; the old one still credits (the exchange's tests check that).
  await page.getByRole("button", { name: "New address" }).click();
  await expect(address).not.toHaveText(btc);
  await expect(address).toHaveText(/^bc1q[02-9ac-hj-np-z]{38}$/);

  // USDt arrives on two networks; XRP needs its destination tag, and says so.
  await page.getByLabel("Currency").selectOption("UST");
  await expect(page.getByRole("group", { name: "Network" })).toBeVisible();
  await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await page.getByRole("radio", { name: "Solana (SPL)" }).check();
  await expect(address).toHaveText(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  await page.getByLabel("Currency").selectOption("XRP");
  await expect(page.getByTestId("deposit-tag")).toHaveText(/^\d+$/);
  await expect(page.getByRole("note")).toContainText("The destination tag is required.");
  await accessibleAtBothWidths(page, "deposit, XRP with its destination tag");

  // A bank wire: the instructions and the account's reference.
  await page.getByLabel("Currency").selectOption("EUR");
  await expect(page.getByRole("heading", { name: "Bank wire instructions" })).toBeVisible();
  await expect(page.getByTestId("deposit-reference")).toHaveText(/^OF[0-9A-Z]{12}$/);
});

test("an account below the verification level gets the required-level dialog", async ({ page, request }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await confirmedAccount(request, "deposit", "Deposit-pass-2024!");
  // A confirmed sign-up starts above basic-plus on this exchange; the reviewer's endpoint sets it to basic.
  await setVerificationLevel(request, account.username, 0);
  await page.goto("/login?back=%2Fdeposit%2FBTC");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, account.password);
  await expect(page.getByRole("heading", { level: 1, name: "Deposit" })).toBeVisible();
  const dialog = page.getByTestId("level-gate-dialog");
  await expect(dialog.getByRole("heading", { name: "Verification needed" })).toBeVisible();
  await expect(dialog).toContainText("To deposit, your account needs the Basic plus verification level.");
  await accessibleAtBothWidths(page, "deposit, required-level dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("deposit-error")).toContainText("Deposits need a higher verification level.");
  await expect(page.getByTestId("deposit-address")).toHaveCount(0);
});
