import { test as base, expect, type Page } from "@playwright/test";

/** Every E2E page fails its test on an uncaught page error. */
export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await use(page);
    expect(errors, "uncaught page errors").toEqual([]);
  },
});

export { expect };

/** Answers the consent banner so it does not cover the page. */
export async function acceptCookies(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Necessary only" }).click();
  await expect(page.getByTestId("cookie-banner")).toBeHidden();
}
