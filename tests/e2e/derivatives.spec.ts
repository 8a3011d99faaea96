/**
 * Derivatives on the trading desk (docs/product-rules.md#derivatives): a new user with USDt moves it
 * to the derivatives wallet from the wallets page, opens a 10× BTC perpetual position from the
 * order form after the derivatives terms and the welcome, reads the perpetual's status (mark,
 * funding countdown) beside it, is paid or charged a funding event (the exchange's development hook
 * runs one now) — on the position, in the status widget and in the ledger — and sees the position
 * liquidated when the simulated market moves through its liquidation price (the development hook
 * that moves a market). Accessible at 1440 px and, on the phone desk, at 390 px.
 */
import type { Locator, Page } from "@playwright/test";
import { API, AUTH, DEV_HEADERS, confirmedAccount, setVerificationLevel, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const PASSWORD = "Deriv-journey-2024!";
const PERPETUAL = "tBTCF0:USTF0";

/** A figure as the page prints it ("1,000.5" or "-0.42 USTF0") as a number. */
const figure = (text: string | null): number => Number((text ?? "").replace(/[^0-9.-]/g, ""));

async function lastPrice(page: Page, symbol: string): Promise<number> {
  const r = await page.request.get(`${API}/v2/ticker/${symbol}`);
  return ((await r.json()) as number[])[6] as number;
}

/** The account's USDt, bought with its opening dollars through the exchange's conversion calls. */
async function buyUsdt(page: Page, token: string, dollars: string): Promise<void> {
  const call = (path: string, data: unknown) =>
    page.request.post(`${AUTH}${path}`, { headers: { "bfx-token": token }, data });
  expect((await call("/v2/auth/w/int/currency/agreement", { currency: "UST", version: "1.0" })).status()).toBe(200);
  const quote = await call("/v2/auth/w/int/convert/quote", {
    from: "USD",
    to: "UST",
    wallet: "exchange",
    amount: dollars,
  });
  expect(quote.status(), await quote.text()).toBe(200);
  const { id } = (await quote.json()) as { id: string };
  expect((await call("/v2/auth/w/int/convert", { quote: id })).status()).toBe(200);
}

function walletRow(page: Page, type: string, currency: string): Locator {
  return page.getByTestId(`wallet-${type}-${currency}`);
}

// It moves the shared exchange's bitcoin market through the position's liquidation price: it runs
// alone, after the other journeys (the `exclusive` projects in playwright.config.ts).
test(
  "a perpetual position: collateral moved, terms accepted, opened at 10×, funded, liquidated",
  { tag: "@exclusive-market" },
  async ({ page, request }) => {
    test.setTimeout(120_000);
    const { username } = await confirmedAccount(request, "deriv", PASSWORD);
    // Perpetuals are gated like margin: new accounts need the intermediate level.
    await setVerificationLevel(request, username, 2);
    const login = await request.post(`${API}/v2/login`, { data: { login: username, password: PASSWORD } });
    const [token] = (await login.json()) as [string];
    await buyUsdt(page, token, "2000");

    // 1. The wallets page: USDt from the exchange wallet to the derivatives wallet.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto("/login?back=%2Fwallets");
    await acceptCookies(page);
    await signInWithPassword(page, username, PASSWORD);
    await expect(page.getByRole("heading", { level: 1, name: "Wallets" })).toBeVisible();
    await page.getByRole("button", { name: "Transfer", exact: true }).click();
    const transfer = page.getByRole("dialog", { name: "Transfer between wallets" });
    await transfer.getByLabel("From wallet").selectOption({ label: "Exchange" });
    await transfer.getByLabel("To wallet").selectOption({ label: "Margin" });
    await transfer.getByLabel("Currency").selectOption("UST");
    await expect(transfer.getByLabel("To the derivatives wallet, as collateral (USTF0)")).toBeChecked();
    await transfer.getByLabel("Amount").fill("1000");
    await transfer.getByRole("button", { name: "Transfer", exact: true }).click();
    await expect(transfer.getByRole("status")).toHaveText("Moved 1000 UST from Exchange to Margin.");
    await transfer.getByRole("button", { name: "Close" }).click();
    await expect(walletRow(page, "margin", "USTF0")).toBeVisible();

    // 2. The perpetual's desk: the form draws on the collateral; the first order shows the terms.
    await page.goto(`/tradedesk/${PERPETUAL.slice(1)}`);
    const form = page.getByTestId("order-form");
    await expect(form.getByTestId("collateral")).toHaveText("1000 USTF0");
    await expect(form.getByLabel("Leverage")).toHaveValue("10");
    const price = await lastPrice(page, PERPETUAL);
    // About 4 000 USTF0 of bitcoin at 10×: 400 of the 1 000 held as the position's collateral.
    const amount = Number((4000 / price).toFixed(4));
    await form.getByLabel("Order type").selectOption({ label: "Market" });
    await form.getByLabel("Amount", { exact: true }).fill(String(amount));
    await form.getByRole("button", { name: /^Buy/ }).click();
    const terms = page.getByRole("dialog", { name: "Derivatives terms" });
    await expect(terms).toBeVisible();
    await expectAccessible(page, "the derivatives terms at 1440 px");
    await terms.getByLabel("I have read and accept the derivatives terms").check();
    await terms.getByRole("button", { name: "Accept" }).click();
    await page
      .getByRole("dialog", { name: "Welcome to derivatives" })
      .getByRole("button", { name: "Continue" })
      .click();
    await expect(page.getByRole("dialog", { name: "Confirm buy order" }).getByText("10×")).toBeVisible();
    await page.getByRole("button", { name: "Confirm buy" }).click();

    // 3. The position's row, and the perpetual's status beside it.
    const positions = page.getByTestId("positions-widget");
    const row = positions.locator("tbody tr").filter({ hasText: "BTCF0/USTF0" });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("10×");
    const status = page.getByTestId("deriv-status");
    await status.scrollIntoViewIfNeeded();
    await expect(status.getByRole("heading", { name: "BTCF0:USTF0 perpetual" })).toBeVisible();
    await expect(status.getByTestId("deriv-mark")).toHaveText(/^\d/);
    await expect(status.getByTestId("deriv-next")).toHaveText(/^\d\d:\d\d:\d\d$/);
    await expectAccessible(page, "the desk with a perpetual position at 1440 px");

    // 4. A funding event now: the position pays or receives it, the status widget and the ledger say so.
    const funded = await request.post(`${AUTH}/dev/deriv/funding`, {
      headers: DEV_HEADERS,
      data: { symbol: PERPETUAL },
    });
    expect(funded.status(), await funded.text()).toBe(200);
    await expect.poll(async () => figure(await status.getByTestId("deriv-own-funding").textContent())).not.toBe(0);

    // 5. At 390 px, the phone desk.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("tab", { name: "Account" }).click();
    const phoneAccount = page.getByRole("tabpanel", { name: "Account", exact: true });
    await expect(phoneAccount.getByRole("heading", { name: "BTCF0:USTF0 perpetual" })).toBeVisible();
    await page.screenshot({ path: "test-results/shots/deriv-phone-account.png", fullPage: true });
    await expectAccessible(page, "the phone desk with a perpetual position at 390 px");
    await page.setViewportSize({ width: 1440, height: 900 });

    // 6. The market falls through the liquidation price: the position is gone, the ledger tells it.
    const liq = figure(await row.locator("td").nth(3).textContent());
    expect(liq).toBeGreaterThan(0);
    expect(liq).toBeLessThan(price);
    // The perpetual's mark is its spot index (tBTCUSD): the spot market is moved below the price.
    const moved = await request.post(`${AUTH}/dev/price`, {
      headers: DEV_HEADERS,
      data: { symbol: "tBTCUSD", price: Math.floor(liq * 0.97) },
    });
    expect(moved.status(), await moved.text()).toBe(200);
    await expect(positions.getByText("No open positions.")).toBeVisible();

    await page.goto("/reports");
    const ledger = page.getByTestId("ledger-table").locator("tbody tr");
    await page.getByRole("combobox", { name: "Currency" }).selectOption("USTF0");
    await expect(ledger.filter({ hasText: /BTCF0:USTF0 funding (cost|payment)/ })).toHaveCount(1);
    await expect(ledger.filter({ hasText: /BTCF0:USTF0 liquidated/ })).toHaveCount(1);
  },
);
