import { acceptCookies, expect, test } from "./fixtures";

test("switches locale and theme from the shell and keeps both after a reload", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A trading desk that keeps up with the market");
  await acceptCookies(page);
  const bodyBg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await bodyBg();

  await page.getByTestId("locale-select").selectOption("ru");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Торговый терминал, который успевает за рынком");
  await page.getByTestId("display-menu").click();
  await page.getByTestId("theme-select").selectOption("classic");
  await page.getByTestId("mode-select").selectOption("light");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "classic");
  await expect.poll(bodyBg).toBe("rgb(238, 242, 244)");
  expect(before).not.toBe(await bodyBg());

  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Торговый терминал, который успевает за рынком");
  await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "classic");
  await expect(page.locator("html")).toHaveAttribute("data-mode", "light");
  expect(await bodyBg()).toBe("rgb(238, 242, 244)");
  await expect(page.getByTestId("locale-select")).toHaveValue("ru");
});

test("handles internal links in the app and announces the new page", async ({ page }) => {
  await page.goto("/");
  await acceptCookies(page);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About us");
  await expect(page.getByTestId("route-announcer")).toHaveText("Navigated to About");
  await expect(page).toHaveTitle("About · Orderflow");
  // The same document: a full load would have dropped the marker.
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A trading desk that keeps up with the market");
});

test("cookie consent is remembered, and not asked where it is not required", async ({ page, context }) => {
  await page.goto("/");
  await expect(page.getByTestId("cookie-banner")).toBeVisible();
  await page.getByRole("button", { name: "Choose" }).click();
  await page.getByRole("checkbox", { name: "Analytical" }).check();
  await page.getByRole("button", { name: "Save my choices" }).click();
  await expect(page.getByTestId("cookie-banner")).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("cookie-banner")).toBeHidden();

  const fresh = await context.browser()!.newContext();
  const visitor = await fresh.newPage();
  await visitor.route("**/v2/int/geo/ip*", (r) => r.fulfill({ json: ["203.0.113.7", "BR"] }));
  await visitor.goto("/");
  await expect(visitor.getByRole("heading", { level: 1 })).toBeVisible();
  await visitor.waitForTimeout(500);
  await expect(visitor.getByTestId("cookie-banner")).toBeHidden();
  await fresh.close();
});

test("shows the maintenance notice until dismissed, and remembers the dismissal", async ({ page }) => {
  await page.route("**/v2/platform/status", (r) => r.fulfill({ json: [0] }));
  await page.goto("/");
  const notice = page.getByTestId("maintenance-notice");
  await expect(notice).toBeVisible();
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(notice).toBeHidden();
});

test("an area page's messages load with it and follow a locale switch", async ({ page }) => {
  // The sign-in page's messages are in the account catalog (locales/README.md), loaded with the route.
  await page.goto("/");
  await acceptCookies(page);
  await page.getByTestId("locale-select").selectOption("ru");
  await page.goto("/login");
  await expect(page.getByLabel("Пароль", { exact: true })).toBeVisible();
  // Switching while on the page loads the area's catalog in the new locale before it shows.
  await page.getByTestId("locale-select").selectOption("zh-CN");
  await expect(page.getByLabel("密码", { exact: true })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
});
