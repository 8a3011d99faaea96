/**
 * The desk's rough edges, as a new user meets them: an address naming a market that does not exist
 * (or a funding currency) gets an "unknown market" state with pairs to go to, and nothing is
 * subscribed for it; the header's light and the feed badges agree; a placed order clears the
 * form's amount and shows in the tables in words ("Limit", "Active", "Cancelled"), with "—" for the
 * average price of an order that never filled.
 */
import type { Page } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

/** Every frame the page's sockets send (the market worker's included), as text. */
function sentFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on("websocket", (ws) => ws.on("framesent", (f) => frames.push(String(f.payload))));
  return frames;
}

/** The price the book widget has drawn at a bid level (its canvas inspector, book-painter.ts). */
async function drawnBid(page: Page, level: number): Promise<number> {
  const book = page.locator('[data-testid="order-book"]').first();
  let price = 0;
  await expect
    .poll(async () => {
      const label = await book.evaluate((el, at) => {
        type Row = { side: string; level: number; price: string };
        const inspector = (el as unknown as { bookInspector?: { rows(): Row[] } }).bookInspector;
        return inspector?.rows().find((r) => r.side === "bid" && r.level === at)?.price ?? "";
      }, level);
      price = Number(label.replace(/[^\d.]/g, ""));
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

test("an unknown pair gets the unknown-market state with the closest pairs, and subscribes to nothing", async ({
  page,
}) => {
  const frames = sentFrames(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/tradedesk/BTCXYZ");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { name: "Unknown market", level: 1 })).toBeVisible();
  await expect(page.getByText("There is no market “BTCXYZ” on this exchange.")).toBeVisible();
  // No fake desk: no pair headline saying BTC/XYZ, no light saying "Live".
  await expect(page.getByTestId("desk")).toHaveCount(0);
  await expect(page.getByTestId("connection-light")).toHaveCount(0);
  const similar = page.getByRole("navigation", { name: "Similar markets" });
  const links = similar.getByRole("link");
  await expect(links.first()).toBeVisible();
  // Closest first: the pairs that share its base currency.
  await expect(links.first()).toHaveText(/^BTC\//);
  await expectAccessible(page, "unknown market at 1440 px");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(links.first()).toBeVisible();
  await expectAccessible(page, "unknown market at 390 px");

  // A pair with nothing in common still gets somewhere to go.
  await page.goto("/tradedesk/FOOBAR");
  await expect(page.getByText("There is no market “FOOBAR” on this exchange.")).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Similar markets" }).getByRole("link", { name: "BTC/USD" }),
  ).toBeVisible();
  await page.setViewportSize({ width: 1440, height: 900 });

  // An address that could not be a symbol is not repeated: a link cannot make the page say a
  // sentence of its sender's choosing.
  await page.goto("/tradedesk/Your%20account%20is%20frozen%20call%20us");
  await expect(page.getByText("There is no market at this address on this exchange.")).toBeVisible();
  await expect(page.getByText("Your account is frozen")).toHaveCount(0);
  await page.goto("/tradedesk/FOOBAR");

  // Going to a suggestion opens its desk, and only then does the worker subscribe.
  await page.getByRole("link", { name: "BTC/USD" }).click();
  await expect(page).toHaveURL(/\/tradedesk\/BTCUSD$/);
  await expect(page.getByTestId("desk-pair")).toHaveText("BTC/USD");
  await expect.poll(() => frames.some((f) => f.includes('"subscribe"') && f.includes("tBTCUSD"))).toBe(true);
  expect(frames.filter((f) => f.includes("BTCXYZ") || f.includes("FOOBAR"))).toEqual([]);
});

test("a funding symbol is told apart from a pair and offers the currency's pairs", async ({ page }) => {
  await page.goto("/tradedesk/fUSD");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { name: "Unknown market", level: 1 })).toBeVisible();
  await expect(
    page.getByText("fUSD is a funding market (lending and borrowing USD). This desk trades pairs only."),
  ).toBeVisible();
  await expect(page.getByText("FU/SD")).toHaveCount(0);
  const pairs = page.getByRole("navigation", { name: "Pairs with USD" }).getByRole("link");
  await expect(pairs.first()).toBeVisible();
  for (const name of await pairs.allInnerTexts()) expect(name).toMatch(/USD/);
  await expectAccessible(page, "funding symbol at 1440 px");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "funding symbol at 390 px");
});

test("the header's light and the feed badges tell the same state", async ({ page }) => {
  await page.goto("/tradedesk/BTCUSD");
  await acceptCookies(page);
  const light = page.getByTestId("connection-light");
  await expect(light).toHaveText("Live");
  const badges = page.locator('[data-testid="book-health"], [data-testid="trades-health"]');
  await expect.poll(() => badges.count()).toBeGreaterThan(0);
  for (const badge of await badges.all()) await expect(badge).toHaveAttribute("data-health", "ok");
  await expect(badges.first()).toContainText("Live");
});

test("a placed order clears the amount; the tables name it in words, with — for an unfilled average", async ({
  page,
}) => {
  await signIn(page, "/tradedesk/BTCUSD");
  const form = page.getByTestId("order-form");
  // Under the book's 12th bid: it rests there and the simulated market does not reach it in time.
  const price = Math.floor(await drawnBid(page, 12)) - 1;
  await form.getByTestId("price").fill(String(price));
  await form.getByTestId("amount").fill("0.01");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  await expect(page.getByTestId("order-result")).toContainText("Order placed");
  await expect(form.getByTestId("amount")).toHaveValue("");
  await expect(form.getByTestId("price")).toHaveValue(String(price));

  const open = page
    .getByTestId("table-orders")
    .locator("tr[data-row]")
    .filter({ hasText: String(price) });
  await expect(open).toHaveCount(1);
  await expect(open).toContainText("Limit");
  await expect(open).toContainText("Active");
  await expect(open).not.toContainText("LIMIT");
  await expect(open).not.toContainText("ACTIVE");
  const id = await open.getAttribute("data-row");
  await page.getByTestId(`cancel-${id}`).click();
  const confirm = page.getByTestId("confirm-cancel-yes");
  if (await confirm.isVisible()) await confirm.click();
  await expect(open).toHaveCount(0);

  await page.getByRole("tab", { name: "Order history" }).click();
  const closed = page.getByTestId("table-order_history").locator(`tr[data-row="${id}"]`);
  await expect(closed).toContainText("Cancelled");
  await expect(closed).not.toContainText("CANCELED");
  // The average price column of an order that never filled.
  const headers = await page
    .getByTestId("table-order_history")
    .locator("thead th")
    .evaluateAll((ths) => ths.map((th) => (th as HTMLElement).dataset["column"] ?? ""));
  await expect(closed.locator("td").nth(headers.indexOf("average"))).toHaveText("—");
});
