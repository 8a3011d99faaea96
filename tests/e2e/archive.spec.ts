/**
 * The archive as a new account's owner uses it (docs/product-rules.md#archive): a market buy that
 * fills and a limit order cancelled (placed through the exchange's REST with the session's own
 * token: this journey is about the archive), then /archive from the account menu — the closed
 * orders and the trade, no closed positions nor funding, the pair filter, an impossible date range refused without a call, the
 * trades' CSV export downloaded and read back, and the phone layout.
 */
import { readFile } from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { accessibleAtBothWidths, AUTH, confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

async function rest(request: APIRequestContext, token: string, path: string, data: unknown): Promise<unknown> {
  const res = await request.post(`${AUTH}${path}`, { headers: { "bfx-token": token }, data });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

test("closed orders and trades, filtered by pair and dates, trades exported as CSV", async ({ page, request }) => {
  test.setTimeout(120_000);
  const password = "archive-Password-1";
  const account = await confirmedAccount(request, "archive", password);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Fwallets");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, password);
  await expect(page.getByRole("heading", { level: 1, name: "Wallets" })).toBeVisible();

  // A market buy of 0.001 BTC that fills (small enough for the best ask alone: one trade), and a
  // limit buy far under the market, cancelled.
  const token = await page.evaluate(() => localStorage.getItem("auth_token") ?? "");
  await rest(request, token, "/v2/auth/w/order/submit", {
    type: "EXCHANGE MARKET",
    symbol: "tBTCUSD",
    amount: "0.001",
  });
  await expect
    .poll(async () => ((await rest(request, token, "/v2/auth/r/trades/hist", {})) as unknown[]).length)
    .toBe(1);
  const placed = (await rest(request, token, "/v2/auth/w/order/submit", {
    type: "EXCHANGE LIMIT",
    symbol: "tBTCUSD",
    amount: "0.001",
    price: "1000",
  })) as [number, string, null, null, unknown[][]];
  const limitId = placed[4][0]?.[0];
  await rest(request, token, "/v2/auth/w/order/cancel", { id: limitId });
  const [trade] = (await rest(request, token, "/v2/auth/r/trades/hist", {})) as unknown[][];

  // The account menu leads to the archive, next to the reports.
  await page.getByTestId("account-menu").click();
  await page.getByRole("link", { name: "Archive" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Archive" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Orders" })).toHaveAttribute("aria-selected", "true");
  const table = page.getByTestId("archive-table");
  const rows = table.locator("tbody tr");
  // Newest first: the cancelled limit order, then the market order that filled.
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText("Cancelled");
  await expect(rows.nth(0)).toContainText("EXCHANGE LIMIT");
  await expect(rows.nth(1)).toContainText("Executed");
  await expect(rows.nth(1)).toContainText("BTC/USD");
  await expect(rows.nth(1)).toContainText("Buy 0.001");
  await accessibleAtBothWidths(page, "archive, orders");

  // The trades tab, from the keyboard: the trade with its price, fee and liquidity.
  await page.getByRole("tab", { name: "Orders" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Trades" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Trades" })).toBeFocused();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-id", String(trade?.[0]));
  await expect(rows.first()).toContainText("Buy 0.001");
  await expect(rows.first()).toContainText("Taker");
  await expect(rows.first()).toContainText(`${String(trade?.[9])} ${String(trade?.[10])}`);

  // Funding and positions: a spot account has none; Home and End reach the first and last tabs.
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Funding" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("archive-empty")).toHaveText("No funding records yet.");
  await page.getByLabel("Show").selectOption({ label: "Funding trades" });
  await expect(page.getByTestId("archive-empty")).toHaveText("No funding records yet.");
  await expect(page.getByLabel("Currency")).toHaveValue("");
  await page.getByRole("tab", { name: "Funding" }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Positions" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("archive-empty")).toHaveText("No closed positions yet.");
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Trades" })).toBeFocused();
  await expect(rows).toHaveCount(1);

  // The pair filter offers the pairs traded.
  await page.getByLabel("Pair").selectOption({ label: "BTC/USD" });
  await expect(rows).toHaveCount(1);

  // Dates: a reversed range is refused on the page and nothing is asked; a future one is empty.
  const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/trades/")) asked.push(r.url());
  });
  await page.getByLabel("From", { exact: true }).fill(day(2));
  await expect(page.getByTestId("archive-empty")).toHaveText("No trades match these filters.");
  const before = asked.length;
  await page.getByLabel("To", { exact: true }).fill(day(1));
  await expect(page.getByRole("alert")).toHaveText('The "from" date is after the "to" date.');
  await expect(page.getByLabel("To", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Export CSV" })).toBeDisabled();
  // Proving an absence: a moment for a call that must not come.
  await page.waitForTimeout(500);
  expect(asked.length).toBe(before);
  await page.getByLabel("To", { exact: true }).fill(day(3));
  await expect(page.getByRole("alert")).toBeHidden();
  await expect.poll(() => asked.length).toBeGreaterThan(before);
  await expect(page.getByTestId("archive-empty")).toHaveText("No trades match these filters.");
  await page.getByLabel("From", { exact: true }).fill(day(-1));
  await expect(rows).toHaveCount(1);

  // The export of the filtered trades: the header and the one trade, as the table shows it.
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^trades-tBTCUSD-\d{4}-\d\d-\d\d\.csv$/);
  await expect(page.getByTestId("export-status")).toHaveText("Exported 1 rows.");
  const csv = await readFile(await download.path(), "utf8");
  const [header, ...lines] = csv.split("\r\n").filter((l) => l !== "");
  expect(header).toBe("id,date,pair,order id,side,amount,price,fee,fee currency,liquidity");
  expect(lines).toHaveLength(1);
  const fields = (lines[0] as string).split(",");
  expect(fields[0]).toBe(String(trade?.[0]));
  expect(fields.slice(2, 3)).toEqual(["tBTCUSD"]);
  expect(fields.slice(4, 6)).toEqual(["buy", "0.001"]);
  expect(Number(fields[6])).toBe(trade?.[5]);
  expect(fields[9]).toBe("taker");

  // On a phone the row is a card: nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(rows).toHaveCount(1);
  const box = await rows.first().boundingBox();
  expect(box?.width ?? 999).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await accessibleAtBothWidths(page, "archive, trades filtered and exported");
});
