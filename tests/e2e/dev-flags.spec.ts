import { acceptCookies, expect, test } from "./fixtures";

test("the developer flags panel runs the stress source through the worker, checksums verified", async ({ page }) => {
  await page.goto("/?dev=1");
  await acceptCookies(page);
  const panel = page.getByTestId("dev-flags");
  await expect(panel).toBeVisible();
  await panel.getByRole("combobox").first().selectOption({ index: 3 });
  await panel.getByRole("combobox").nth(1).selectOption("100");
  await page.getByTestId("flag-stress").check();
  const stats = page.getByTestId("stress-stats");
  await expect(stats).toContainText("msg/s");
  await expect
    .poll(async () => Number(/checksums (\d+) ok/.exec((await stats.textContent()) ?? "")?.[1] ?? 0), {
      timeout: 10_000,
    })
    .toBeGreaterThan(10);
  await expect(stats).toContainText(", 0 failed");
  // Toggling pins the flag across a reload; closing it removes it.
  await page.reload();
  await expect(page.getByTestId("flag-stress")).toBeChecked();
  await panel.getByRole("button", { name: "Remove the flag" }).click();
  await expect(page.getByTestId("flag-stress")).not.toBeChecked();
  await expect(page.getByTestId("stress-stats")).toHaveCount(0);
});
