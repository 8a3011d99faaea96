/**
 * One account's money from end to end, as a new user moves it (docs/product-rules.md#deposits,
 * #transfers-between-wallets, #conversions, #withdrawals, #reports): a Bitcoin deposit watched from
 * pending to credited, part of it moved to the margin wallet, dollars converted into USDt at a
 * quote, an address added to the book and confirmed by its mailed link, a withdrawal to it with the
 * authenticator code and the mailed confirmation, followed to Completed — then every movement in the
 * deposit and withdrawal histories and in the ledger, the ledger reconciled, and the BTC ledger's
 * CSV export read back: its amounts add up, to the unit, to how the account's BTC changed.
 */
import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import {
  addConfirmedAddress,
  confirmedAccount,
  mailedLink,
  setVerificationLevel,
  signInWithPassword,
  simulateDeposit,
  turnOnAuthenticator,
} from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const PASSWORD = "Money-journey-2024!";
/** A real mainnet segwit address (v0, 20 bytes): where the withdrawal goes. */
const COLD_STORAGE = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const BTC_WALLETS = ["exchange", "margin", "funding"] as const;

/**
 * A decimal as the page or the CSV writes it ("1,000.5", "-0.25") in integer units of 1e-8, the
 * exchange's own unit: sums of these are exact, where floats would drift.
 */
function units(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,8}))?$/.exec(text.trim().replace(/,/g, ""));
  if (!m) throw new Error(`not a decimal of at most 8 places: "${text}"`);
  const value = BigInt(m[2] ?? "0") * 100_000_000n + BigInt((m[3] ?? "").padEnd(8, "0"));
  return m[1] === "-" ? -value : value;
}

function walletRow(page: Page, wallet: string, currency: string): Locator {
  return page.getByTestId(`wallet-${wallet}-${currency}`);
}

/** A wallet's balance on /wallets in units; a wallet the page does not list holds nothing. */
async function walletUnits(page: Page, wallet: string, currency: string): Promise<bigint> {
  const row = walletRow(page, wallet, currency);
  return (await row.count()) === 0 ? 0n : units((await row.locator('[data-column="balance"]').textContent()) ?? "");
}

/** The account's BTC in every wallet together, in units, as /wallets shows it. */
async function btcHeld(page: Page): Promise<bigint> {
  let sum = 0n;
  for (const wallet of BTC_WALLETS) sum += await walletUnits(page, wallet, "BTC");
  return sum;
}

/** The browser's own calendar day (the reports' date filter is in the reader's days). */
const browserDay = (page: Page): Promise<string> => page.evaluate(() => new Date().toLocaleDateString("en-CA"));

test("deposit, transfer, conversion and withdrawal, then the histories, the ledger and its CSV agree", async ({
  page,
  request,
}) => {
  // A deposit's three confirmations, three one-time codes (the third may wait for its 30 s step),
  // two mails and a withdrawal's steps: well past the suite's 30 s default.
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  // The day the account is made: the export covers it through today, the account's whole life.
  const firstDay = await browserDay(page);
  const { username, email } = await confirmedAccount(request, "money", PASSWORD);
  await setVerificationLevel(request, username, 2);

  // 1. Signed in, the authenticator app turned on on /security.
  await page.goto("/login?back=%2Fsecurity");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);
  const app = await turnOnAuthenticator(page, request, { email, password: PASSWORD });

  // What the account holds to begin with (a new account's paper balances).
  await page.goto("/wallets");
  await expect(page.getByRole("heading", { level: 1, name: "Wallets" })).toBeVisible();
  await expect(walletRow(page, "exchange", "BTC")).toBeVisible();
  const opening = await btcHeld(page);

  // 2. A Bitcoin deposit, from the account menu: pending, its confirmations rising, then credited.
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Deposit", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Deposit" })).toBeVisible();
  await page.getByLabel("Currency").selectOption("BTC");
  const depositAddress = page.getByTestId("deposit-address");
  await expect(depositAddress).toHaveText(/^bc1q[02-9ac-hj-np-z]{38}$/);
  const depositBalance = page.getByTestId("deposit-balance").locator("strong");
  // "0.5 BTC": the figure before its ticker.
  const depositUnits = async (): Promise<bigint> =>
    units((await depositBalance.textContent())?.replace(/ BTC$/, "") ?? "");
  await expect(depositBalance).toHaveText(/^[\d,.]+ BTC$/);
  const beforeDeposit = await depositUnits();
  const depositId = await simulateDeposit(request, {
    method: "bitcoin",
    address: (await depositAddress.textContent()) ?? "",
    amount: "0.5",
  });
  const deposit = page.getByTestId(`deposit-${depositId}`);
  await expect(deposit).toContainText("0.5 BTC");
  await expect(deposit.locator('[data-column="status"]')).toHaveText(/^(Pending|Confirming)$/);
  const confirmations = deposit.locator('[data-column="confirmations"]');
  const seen: number[] = [];
  await expect
    .poll(
      async () => {
        const count = Number(/^(\d)\/3$/.exec((await confirmations.textContent()) ?? "")?.[1] ?? NaN);
        if (!Number.isNaN(count) && seen.at(-1) !== count) seen.push(count);
        return count;
      },
      { timeout: 30_000, intervals: [250] },
    )
    .toBe(3);
  // Seen below three first, and never going back: the count rose to its three.
  expect(seen[0]).toBeLessThan(3);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  await expect(deposit.locator('[data-column="status"]')).toHaveText("Credited");
  await expect.poll(depositUnits).toBe(beforeDeposit + 50_000_000n);

  // 3. A quarter of a bitcoin to the margin wallet with the transfer dialog; both balances follow.
  await page.goto("/wallets");
  await expect(walletRow(page, "exchange", "BTC")).toBeVisible();
  const exchangeBefore = await walletUnits(page, "exchange", "BTC");
  const marginBefore = await walletUnits(page, "margin", "BTC");
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const transfer = page.getByRole("dialog", { name: "Transfer between wallets" });
  await transfer.getByLabel("From wallet").selectOption({ label: "Exchange" });
  await transfer.getByLabel("To wallet").selectOption({ label: "Margin" });
  await transfer.getByLabel("Currency").selectOption("BTC");
  await transfer.getByLabel("Amount").fill("0.25");
  await transfer.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(transfer.getByRole("status")).toHaveText("Moved 0.25 BTC from Exchange to Margin.");
  await transfer.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => walletUnits(page, "exchange", "BTC")).toBe(exchangeBefore - 25_000_000n);
  await expect.poll(() => walletUnits(page, "margin", "BTC")).toBe(marginBefore + 25_000_000n);

  // 4. 100 of the account's dollars into USDt: the USDt terms accepted, the quote shown, converted.
  const usdBefore = await walletUnits(page, "exchange", "USD");
  const ustBefore = await walletUnits(page, "exchange", "UST");
  await walletRow(page, "exchange", "USD").getByRole("button", { name: "Convert" }).click();
  const convert = page.getByRole("dialog", { name: "Convert currency" });
  await expect(convert.getByLabel("Convert from")).toHaveValue("USD");
  await expect(convert.getByLabel("Convert to")).toHaveValue("UST");
  await convert.getByLabel("Amount").fill("100");
  await convert.getByRole("button", { name: "Get quote" }).click();
  const terms = page.getByRole("dialog", { name: "USDt terms" });
  await terms.getByLabel("I have read and agree").check();
  await terms.getByRole("button", { name: "Accept" }).click();
  const quote = convert.getByRole("region", { name: "Quote" });
  await expect(quote).toContainText("1 USD = 1 USDt");
  await expect(quote.getByTestId("conversion-receive")).toHaveText("99.9 USDt");
  await quote.getByRole("button", { name: "Convert" }).click();
  await expect(convert.getByRole("status")).toHaveText("Converted 100 USD into 99.9 USDt.");
  await convert.getByRole("button", { name: "Close" }).click();
  await expect.poll(() => walletUnits(page, "exchange", "USD")).toBe(usdBefore - 10_000_000_000n);
  await expect.poll(() => walletUnits(page, "exchange", "UST")).toBe(ustBefore + 9_990_000_000n);

  // 5. The cold-storage address in the book, confirmed by its mailed link (the BTC whitelist on).
  await addConfirmedAddress(
    page,
    request,
    { email, password: PASSWORD, app },
    { label: "Cold storage", address: COLD_STORAGE },
  );
  await expect(
    page.getByTestId("currency-BTC").getByRole("switch", { name: "Withdraw BTC only to confirmed addresses" }),
  ).toBeChecked();

  // 6. A withdrawal of 0.1 BTC to it, from the account menu, with the app's code; confirmed by mail.
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Withdraw", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Withdraw" })).toBeVisible();
  await page.getByLabel("Currency").selectOption("BTC");
  const form = page.getByTestId("withdraw-form");
  await expect(form.getByText("The whitelist is on for BTC")).toBeVisible();
  await expect(form.getByTestId("withdraw-book-address")).toHaveText(COLD_STORAGE);
  await form.getByLabel("Amount", { exact: true }).fill("0.1");
  await expect(form.getByTestId("withdraw-receive")).toHaveText("0.0996 BTC");
  // Worth more than 1,000 dollars: the travel rule's attestation that the wallet is the owner's.
  await form
    .getByTestId("withdraw-travel-rule")
    .getByRole("checkbox", {
      name: "I confirm that the address is a self-hosted wallet and that its owner controls it.",
    })
    .check();
  await form.getByLabel("Authenticator code").fill(await app.next());
  await form.getByRole("button", { name: "Withdraw", exact: true }).click();
  await expect(form.getByTestId("withdraw-sent")).toContainText(
    "Check your e-mail to confirm the withdrawal of 0.1 BTC",
  );
  const history = page.getByTestId("withdraw-history");
  const withdrawal = history.getByRole("row").nth(1);
  await expect(withdrawal.locator('[data-column="status"]')).toHaveText("Waiting for e-mail confirmation");
  await page.goto(await mailedLink(request, email, "/withdraw?confirm="));
  const confirm = page.getByTestId("withdraw-confirm");
  await expect(confirm).toContainText(COLD_STORAGE);
  await confirm.getByRole("button", { name: "Confirm the withdrawal" }).click();
  await expect(page.getByTestId("withdraw-confirmed")).toBeVisible();
  // Pending, processing, then completed, as the exchange's clock moves it.
  await expect(withdrawal.locator('[data-column="status"]')).toHaveText("Completed", { timeout: 30_000 });

  // 7. Both histories show the movements: the withdrawal with what arrived, the deposit credited.
  await expect(history.getByRole("row")).toHaveCount(2);
  await expect(withdrawal.locator('[data-column="amount"]')).toHaveText("0.0996 BTC");
  await expect(withdrawal.locator('[data-column="transaction"]')).not.toHaveText("—");
  await expectAccessible(page, "/withdraw/BTC with a completed withdrawal");
  await page.goto("/deposit/BTC");
  await expect(deposit.locator('[data-column="status"]')).toHaveText("Credited");
  await expect(deposit.locator('[data-column="amount"]')).toHaveText("0.5 BTC");
  // Beside it, the paper bitcoin the account opened with, which the exchange lists as a deposit too.
  await expect(page.getByTestId("deposit-history").locator("tbody tr")).toHaveCount(2);

  // What the account holds now, and the ledger of it on /reports, from the account menu.
  await page.goto("/wallets");
  await expect(walletRow(page, "margin", "BTC")).toBeVisible();
  const closing = await btcHeld(page);
  // 0.5 in, 0.1 out (the fee inside it); the transfer stays in the account.
  expect(closing - opening).toBe(40_000_000n);
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  const table = page.getByTestId("ledger-table");
  const rows = table.locator("tbody tr");
  const ledgerRow = (text: string | RegExp): Locator => rows.filter({ hasText: text });
  // The filters' currency select, not the table's Currency column.
  const currency = page.getByRole("combobox", { name: "Currency" });
  await currency.selectOption("BTC");
  // Newest first: the withdrawal (the amount requested, fee included), the transfer's two sides, the
  // deposit, the opening paper deposit.
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText(`Bitcoin withdrawal to ${COLD_STORAGE}`);
  await expect(ledgerRow(`Bitcoin withdrawal to ${COLD_STORAGE}`)).toContainText("Withdrawal");
  await expect(ledgerRow(`Bitcoin withdrawal to ${COLD_STORAGE}`)).toContainText("-0.1");
  const transferRows = ledgerRow("Transfer of 0.25 BTC from wallet exchange to margin");
  await expect(transferRows).toHaveCount(2);
  const cell = (name: string): Locator => page.getByRole("cell", { name, exact: true });
  await expect(transferRows.filter({ hasText: "-0.25" }).filter({ has: cell("Exchange") })).toHaveCount(1);
  await expect(transferRows.filter({ hasText: "+0.25" }).filter({ has: cell("Margin") })).toHaveCount(1);
  await expect(ledgerRow(`Deposit (Bitcoin) #${depositId}`)).toContainText("+0.5");
  await expect(rows.last()).toContainText("Paper-trading deposit");
  // The conversion's row on each of its currencies.
  await currency.selectOption("USD");
  await expect(ledgerRow("Currency conversion of 100 USD to 99.9 UST")).toContainText("-100");
  await currency.selectOption("UST");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Currency conversion of 100 USD to 99.9 UST");
  await expect(rows.first()).toContainText("+99.9");

  // Every wallet's entries add up to its balance, and the exchange's own check agrees.
  await page.getByRole("button", { name: "Check the ledger" }).click();
  const checks = page.getByTestId("reconciliation").getByRole("listitem");
  await expect(checks.filter({ hasText: "BTC · Margin: adds up to the balance of 0.25" })).toHaveCount(1);
  const walletsChecked = await checks.count();
  await expect(checks.filter({ hasText: "adds up to the balance of" })).toHaveCount(walletsChecked);
  await expect(page.getByTestId("reconciliation-agreement")).toHaveText("The exchange's own check agrees.");

  // 8. The BTC ledger over the account's days, exported as CSV and read back.
  await currency.selectOption("BTC");
  await page.getByLabel("From", { exact: true }).fill(firstDay);
  await page.getByLabel("To", { exact: true }).fill(await browserDay(page));
  await expect(rows).toHaveCount(5);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  await expect(page.getByTestId("export-status")).toHaveText("Exported 5 rows.");
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...lines] = csv.split("\r\n").filter((l) => l !== "");
  expect(header).toBe("id,date,currency,wallet,category,amount,balance,description");
  expect(lines).toHaveLength(5);
  // The description is the last column: the columns before it hold no commas.
  const amountOf = (line: string): bigint => units(line.split(",")[5] ?? "");
  const find = (text: string): string[] => lines.filter((l) => l.includes(text));
  const paper = find("Paper-trading deposit");
  expect(paper).toHaveLength(1);
  expect(find(`Deposit (Bitcoin) #${depositId}`).map(amountOf)).toEqual([50_000_000n]);
  expect(
    find("Transfer of 0.25 BTC from wallet exchange to margin")
      .map(amountOf)
      .sort((a, b) => (a < b ? -1 : 1)),
  ).toEqual([-25_000_000n, 25_000_000n]);
  expect(find(`Bitcoin withdrawal to ${COLD_STORAGE}`).map(amountOf)).toEqual([-10_000_000n]);
  // The rows add up, to the unit, to what the account holds, and without the opening paper deposit
  // (what the account was made with) to how that changed since.
  const total = lines.reduce((sum, l) => sum + amountOf(l), 0n);
  expect(total).toBe(closing);
  expect(total - amountOf(paper[0] ?? "")).toBe(closing - opening);
});
