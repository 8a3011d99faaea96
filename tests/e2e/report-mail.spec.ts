/**
 * A mailed report as a new account's owner asks for it (docs/product-rules.md#reports): on /reports,
 * "E-mail me this report" for the ledger, the mail's link opened in the signed-in session, and the
 * file it saves holding the rows the live export downloads; the list of reports; a wrong link
 * explained; the archive's orders mailed the same way.
 */
import { readFile } from "node:fs/promises";
import { accessibleAtBothWidths, confirmedAccount, mailedLink, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

test("the ledger report mailed as a link that downloads the live export's rows", async ({ page, request }) => {
  test.setTimeout(120_000);
  const password = "report-mail-Password-1";
  const account = await confirmedAccount(request, "rmail", password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Freports");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, password);
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await expect(page.getByTestId("ledger-table").locator("tbody tr").first()).toBeVisible();
  await expect(page.getByText("No reports yet.", { exact: false })).toBeVisible();

  // The live export first, for the rows the mailed report must hold.
  const exporting = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const live = await readFile(await (await exporting).path(), "utf8");
  const liveRows = live.split("\r\n").filter((l) => l !== "");
  expect(liveRows.length).toBeGreaterThan(1);

  await page.getByRole("button", { name: "E-mail me this report" }).click();
  await expect(page.getByTestId("mail-report-status")).toHaveText("We'll e-mail you a link when it is ready.");
  const list = page.getByTestId("your-reports");
  await expect(list.locator("tbody tr")).toHaveCount(1);
  await expect(list.locator("tbody tr").first()).toContainText("Ledger");
  await expect(list.locator("tbody tr").first()).toContainText("Ready", { timeout: 20_000 });
  await expect(list.locator("tbody tr").first()).toContainText(String(liveRows.length - 1));
  await accessibleAtBothWidths(page, "reports with a mailed report");

  // The mail's link, opened in the signed-in session: the file is saved at once.
  const link = await mailedLink(request, account.email, "/reports/download?token=");
  const saving = page.waitForEvent("download");
  await page.goto(link);
  const saved = await saving;
  expect(saved.suggestedFilename()).toMatch(/^ledgers-all-\d{4}-\d\d-\d\d\.csv$/);
  const mailed = await readFile(await saved.path(), "utf8");
  expect(mailed.split("\r\n").filter((l) => l !== "")).toEqual(liveRows);
  await expect(page.getByRole("heading", { level: 1, name: "Your report" })).toBeVisible();
  await expect(page.getByTestId("report-saved")).toBeVisible();
  await accessibleAtBothWidths(page, "a mailed report's link");

  // Any number of times within its life: from the page, and from the list of reports.
  const again = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download again" }).click();
  expect((await readFile(await (await again).path(), "utf8")).split("\r\n").filter((l) => l !== "")).toEqual(liveRows);
  await page.getByRole("link", { name: "Back to reports" }).click();
  const fromList = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download Ledger report" }).click();
  expect((await readFile(await (await fromList).path(), "utf8")).split("\r\n").filter((l) => l !== "")).toEqual(
    liveRows,
  );

  // The archive offers the same for its exports: the orders of this account (none yet), mailed too.
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Archive" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Archive" })).toBeVisible();
  await page.getByRole("button", { name: "E-mail me this report" }).click();
  await expect(page.getByTestId("mail-report-status")).toHaveText("We'll e-mail you a link when it is ready.");
  const reports = page.getByTestId("your-reports").locator("tbody tr");
  await expect(reports).toHaveCount(2);
  await expect(reports.first()).toContainText("Orders");
  await expect(reports.first()).toContainText("Ready", { timeout: 20_000 });
  await accessibleAtBothWidths(page, "the archive with mailed reports");

  // A link that is not one is explained, and nothing is saved.
  await page.goto("/reports/download?token=not-a-real-report-link-at-all");
  await expect(page.getByTestId("report-download-error")).toHaveText(
    "This link is invalid or has expired. Ask for the report again on the reports page.",
  );
  await accessibleAtBothWidths(page, "a wrong report link");
});
