import { API, confirmedAccount, mailedCode, signedPost, signInWithPassword } from "./account-helpers";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

const KEY_MAIL = "Confirm your new API key";

test("a new user creates a read-only API key confirmed by the mailed code, uses it as a bot, and revokes it", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const account = await confirmedAccount(request, "keys", "correct-horse-battery-9");
  await page.setViewportSize({ width: 1440, height: 900 });

  // The page is for signed-in users: the sign-in comes first and lands on it.
  await page.goto("/api");
  await expect(page).toHaveURL(/\/login\?back=%2Fapi&forced=1$/);
  await acceptCookies(page);
  await signInWithPassword(page, account.username, account.password);
  await expect(page).toHaveURL(/\/api$/);
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByText("You have no API keys yet.")).toBeVisible();
  await expectAccessible(page, "/api at 1440 px");

  // Bad input: every field says what is wrong, and nothing is asked of the exchange.
  const generate: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v2/auth/w/api/key/generate")) generate.push(r.url());
  });
  const form = page.getByTestId("create-key-form");
  await form.getByLabel("Allowed IP addresses (optional)").fill("10.0.0.300");
  await form.getByRole("button", { name: "Create key" }).click();
  await expect(form.getByText("Enter a name for the key.")).toBeVisible();
  await expect(form.getByText("Choose at least one permission.")).toBeVisible();
  await expect(form.getByText("“10.0.0.300” is not an IP address or range")).toBeVisible();
  expect(generate).toEqual([]);

  // A read-only key: orders and wallets read, usable from this machine only.
  await form.getByLabel("Name").fill("e2e reader");
  await form.getByLabel("Orders: read").check();
  await form.getByLabel("Wallets: write").check();
  await form.getByLabel("Wallets: write").uncheck();
  await expect(form.getByLabel("Wallets: read")).toBeChecked();
  await form.getByLabel("Allowed IP addresses (optional)").fill("127.0.0.1\n::1");
  await form.getByRole("button", { name: "Create key" }).click();

  // The e-mail one-time-password dialog: a wrong code is refused, the mailed one creates the key.
  const codeDialog = page.getByRole("dialog", { name: "Confirm the new key" });
  await expect(codeDialog).toBeVisible();
  await expect(codeDialog).toContainText("We sent a 6-digit code to your e-mail address");
  const code = await mailedCode(request, account.email, KEY_MAIL);
  await codeDialog.getByLabel("Code from the e-mail").fill(code === "000000" ? "111111" : "000000");
  await codeDialog.getByRole("button", { name: "Confirm" }).click();
  await expect(codeDialog.getByRole("alert")).toHaveText(
    "That code is not right. Enter the 6 digits of the newest code.",
  );
  await codeDialog.getByLabel("Code from the e-mail").fill(code);
  await codeDialog.getByRole("button", { name: "Confirm" }).click();

  // The secret is shown once.
  const secretDialog = page.getByRole("dialog", { name: "Your new API key" });
  await expect(secretDialog).toBeVisible();
  await expect(secretDialog).toContainText("it is shown only this once");
  const key = await secretDialog.getByRole("textbox", { name: "API key", exact: true }).inputValue();
  const secret = await secretDialog.getByRole("textbox", { name: "API secret", exact: true }).inputValue();
  expect(key).toMatch(/^[0-9a-f]{40}$/);
  expect(secret).toMatch(/^[0-9a-f]{48}$/);
  await expectAccessible(page, "/api secret dialog at 1440 px");
  await secretDialog.getByRole("button", { name: "I have saved the secret" }).click();
  await expect(secretDialog).toBeHidden();
  expect(await page.content()).not.toContain(secret);
  const card = page.getByTestId("api-key").filter({ hasText: "e2e reader" });
  await expect(card).toContainText("Orders: read only");
  await expect(card).toContainText("Wallets: read only");
  await expect(card).toContainText("127.0.0.1, ::1");
  await expect(card).toContainText(key);
  // A reload lists it again, never with its secret.
  await page.reload();
  await expect(card).toBeVisible();
  expect(await page.content()).not.toContain(secret);

  // As a bot would: a signed read works, a signed write is refused.
  const [readStatus, wallets] = await signedPost({ key, secret }, "/v2/auth/r/wallets");
  expect(readStatus).toBe(200);
  expect(Array.isArray(wallets)).toBe(true);
  const order = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" };
  expect(await signedPost({ key, secret }, "/v2/auth/w/order/submit", order)).toEqual([
    500,
    ["error", 10100, "apikey: permission denied for this call"],
  ]);

  // Signed in with the key itself, the page warns that it lacks what managing keys needs.
  const keyContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const keyPage = await keyContext.newPage();
  await keyPage.goto("/login?back=%2Fapi");
  await acceptCookies(keyPage);
  await keyPage.getByRole("tab", { name: "API key" }).click();
  await keyPage.getByLabel("API key", { exact: true }).fill(key);
  await keyPage.getByLabel("API secret").fill(secret);
  await keyPage.getByRole("button", { name: "Sign in with API key" }).click();
  await expect(keyPage).toHaveURL(/\/api$/);
  const missing = keyPage.getByRole("dialog", { name: "Missing permissions" });
  await expect(missing).toBeVisible();
  await expect(missing).toContainText("It lacks: Account: write.");
  await expectAccessible(keyPage, "/api missing-permissions dialog at 390 px");
  await missing.getByRole("button", { name: "Close" }).click();
  await expect(keyPage.getByRole("button", { name: "Create key" })).toBeDisabled();
  await keyContext.close();

  // Narrow screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(card).toBeVisible();
  await expectAccessible(page, "/api at 390 px");

  // Revoked, it stops working at once.
  await card.getByRole("button", { name: "Revoke e2e reader" }).click();
  const revoke = page.getByRole("dialog", { name: "Revoke this key?" });
  await expect(revoke).toContainText("Programs using “e2e reader” stop working at once.");
  await expectAccessible(page, "/api revoke dialog at 390 px");
  await revoke.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(revoke).toBeHidden();
  await expect(page.getByText("You have no API keys yet.")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "The key has been revoked." })).toBeVisible();
  expect(await signedPost({ key, secret }, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "apikey: invalid"]]);
});

test("HTTP 429 is told once for the whole app, with the server's time to retry — the login page included", async ({
  page,
}) => {
  await page.goto("/login");
  await acceptCookies(page);
  // The exchange's answer over its limit (server/rate-limit.ts), as a busy exchange would send it.
  await page.route(`${API}/v2/login`, (route) =>
    route.fulfill({
      status: 429,
      contentType: "application/json",
      headers: {
        "retry-after": "42",
        "access-control-allow-origin": new URL(page.url()).origin,
        "access-control-expose-headers": "retry-after",
      },
      body: JSON.stringify({ error: "ERR_RATE_LIMIT" }),
    }),
  );
  await signInWithPassword(page, "demo", "demo-password");
  const notice = page.getByTestId("rate-limit-notice");
  await expect(notice).toContainText(/You can try again in (42|41|40) s\./);
  // The login page says nothing of its own about it.
  await expect(page.getByTestId("login-error")).toBeHidden();
  await expectAccessible(page, "the rate-limit notice");
  await notice.getByRole("button", { name: "Dismiss" }).click();
  await expect(notice).toBeHidden();
});
