/**
 * What the account journeys share: the exchange's hosts beside the app, its development outbox (where
 * mails "arrive" on this machine), the sign-in and sign-out a person does, an authenticator app's
 * codes and a bot's signed REST calls.
 */
import { createHmac } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, expectAccessible } from "./fixtures";

// The exchange beside the app `npm start` serves: public API on PORT+1, authenticated host on PORT+2.
const PORT = Number(process.env["E2E_PORT"] ?? 5190);
export const API = `http://127.0.0.1:${PORT + 1}`;
export const AUTH = `http://127.0.0.1:${PORT + 2}`;

export interface Mail {
  readonly recipient: string;
  readonly subject: string;
  readonly body: string;
}

/** A short id unique to this run, for usernames and addresses nobody has taken. */
export const unique = (): string => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/** The development outbox's mails to `to`, newest first. */
export async function mailsTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  return ((await (await request.get(`${API}/dev/outbox`)).json()) as Mail[]).filter((m) => m.recipient === to);
}

/** The six-digit code in the newest mail to `to` under `subject`, waiting for the mail to arrive. */
export async function mailedCode(request: APIRequestContext, to: string, subject: string): Promise<string> {
  let code = "";
  await expect
    .poll(async () => {
      const mail = (await mailsTo(request, to)).find((m) => m.subject === subject);
      code = /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1] ?? "";
      return code;
    }, `a mail "${subject}" to ${to} with a code`)
    .not.toBe("");
  return code;
}

/** The path and query of the newest mailed link to `to` that starts with `path`, as a person would click it. */
export async function mailedLink(request: APIRequestContext, to: string, path: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => {
      const body = (await mailsTo(request, to)).find((m) => m.body.includes(path))?.body ?? "";
      link = new RegExp(`(${path.replace("?", "\\?")}[^\\s.]+)`).exec(body)?.[1] ?? "";
      return link;
    }, `a mail to ${to} with a ${path} link`)
    .not.toBe("");
  return link;
}

/** axe on what the page shows now, at the desktop and the phone width, back at the desktop's. */
export async function accessibleAtBothWidths(page: Page, what: string): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page, `${what} at 1440 px`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, `${what} at 390 px`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Fills the login page's password form and sends it. */
export async function signInWithPassword(page: Page, login: string, password: string): Promise<void> {
  await page.getByLabel("E-mail or username").fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The header's sign-out, through the logout page's feedback step, to the signed-out page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByTestId("header-logout").click();
  await expect(page).toHaveURL(/\/logout$/);
  await page.getByTestId("logout-submit").click();
  await expect(page).toHaveURL(/\/logged-out$/);
}

const TOTP_PERIOD_MS = 30_000;

/**
 * An authenticator app for one secret (otpauth, RFC 6238: SHA-1, 6 digits, 30 s). The exchange takes
 * a code of the current step or a neighbour (clock drift), and each step once across everything it is
 * used for (sign-in, key creation, security changes): `next()` gives the code of the lowest step after
 * the last one handed out that the exchange still accepts, waiting for the clock when it must.
 */
export function authenticator(secret: string): { readonly at: (timeMs: number) => string; next(): Promise<string> } {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  const stepOf = (timeMs: number): number => Math.floor(timeMs / TOTP_PERIOD_MS);
  let last = -Infinity;
  return {
    at: (timeMs) => totp.generate({ timestamp: timeMs }),
    async next() {
      // The previous step is accepted as drift: starting there leaves two steps of use before waiting.
      const step = Math.max(last + 1, stepOf(Date.now()) - 1);
      // Accepted while the clock's step is at least step - 1; a little margin past the boundary.
      const wait = (step - 1) * TOTP_PERIOD_MS + 1_000 - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      last = step;
      return totp.generate({ timestamp: step * TOTP_PERIOD_MS });
    },
  };
}

let nonce = Date.now() * 1000;

/**
 * A REST call signed with an API key as a bot makes it: `bfx-apikey`, `bfx-nonce` and `bfx-signature`
 * = HMAC-SHA384 (hex) over `/api` + path + nonce + body, to the authenticated host. The status and JSON body.
 */
export async function signedPost(
  key: { readonly key: string; readonly secret: string },
  path: string,
  body: unknown = {},
): Promise<[number, unknown]> {
  const raw = JSON.stringify(body);
  const n = String(++nonce);
  const sig = createHmac("sha384", key.secret).update(`/api${path}${n}${raw}`).digest("hex");
  const res = await fetch(`${AUTH}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "bfx-apikey": key.key, "bfx-nonce": n, "bfx-signature": sig },
    body: raw,
  });
  return [res.status, await res.json()];
}

/**
 * A fresh, e-mail-confirmed account made the quick way, through the exchange's public sign-up call
 * and the mailed confirmation code (the sign-up page has its own journeys): for journeys that start
 * after sign-up. The form fields are what the sign-up page sends (tests/e2e/signup.spec.ts).
 */
export async function confirmedAccount(
  request: APIRequestContext,
  prefix: string,
  password: string,
): Promise<{ readonly username: string; readonly email: string; readonly password: string }> {
  const username = `${prefix}_${unique()}`;
  const email = `${username}@example.test`;
  const form = { country: "GB", tosVersion: "1.0", prohibitedPerson: false, newsletter: false };
  const signup = await request.post(`${API}/v2/signup`, { data: { email, username, password, ...form } });
  expect(signup.status(), await signup.text()).toBe(200);
  const mail = (await mailsTo(request, email)).find((m) => /code: [0-9a-f]+/.test(m.body));
  const hash = /code: ([0-9a-f]+)/.exec(mail?.body ?? "")?.[1];
  expect(hash, "confirmation code in the outbox").toBeTruthy();
  const confirm = await request.post(`${API}/v2/int/user/email/confirm`, { data: { emailVerifyHash: hash } });
  expect(confirm.status()).toBe(200);
  return { username, email, password };
}

/** The header the exchange's development endpoints ask for (server/README.md). */
export const DEV_HEADERS = { "x-orderflow-dev": "1" } as const;

/**
 * Sets an account's verification level with the reviewer's development endpoint (0 basic, 1 basic
 * plus, 2 intermediate, 3 full; docs/product-rules.md#verification-levels).
 */
export async function setVerificationLevel(request: APIRequestContext, login: string, level: number): Promise<void> {
  const r = await request.post(`${AUTH}/dev/verification`, { headers: DEV_HEADERS, data: { login, level } });
  expect(r.status(), await r.text()).toBe(200);
}

/**
 * A deposit arriving from outside (`POST /dev/deposit`, standing in for the network or the bank):
 * `{ method: "bitcoin", address, amount }` or `{ method: "wireusd", reference, amount }`. The movement's id.
 */
export async function simulateDeposit(request: APIRequestContext, deposit: Record<string, string>): Promise<number> {
  const sent = await request.post(`${AUTH}/dev/deposit`, { headers: DEV_HEADERS, data: deposit });
  expect(sent.status(), await sent.text()).toBe(200);
  return ((await sent.json()) as { id: number }).id;
}

/** An authenticator app as `authenticator` makes it. */
export type Authenticator = ReturnType<typeof authenticator>;

/**
 * Turns on an authenticator app on /security as its owner does (the page signed in on /security):
 * the secret read off the set-up form, the app's code, the password and the mailed code. The app.
 */
export async function turnOnAuthenticator(
  page: Page,
  request: APIRequestContext,
  account: { readonly email: string; readonly password: string },
): Promise<Authenticator> {
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const app = authenticator(secret);
  const emailCode = await mailedCode(request, account.email, "Confirm two-factor set-up");
  await page.getByLabel("6-digit code from the app").fill(await app.next());
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Code from the e-mail we just sent").fill(emailCode);
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("totp-state")).toHaveText("On");
  return app;
}

/**
 * Adds an address of one's own to the book on /security/addresses (the password and the app's code
 * as the owner's proof) and confirms it by the mailed link, which turns its currency's whitelist on.
 */
export async function addConfirmedAddress(
  page: Page,
  request: APIRequestContext,
  account: { readonly email: string; readonly password: string; readonly app: Authenticator },
  entry: { readonly label: string; readonly address: string },
): Promise<void> {
  await page.goto("/security/addresses");
  await page.getByRole("button", { name: "Add address" }).click();
  const add = page.getByTestId("add-address-dialog");
  await add.getByLabel("Label").fill(entry.label);
  await add.getByLabel("Address", { exact: true }).fill(entry.address);
  await add.getByRole("button", { name: "Continue" }).click();
  const beneficiary = page.getByTestId("beneficiary-dialog");
  await beneficiary.getByLabel("Password", { exact: true }).fill(account.password);
  await beneficiary.getByLabel("Authenticator code").fill(await account.app.next());
  await beneficiary.getByRole("button", { name: "Add address" }).click();
  await expect(beneficiary).toBeHidden();
  await page.goto(await mailedLink(request, account.email, "/security/addresses?confirm="));
  await expect(page.getByTestId("address-confirmed")).toBeVisible();
}
