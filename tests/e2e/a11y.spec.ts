import type { APIRequestContext } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

/**
 * Every page that exists, as a visitor and as a signed-in trader sees it, at a desktop width and a
 * phone width: axe must find no serious or critical violation. Pages with their own journeys check
 * their interactive states there (the login check, the developer panel, …); this is the sweep.
 */
/** Every published page, from the sitemap (its English addresses), and the not-found page. */
async function publicPages(request: APIRequestContext): Promise<string[]> {
  const xml = await (await request.get("/sitemap.xml")).text();
  const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)]
    .map(([, loc = ""]) => new URL(loc))
    .filter((url) => url.search === "")
    .map((url) => url.pathname);
  expect(paths.length).toBeGreaterThan(5);
  return [...paths, "/nowhere"];
}
const SIGNED_IN = ["/tradedesk/BTCUSD", "/interface/"];
const WIDTHS = [1440, 390] as const;

// A sweep runs axe on several pages in one test: each analysis takes seconds on a loaded machine,
// and the public sweep covers every page of the sitemap.
test.describe.configure({ timeout: 360_000 });

for (const width of WIDTHS) {
  test(`public pages at ${width} px have no serious accessibility violation`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/");
    await acceptCookies(page);
    for (const path of await publicPages(request)) {
      await page.goto(path);
      // One h1, the landmarks, and nothing wider than the window (usable on a phone).
      await expect(page.getByRole("heading", { level: 1 }), path).toHaveCount(1);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      for (const landmark of ["banner", "main", "contentinfo"] as const)
        await expect(page.getByRole(landmark), `${path} ${landmark}`).toHaveCount(1);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
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
