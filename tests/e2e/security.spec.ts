import {
  accessibleAtBothWidths,
  API,
  AUTH,
  authenticator,
  confirmedAccount,
  mailsTo,
  signInWithPassword,
  signOut,
} from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

// Browsers refuse WebAuthn on an IP address: the key journey opens the app under its localhost name.
const PORT = Number(process.env["E2E_PORT"] ?? 5190);
const PASSWORD = "correct-horse-battery";

// Each journey signs in twice and runs axe at two widths twice: longer than the suite's 30 s default.
test.describe.configure({ timeout: 90_000 });

/** A code of the secret at `timeMs`, as an authenticator app computes it. */
const code = (secret: string, timeMs = Date.now()): string => authenticator(secret).at(timeMs);

test("turns on an authenticator app on /security, ends the other sessions, and signs in again with password and code", async ({
  page,
  request,
}) => {
  const { username, email } = await confirmedAccount(request, "sec", PASSWORD);
  // A session elsewhere (another device), which "sign out everywhere else" must end.
  const elsewhere =
    (
      (await (
        await request.post(`${API}/v2/login`, { data: { login: username, password: PASSWORD } })
      ).json()) as string[]
    )[0] ?? "";

  await page.goto("/login?back=%2Fsecurity");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
  await expect(page.getByTestId("totp-state")).toHaveText("Off");
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  await expect(page.getByTestId("login-history").getByRole("row")).toHaveCount(3);
  await accessibleAtBothWidths(page, "/security");

  await page.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expect(page.getByTestId("session-row")).toContainText("This session");
  const after = await request.post(`${AUTH}/v2/auth/r/info/user`, { headers: { "bfx-token": elsewhere }, data: {} });
  expect(await after.json()).toEqual(["error", 10100, "token: invalid"]);

  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code to add this account to your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await accessibleAtBothWidths(page, "/security with the set-up form");
  const mail = (await mailsTo(request, email)).find((m) => m.subject === "Confirm two-factor set-up");
  const emailCode = /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1] ?? "";
  // A wrong app code is refused with the page's own words, and nothing is turned on.
  const now = code(secret);
  await page.getByLabel("6-digit code from the app").fill(now === "000000" ? "111111" : "000000");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Code from the e-mail we just sent").fill(emailCode);
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("totp-setup").getByRole("alert")).toContainText("That code is not right.");
  await page.getByLabel("6-digit code from the app").fill(code(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByTestId("totp-state")).toHaveText("On");

  await signOut(page);
  await page.goto("/login?back=%2Fsecurity");
  await signInWithPassword(page, username, PASSWORD);
  await expect(page.getByTestId("two-factor-form")).toBeVisible();
  // The code that turned it on is spent: the next time step's code (accepted as clock drift) signs in.
  await page.getByLabel("Code from your authenticator app").fill(code(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByTestId("totp-state")).toHaveText("On");
  await expect(page.getByTestId("login-history")).toContainText("Signed in");
});

test("registers a hardware key through Chromium's virtual authenticator and signs in with it", async ({
  page,
  request,
}) => {
  const { username, email } = await confirmedAccount(request, "sec", PASSWORD);
  // Browsers refuse WebAuthn on an IP address: the app is opened under its localhost name.
  const app = `http://localhost:${PORT}`;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "usb",
      hasResidentKey: false,
      hasUserVerification: false,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(`${app}/login?back=%2Fsecurity`);
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);
  await page.getByRole("button", { name: "Add a security key" }).click();
  await page.getByLabel("Key name").fill("Virtual key");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Register key" }).click();
  await expect(page.getByTestId("security-key")).toContainText("Virtual key");
  await expect(page.getByTestId("security-key")).toContainText("localhost");
  await accessibleAtBothWidths(page, "/security with a key");
  expect((await mailsTo(request, email)).map((m) => m.subject)).toContain("A security key was added");

  await signOut(page);
  await page.goto(`${app}/login?back=%2Fsecurity`);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page.getByTestId("two-factor-form")).toBeVisible();
  await expect(page.getByLabel("Code from your authenticator app")).toHaveCount(0);
  await page.getByRole("button", { name: "Use your security key" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByTestId("security-key")).toContainText("Last used");
});
