/**
 * The withdrawal page as a new user meets it (docs/product-rules.md#withdrawals): an account at the
 * intermediate level turns on an authenticator app, receives a Bitcoin deposit (the exchange's
 * development endpoint stands in for the network), adds and confirms an address in the book, then
 * on /withdraw sees a mistyped address's reason, the amount's mistakes refused before anything is
 * sent, withdraws with the app's code, confirms by the mailed link and watches the withdrawal go
 * pending, processing and completed while the wallet drops by the amount; a second one cancelled
 * before it is confirmed gives the money back. An account below the level gets the required-level
 * dialog instead of the form.
 */
import type { Page } from "@playwright/test";
import {
  accessibleAtBothWidths,
  addConfirmedAddress,
  confirmedAccount,
  mailedLink,
  setVerificationLevel,
  signInWithPassword,
  simulateDeposit,
  turnOnAuthenticator,
} from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

const PASSWORD = "Withdraw-pass-2024!";
/** A real mainnet segwit address (v0, 20 bytes). */
const ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
/** EIP-55's own example address, and the same with one letter's case flipped (its checksum broken). */
const ETH_VALID = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const ETH_TYPO = "0x5aAeb6053f3E94C9b9A09f33669435E7Ef1BeAed";

/** A number as the page prints it in English ("0.4"). */
const parse = (text: string | null): number => Number((text ?? "").replace(/[^\d.]/g, ""));

async function available(page: Page): Promise<number> {
  return parse(await page.getByTestId("withdraw-available").locator("strong").textContent());
}

test("withdraws Bitcoin to a confirmed address: mistakes refused, the mailed link, the lifecycle and a cancel", async ({
  page,
  request,
}) => {
  // Two-factor set-up, a deposit's confirmations, a mailed address, four one-time codes (one per
  // 30 s step) and a withdrawal's steps: far longer than the 30 s default.
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { username, email } = await confirmedAccount(request, "wd", PASSWORD);
  await setVerificationLevel(request, username, 2);
  await page.goto("/login?back=%2Fsecurity");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);

  // Withdrawals need a second factor: the authenticator app, as the security page sets it up.
  const app = await turnOnAuthenticator(page, request, { email, password: PASSWORD });

  // A Bitcoin deposit to the account's address, credited after its confirmations.
  await page.goto("/deposit/BTC");
  const depositAddress = (await page.getByTestId("deposit-address").textContent()) ?? "";
  expect(depositAddress).toMatch(/^bc1q/);
  const depositId = await simulateDeposit(request, { method: "bitcoin", address: depositAddress, amount: "0.5" });
  await expect(page.getByTestId(`deposit-${depositId}`).locator('[data-column="status"]')).toHaveText("Credited", {
    timeout: 30_000,
  });

  // The address goes in the book and is confirmed by its mailed link (which turns the BTC whitelist on).
  await addConfirmedAddress(
    page,
    request,
    { email, password: PASSWORD, app },
    { label: "Cold storage", address: ADDRESS },
  );

  // Withdraw, from the account menu next to Deposit.
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Withdraw", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Withdraw" })).toBeVisible();
  await expect(page.getByText("Choose the currency you want to withdraw.")).toBeVisible();

  // A typed address is checked by the exchange as it is typed, its reason in words (ETH: no whitelist on).
  await page.getByLabel("Currency").selectOption("ETH");
  await expect(page).toHaveURL(/\/withdraw\/ETH$/);
  const form = page.getByTestId("withdraw-form");
  await form.getByLabel("Address", { exact: true }).fill(ETH_TYPO);
  await expect(form.getByText("The address's checksum does not match")).toBeVisible();
  await form.getByLabel("Address", { exact: true }).fill(ETH_VALID);
  await expect(form.getByText("A valid Ethereum (ERC-20) address.")).toBeVisible();

  await page.getByLabel("Currency").selectOption("BTC");
  await expect(page).toHaveURL(/\/withdraw\/BTC$/);
  await expect(form.getByText("The whitelist is on for BTC")).toBeVisible();
  await expect(form.getByLabel("From your address book")).toHaveValue(/\d+/);
  await expect(form.getByTestId("withdraw-book-address")).toHaveText(ADDRESS);
  // The deposit is in the exchange wallet, beside whatever a new account starts with.
  await expect.poll(() => available(page)).toBeGreaterThanOrEqual(0.5);
  const start = await available(page);
  const history = page.getByTestId("withdraw-history");
  await expect(history).toContainText("No withdrawals yet.");
  await accessibleAtBothWidths(page, "/withdraw/BTC with its form");

  // The amount's mistakes are said beside it, and Withdraw sends nothing.
  const amount = form.getByLabel("Amount", { exact: true });
  const amountError = form.getByTestId("withdraw-amount-error");
  const code = form.getByLabel("Authenticator code");
  await code.fill("123456");
  for (const [typed, said] of [
    ["0.0001", "The minimum withdrawal is 0.0005 BTC."],
    [String(start + 1), "The wallet does not have that much available."],
    ["0.123456789", "Use at most 8 decimals."],
  ] as const) {
    await amount.fill(typed);
    await expect(amountError).toHaveText(said);
    await form.getByRole("button", { name: "Withdraw", exact: true }).click();
    await expect(amountError).toHaveText(said);
  }
  await expect(form.getByTestId("withdraw-sent")).toHaveCount(0);
  await expect(history).toContainText("No withdrawals yet.");
  expect(await available(page)).toBeCloseTo(start, 8);

  // A valid one: the fee comes off what arrives; worth more than 1,000 USD, it carries the travel rule.
  await amount.fill("0.1");
  await expect(amountError).toHaveText("");
  await expect(form.getByTestId("withdraw-receive")).toHaveText("0.0996 BTC");
  const travel = form.getByTestId("withdraw-travel-rule");
  await expect(travel.getByRole("radio", { name: "I do: it is my own wallet" })).toBeChecked();
  await travel
    .getByRole("checkbox", {
      name: "I confirm that the address is a self-hosted wallet and that its owner controls it.",
    })
    .check();
  await code.fill(await app.next());
  await form.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(form.getByTestId("withdraw-sent")).toContainText(
    "Check your e-mail to confirm the withdrawal of 0.1 BTC",
  );
  await expect.poll(() => available(page)).toBeCloseTo(start - 0.1, 8);
  const first = history.getByRole("row").nth(1);
  await expect(first.locator('[data-column="status"]')).toHaveText("Waiting for e-mail confirmation");
  await expect(first.locator('[data-column="amount"]')).toHaveText("0.0996 BTC");

  // The mailed link shows what it confirms and acts only on the button.
  const link = await mailedLink(request, email, "/withdraw?confirm=");
  await page.goto(link);
  const confirm = page.getByTestId("withdraw-confirm");
  await expect(confirm.getByTestId("withdraw-confirm-amount")).toContainText("BTC");
  await expect(confirm).toContainText(ADDRESS);
  await accessibleAtBothWidths(page, "/withdraw?confirm= before the button");
  await confirm.getByRole("button", { name: "Confirm the withdrawal" }).click();
  await expect(page.getByTestId("withdraw-confirmed")).toBeVisible();
  await expect(page).toHaveURL(/\/withdraw\/BTC$/);

  // Pending, then processing, then completed with its transaction, as the exchange's clock moves it.
  const status = history.getByRole("row").nth(1).locator('[data-column="status"]');
  const seen: string[] = [];
  await expect
    .poll(
      async () => {
        const now = (await status.textContent()) ?? "";
        if (seen.at(-1) !== now) seen.push(now);
        return now;
      },
      { timeout: 30_000, intervals: [200] },
    )
    .toBe("Completed");
  expect(seen).toContain("Processing");
  expect(["Pending", "Processing"]).toContain(seen[0]);
  await expect(history.getByRole("row").nth(1).locator('[data-column="transaction"]')).not.toHaveText("—");
  expect(await available(page)).toBeCloseTo(start - 0.1, 8);

  // A second withdrawal, cancelled before its link is opened: the amount comes back.
  await amount.fill("0.005");
  await code.fill(await app.next());
  await form.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(form.getByTestId("withdraw-sent")).toContainText("Check your e-mail");
  await expect.poll(() => available(page)).toBeCloseTo(start - 0.105, 8);
  const second = history.getByRole("row").nth(1);
  await expect(second.locator('[data-column="status"]')).toHaveText("Waiting for e-mail confirmation");
  await second.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByText("The withdrawal is cancelled and its amount is back in your wallet.")).toBeVisible();
  await expect(second.locator('[data-column="status"]')).toHaveText("Cancelled");
  await expect.poll(() => available(page)).toBeCloseTo(start - 0.1, 8);
});

test("an account below the verification level gets the required-level dialog instead of the form", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await confirmedAccount(request, "wdlow", PASSWORD);
  await setVerificationLevel(request, account.username, 1);
  await page.goto("/login?back=%2Fwithdraw%2FBTC");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, PASSWORD);
  await expect(page.getByRole("heading", { level: 1, name: "Withdraw" })).toBeVisible();
  const dialog = page.getByTestId("level-gate-dialog");
  await expect(dialog).toContainText("To withdraw, your account needs the Intermediate verification level.");
  await accessibleAtBothWidths(page, "/withdraw, required-level dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("withdraw-level")).toContainText("Withdrawals need a higher verification level.");
  await expect(page.getByTestId("withdraw-form")).toHaveCount(0);
});
