/**
 * The settings follow the person across devices (docs/product-rules.md#settings-across-devices):
 * two browsers signed in to one new account; what is chosen on one shows on the other, and when
 * both change one setting the later change wins on both. Then the leave-page block
 * (docs/product-rules.md#unsaved-changes): a desk layout edited and not saved holds a link back
 * with "Leave without saving?".
 */
import type { Browser, Page } from "@playwright/test";
import { confirmedAccount, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const PASSWORD = "Settings-devices-2024!";

async function device(browser: Browser, login: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto("/login?back=%2Finterface");
  await acceptCookies(page);
  await signInWithPassword(page, login, PASSWORD);
  await expect(page.getByRole("heading", { level: 1, name: "Interface settings" })).toBeVisible();
  return page;
}

test("a setting chosen on one device shows on the other, and the later of two changes wins", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const { username } = await confirmedAccount(request, "devices", PASSWORD);
  const laptop = await device(browser, username);
  const phone = await device(browser, username);

  // Chosen on the laptop: the theme, the height of the chart, a new chart's timeframe.
  await laptop.getByRole("main").getByLabel("Theme").selectOption("classic");
  await laptop.getByRole("main").getByLabel("Chart height (px)").fill("600");
  await laptop.getByRole("main").getByLabel("Timeframe of a new chart").selectOption("1h");
  await laptop.getByRole("main").getByLabel("Show liquidations on the chart").uncheck();
  // Sent a second after the last change; the phone reads the exchange's copy when shown again.
  await expect
    .poll(
      async () => {
        await phone.reload();
        return phone.getByRole("main").getByLabel("Timeframe of a new chart").inputValue();
      },
      { timeout: 20_000, intervals: [1500] },
    )
    .toBe("1h");
  await expect(phone.getByRole("main").getByLabel("Theme")).toHaveValue("classic");
  await expect(phone.getByRole("main").getByLabel("Chart height (px)")).toHaveValue("600");
  await expect(phone.getByRole("main").getByLabel("Show liquidations on the chart")).not.toBeChecked();
  await expect(phone.locator("html")).toHaveAttribute("data-theme", /classic/);

  // Both change the chart height; the phone's change is the later one and wins on the laptop too.
  await laptop.getByRole("main").getByLabel("Chart height (px)").fill("620");
  await laptop.waitForTimeout(300);
  await phone.getByRole("main").getByLabel("Chart height (px)").fill("640");
  await expect
    .poll(
      async () => {
        await laptop.reload();
        return laptop.getByRole("main").getByLabel("Chart height (px)").inputValue();
      },
      { timeout: 20_000, intervals: [1500] },
    )
    .toBe("640");
  await phone.reload();
  await expect(phone.getByRole("main").getByLabel("Chart height (px)")).toHaveValue("640");
  await expectAccessible(laptop, "/interface with the chart settings");
  await laptop.context().close();
  await phone.context().close();
});

test("a desk layout edited and not saved holds a link until the person chooses to leave", async ({ page, request }) => {
  test.setTimeout(60_000);
  const { username } = await confirmedAccount(request, "leave", PASSWORD);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/login?back=%2Ftradedesk");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await page.getByTestId("layout-edit").click();
  const book = page.locator('[data-cell][data-widget="book"]');
  const x = Number(await book.getAttribute("data-x"));
  await book.locator("header").focus();
  await page.keyboard.press("ArrowLeft");
  await expect(book).toHaveAttribute("data-x", String(x - 1));

  // A link away: the question, and staying keeps the edit on screen.
  const away = page.getByRole("banner").getByRole("link", { name: "Features" });
  await away.click();
  const dialog = page.getByRole("dialog", { name: "Leave without saving?" });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, "the leave-without-saving question");
  await dialog.getByRole("button", { name: "Stay on this page" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/tradedesk/);
  await expect(book).toHaveAttribute("data-x", String(x - 1));

  // Asked again, leaving goes where the link pointed.
  await away.click();
  await dialog.getByRole("button", { name: "Leave without saving" }).click();
  await expect(page).toHaveURL(/\/features$/);

  // The edit left behind was dropped; saved, nothing holds the page any more.
  await page.goBack();
  await expect(book).toHaveAttribute("data-x", String(x));
  await page.getByTestId("layout-edit").click();
  await book.locator("header").focus();
  await page.keyboard.press("ArrowLeft");
  await page.getByTestId("layout-save").click();
  await away.click();
  await expect(page).toHaveURL(/\/features$/);
  await expect(dialog).toBeHidden();
});
