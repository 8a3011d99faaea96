/**
 * The trading desk on a phone (390×844, touch): one column of tabs instead of the grid, the tabs by
 * role and arrow keys and kept across a reload, a touch drag panning the chart (and not the page),
 * a new user tapping a book level, finding its price in the order form and placing an order; and
 * the desktop grid unchanged at 1440 px.
 */
import type { Locator, Page } from "@playwright/test";
import { confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const PASSWORD = "Phone-desk-2026!";
const TABS = ["Chart", "Order book", "Trades", "Order form", "Account"] as const;

/** A tab of the desk's own tablist (the trades tape has tabs of its own). */
const deskTab = (page: Page, name: string): Locator =>
  page.getByRole("tablist", { name: "Trading desk" }).getByRole("tab", { name, exact: true });

interface ChartView {
  readonly min: number;
  readonly max: number;
  readonly follow: boolean;
  readonly candles: number;
}

/** The chart's visible range, through the inspector on its plot (ChartWidget.tsx). */
function chartView(plot: Locator): Promise<ChartView | null> {
  return plot.evaluate((el) => {
    const inspector = (el as unknown as { chartInspector?: { view(): ChartView } }).chartInspector;
    return inspector ? inspector.view() : null;
  });
}

/** Viewport coordinates of a book cell's text, through the book's inspector (book-painter.ts). */
function bookPoint(book: Locator, side: "bid" | "ask", level: number): Promise<{ x: number; y: number } | null> {
  return book.evaluate(
    (el, [s, l]) => {
      type Point = { x: number; y: number } | null;
      const inspector = (el as unknown as { bookInspector?: { point(s: string, l: number, p: string): Point } })
        .bookInspector;
      return inspector ? inspector.point(s, l, "price") : null;
    },
    [side, level] as const,
  );
}

/** A one-finger drag as the phone's touch screen sends it (CDP touch events: touch pointer events). */
async function touchDrag(page: Page, from: { x: number; y: number }, dx: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const point = (x: number) => [{ x: Math.round(x), y: Math.round(from.y), id: 1 }];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: point(from.x) });
  for (let i = 1; i <= 8; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: point(from.x + (dx * i) / 8) });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await cdp.detach();
}

test("a phone shows the desk as tabs: by role and arrow keys, kept across a reload, the chart panned by touch", async ({
  page,
}) => {
  // Four accessibility analyses of the whole desk: seconds each on a loaded machine.
  test.setTimeout(90_000);
  await page.goto("/tradedesk/BTCUSD");
  await acceptCookies(page);
  const tablist = page.getByRole("tablist", { name: "Trading desk" });
  await expect(tablist).toBeVisible();
  await expect(tablist.getByRole("tab")).toHaveText([...TABS]);
  // No grid and no layout controls on a phone.
  await expect(page.getByTestId("layout-bar")).toBeHidden();
  await expect(page.getByTestId("desk-grid")).toHaveCount(0);
  // The compact headline: the pair and its last price, not the 24 h high, low and volume.
  await expect(page.getByTestId("desk-pair")).toBeVisible();
  await expect(page.getByText("24h high")).toBeHidden();

  // The chart first; only the chosen tab's panel is shown.
  await expect(deskTab(page, "Chart")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toHaveCount(1);
  await expect(page.getByRole("tabpanel", { name: "Chart", exact: true })).toBeVisible();

  // Tapping a tab shows its panel; the book draws its levels.
  await deskTab(page, "Order book").tap();
  await expect(deskTab(page, "Order book")).toHaveAttribute("aria-selected", "true");
  const bookPanel = page.getByRole("tabpanel", { name: "Order book", exact: true });
  await expect(bookPanel.getByTestId("order-book")).toBeVisible();
  await expect.poll(() => bookPoint(bookPanel.getByTestId("order-book"), "bid", 0)).not.toBeNull();
  await expectAccessible(page, "the phone desk's book at 390 px");

  // Arrow keys move along the tabs (wrapping), Home and End go to the ends, each showing its panel.
  await deskTab(page, "Order book").focus();
  await page.keyboard.press("ArrowRight");
  await expect(deskTab(page, "Trades")).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "Trades", exact: true }).getByTestId("trades-tape")).toBeVisible();
  await page.keyboard.press("End");
  await expect(deskTab(page, "Account")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(deskTab(page, "Chart")).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(deskTab(page, "Order form")).toHaveAttribute("aria-selected", "true");
  await expect(
    page.getByRole("tabpanel", { name: "Order form", exact: true }).getByTestId("order-sign-in"),
  ).toBeVisible();
  await expectAccessible(page, "the phone desk's order form at 390 px");

  // The chosen tab comes back after a reload.
  await deskTab(page, "Trades").tap();
  await page.reload();
  await expect(deskTab(page, "Trades")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "Trades", exact: true })).toBeVisible();

  // One finger dragged right over the chart shows older candles; the page itself does not scroll.
  await deskTab(page, "Chart").tap();
  const plot = page.getByRole("tabpanel", { name: "Chart", exact: true }).getByTestId("chart-plot");
  await expect.poll(async () => (await chartView(plot))?.candles ?? 0).toBeGreaterThan(10);
  await expectAccessible(page, "the phone desk's chart at 390 px");
  const before = await chartView(plot);
  const box = await plot.boundingBox();
  if (!before || !box) throw new Error("the chart is not drawn");
  const scrollBefore = await page.evaluate(() => window.scrollY);
  await touchDrag(page, { x: box.x + box.width * 0.3, y: box.y + box.height * 0.5 }, box.width * 0.4);
  const after = await chartView(plot);
  expect(after?.follow).toBe(false);
  // A drag of 40 % of the plot's width moves the window by about 40 % of its span into the past.
  const span = before.max - before.min;
  expect(after?.max ?? 0).toBeLessThan(before.max - span * 0.25);
  expect((after?.max ?? 0) - (after?.min ?? 0)).toBeCloseTo(span, -3);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
});

test("a new user taps a book level, finds its price in the order form and places the order", async ({
  page,
  request,
}) => {
  const { username } = await confirmedAccount(request, "phone", PASSWORD);
  await page.goto("/login?back=%2Ftradedesk%2FBTCUSD");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/tradedesk\/BTCUSD$/);

  await deskTab(page, "Order book").tap();
  const book = page.getByRole("tabpanel", { name: "Order book", exact: true }).getByTestId("order-book");
  // Deep enough that the simulated market does not reach the order during the test.
  let point: { x: number; y: number } | null = null;
  await expect
    .poll(async () => {
      point = await bookPoint(book, "bid", 10);
      return point;
    })
    .not.toBeNull();
  const { x, y } = point ?? { x: 0, y: 0 };
  await page.touchscreen.tap(x, y);

  // The tap took the level's price into the form and showed the form's tab, the amount to type next.
  await expect(deskTab(page, "Order form")).toHaveAttribute("aria-selected", "true");
  const form = page.getByRole("tabpanel", { name: "Order form", exact: true });
  const price = form.getByLabel("Price", { exact: true });
  await expect(price).toHaveValue(/^\d+(\.\d+)?$/);
  const tapped = Number(await price.inputValue());
  expect(tapped).toBeGreaterThan(0);
  const amount = form.getByLabel("Amount", { exact: true });
  await expect(amount).toBeFocused();
  // The on-screen keyboard: decimal keys, and no zoom on focus (iOS zooms fields under 16 px).
  await expect(amount).toHaveAttribute("inputmode", "decimal");
  await expect(price).toHaveAttribute("inputmode", "decimal");
  expect(await amount.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16);

  // A bid's level fills a sell; this user buys there instead, below the market, to rest in the book.
  await form.getByRole("radio", { name: "Buy" }).tap();
  await amount.fill("0.001");
  await expect(price).toHaveValue(String(tapped));
  await form.getByTestId("submit-order").tap();
  await page.getByTestId("confirm-order").tap();
  await expect(
    page
      .getByTestId("toast")
      .filter({ hasText: /submitted|placed|accepted/i })
      .first(),
  ).toBeVisible();

  // The order is on the account tab.
  await deskTab(page, "Account").tap();
  const orders = page.getByRole("tabpanel", { name: "Account", exact: true }).getByTestId("table-orders");
  await expect(orders.locator("tr[data-row]").filter({ hasText: String(tapped) })).toHaveCount(1);
  await expectAccessible(page, "the phone desk's account tab at 390 px");
});

test("the order form scrolls inside what the on-screen keyboard leaves", async ({ page }) => {
  await page.goto("/tradedesk/BTCUSD");
  await acceptCookies(page);
  await deskTab(page, "Order form").tap();
  const panel = page.getByRole("tabpanel", { name: "Order form", exact: true });
  await expect(panel).toBeVisible();
  // A keyboard taking 40 % of the screen: the visual viewport shrinks, and so does the panel.
  await page.setViewportSize({ width: 390, height: 500 });
  await expect.poll(() => panel.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThanOrEqual(500);
  // Scrolled to its top, the panel fits in what is visible; the form scrolls within it.
  await panel.evaluate((el) => el.scrollIntoView({ block: "end" }));
  const box = await panel.boundingBox();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(501);
  expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1440, height: 900 }, hasTouch: false, isMobile: false });

  test("the desk is the grid, without tabs", async ({ page }) => {
    await page.goto("/tradedesk/BTCUSD");
    await acceptCookies(page);
    await expect(page.getByTestId("layout-bar")).toBeVisible();
    await expect(page.getByTestId("chart-plot")).toBeVisible();
    await expect(page.getByTestId("order-book")).toBeVisible();
    await expect(page.getByTestId("trades-tape")).toBeVisible();
    await expect(page.getByText("24h high")).toBeVisible();
    await expect(page.getByRole("tablist", { name: "Trading desk" })).toHaveCount(0);
    await expect(page.getByTestId("desk-grid")).toBeVisible();
  });
});
