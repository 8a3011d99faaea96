import { test as base, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

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

/**
 * Runs axe on what the page shows now and fails on any serious or critical violation (the bar every
 * page is held to; minor and moderate findings do not fail the journey). Soft: a journey goes on and
 * reports every page's findings together.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const bad = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect.soft(bad, `axe on ${what}`).toEqual([]);
}
