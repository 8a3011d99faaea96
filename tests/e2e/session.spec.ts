import type { APIRequestContext, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

// The exchange beside the app `npm start` serves: public API on PORT+1, authenticated host on PORT+2.
const PORT = Number(process.env["E2E_PORT"] ?? 5190);
const API = `http://127.0.0.1:${PORT + 1}`;
const AUTH = `http://127.0.0.1:${PORT + 2}`;

// /v2/login allows 10 attempts a minute per address: these scenarios use 8 between them.

/** The current code of a TOTP secret, as an authenticator app computes it (otpauth, RFC 6238). */
function totp(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp,
  });
}

async function fillCredentials(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel("E-mail or username").fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A fresh, e-mail-confirmed account (sign-up, then the code from the development outbox). */
async function signUp(request: APIRequestContext): Promise<{ username: string; password: string }> {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const username = `e2e_${id}`;
  const email = `${username}@example.test`;
  const password = "correct-horse-battery";
  // What the sign-up form sends (country, the terms' version, the prohibited-person answer): tests/e2e/signup.spec.ts.
  const form = { country: "GB", tosVersion: "1.0", prohibitedPerson: false, newsletter: false };
  const signup = await request.post(`${API}/v2/signup`, { data: { email, username, password, ...form } });
  expect(signup.status()).toBe(200);
  const outbox = (await (await request.get(`${API}/dev/outbox`)).json()) as { recipient: string; body: string }[];
  const mail = outbox.find((m) => m.recipient === email);
  const hash = /code: ([0-9a-f]+)/.exec(mail?.body ?? "")?.[1];
  expect(hash, "confirmation code in the outbox").toBeTruthy();
  const confirm = await request.post(`${API}/v2/int/user/email/confirm`, { data: { emailVerifyHash: hash } });
  expect(confirm.status()).toBe(200);
  return { username, password };
}

test("the demo account signs in from a protected page, lands on it, and signs out of every tab with feedback", async ({
  page,
  context,
  request,
}) => {
  await page.goto("/interface");
  await expect(page).toHaveURL(/\/login\?back=%2Finterface&forced=1$/);
  await expect(page.getByTestId("forced-login")).toBeVisible();
  await acceptCookies(page);

  await fillCredentials(page, "demo", "demo-password");
  await expect(page).toHaveURL(/\/interface$/);
  await expect(page.getByTestId("header-logout")).toBeVisible();
  const token = await page.evaluate(() => localStorage.getItem("auth_token"));
  expect(token).toMatch(/^[0-9a-f]{48}$/);
  const expires = Number(await page.evaluate(() => localStorage.getItem("auth_token_expires")));
  expect(expires - Date.now()).toBeGreaterThan(7 * 60_000);
  expect(expires - Date.now()).toBeLessThanOrEqual(8 * 60_000);

  // A second tab shares the session.
  const other = await context.newPage();
  await other.goto("/about");
  await expect(other.getByTestId("header-logout")).toBeVisible();

  await page.getByTestId("header-logout").click();
  await expect(page).toHaveURL(/\/logout$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sign out");
  await page.getByLabel("4 — very good").check();
  await page.getByLabel("Anything we should do better? (optional)").fill("Fast book, thanks");
  const feedback = page.waitForRequest((r) => r.url().endsWith("/v2/int/contact/feedback") && r.method() === "POST");
  const deletion = page.waitForRequest((r) => r.url().endsWith("/v2/auth/w/token/del") && r.method() === "POST");
  await page.getByTestId("logout-submit").click();

  expect((await feedback).postDataJSON()).toEqual({
    token,
    rating: 4,
    description: "Fast book, thanks",
    source: "fe-web-logout",
  });
  const del = await deletion;
  expect(del.postDataJSON()).toEqual({ token });
  expect(del.headers()["bfx-token"]).toBe(token);
  await expect(page).toHaveURL(/\/logged-out$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("You have signed out");
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();

  // The other tab is signed out too, and the exchange no longer accepts the token.
  await expect(other.getByTestId("header-login")).toBeVisible();
  const after = await request.post(`${AUTH}/v2/auth/r/info/user`, { headers: { "bfx-token": token ?? "" }, data: {} });
  expect(await after.json()).toEqual(["error", 10100, "token: invalid"]);
});

test("a wrong password shows the localized error; repeated failures bring a check this tab must work through", async ({
  page,
  request,
}) => {
  // An account of its own, so the failures (and the captcha they bring) touch no other scenario.
  const { username, password } = await signUp(request);
  const signIn = page.getByRole("button", { name: "Sign in", exact: true });
  // The work runs under the app's Content-Security-Policy: Chromium logs anything it blocks.
  const blocked: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  await page.goto("/login?back=%2Fabout");
  await acceptCookies(page);
  await fillCredentials(page, username, "wrong-password");
  await expect(page.getByTestId("login-error")).toHaveText("The e-mail, username or password is not right.");
  for (let i = 0; i < 2; i++) {
    await signIn.click();
    await expect(signIn).toBeEnabled();
  }
  await expect(page.getByTestId("login-error")).toBeVisible();

  // The fourth try: the exchange now wants its captcha first, and this tab does the work.
  await signIn.click();
  await expect(page.getByText("After several attempts we check that you are a person", { exact: false })).toBeVisible();
  const passed = page.getByRole("status").filter({ hasText: "Check passed. You can sign in." });
  // The proof of work takes well under a second; the margin is for a loaded machine.
  await expect(passed).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, "the login page with its check passed");
  const attempt = page.waitForRequest((r) => r.url().endsWith("/v2/login"));
  await signIn.click();
  const sent = await attempt;
  const body = sent.postDataJSON() as Record<string, string>;
  expect(body["captchaProvider"]).toBe("altcha");
  // ALTCHA's payload, not an answer read off the page: the key found by the work starts with the
  // prefix the challenge asked for.
  const payload = JSON.parse(Buffer.from(body["captchaToken"] ?? "", "base64").toString("utf8")) as {
    challenge: { parameters: { keyPrefix: string } };
    solution: { counter: number; derivedKey: string };
  };
  expect(payload.solution.derivedKey).toMatch(/^[0-9a-f]{64}$/);
  expect(payload.solution.derivedKey.startsWith(payload.challenge.parameters.keyPrefix)).toBe(true);
  // The check passed, the password still is not right; the solution is spent, so a new check runs
  // (once the answer is in, the error and the status shown are the new ones).
  await sent.response();
  await expect(page.getByTestId("login-error")).toHaveText("The e-mail, username or password is not right.");
  await expect(passed).toBeVisible({ timeout: 15_000 });

  await page.getByLabel("Password", { exact: true }).fill(password);
  await signIn.click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByTestId("header-logout")).toBeVisible();
  expect(blocked, "Content-Security-Policy violations").toEqual([]);
});

test("an account with two-factor on passes the code step", async ({ page, request }) => {
  const { username, password } = await signUp(request);
  // Two-factor set-up through the exchange's API, as the security page would do it.
  const login = await request.post(`${API}/v2/login`, { data: { login: username, password } });
  const [apiToken] = (await login.json()) as [string];
  const headers = { "bfx-token": apiToken };
  const challenge = await request.post(`${AUTH}/v2/auth/r/int/2fa/challenge`, { headers, data: { method: "otp" } });
  const { secret } = (await challenge.json()) as { secret: string };
  // Turning two-factor on takes the password and the code mailed with the challenge.
  const outbox = (await (await request.get(`${API}/dev/outbox`)).json()) as {
    recipient: string;
    subject: string;
    body: string;
  }[];
  const mailed = outbox.find(
    (m) => m.recipient === `${username}@example.test` && m.subject === "Confirm two-factor set-up",
  );
  const emailCode = /\b(\d{6})\b/.exec(mailed?.body ?? "")?.[1] ?? "";
  // The code that confirms the set-up is spent; the sign-in below uses the next step's.
  const register = await request.post(`${AUTH}/v2/auth/w/int/2fa/register`, {
    headers,
    data: { token: totp(secret, Date.now() - 30_000), method: "otp", password, emailCode },
  });
  expect(await register.json()).toEqual([1]);

  await page.goto("/login?back=%2Fabout");
  await acceptCookies(page);
  await fillCredentials(page, username, password);
  const code = page.getByLabel("Code from your authenticator app");
  await expect(code).toBeVisible();
  await expect(page.getByTestId("header-login")).toBeVisible();

  await code.fill(totp(secret, Date.now() + 10 * 60_000));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByTestId("login-error")).toHaveText(
    "That code is not right. Enter the current 6-digit code from your authenticator app.",
  );
  await code.fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByTestId("header-logout")).toBeVisible();
});

test("an API key signs the account in for this tab only and its secret is stored nowhere", async ({ page }) => {
  await page.goto("/login?back=%2Finterface");
  await acceptCookies(page);
  await page.getByTestId("login-method-api-key").click();
  await page.getByLabel("API key", { exact: true }).fill("demo-api-key");
  await page.getByLabel("API secret").fill("wrong-secret");
  await page.getByRole("button", { name: "Sign in with API key" }).click();
  await expect(page.getByTestId("login-error")).toHaveText(
    "The API key or secret is not right. Enter the secret again.",
  );
  await expect(page.getByLabel("API secret")).toHaveValue("");

  await page.getByLabel("API secret").fill("demo-api-secret");
  await page.getByRole("button", { name: "Sign in with API key" }).click();
  await expect(page).toHaveURL(/\/interface$/);
  await expect(page.getByTestId("header-logout")).toBeVisible();
  const stored = await page.evaluate(() =>
    JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]),
  );
  expect(stored).not.toContain("demo-api-secret");
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();

  // The secret is gone with the page: a reload ends the API-key session.
  await page.reload();
  await expect(page).toHaveURL(/\/login\?back=%2Finterface&forced=1$/);
});
