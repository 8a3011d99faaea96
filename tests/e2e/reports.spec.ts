/**
 * The reports page as a new account's owner uses it (docs/product-rules.md#reports): a transfer on
 * /wallets, then /reports from the account menu — the ledger newest first, filtered by currency and
 * category, an impossible date range refused, older entries paged in without a row twice, the
 * CSV export of the current filters downloaded and read back, and every wallet reconciled in the
 * browser's worker, in agreement with the exchange.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { accessibleAtBothWidths, AUTH, confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

/** Transfers made through the API after the one on /wallets: enough rows for a second page. */
const BULK_TRANSFERS = 24;

async function ledgerIds(page: Page): Promise<string[]> {
  return page
    .getByTestId("ledger-table")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-id") ?? ""));
}

test("the ledger filtered, paged back and exported as CSV", async ({ page, request }) => {
  test.setTimeout(120_000);
  const password = "reports-Password-1";
  const account = await confirmedAccount(request, "reports", password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Fwallets");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, password);
  await expect(page.getByRole("heading", { level: 1, name: "Wallets" })).toBeVisible();

  // One transfer on the wallets page: 100 USD from the exchange wallet to the margin wallet.
  await page.getByRole("button", { name: "Transfer", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Transfer between wallets" });
  await dialog.getByLabel("From wallet").selectOption({ label: "Exchange" });
  await dialog.getByLabel("To wallet").selectOption({ label: "Margin" });
  await dialog.getByLabel("Currency").selectOption("USD");
  await dialog.getByLabel("Amount").fill("100");
  await dialog.getByRole("button", { name: "Transfer", exact: true }).click();
  await expect(dialog.getByRole("status")).toHaveText("Moved 100 USD from Exchange to Margin.");
  await dialog.getByRole("button", { name: "Close" }).click();

  // More of them the quick way, with the session's own token: 0.001 BTC each, exchange to funding.
  const token = await page.evaluate(() => localStorage.getItem("auth_token") ?? "");
  for (let i = 0; i < BULK_TRANSFERS; i++) {
    const res = await request.post(`${AUTH}/v2/auth/w/transfer`, {
      headers: { "bfx-token": token },
      data: { from: "exchange", to: "funding", currency: "BTC", currency_to: "BTC", amount: "0.001" },
    });
    expect(res.status(), await res.text()).toBe(200);
  }

  // The account menu leads to the reports.
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  const table = page.getByTestId("ledger-table");
  // 4 paper deposits, 2 rows for the USD transfer, 48 for the BTC ones: a page of 50, then 4 more.
  await expect(table.locator("tbody tr")).toHaveCount(50);
  await expect(table.locator("tbody tr").first()).toContainText(
    "Transfer of 0.001 BTC from wallet exchange to funding",
  );
  await accessibleAtBothWidths(page, "reports");
  const first = await ledgerIds(page);
  await page.getByRole("button", { name: "Load older entries" }).click();
  await expect(table.locator("tbody tr")).toHaveCount(54);
  await expect(page.getByRole("button", { name: "Load older entries" })).toBeHidden();
  const all = await ledgerIds(page);
  expect(all.slice(0, 50)).toEqual(first);
  expect(new Set(all).size).toBe(54);
  await expect(table.locator("tbody tr").last()).toContainText("Paper-trading deposit");

  // Filters: the USD rows, then only the transfers among them.
  await page.getByLabel("Currency").selectOption("USD");
  await expect(table.locator("tbody tr")).toHaveCount(3);
  await page.getByLabel("Category").selectOption({ label: "Transfer" });
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table.getByRole("cell", { name: "Margin", exact: true })).toHaveCount(1);
  await expect(table.getByRole("cell", { name: "+100" })).toHaveCount(1);
  await expect(table.getByRole("cell", { name: "-100" })).toHaveCount(1);

  // Dates: a range that ends before it starts is refused on the page; one in the future is empty.
  const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel("From", { exact: true }).fill(day(2));
  await page.getByLabel("To", { exact: true }).fill(day(1));
  await expect(page.getByRole("alert")).toHaveText('The "from" date is after the "to" date.');
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  await page.getByLabel("To", { exact: true }).fill(day(3));
  await expect(page.getByTestId("ledger-empty")).toHaveText("No ledger entries match these filters.");
  await page.getByLabel("From", { exact: true }).fill(day(-2));
  await expect(table.locator("tbody tr")).toHaveCount(2);

  // The export of the BTC transfers: a header and 48 rows, exact amounts that net to nothing.
  await page.getByLabel("Currency").selectOption("BTC");
  await expect(table.locator("tbody tr")).toHaveCount(48);
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^ledgers-BTC-\d{4}-\d\d-\d\d\.csv$/);
  await expect(page.getByTestId("export-status")).toHaveText("Exported 48 rows.");
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...lines] = csv.split("\r\n").filter((l) => l !== "");
  expect(header).toBe("id,date,currency,wallet,category,amount,balance,description");
  expect(lines).toHaveLength(48);
  const amounts = lines.map((l) => l.split(",")[5]);
  expect(new Set(amounts)).toEqual(new Set(["-0.001", "0.001"]));
  expect(lines.every((l) => l.includes(",BTC,") && l.includes(",transfer,"))).toBe(true);
  const newestFunding = lines.find((l) => l.split(",")[3] === "funding");
  expect(newestFunding?.split(",")[6]).toBe("0.024");

  // Reconciliation: every wallet's entries chain to its balance — the funding BTC wallet among them.
  await page.getByRole("button", { name: "Check the ledger" }).click();
  const checks = page.getByTestId("reconciliation").getByRole("listitem");
  await expect(checks).toHaveCount(6);
  await expect(checks.filter({ hasText: "adds up to the balance of" })).toHaveCount(6);
  await expect(
    checks.filter({ hasText: "BTC · Funding: adds up to the balance of 0.024 (entries checked: 24)." }),
  ).toHaveCount(1);
  // The browser's walk (in the worker, against the socket's balances) and the exchange's agree.
  await expect(page.getByTestId("reconciliation-agreement")).toHaveText("The exchange's own check agrees.");
  await accessibleAtBothWidths(page, "reports, filtered and exported");
});
