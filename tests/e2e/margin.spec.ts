/**
 * Margin on the trading desk (docs/product-rules.md#margin-positions, #liquidation-warning): a new
 * user with dollars and a little bitcoin in the margin wallet buys on margin from the order form,
 * reads the margin info and the position's liquidation price on its row and beside the chart, adds
 * to the position from the wallet (an amount past what it may take is refused in words first), and
 * closes it. Accessible at 1440 px and, on the phone desk's account tab, at 390 px.
 */
import type { Page } from "@playwright/test";
import { API, AUTH, confirmedAccount, setVerificationLevel, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const PASSWORD = "Margin-journey-2024!";

/** What the order form's market buy and the increase are sized from: the pair's last price. */
async function lastPrice(page: Page): Promise<number> {
  const r = await page.request.get(`${API}/v2/ticker/tBTCUSD`);
  const ticker = (await r.json()) as number[];
  return ticker[6] as number;
}

test("a margin position: opened from the form, read, increased, refused a bad amount, closed", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { username } = await confirmedAccount(request, "margin", PASSWORD);
  // New accounts trade on margin from the intermediate level.
  await setVerificationLevel(request, username, 2);
  const price = await lastPrice(page);
  // About 1 000 USD of bitcoin at 10× leverage: 130 USD holds the initial margin and the fee, and
  // leaves a liquidation price about 8 % below.
  const amount = Number((1000 / price).toFixed(4));
  const login = await request.post(`${API}/v2/login`, { data: { login: username, password: PASSWORD } });
  const [token] = (await login.json()) as [string];
  for (const [currency, value] of [
    ["USD", "130"],
    ["BTC", String(amount)],
  ] as const) {
    const moved = await request.post(`${AUTH}/v2/auth/w/transfer`, {
      headers: { "bfx-token": token },
      data: { from: "exchange", to: "margin", currency, amount: value },
    });
    expect(moved.status(), await moved.text()).toBe(200);
  }

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Ftradedesk%2FBTCUSD");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/tradedesk\/BTCUSD$/);

  // 1. A market buy in the margin context.
  const form = page.getByTestId("order-form");
  await form.getByRole("radiogroup", { name: "Trading context" }).getByRole("radio", { name: "Margin" }).click();
  await form.getByLabel("Order type").selectOption({ label: "Market" });
  await form.getByLabel("Amount", { exact: true }).fill(String(amount));
  await form.getByRole("button", { name: /^Buy/ }).click();
  await page.getByRole("button", { name: "Confirm buy" }).click();

  // 2. The position's row, its liquidation price beside the chart, and the margin info.
  const positions = page.getByTestId("positions-widget");
  const row = positions.locator("tbody tr").filter({ hasText: "BTC/USD" });
  await expect(row).toHaveCount(1);
  const chip = page.getByTestId("chart-widget").getByText(/^Liq\. price \d/);
  await expect(chip).toBeVisible();
  const liq = (await chip.innerText()).replace("Liq. price", "").trim();
  expect(Number(liq.replace(/,/g, ""))).toBeLessThan(price);
  await expect(row).toContainText(liq);
  const margin = page.getByTestId("margin-widget");
  await margin.scrollIntoViewIfNeeded();
  await expect(margin.getByText("Margin balance", { exact: true })).toBeVisible();
  await expect(margin.getByTestId("margin-required")).toHaveText(/^[1-9]/);
  await expect(margin.getByTestId("margin-group")).toHaveText("Per currency");
  await expect(margin.getByTestId("margin-buy")).toHaveText(/ BTC$/);
  await row.scrollIntoViewIfNeeded();
  await expectAccessible(page, "the desk with a margin position at 1440 px");

  // 3. Increase: more than the wallet's bitcoin is refused before it is sent; half of it is added.
  await row.getByRole("button", { name: "Increase position BTC/USD" }).click();
  const increase = page.getByRole("dialog", { name: "Increase position BTC/USD" });
  await expect(increase.getByText(`Max ${amount} BTC`)).toBeVisible();
  await increase.getByLabel("Amount").fill((amount * 3).toFixed(4));
  await increase.getByRole("button", { name: "Increase" }).click();
  await expect(increase.getByRole("alert")).toHaveText(`At most ${amount} BTC can be added.`);
  const half = Number((amount / 2).toFixed(4));
  await increase.getByLabel("Amount").fill(String(half));
  await increase.getByRole("button", { name: "Increase" }).click();
  await expect(increase).toHaveCount(0);
  await expect(row).toContainText(String(Number((amount + half).toFixed(8))));

  // 4. At 390 px the phone desk's account tab holds the positions and the margin info.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("tab", { name: "Account" }).click();
  const account = page.getByRole("tabpanel", { name: "Account", exact: true });
  await expect(account.getByRole("heading", { name: "Margin info" })).toBeVisible();
  await expect(account.getByRole("heading", { name: "Positions" })).toBeVisible();
  await expectAccessible(page, "the phone desk's account tab with a margin position at 390 px");
  await page.setViewportSize({ width: 1440, height: 900 });

  // 5. Close at market, after confirming: the row goes.
  await row.getByRole("button", { name: "Close position BTC/USD" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Close position" }).click();
  await expect(positions.getByText("No open positions.")).toBeVisible();
  await expect(page.getByTestId("chart-widget").getByText(/^Liq\. price/)).toHaveCount(0);
});
