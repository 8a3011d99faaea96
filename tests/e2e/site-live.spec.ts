import type { APIRequestContext, Page } from "@playwright/test";
import { accessibleAtBothWidths } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** A public REST answer of the exchange the product is configured with (config.json). */
async function exchangeGet(request: APIRequestContext, path: string): Promise<unknown> {
  const config = (await (await request.get("/config.json")).json()) as { endpoints?: { restPublic?: string } };
  const base = config.endpoints?.restPublic ?? "";
  const res = await request.get(`${base}${path}`);
  expect(res.ok()).toBe(true);
  return res.json();
}

const num = (text: string | null): number => Number((text ?? "").replace(/[^0-9.-]/g, ""));

async function columnValues(page: Page, column: number): Promise<number[]> {
  const cells = page.getByRole("table").first().locator("tbody tr").locator(`td:nth-of-type(${column})`);
  return (await cells.allTextContents()).map((t) => num(t));
}

test("the home page shows every market live: prices as the exchange quotes them, sorted and searched", async ({
  page,
  request,
}) => {
  await page.goto("/");
  await acceptCookies(page);
  // The banner and the day's figures from the exchange's conf keys.
  const [banner] = (await exchangeGet(request, "/v2/conf/pub:raw:banner:home:en")) as { title: string }[];
  await expect(page.getByText(banner?.title ?? "no banner")).toBeVisible();
  await expect(page.getByTestId("volume-24h")).toHaveText(/^\$[0-9.,]+[KMB]?$/);

  const table = page.getByRole("table").first();
  const btc = table.getByRole("row").filter({ has: page.getByRole("link", { name: "BTC/USD", exact: true }) });
  await expect(btc).toBeVisible();
  const shown = num(await btc.getByRole("cell").first().textContent());
  const rows = (await exchangeGet(request, "/v2/tickers?symbols=tBTCUSD")) as unknown[][];
  const last = rows[0]?.[7] as number;
  // Five significant figures of a price that may have moved since the table's last poll.
  expect(Math.abs(shown - last) / last).toBeLessThan(0.02);
  await expect(btc.getByRole("link")).toHaveAttribute("href", "/tradedesk/BTCUSD");

  // Sorting: by last price, largest first, then smallest first.
  await table.getByRole("button", { name: "Last price" }).click();
  await expect(table.getByRole("columnheader", { name: "Last price" })).toHaveAttribute("aria-sort", "descending");
  const desc = await columnValues(page, 1);
  expect(desc).toEqual([...desc].sort((a, b) => b - a));
  await table.getByRole("button", { name: "Last price" }).click();
  await expect(table.getByRole("columnheader", { name: "Last price" })).toHaveAttribute("aria-sort", "ascending");
  const asc = await columnValues(page, 1);
  expect(asc).toEqual([...asc].sort((a, b) => a - b));

  // Searching by currency.
  await page.getByRole("searchbox", { name: "Search markets" }).fill("eth");
  const links = await table.locator("tbody").getByRole("link").allTextContents();
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) expect(l).toContain("ETH");
  await page.getByRole("searchbox", { name: "Search markets" }).fill("nothing like this");
  await expect(page.getByText("No market matches your search.")).toBeVisible();
  await page.getByRole("searchbox", { name: "Search markets" }).fill("");
  await page.getByRole("button", { name: "Derivatives" }).click();
  await expect(table.getByRole("link", { name: "BTCF0/USTF0" })).toBeVisible();

  await accessibleAtBothWidths(page, "home page");
});

test("the fees and deposit pages show the exchange's own rates and terms, and say so when it cannot be reached", async ({
  page,
  request,
}) => {
  const [schedule] = (await exchangeGet(request, "/v2/conf/pub:info:fees")) as number[][];
  const [methods] = (await exchangeGet(request, "/v2/conf/pub:info:tx:methods")) as unknown[][][];
  const pct = (f: number) => `${Number((f * 100).toFixed(3))}%`;

  // The first call fails: a clear message and a way to try again, then the figures.
  let fail = true;
  await page.route(/\/v2\/conf\/pub%3Ainfo%3Afees|\/v2\/conf\/pub:info:fees/, (route) =>
    fail ? route.abort() : route.continue(),
  );
  await page.goto("/fees");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 1, name: "Fees" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("The exchange could not be reached");
  fail = false;
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("maker-fee")).toHaveText(pct(schedule?.[0] ?? NaN));
  await expect(page.getByTestId("taker-fee")).toHaveText(pct(schedule?.[1] ?? NaN));
  await expect(page.getByText(`the exchange keeps ${pct(schedule?.[2] ?? NaN)} of it`)).toBeVisible();
  const bitcoin = methods?.find((m) => m[0] === "bitcoin") ?? [];
  const btcRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "Bitcoin", exact: true }) });
  await expect(btcRow).toContainText(`${String(bitcoin[5])} BTC`);
  await accessibleAtBothWidths(page, "fees page");

  await page.getByRole("link", { name: "Deposits and withdrawals" }).last().click();
  await expect(page.getByRole("heading", { level: 1, name: "Deposits and withdrawals" })).toBeVisible();
  const xrp = methods?.find((m) => m[0] === "ripple") ?? [];
  const xrpRow = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "XRP Ledger" }) });
  await expect(xrpRow.getByRole("cell").nth(1)).toHaveText(`${String(xrp[4])} XRP`);
  await expect(xrpRow.getByRole("cell").nth(2)).toHaveText(String(xrp[3]));
  // A bank wire only deposits: its withdrawal cells say so.
  await expect(page.getByRole("row").filter({ hasText: "USD" }).filter({ hasText: "Bank wire" })).toContainText(
    "Not offered",
  );
  await accessibleAtBothWidths(page, "deposits and withdrawals page");

  // The same page in Traditional Chinese.
  await page.getByTestId("locale-select").selectOption("zh-TW");
  await expect(page.getByRole("heading", { level: 1, name: "入金與出金" })).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "確認數" })).toBeVisible();
  await page.getByTestId("locale-select").selectOption("en");
});

test("the order and funding books are live", async ({ page }) => {
  // Two live pages, each checked by axe at two widths.
  test.setTimeout(90_000);
  await page.goto("/order-book");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 1, name: "Order book" })).toBeVisible();
  await expect(page.getByText("Live from the exchange")).toBeVisible();
  const bids = page.getByTestId("book-bids");
  const asks = page.getByTestId("book-asks");
  await expect(bids.locator("tbody tr").first().locator("td").first()).toHaveText(/\d/);
  const bestBid = num(await bids.locator("tbody tr").first().locator("td").first().textContent());
  const bestAsk = num(await asks.locator("tbody tr").first().locator("td").first().textContent());
  expect(bestAsk).toBeGreaterThan(bestBid);
  await page.getByLabel("Market", { exact: true }).selectOption("ETHUSD");
  await expect
    .poll(async () => num(await bids.locator("tbody tr").first().locator("td").first().textContent()))
    .toBeLessThan(bestBid / 5);
  await accessibleAtBothWidths(page, "order book page");

  await page.goto("/funding-book");
  await expect(page.getByRole("heading", { level: 1, name: "Funding book" })).toBeVisible();
  await expect(page.getByTestId("book-asks").locator("tbody tr").first().locator("td").first()).toHaveText(/\d%$/);
  await accessibleAtBothWidths(page, "funding book page");
});

test("the stats page charts the exchange's volume and the halving page counts down", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/stats");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 1, name: "Exchange statistics" })).toBeVisible();
  await expect(page.getByRole("img", { name: "24-hour volume of all markets, in USD" })).toBeVisible();
  await expect(page.locator("figcaption").first()).toContainText(/Latest: \$[0-9.,]+[KMB]?\./);
  await page.getByLabel("Market", { exact: true }).selectOption("ETHUSD");
  await expect(page.getByRole("img", { name: "24-hour volume of ETHUSD, in ETH" })).toBeVisible();
  await accessibleAtBothWidths(page, "stats page");

  await page.goto("/bitcoin-halving");
  await expect(page.getByRole("heading", { level: 1, name: "Bitcoin halving countdown" })).toBeVisible();
  const timer = page.getByRole("timer", { name: "Time until the next halving" });
  await expect(timer).toContainText(/\d+\s*Days/);
  const seconds = timer.locator("p").nth(6);
  const before = await seconds.textContent();
  await expect(seconds).not.toHaveText(before ?? "");
  await expect(page.getByText("1,050,000", { exact: true })).toBeVisible();
  await expect(page.getByTestId("halving-date")).toHaveText("April 17, 2028");
  await expect(page.getByText("This is an estimate, not a schedule.")).toBeVisible();
  await accessibleAtBothWidths(page, "halving page");
});
