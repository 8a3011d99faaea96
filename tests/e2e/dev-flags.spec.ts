import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

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
  await expectAccessible(page, "the developer flags panel with the stress source on");
  // Toggling pins the flag across a reload; closing it removes it.
  await page.reload();
  await expect(page.getByTestId("flag-stress")).toBeChecked();
  await panel.getByRole("button", { name: "Remove the flag" }).click();
  await expect(page.getByTestId("flag-stress")).not.toBeChecked();
  await expect(page.getByTestId("stress-stats")).toHaveCount(0);
});

test("feed faults from the URL: corrupted frames are caught by checksums and the book recovers", async ({ page }) => {
  // Every checksum frame corrupted in transit for a while, and half the subscribe replies lost.
  await page.goto("/tradedesk/BTCUSD?dev=1&faults=corrupt:0.2,lose-subscribed:0.5,seed:5");
  await acceptCookies(page);
  await expect(page.getByTestId("flag-faults")).toBeChecked();
  await expect(page.getByTestId("fault-corrupt")).toHaveValue("0.2");
  const badge = page.getByTestId("book-health").first();
  await badge.click();
  const details = page.getByTestId("book-health-details").first();
  // Mismatches are detected and counted (the count survives the resubscribe they cause).
  await expect
    .poll(async () => Number(/Checksums failed\s*(\d+)/.exec((await details.innerText()) ?? "")?.[1] ?? 0), {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);
  await expect(details).toContainText(/Resyncs\s*[1-9]/);
  // Faults off: the book settles in sync again.
  await page.getByTestId("fault-corrupt").selectOption("0");
  await page.getByTestId("fault-loseSubscribed").selectOption("0");
  await expect(badge).toHaveAttribute("data-health", "ok", { timeout: 20_000 });
  await expect(details).not.toContainText("Out of sync");
});
