/**
 * Errors handled once for the whole app (docs/product-rules.md#errors), against the embedded
 * exchange: its 429s — forced for this browser only through `POST /dev/rate-limit` (server/README.md),
 * as its limiter answers them, so the journeys running beside this one keep their allowance — show
 * one notice whichever thread or page made the call, and every read refused comes back by itself
 * after the server's wait; maintenance entered and left while the desk is open shows and hides its
 * notice, and the feed carries on. And a setting changed in one tab reaches the others at once
 * (docs/product-rules.md#settings-across-tabs).
 */
import type { APIRequestContext, Page, Response } from "@playwright/test";
import {
  accessibleAtBothWidths,
  API,
  AUTH,
  confirmedAccount,
  DEV_HEADERS,
  signInWithPassword,
  unique,
} from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

/** This browser's mark in its User-Agent: the forced 429s answer its requests only. */
const MARK = `errors-once-${unique()}`;
test.use({
  userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 ${MARK}`,
});

/** The next `count` requests of this browser under `path` on `host` answer 429 with Retry-After. */
async function force429(request: APIRequestContext, host: string, path: string, retryAfter: number): Promise<void> {
  const r = await request.post(`${host}/dev/rate-limit`, {
    headers: DEV_HEADERS,
    data: { agent: MARK, path, count: 1, retryAfter },
  });
  expect(r.status(), await r.text()).toBe(200);
}

/** The statuses the exchange answered for requests under `path`, in order, from page and worker. */
function statusesOf(page: Page, path: string): number[] {
  const seen: number[] = [];
  const note = (res: Response): void => {
    if (new URL(res.url()).pathname.startsWith(path) && res.request().method() !== "OPTIONS") seen.push(res.status());
  };
  page.context().on("response", note);
  return seen;
}

test("a 429 from any call shows one notice, and the reads it refused come back after the wait", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const password = "Errors-once-1!";
  const account = await confirmedAccount(request, "errors", password);

  // A public page: a new visitor's country lookup (for the cookie banner) is refused once.
  const geo = statusesOf(page, "/v2/int/geo/ip");
  await force429(request, API, "/v2/int/geo/ip", 2);
  await page.goto("/");
  const notice = page.getByTestId("rate-limit-notice");
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(/Too many requests in a short time\. You can try again in \d s\./);
  await expect.poll(() => geo, { timeout: 10_000 }).toEqual([429, 200]);
  await expect(notice).toBeHidden();

  await page.goto("/login?back=%2Freports");
  await acceptCookies(page);
  await signInWithPassword(page, account.username, password);
  await expect(page).toHaveURL(/\/reports$/);

  // The ledger check reads the ledger in the worker and the exchange's verdict on the main thread:
  // both are refused once. One notice says when to try again, and both reads come back.
  const worker = statusesOf(page, "/v2/auth/r/ledgers/hist");
  const main = statusesOf(page, "/v2/auth/r/ledgers/reconcile");
  await force429(request, AUTH, "/v2/auth/r/ledgers/hist", 8);
  await force429(request, AUTH, "/v2/auth/r/ledgers/reconcile", 8);
  await page.getByRole("button", { name: "Check the ledger" }).click();
  // Two calls refused, one notice.
  await expect(notice).toBeVisible();
  await expect(notice).toHaveCount(1);
  await accessibleAtBothWidths(page, "the rate-limit notice over the reports page");
  // Nothing was shown as failed meanwhile: the page waits with the notice.
  await expect(page.getByText("Your browser could not read the ledger from the exchange.")).toHaveCount(0);
  await expect(page.getByTestId("reconciliation-agreement")).toHaveText("The exchange's own check agrees.", {
    timeout: 15_000,
  });
  await expect(notice).toBeHidden();
  expect(main).toEqual([429, 200]);
  // The worker's check may read the ledger again when the balances moved meanwhile: refused once,
  // answered every time after.
  expect(worker[0]).toBe(429);
  expect(worker.slice(1)).toContain(200);
  expect(worker.slice(1)).not.toContain(429);

  // The desk: reading the trader's saved layouts is refused once; the notice shows, the read comes back.
  const layouts = statusesOf(page, "/v2/auth/r/settings");
  await force429(request, AUTH, "/v2/auth/r/settings", 2);
  await page.goto("/tradedesk/BTCUSD");
  await expect(notice).toBeVisible();
  await expect(page.getByTestId("chart-plot")).toBeVisible();
  await expect.poll(() => layouts[0], { timeout: 10_000 }).toBe(429);
  await expect.poll(() => layouts.slice(1), { timeout: 10_000 }).toContain(200);
  expect(layouts.slice(1)).not.toContain(429);
  await expect(notice).toBeHidden({ timeout: 10_000 });
});

// Maintenance halts every trading call on the shared exchange: this journey runs alone, after the
// others (the `exclusive` project in playwright.config.ts), so it cannot fail a journey beside it.
test(
  "the maintenance notice comes and goes with the exchange's maintenance while the desk is open",
  { tag: "@exclusive" },
  async ({ page, request }) => {
    test.setTimeout(60_000);
    const maintenance = async (on: boolean): Promise<void> => {
      const r = await request.post(`${API}/dev/maintenance`, { headers: DEV_HEADERS, data: { on } });
      expect(r.status()).toBe(200);
    };
    await page.goto("/tradedesk/BTCUSD");
    await acceptCookies(page);
    const book = page.getByTestId("book-health").first();
    await expect(book).toHaveAttribute("data-health", "ok");
    const notice = page.getByTestId("maintenance-notice");
    await expect(notice).toHaveCount(0);
    try {
      await maintenance(true);
      await expect(notice).toBeVisible();
      await expect(notice).toContainText("The exchange is under maintenance.");
      await accessibleAtBothWidths(page, "the desk in maintenance");
    } finally {
      // Short: the other journeys trade on the same exchange.
      await maintenance(false);
    }
    await expect(notice).toHaveCount(0);
    // The feed resubscribed for fresh snapshots and goes on.
    await expect(book).toHaveAttribute("data-health", "ok");
    await expect(page.getByTestId("connection-light")).toHaveAttribute("data-state", "online");
  },
);

test("a setting changed in one tab shows in the other at once, and a reload keeps it", async ({ page }) => {
  await page.goto("/tradedesk/BTCUSD");
  await acceptCookies(page);
  const other = await page.context().newPage();
  await other.goto("/tradedesk/BTCUSD");
  await expect(other.locator("html")).toHaveAttribute("data-theme", "default");

  await page.getByText("Display", { exact: true }).click();
  await page.getByLabel("Theme").selectOption({ label: "Classic" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "classic");
  // The other tab follows without a reload.
  await expect(other.locator("html")).toHaveAttribute("data-theme", "classic");

  // And the other tab's own change later does not bring the old theme back.
  await other.getByText("Display", { exact: true }).click();
  await other.getByLabel("Mode").selectOption({ label: "Light" });
  await expect(page.locator("html")).toHaveAttribute("data-mode", "light");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "classic");
  await expect(page.locator("html")).toHaveAttribute("data-mode", "light");
  await other.close();
});
