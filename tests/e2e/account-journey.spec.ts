import {
  accessibleAtBothWidths,
  authenticator,
  mailedCode,
  mailedLink,
  signedPost,
  signInWithPassword,
  signOut,
  unique,
} from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/*
 * One person's first hour, chained as they would live it: every step starts from what the previous
 * one left (the account, the confirmed address, the second factor, the key), so a break anywhere in
 * the chain fails here even when each page's own journey passes.
 */
test("a new user signs up, confirms, turns on an authenticator, signs in with it, and runs a read-only API key until revoking it", async ({
  page,
  context,
  request,
}) => {
  // Two sign-ins, a second factor and an API key, with axe on the pages the other journeys do not cover;
  // and the authenticator may have to wait for its next 30-s step.
  test.setTimeout(180_000);
  const username = `journey_${unique()}`;
  const email = `${username}@example.test`;
  const password = "Journey-start-2026!";

  // The sign-up and sign-in pages link to each other, and the header to both.
  await page.goto("/");
  await acceptCookies(page);
  await expect(page.getByTestId("header-login")).toHaveText("Sign in");
  await page.getByRole("banner").getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await page.getByRole("dialog", { name: "Before you start" }).getByRole("button", { name: "No, I am not" }).click();
  await page
    .getByRole("dialog", { name: "Risk warning for UK residents" })
    .getByRole("button", { name: "I understand the risk" })
    .click();
  await page.getByTestId("signup-form").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/signup$/);

  // FORM.
  await page.getByRole("dialog", { name: "Before you start" }).getByRole("button", { name: "No, I am not" }).click();
  await page
    .getByRole("dialog", { name: "Risk warning for UK residents" })
    .getByRole("button", { name: "I understand the risk" })
    .click();
  const form = page.getByTestId("signup-form");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel("I have read and agree to the terms of service").check();
  await form.getByRole("button", { name: "Create account" }).click();

  // SECURITY: "set up two-factor now" goes to the security page, through the sign-in it needs.
  const security = page.getByTestId("signup-security");
  await expect(security.getByRole("heading", { name: "Protect your account" })).toBeVisible();
  await security.getByRole("link", { name: "Set up two-factor authentication" }).click();
  await expect(page).toHaveURL(/\/login\?back=%2Fsecurity/);
  // The address is not confirmed yet: the sign-in says so, and signs nobody in.
  await signInWithPassword(page, username, password);
  await expect(page.getByTestId("login-error")).toHaveText(
    "Confirm your e-mail address first: open the link in the mail we sent you.",
  );

  // The confirmation mail, opened from the mail client in a tab of its own.
  const link = await mailedLink(request, email, "/confirm-signup?hash=");
  const mailTab = await context.newPage();
  await mailTab.goto(link);
  await expect(
    mailTab.getByTestId("signup-complete").getByRole("heading", { name: "Your account is ready" }),
  ).toBeVisible();
  await mailTab.close();

  // Back on the sign-in the security step led to: it lands on the security page.
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  await expect(page.getByTestId("totp-state")).toHaveText("Off");

  // The authenticator app: its secret read off the page as a person types it into their app.
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const app = authenticator(secret);
  const emailCode = await mailedCode(request, email, "Confirm two-factor set-up");
  await page.getByLabel("6-digit code from the app").fill(await app.next());
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByLabel("Code from the e-mail we just sent").fill(emailCode);
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("totp-state")).toHaveText("On");

  // Signed out, the password alone no longer signs in: the app's code is asked for.
  await signOut(page);
  await page.getByTestId("header-login").click();
  await expect(page).toHaveURL(/\/login/);
  await signInWithPassword(page, email, password);
  await expect(page.getByTestId("two-factor-form")).toBeVisible();
  await page.getByLabel("Code from your authenticator app").fill(await app.next());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("header-logout")).toBeVisible();

  // API keys, from the account menu.
  await page.getByTestId("account-menu").click();
  await page.getByRole("navigation", { name: "Account pages" }).getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/api$/);
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByText("You have no API keys yet.")).toBeVisible();
  const keyForm = page.getByTestId("create-key-form");
  await keyForm.getByLabel("Name").fill("journey reader");
  await keyForm.getByLabel("Wallets: read").check();
  await keyForm.getByLabel("Orders: read").check();
  await keyForm.getByRole("button", { name: "Create key" }).click();

  // With an authenticator on, the key is confirmed by its code (the one-time-password dialog).
  const codeDialog = page.getByRole("dialog", { name: "Confirm the new key" });
  await expect(codeDialog).toContainText("Enter the current 6-digit code from your authenticator app");
  await codeDialog.getByLabel("Authenticator code").fill(await app.next());
  await codeDialog.getByRole("button", { name: "Confirm" }).click();
  const secretDialog = page.getByRole("dialog", { name: "Your new API key" });
  await expect(secretDialog).toContainText("it is shown only this once");
  const key = {
    key: await secretDialog.getByRole("textbox", { name: "API key", exact: true }).inputValue(),
    secret: await secretDialog.getByRole("textbox", { name: "API secret", exact: true }).inputValue(),
  };
  expect(key.key).toMatch(/^[0-9a-f]{40}$/);
  expect(key.secret).toMatch(/^[0-9a-f]{48}$/);
  await secretDialog.getByRole("button", { name: "I have saved the secret" }).click();
  await expect(secretDialog).toBeHidden();
  const card = page.getByTestId("api-key").filter({ hasText: "journey reader" });
  await expect(card).toContainText("Wallets: read only");

  // As a bot would use it: a signed write is refused, a signed read answers this account's wallets.
  const order = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" };
  expect(await signedPost(key, "/v2/auth/w/order/submit", order)).toEqual([
    500,
    ["error", 10100, "apikey: permission denied for this call"],
  ]);
  const [status, wallets] = await signedPost(key, "/v2/auth/r/wallets");
  expect(status).toBe(200);
  // A new account's paper balances (server/signup.ts NEW_ACCOUNT_BALANCES).
  expect(wallets).toEqual(expect.arrayContaining([expect.arrayContaining(["USD", 10_000])]));

  // Revoked on the page, the key stops working at once.
  await card.getByRole("button", { name: "Revoke journey reader" }).click();
  const revoke = page.getByRole("dialog", { name: "Revoke this key?" });
  await revoke.getByRole("button", { name: "Revoke", exact: true }).click();
  await expect(page.getByText("You have no API keys yet.")).toBeVisible();
  expect(await signedPost(key, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "apikey: invalid"]]);
  await accessibleAtBothWidths(page, "/api after revoking");
});
