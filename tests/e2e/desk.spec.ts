/**
 * The trading desk against the embedded exchange, as a new user meets it: live books and trades for
 * a visitor; the demo account signing in, placing a limit order below the market, seeing it in the
 * book and the orders table and cancelling it; a market order filling with balances and own trades
 * following; precision and pair switches; a moved widget staying moved after a reload; and an
 * exchange restart showing a reconnecting state and then a correct book.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { acceptCookies, expect, test } from "./fixtures";

interface DrawnRow {
  readonly side: "bid" | "ask";
  readonly level: number;
  readonly price: string;
  readonly own: boolean;
}

/** The rows a book widget has drawn on its canvas, through the inspector on its root (book-painter.ts). */
function drawnRows(book: Locator): Promise<DrawnRow[]> {
  return book.evaluate((el) => {
    const inspector = (el as unknown as { bookInspector?: { rows(): DrawnRow[] } }).bookInspector;
    return inspector ? inspector.rows() : [];
  });
}

const bookOf = (page: Page): Locator => page.locator('[data-testid="order-book"]').first();
const priceNumber = (label: string): number => Number(label.replace(/[^\d.]/g, ""));

/** The price drawn at a level, once the book has drawn it. */
async function drawnPrice(book: Locator, side: "bid" | "ask", level = 0): Promise<number> {
  let price = 0;
  await expect
    .poll(async () => {
      const row = (await drawnRows(book)).find((r) => r.side === side && r.level === level);
      price = row ? priceNumber(row.price) : 0;
      return price;
    })
    .toBeGreaterThan(0);
  return price;
}

async function signIn(page: Page, back: string): Promise<void> {
  await page.goto(`/login?back=${encodeURIComponent(back)}`);
  await acceptCookies(page);
  await page.getByLabel("E-mail or username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${back.replace(/[/]/g, "\\/")}$`));
}

function openOrdersOn(page: Page, price: number): Locator {
  const table = page.getByTestId("table-orders");
  return table.locator("tr[data-row]").filter({ hasText: price.toString() });
}

test("a visitor sees live books, trades and candles", async ({ page }) => {
  await page.goto("/tradedesk");
  await acceptCookies(page);
  await expect(page.getByTestId("connection-light")).toHaveAttribute("data-state", "online");
  const bid = await drawnPrice(bookOf(page), "bid");
  const ask = await drawnPrice(bookOf(page), "ask");
  expect(bid).toBeGreaterThan(0);
  expect(ask).toBeGreaterThan(bid);
  await expect(page.locator('[data-testid="trades-tape"] [data-index="0"] [data-part="price"]')).toHaveText(/\d/);
  await expect(page.getByTestId("chart-plot")).toBeVisible();
  // Signed out: the order form asks to sign in instead of submitting.
  await expect(page.getByTestId("order-sign-in")).toBeVisible();
});

test("the demo account places a limit order below the market, sees it in the book and the table, and cancels it", async ({
  page,
}) => {
  await signIn(page, "/tradedesk/BTCUSD");
  // Just under the 12th bid level: deep enough that the simulated market does not reach it during
  // the test (a price just under the best bid sometimes filled at once), shallow enough to be on
  // screen for the own-order marker.
  const book = bookOf(page);
  const price = Math.floor(await drawnPrice(book, "bid", 12)) - 1;
  await page.getByTestId("order-form").getByTestId("price").fill(String(price));
  await page.getByTestId("order-form").getByTestId("amount").fill("0.01");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  await expect(
    page
      .getByTestId("toast")
      .filter({ hasText: /submitted|placed|accepted/i })
      .first(),
  ).toBeVisible();
  const row = openOrdersOn(page, price);
  await expect(row).toHaveCount(1);
  // The book marks the level that holds our order.
  await expect
    .poll(async () => (await drawnRows(book)).filter((r) => r.own).map((r) => `${r.side} ${priceNumber(r.price)}`))
    .toContain(`bid ${price}`);
  const id = await row.getAttribute("data-row");
  await page.getByTestId(`cancel-${id}`).click();
  const confirm = page.getByTestId("confirm-cancel-yes");
  if (await confirm.isVisible()) await confirm.click();
  await expect(openOrdersOn(page, price)).toHaveCount(0);
  await expect.poll(async () => (await drawnRows(book)).filter((r) => r.own).length).toBe(0);
});

test("a market order fills and the balances and own trades follow", async ({ page }) => {
  await signIn(page, "/tradedesk/BTCUSD");
  const balances = page.getByTestId("table-balances");
  const btcRow = balances.locator('tr[data-row="exchange:BTC"]');
  await expect(btcRow).toBeVisible();
  const before = await btcRow.innerText();
  const trades = page.getByTestId("own-trades-widget").locator("tr[data-row]");
  const tradesBefore = await trades.count();
  await page.getByTestId("order-kind").selectOption({ label: "Market" });
  await page.getByTestId("order-form").getByTestId("amount").fill("0.002");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  await expect.poll(() => btcRow.innerText()).not.toBe(before);
  await expect.poll(() => trades.count()).toBeGreaterThan(tradesBefore);
  await expect(
    page
      .getByTestId("toast")
      .filter({ hasText: /Bought/ })
      .first(),
  ).toBeVisible();
});

test("book precision and pair switches show the new book", async ({ page }) => {
  await page.goto("/tradedesk/BTCUSD");
  await acceptCookies(page);
  await drawnPrice(bookOf(page), "bid");
  await page.getByTestId("book-prec-P2").click();
  // P2 on a ~5-digit price groups to hundreds: every shown bid is a multiple of 100.
  await expect
    .poll(async () => {
      const rows = await drawnRows(bookOf(page));
      const prices = rows.filter((r) => r.side === "bid").map((r) => priceNumber(r.price));
      return prices.length > 3 && prices.every((p) => p > 0 && p % 100 === 0);
    })
    .toBe(true);
  await page.getByTestId("markets").locator('tr[data-pair="ETHUSD"]').click();
  await expect(page).toHaveURL(/\/tradedesk\/ETHUSD$/);
  await expect(page.getByTestId("desk-pair")).toHaveText("ETH/USD");
  await expect
    .poll(
      async () => {
        const best = (await drawnRows(bookOf(page))).find((r) => r.side === "bid" && r.level === 0);
        return best ? priceNumber(best.price) : Number.POSITIVE_INFINITY;
      },
      { timeout: 10_000 },
    )
    .toBeLessThan(20_000);
});

test("a moved widget stays moved after a reload", async ({ page }) => {
  await signIn(page, "/tradedesk");
  await page.getByTestId("layout-edit").click();
  const book = page.locator('[data-cell][data-widget="book"]');
  const x = Number(await book.getAttribute("data-x"));
  await book.locator("header").focus();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(book).toHaveAttribute("data-x", String(x - 2));
  await page.getByTestId("layout-save").click();
  // The local copy is written at once; the exchange's copy after the 1 s debounce.
  await page.waitForTimeout(1500);
  await page.reload();
  await expect(page.locator('[data-cell][data-widget="book"]')).toHaveAttribute("data-x", String(x - 2));
});

/** A second product instance of our own, so the test can stop and restart its exchange. */
function startProduct(port: number, db: string): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    env: { ...process.env, PORT: String(port), EXCHANGE_DB: db, SIM_STEP_MS: "100" },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

async function ready(port: number): Promise<void> {
  await expect
    .poll(
      async () => {
        try {
          return (await fetch(`http://127.0.0.1:${port + 1}/v2/platform/status`)).ok;
        } catch {
          return false;
        }
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

test("restarting the exchange shows reconnecting, then a correct book again", async ({ page }) => {
  test.setTimeout(90_000);
  const port = 5230;
  const dir = mkdtempSync(join(tmpdir(), "orderflow-restart-"));
  const db = join(dir, "exchange.db");
  let product = startProduct(port, db);
  try {
    await ready(port);
    await page.goto(`http://127.0.0.1:${port}/tradedesk`);
    await acceptCookies(page);
    const light = page.getByTestId("connection-light");
    await expect(light).toHaveAttribute("data-state", "online");
    await drawnPrice(bookOf(page), "bid");
    product.kill("SIGTERM");
    await new Promise((r) => product.once("exit", r));
    await expect(light).toHaveAttribute("data-state", /reconnecting|connecting|offline/);
    product = startProduct(port, db);
    await ready(port);
    await expect(light).toHaveAttribute("data-state", "online", { timeout: 30_000 });
    const bid = await drawnPrice(bookOf(page), "bid");
    const ask = await drawnPrice(bookOf(page), "ask");
    expect(ask).toBeGreaterThan(bid);
    // The feed badge reports the resubscribed book as in sync (checksums verified).
    await expect(page.getByTestId("book-health").first()).toHaveAttribute("data-health", "ok");
  } finally {
    product.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
});

test("keyboard shortcuts: the help lists them, B/S switch the order form's side, / searches markets", async ({
  page,
}) => {
  await signIn(page, "/tradedesk/BTCUSD");
  await drawnPrice(bookOf(page), "bid");
  await page.locator("body").press("?");
  const help = page.getByTestId("shortcuts-dialog");
  await expect(help).toBeVisible();
  await expect(help).toContainText("Cancel all open orders on this market");
  // A dialog keeps its keys: S behind it must not flip the order form.
  await page.keyboard.press("s");
  await expect(page.getByTestId("submit-order")).toHaveText(/Buy/);
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();
  await page.locator("body").press("s");
  await expect(page.getByTestId("submit-order")).toHaveText(/Sell/);
  // S put the cursor in the amount field, ready to type; leave it before the next shortcut.
  await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe("INPUT");
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("b");
  await expect(page.getByTestId("submit-order")).toHaveText(/Buy/);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("/");
  await expect(page.getByTestId("markets-search")).toBeFocused();
});

test("a new layout gets a widget pinned to another market", async ({ page }) => {
  await signIn(page, "/tradedesk/BTCUSD");
  await page.getByRole("button", { name: "New layout" }).click();
  await page.getByTestId("layout-name-dialog").getByRole("textbox").fill("Two markets");
  await page.getByTestId("layout-name-dialog").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("layout-mode")).toContainText("Two markets");
  await page.getByTestId("layout-add").selectOption({ label: "Order book +" });
  const books = page.locator('[data-cell][data-widget="book"]');
  await expect(books).toHaveCount(2);
  await books.nth(1).getByTestId("widget-pair").selectOption("ETHUSD");
  await page.getByTestId("layout-save").click();
  await expect(page.getByTestId("layout-select")).toHaveValue(/.+/);
  await expect(page.getByTestId("layout-select").locator("option:checked")).toHaveText("Two markets");
  // The pinned book shows ETH/USD prices while the desk stays on BTC/USD.
  const pinned = books.nth(1);
  await expect(pinned.locator("header")).toContainText("ETHUSD");
  expect(await drawnPrice(pinned.getByTestId("order-book"), "bid")).toBeLessThan(20_000);
  await expect(page.getByTestId("desk-pair")).toHaveText("BTC/USD");
});
