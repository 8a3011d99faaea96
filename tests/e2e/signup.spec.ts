import { accessibleAtBothWidths, API, mailedLink, unique } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

test("a visitor signs up, finds the mail in the outbox, confirms through the link and signs in", async ({
  page,
  request,
}) => {
  // A long journey with an accessibility check at two widths on each page.
  test.setTimeout(120_000);
  const username = `new_${unique()}`;
  const email = `${username}@example.test`;
  const password = "Orderflow-2026!";

  await page.goto("/");
  await acceptCookies(page);
  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/signup$/);

  // Eligibility first: the prohibited-person question; "yes" explains why not, and can be taken back.
  const question = page.getByRole("dialog", { name: "Before you start" });
  await expect(question).toBeVisible();
  await accessibleAtBothWidths(page, "the prohibited-person question");
  await question.getByRole("button", { name: "Yes, I am" }).click();
  const warning = page.getByRole("dialog", { name: "We cannot serve you" });
  await expect(warning).toBeVisible();
  await accessibleAtBothWidths(page, "the prohibited-person warning");
  await warning.getByRole("button", { name: "I answered by mistake" }).click();
  await question.getByRole("button", { name: "No, I am not" }).click();
  // The embedded exchange's geo lookup says GB: the UK risk warning comes before the form.
  const uk = page.getByRole("dialog", { name: "Risk warning for UK residents" });
  await expect(uk).toContainText("prepared to lose all the money");
  await accessibleAtBothWidths(page, "the UK users warning");
  await uk.getByRole("button", { name: "I understand the risk" }).click();

  const form = page.getByTestId("signup-form");
  await expect(page.getByLabel("Country of residence")).toHaveValue("GB");
  await accessibleAtBothWidths(page, "the sign-up form");

  // Sent empty: every field says what it needs, and nothing is sent.
  await form.getByRole("button", { name: "Create account" }).click();
  await expect(form.getByText("Enter your e-mail address.")).toBeVisible();
  await expect(form.getByText("Use 3 to 32 letters, digits or underscores, with no spaces.")).toBeVisible();
  await expect(form.getByText("Choose a password.")).toBeVisible();
  await expect(form.getByText("Agree to the terms to open an account.")).toBeVisible();

  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Username").fill(username);
  // A password with the username in it breaks a rule the checklist shows as it is typed.
  // The field's label holds its message too once the form was sent: matched by its start.
  await page.getByLabel(/^Password/).fill(`${username}-2026!`);
  await expect(form.getByText("The password does not meet every rule below.")).toBeVisible();
  await expect(form.getByRole("listitem").filter({ hasText: "Does not contain your username" })).toContainText(
    "not yet",
  );
  await page.getByLabel(/^Password/).fill(password);
  await expect(form.getByRole("listitem").filter({ hasText: "Does not contain your username" })).toContainText("met");

  // The terms dialog carries the version the exchange serves; agreeing ticks the box.
  await form.getByRole("button", { name: "Read the terms" }).click();
  const terms = page.getByRole("dialog", { name: "Terms of service" });
  await expect(terms).toContainText("Version 1.0");
  await accessibleAtBothWidths(page, "the terms agreement dialog");
  await terms.getByRole("button", { name: "I agree" }).click();
  await expect(page.getByLabel("I have read and agree to the terms of service")).toBeChecked();
  await page.getByLabel(/Send me the newsletter/).check();

  const sent = page.waitForRequest((r) => r.url().endsWith("/v2/signup"));
  await form.getByRole("button", { name: "Create account" }).click();
  expect((await sent).postDataJSON()).toMatchObject({
    email,
    username,
    country: "GB",
    tosVersion: "1.0",
    prohibitedPerson: false,
    newsletter: true,
  });

  // SECURITY: two-factor right away, on the security page.
  const security = page.getByTestId("signup-security");
  await expect(security.getByRole("heading", { name: "Protect your account" })).toBeVisible();
  await expect(security.getByRole("link", { name: "Set up two-factor authentication" })).toHaveAttribute(
    "href",
    "/security",
  );
  await expect(page.getByRole("listitem").filter({ hasText: /^Security$/ })).toHaveAttribute("aria-current", "step");
  await accessibleAtBothWidths(page, "the sign-up's security step");
  await security.getByRole("button", { name: "Continue" }).click();

  // VERIFY_EMAIL: the resend waits out its cooldown.
  const verify = page.getByTestId("signup-verify-email");
  await expect(verify).toContainText(email);
  await expect(verify.getByRole("button", { name: "Send the link again" })).toBeDisabled();
  await expect(verify.getByRole("status")).toContainText(/You can ask again in \d+ s\./);
  await accessibleAtBothWidths(page, "the sign-up's e-mail step");

  const link = await mailedLink(request, email, "/confirm-signup?hash=");
  await page.goto(link);
  const complete = page.getByTestId("signup-complete");
  await expect(complete.getByRole("heading", { name: "Your account is ready" })).toBeVisible();
  await accessibleAtBothWidths(page, "the confirmed sign-up");

  // The link works once: again, it lands on the invalid-token page, which offers a new one.
  await page.goto(link);
  await expect(page).toHaveURL(/\/invalid-token\?kind=signup$/);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
  await accessibleAtBothWidths(page, "the invalid-token page");

  await page.getByTestId("invalid-token").getByRole("link", { name: "Sign in" }).click();
  await page.getByLabel("E-mail or username").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("header-logout")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign up" })).toBeHidden();
});

test("a forgotten password is reset by a mailed link that works once, and the new one signs in", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const username = `reset_${unique()}`;
  const email = `${username}@example.test`;
  const form = { country: "DE", tosVersion: "1.0", prohibitedPerson: false, newsletter: false };
  const signup = await request.post(`${API}/v2/signup`, {
    data: { email, username, password: "First-password-1", ...form },
  });
  expect(signup.status()).toBe(200);
  const hash = /hash=([0-9a-f]+)/.exec(await mailedLink(request, email, "/confirm-signup?hash="))?.[1];
  expect((await request.post(`${API}/v2/int/user/email/confirm`, { data: { emailVerifyHash: hash } })).status()).toBe(
    200,
  );

  await page.goto("/login");
  await acceptCookies(page);
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/signup");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await accessibleAtBothWidths(page, "the forgot-password page");
  await page.getByRole("button", { name: "Send the reset link" }).click();
  await expect(page.getByText("Enter your e-mail address.")).toBeVisible();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send the reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toContainText(`If an account uses ${email}`);
  await accessibleAtBothWidths(page, "the reset-requested page");

  const link = await mailedLink(request, email, "/reset-password?token=");
  await page.goto(link);
  const reset = page.getByTestId("reset-form");
  await expect(reset).toBeVisible();
  await accessibleAtBothWidths(page, "the reset-password form");
  await page.getByLabel("New password", { exact: true }).fill("Second-password-2");
  await page.getByLabel("New password again").fill("Second-password-3");
  await reset.getByRole("button", { name: "Change password" }).click();
  await expect(reset.getByText("The two passwords are not the same.")).toBeVisible();
  // The exchange checks what the page cannot know: the account's own name.
  await page.getByLabel("New password", { exact: true }).fill(`${username}-2026`);
  await page.getByLabel("New password again").fill(`${username}-2026`);
  await reset.getByRole("button", { name: "Change password" }).click();
  await expect(reset.getByRole("alert")).toHaveText("The password must not contain your username or e-mail name.");
  await page.getByLabel("New password", { exact: true }).fill("Second-password-2");
  await page.getByLabel("New password again").fill("Second-password-2");
  await reset.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByTestId("reset-done")).toContainText("signed out");
  await accessibleAtBothWidths(page, "the password-changed page");

  // Single use: the same link again lands on the invalid-token page.
  await page.goto(link);
  await expect(page).toHaveURL(/\/invalid-token\?kind=reset$/);
  await expect(page.getByRole("link", { name: "Ask for a new reset link" })).toBeVisible();

  await page.goto("/login");
  await page.getByLabel("E-mail or username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill("First-password-1");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("login-error")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("Second-password-2");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("header-logout")).toBeVisible();
});
