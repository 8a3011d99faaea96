import type { APIRequestContext, Page } from "@playwright/test";
import { acceptCookies, expect, expectAccessible, test } from "./fixtures";

// The exchange beside the app `npm start` serves: public API on PORT+1.
const PORT = Number(process.env["E2E_PORT"] ?? 5190);
const API = `http://127.0.0.1:${PORT + 1}`;
const DEV = { "x-orderflow-dev": "1" };

interface Fresh {
  readonly username: string;
  readonly email: string;
  readonly password: string;
  readonly token: string;
}

/** A new, e-mail-confirmed account (as the sign-up form makes one) and a session token for it. */
async function freshAccount(request: APIRequestContext): Promise<Fresh> {
  const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const username = `acct_${id}`;
  const email = `${username}@example.test`;
  const password = "correct-horse-battery";
  const form = { country: "GB", tosVersion: "1.0", prohibitedPerson: false, newsletter: false };
  expect((await request.post(`${API}/v2/signup`, { data: { email, username, password, ...form } })).status()).toBe(200);
  const hash = /code: ([0-9a-f]+)/.exec((await newestMail(request, email))?.body ?? "")?.[1];
  expect(hash, "confirmation code in the outbox").toBeTruthy();
  expect((await request.post(`${API}/v2/int/user/email/confirm`, { data: { emailVerifyHash: hash } })).status()).toBe(
    200,
  );
  const login = await request.post(`${API}/v2/login`, { data: { login: username, password } });
  const [token] = (await login.json()) as [string];
  return { username, email, password, token };
}

async function newestMail(
  request: APIRequestContext,
  to: string,
): Promise<{ subject: string; body: string } | undefined> {
  const outbox = (await (await request.get(`${API}/dev/outbox`)).json()) as {
    recipient: string;
    subject: string;
    body: string;
  }[];
  return outbox.find((m) => m.recipient === to);
}

async function signedIn(page: Page, token: string, path: string): Promise<void> {
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await page.goto(path);
  await acceptCookies(page);
}

test("a new account asks for a higher level: US question, a refused form, a review, approval", async ({
  page,
  request,
}) => {
  const me = await freshAccount(request);
  await signedIn(page, me.token, "/account");
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  const profile = page.getByTestId("account-profile");
  await expect(profile).toContainText(me.username);
  await expect(profile).toContainText("Basic plus");
  // The rules say what applies to an account opened today.
  await expect(page.getByTestId("account-rules")).toContainText("margin trading needs Intermediate");

  // The form comes after the US-person question.
  await expect(page.getByTestId("kyc-form")).toHaveCount(0);
  const us = page.getByTestId("us-person");
  await us.getByRole("radio", { name: "No" }).check();
  await us.getByRole("button", { name: "Save answer" }).click();
  const form = page.getByTestId("kyc-form");
  await expect(form).toBeVisible();
  await expectAccessible(page, "/account with the verification form at 1440 px");

  // An empty form is refused here, field by field, and nothing is sent.
  let sent = 0;
  page.on("request", (r) => {
    if (r.url().endsWith("/v2/auth/w/int/compliance") && (r.postData() ?? "").includes("submitKyc")) sent++;
  });
  await form.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByTestId("kyc-error")).toHaveText("Check the fields marked below.");
  await expect(form.getByLabel("First name")).toHaveAttribute("aria-invalid", "true");
  expect(sent).toBe(0);

  await form.getByLabel("First name").fill("Ada");
  await form.getByLabel("Last name").fill("Lovelace");
  await form.getByLabel("Street and number").fill("12 St James's Square");
  await form.getByLabel("City").fill("London");
  await form.getByLabel("Postcode").fill("SW1Y 4JH");
  await form.getByLabel("Country (two-letter code, e.g. GB)").fill("Britain");
  await form.getByRole("button", { name: "Send for review" }).click();
  await expect(form.getByText("Enter the two-letter country code, such as GB or DE.")).toBeVisible();
  await form.getByLabel("Country (two-letter code, e.g. GB)").fill("gb");
  await form.getByLabel("Level to ask for").selectOption({ label: "Intermediate" });
  await form.getByRole("button", { name: "Send for review" }).click();
  await expect(page.getByTestId("kyc-status")).toContainText("Your request for Intermediate is under review");
  expect(sent).toBe(1);
  expect((await newestMail(request, me.email))?.subject).toBe("Verification submitted");

  // The reviewer approves; the page shows the new level.
  const decided = await request.post(`${API}/dev/kyc`, {
    headers: DEV,
    data: { login: me.username, decision: "approve" },
  });
  expect(decided.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("account-profile")).toContainText("Intermediate");
  await expect(page.getByTestId("kyc-status")).toHaveText("Your request for Intermediate was approved.");

  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, "/account at 390 px");
});

test("a margin order the account is not verified for opens the required-level dialog", async ({ page, request }) => {
  const me = await freshAccount(request);
  await signedIn(page, me.token, "/tradedesk/BTCUSD");
  const form = page.getByTestId("order-form");
  await form.getByRole("radio", { name: "Margin" }).click();
  await form.getByTestId("price").fill("1000");
  await form.getByTestId("amount").fill("0.01");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  const dialog = page.getByTestId("level-gate-dialog");
  await expect(dialog.getByRole("heading", { name: "Verification needed" })).toBeVisible();
  await expect(dialog).toContainText("To trade on margin, your account needs the Intermediate verification level.");
  await expect(dialog).toContainText("It has Basic plus now.");
  await expectAccessible(page, "the required-verification dialog");
  await dialog.getByRole("link", { name: "Get verified" }).click();
  await expect(page).toHaveURL(/\/account#verification$/);
  await expect(page.getByRole("heading", { name: "Verification", exact: true })).toBeVisible();
});

test("the freeze link in a mail stops the account without signing in; support lifts it", async ({ page, request }) => {
  const me = await freshAccount(request);
  const link = /(\/freeze\?code=[0-9a-f]{32})/.exec((await newestMail(request, me.email))?.body ?? "")?.[1];
  expect(link, "every mail to an account carries its freeze link").toBeTruthy();

  await page.goto("/freeze?code=not-a-code");
  await acceptCookies(page);
  await expect(page.getByText("This freeze link is not valid.", { exact: false })).toBeVisible();

  await page.goto(link ?? "/freeze");
  await expectAccessible(page, "/freeze from a mail's link");
  await page.getByRole("button", { name: "Freeze my account now" }).click();
  await expect(page.getByTestId("freeze-done")).toContainText("Your account is frozen.");

  // The session is gone and the password no longer signs in.
  const after = await request.post(`http://127.0.0.1:${PORT + 2}/v2/auth/r/info/user`, {
    headers: { "bfx-token": me.token },
    data: {},
  });
  expect(await after.json()).toEqual(["error", 10100, "token: invalid"]);
  const login = await request.post(`${API}/v2/login`, { data: { login: me.username, password: me.password } });
  expect(await login.json()).toEqual(["error", 10100, "account: frozen"]);

  expect((await request.post(`${API}/dev/unfreeze`, { headers: DEV, data: { login: me.username } })).status()).toBe(
    200,
  );
  const again = await request.post(`${API}/v2/login`, { data: { login: me.username, password: me.password } });
  expect(typeof ((await again.json()) as unknown[])[0]).toBe("string");
});
