import { acceptCookies, expect, test } from "./fixtures";
import type { Page } from "@playwright/test";

test("tolerates trailing slashes and treats /index.html as the root", async ({ page }) => {
  await page.goto("/about/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("About us");
  await page.goto("/index.html");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("A trading desk that keeps up with the market");
});

test("shows a localized 404 page for unknown paths", async ({ page }) => {
  await page.goto("/no/such/page");
  await expect(page.getByTestId("not-found")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page not found");
  await acceptCookies(page);
  await page.getByTestId("locale-select").selectOption("tr-TR");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sayfa bulunamadı");
});

test("sends a logged-out visitor of a protected page to login with the full address", async ({ page }) => {
  await page.goto("/wallets/history?ccy=BTC#top");
  await expect(page).toHaveURL(/\/login\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get("back")).toBe("/wallets/history?ccy=BTC#top");
  expect(url.searchParams.get("forced")).toBe("1");
  await expect(page.getByTestId("forced-login")).toBeVisible();
  await page.goto("/freeze");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Freeze your account");
});

test("shows the settings page to a logged-in user and refuses out-of-bound values", async ({ page, request }) => {
  // A real token: the session checks a stored token with the exchange and signs a refused one out.
  const api = `http://127.0.0.1:${Number(process.env["E2E_PORT"] ?? 5190) + 1}`;
  const login = await request.post(`${api}/v2/login`, { data: { login: "demo", password: "demo-password" } });
  const [token] = (await login.json()) as [string];
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await page.goto("/interface/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Interface settings");
  await acceptCookies(page);
  const height = page.getByTestId("setting-chart_height");
  await expect(height).toHaveValue("515");
  await height.fill("640");
  await height.blur();
  await height.fill("99999");
  await expect(page.getByRole("alert")).toContainText("Must be between 200 and 1600");
  await height.blur();
  await expect(height).toHaveValue("640");
  await page.getByTestId("scheme-select").selectOption("red-up");
  await expect(page.locator("html")).toHaveAttribute("data-scheme", "red-up");
  // The page applies a change at once and stores it a moment later (IndexedDB is asynchronous): a
  // reload in between could start from the older stored copy. Reload once it is stored, as a
  // person would a moment later.
  await expect.poll(() => storedSetting(page, "color_scheme"), { timeout: 5000 }).toBe("red-up");
  await page.reload();
  await expect(page.getByTestId("setting-chart_height")).toHaveValue("640");
  await expect(page.locator("html")).toHaveAttribute("data-scheme", "red-up");
});

test("page data: 500 shows the error page", async ({ page }) => {
  await page.route("**/page-data/features/page-data.json", (r) => r.fulfill({ status: 500, body: "boom" }));
  await page.goto("/features");
  await expect(page.getByTestId("error-page")).toBeVisible();
});

test("page data: other failures are retried 3 times, then an error status with a working retry", async ({ page }) => {
  let calls = 0;
  await page.route("**/page-data/borrow/page-data.json", (r) => {
    calls++;
    return r.fulfill({ status: 503, body: "busy" });
  });
  await page.goto("/borrow");
  await expect(page.getByTestId("load-error")).toBeVisible({ timeout: 10_000 });
  expect(calls).toBe(4);
  await page.unroute("**/page-data/borrow/page-data.json");
  await page.getByRole("button", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Borrow");
});

test("a load over one second raises the delayed-load event and shows progress", async ({ page }) => {
  await page.route("**/page-data/competitions/page-data.json", async (r) => {
    await new Promise((resolve) => setTimeout(resolve, 1800));
    await r.continue();
  });
  await page.addInitScript(() => {
    window.addEventListener("app:delayed-load", (e) => {
      (window as unknown as { delayed: unknown }).delayed = (e as CustomEvent).detail;
    });
  });
  await page.goto("/competitions");
  await expect(page.getByRole("progressbar")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Trading competitions");
  expect(await page.evaluate(() => (window as unknown as { delayed: unknown }).delayed)).toEqual({
    path: "/competitions",
  });
});

test("a platform variant hides its disabled features from navigation and routes", async ({ page }) => {
  await page.route("**/config.json", async (r) => {
    const res = await r.fetch();
    const config = (await res.json()) as Record<string, unknown>;
    await r.fulfill({ response: res, json: { ...config, platform: "jp" } });
  });
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Features" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Securities" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Borrow" })).toHaveCount(0);
  await expect(page.getByTestId("default-pair")).toHaveText("BTC/JPY, prices shown in JPY");
  await page.goto("/securities");
  await expect(page.getByTestId("not-found")).toBeVisible();
});

/** A setting as IndexedDB holds it now (idb-keyval's default database, key "user-settings"). */
function storedSetting(page: Page, key: string): Promise<unknown> {
  return page.evaluate(
    (k) =>
      new Promise<unknown>((resolve) => {
        const open = indexedDB.open("keyval-store");
        open.onerror = () => resolve(undefined);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("keyval")) return resolve(undefined);
          const get = db.transaction("keyval", "readonly").objectStore("keyval").get("user-settings");
          get.onsuccess = () => resolve((get.result as Record<string, unknown> | undefined)?.[k]);
          get.onerror = () => resolve(undefined);
        };
      }),
    key,
  );
}
