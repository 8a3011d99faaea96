import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

/**
 * Every page that exists, as a visitor and as a signed-in trader sees it, at a desktop width and a
 * phone width: axe must find no serious or critical violation. Pages with their own journeys check
 * their interactive states there (the login check, the developer panel, …); this is the sweep.
 */
const PUBLIC = ["/", "/features", "/borrow", "/securities", "/competitions", "/about", "/login", "/freeze", "/nowhere"];
const SIGNED_IN = ["/tradedesk/BTCUSD", "/interface/"];
const WIDTHS = [1440, 390] as const;

// A sweep runs axe on several pages in one test: each analysis takes seconds on a loaded machine.
test.describe.configure({ timeout: 120_000 });

for (const width of WIDTHS) {
  test(`public pages at ${width} px have no serious accessibility violation`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await acceptCookies(page);
    for (const path of PUBLIC) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expectAccessible(page, `${path} at ${width} px`);
    }
  });

  test(`signed-in pages at ${width} px have no serious accessibility violation`, async ({ page, request }) => {
    const api = `http://127.0.0.1:${Number(process.env["E2E_PORT"] ?? 5190) + 1}`;
    const login = await request.post(`${api}/v2/login`, { data: { login: "demo", password: "demo-password" } });
    const [token] = (await login.json()) as [string];
    await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await acceptCookies(page);
    for (const path of SIGNED_IN) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeAttached();
      await expectAccessible(page, `${path} at ${width} px, signed in`);
    }
  });
}
