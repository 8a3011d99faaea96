/**
 * Liquidations and leaderboards as people meet them: a visitor on the desk sees a liquidation the
 * moment the exchange liquidates a position (the development hook liquidates a simulated trader's
 * long), said in words; the demo account chooses a public nickname in the leaderboard widget, and
 * a market order moves it up the volume board, on the desk and on the public competitions page.
 */
import { API, DEV_HEADERS, accessibleAtBothWidths } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });
// axe over the whole desk (every widget) takes many seconds on a loaded machine.
test.setTimeout(90_000);

const usd = (text: string | null): number => Number((text ?? "").replace(/[^0-9.-]/g, ""));

test("a liquidation shows up live, and a trade moves the trader on the volume leaderboard", async ({
  page,
  request,
}) => {
  await page.goto("/tradedesk/BTCUSD");
  await acceptCookies(page);
  const liquidations = page.getByTestId("liquidations");
  const board = page.getByTestId("leaderboard");
  await expect(liquidations.getByRole("heading", { name: "Liquidations" })).toBeVisible();
  await expect(board.getByRole("heading", { name: "Leaderboard" })).toBeVisible();
  await expect(liquidations.getByTestId("liquidations-feed")).toBeVisible();

  // A simulated trader's long is liquidated at the market's price; its size is this run's own (the
  // exchange's database keeps earlier runs' liquidations).
  const amount = ((Date.now() % 10_000_000) + 10_000_000) / 1e8;
  const liquidated = await request.post(`${API}/dev/liquidation`, {
    headers: DEV_HEADERS,
    data: { symbol: "tBTCUSD", amount },
  });
  expect(liquidated.status(), await liquidated.text()).toBe(200);
  const row = liquidations.locator("tbody tr").filter({ hasText: amount.toFixed(8).replace(/0+$/, "") });
  await expect(row).toHaveCount(1);
  for (const word of ["BTC/USD", "Long", "Triggered", "System"]) await expect(row).toContainText(word);
  // No nickname form for a visitor.
  await expect(board.getByLabel("Public nickname")).toHaveCount(0);
  await expectAccessible(page, "the desk with liquidations and the leaderboard at 1440 px");

  // The demo account joins the boards under a nickname of its own.
  await page.goto("/login?back=/tradedesk/BTCUSD");
  await page.getByLabel("E-mail or username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo-password");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/tradedesk\/BTCUSD$/);
  const nickname = `lq${Date.now() % 100_000_000}`;
  await board.getByLabel("Public nickname").fill("no@mail");
  await expect(board.getByText("Letters, digits, _ and - only")).toBeVisible();
  await board.getByLabel("Public nickname").fill(nickname);
  await board.getByRole("button", { name: "Save" }).click();
  await expect(board.getByText("Saved")).toBeVisible();

  // Where the demo stands before the trade (it may have traded in this run already): a board is
  // computed at most once a second, so the standings with the new nickname are there after that.
  await page.waitForTimeout(1200);
  const standings = async (): Promise<number> => {
    const rows = (await (await request.get(`${API}/v2/rankings/vol:3h:tGLOBAL:USD/hist`)).json()) as unknown[][];
    return (rows.find((r) => r[2] === nickname)?.[6] as number | undefined) ?? 0;
  };
  const before = await standings();

  await page.getByTestId("order-kind").selectOption({ label: "Market" });
  await page.getByTestId("order-form").getByTestId("amount").fill("0.002");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  const mine = board.locator('tr[aria-current="true"]');
  await expect(mine).toContainText(`${nickname} (you)`);
  await expect.poll(async () => usd(await mine.locator("td").last().textContent())).toBeGreaterThan(before);

  // The public competitions page lists the same board, nicknames only.
  await page.goto("/competitions");
  const publicBoard = page.getByTestId("competition-leaderboard");
  await expect(publicBoard.locator("tbody tr").filter({ hasText: nickname })).toHaveCount(1);
  await expect(publicBoard).not.toContainText("demo@");
  await accessibleAtBothWidths(page, "the competitions page with its leaderboard");
});
