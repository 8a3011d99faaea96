/**
 * What the desk tells a trader, as the demo account meets it: the notifications panel opening over
 * the grid (the grid keeps its size) and closing with Escape; one notice for a market order that
 * fills in many trades; the exchange's own notifications for what happened elsewhere (an order and a
 * funding offer made through the API); and the time settings, chosen on the settings page, writing the
 * panel's times.
 */
import type { Page } from "@playwright/test";
import { API, AUTH } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

async function signIn(page: Page, back: string): Promise<void> {
  await page.goto(`/login?back=${encodeURIComponent(back)}`);
  await acceptCookies(page);
  await page.getByLabel("E-mail or username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${back.replace(/[/]/g, "\\/")}$`));
}

/** A second session of the demo account, as another device or a script holds it. */
async function otherSession(): Promise<string> {
  const res = await fetch(`${API}/v2/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ login: "demo", password: "demo-password" }),
  });
  const [token] = (await res.json()) as [string];
  return token;
}

async function authPost(token: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${AUTH}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "bfx-token": token },
    body: JSON.stringify(body),
  });
  return res.json();
}

const toggle = (page: Page) => page.getByRole("button", { name: /^Notifications/ });
const panel = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

// Each journey runs axe on the whole desk (books, tables, chart) at two widths: slower than the default.
test.slow();

test("the notifications panel opens over the grid, keeps its size, and closes with Escape", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "/tradedesk/BTCUSD");
  const grid = page.getByTestId("desk-grid");
  await expect(grid).toBeVisible();
  const before = await grid.boundingBox();
  await toggle(page).click();
  await expect(panel(page)).toBeVisible();
  await expect(page.getByRole("heading", { name: "Notifications" })).toBeFocused();
  // The grid is neither squeezed nor moved.
  expect(await grid.boundingBox()).toEqual(before);
  await expectAccessible(page, "desk with the notifications panel at 1440 px");
  await page.keyboard.press("Escape");
  await expect(panel(page)).toBeHidden();
  await expect(toggle(page)).toBeFocused();

  await page.setViewportSize({ width: 390, height: 844 });
  await toggle(page).click();
  await expect(panel(page)).toBeVisible();
  const box = await panel(page).boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 1000)).toBeLessThanOrEqual(390);
  await expectAccessible(page, "desk with the notifications panel at 390 px");
  await panel(page).getByRole("button", { name: "Close" }).click();
  await expect(panel(page)).toBeHidden();
});

test("a market order that fills in many trades gives one notice with the average price", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "/tradedesk/BTCUSD");
  const trades = page.getByTestId("own-trades-widget").locator("tr[data-row]");
  await expect(page.getByTestId("table-balances").locator('tr[data-row="exchange:BTC"]')).toBeVisible();
  const tradesBefore = await trades.count();
  await page.getByTestId("order-kind").selectOption({ label: "Market" });
  // About 25,000 USD: more than one maker order (50–5,000 USD each) holds, so it walks the book.
  await page.getByTestId("order-form").getByTestId("amount").fill("0.25");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  const bought = page.getByTestId("toast").filter({ hasText: /^Bought 0\.25 BTC\/USD, average [\d.]+/ });
  await expect(bought).toHaveCount(1);
  // Every fill has arrived (the own trades table shows them), and still one notice tells them.
  await expect.poll(() => trades.count()).toBeGreaterThan(tradesBefore + 1);
  await expect(page.getByTestId("toast").filter({ hasText: /Bought/ })).toHaveCount(1);
  await toggle(page).click();
  await expect(
    panel(page)
      .getByRole("listitem")
      .filter({ hasText: /Bought/ }),
  ).toHaveCount(1);
  await expectAccessible(page, "the aggregated fill notice in the panel at 1440 px");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "the aggregated fill notice in the panel at 390 px");
});

test("the exchange's notifications about an order and a funding offer made elsewhere are shown, in words", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "/tradedesk/BTCUSD");
  await expect(page.getByTestId("table-balances").locator('tr[data-row="exchange:USD"]')).toBeVisible();
  // Another device of the same account (a script with a session): the desk sent none of these.
  const token = await otherSession();
  await authPost(token, "/v2/auth/w/order/submit", {
    type: "EXCHANGE LIMIT",
    symbol: "tBTCUSD",
    amount: "0.001",
    price: "1000",
  });
  await expect(page.getByTestId("toast").filter({ hasText: "Order placed." })).toHaveCount(1);
  await authPost(token, "/v2/auth/w/transfer", { from: "exchange", to: "funding", currency: "USD", amount: "200" });
  await authPost(token, "/v2/auth/w/funding/offer/submit", {
    type: "LIMIT",
    symbol: "fUSD",
    amount: "150",
    rate: "0.0002",
    period: 2,
  });
  await expect(page.getByTestId("toast").filter({ hasText: "Funding offer placed." })).toHaveCount(1);
  await toggle(page).click();
  await expect(panel(page).getByRole("listitem").filter({ hasText: "Funding offer placed." })).toBeVisible();
  await expect(panel(page).getByRole("listitem").filter({ hasText: "Order placed." })).toBeVisible();
});

test("the time settings write the times the notifications panel shows", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "/interface");
  const format = page.getByLabel("Date and time");
  // The default says how it reads: year-month-day, on a 24-hour clock.
  await expect(format.locator("option:checked")).toHaveText(/^\d\d-\d\d-\d\d \d\d:\d\d:\d\d \(year-month-day\)$/);
  await format.selectOption({
    label: (await format.locator("option", { hasText: "day-month-year" }).first().textContent()) ?? "",
  });
  await page.getByLabel("Time zone").selectOption({ label: "UTC+3" });
  await expectAccessible(page, "settings with the time controls at 1440 px");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "settings with the time controls at 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });

  await page.goto("/tradedesk/BTCUSD");
  await page.getByTestId("order-kind").selectOption({ label: "Market" });
  await page.getByTestId("order-form").getByTestId("amount").fill("0.001");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  await expect(page.getByTestId("toast").filter({ hasText: /Bought/ })).toHaveCount(1);
  await toggle(page).click();
  const time = panel(page).getByRole("listitem").first().locator("time");
  await expect(time).toHaveText(/^\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d$/);
  await expect(time).toHaveAttribute("title", / UTC\+3$/);
});
