import { accessibleAtBothWidths, API, mailsTo, unique } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/**
 * A T.C. Kimlik No valid by its check digits (docs/product-rules.md#regional-sign-up), new to this run:
 * the exchange's database outlives a run, and one application per number is under review at a time.
 */
function kimlik(): string {
  const d = [1 + Math.floor(Math.random() * 9), ...Array.from({ length: 8 }, () => Math.floor(Math.random() * 10))];
  const odd = d.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0);
  const even = d.filter((_, i) => i % 2 === 1).reduce((a, b) => a + b, 0);
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  return [...d, tenth, (d.reduce((a, b) => a + b, 0) + tenth) % 10].join("");
}
const grouped = (id: string): string => `${id.slice(0, 3)} ${id.slice(3, 6)} ${id.slice(6, 9)} ${id.slice(9)}`;

test("a resident of Türkiye is sent from /signup to the local venue, applies, and lands on the submitted page with the receipt mailed", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const email = `applicant_${unique()}@example.test`;
  const [nationalId, otherNationalId] = [kimlik(), kimlik()];

  // /signup links the venue once the country chosen is one it serves.
  await page.goto("/");
  await acceptCookies(page);
  await page.getByRole("banner").getByRole("link", { name: "Sign up" }).click();
  await page.getByRole("dialog", { name: "Before you start" }).getByRole("button", { name: "No, I am not" }).click();
  await page
    .getByRole("dialog", { name: "Risk warning for UK residents" })
    .getByRole("button", { name: "I understand the risk" })
    .click();
  await expect(page.getByTestId("regional-venue")).toBeHidden();
  await page.getByLabel("Country of residence").selectOption("TR");
  const venueHint = page.getByTestId("regional-venue");
  await expect(venueHint).toContainText("open their accounts with Orderflow Türkiye, our local venue");
  await venueHint.getByRole("link", { name: "Apply to Orderflow Türkiye" }).click();

  await expect(page).toHaveURL(/\/signup\/tr$/);
  await expect(page.getByRole("heading", { level: 1, name: "Open an account with Orderflow Türkiye" })).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "Your application" })).toHaveAttribute(
    "aria-current",
    "step",
  );
  // The country is the venue's, not a choice; its name is the browser's for TR.
  const country = await page.getByLabel("Country of residence").inputValue();
  expect(country).toMatch(/^(Türkiye|Turkey)$/);
  await accessibleAtBothWidths(page, "the regional application form");

  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v2/int/signup/regional")) sent.push(r.url());
  });
  const form = page.getByTestId("regional-form");

  // Sent empty: every field says what it needs, and nothing is sent.
  await form.getByRole("button", { name: "Send application" }).click();
  for (const message of [
    "Enter your first name.",
    "Enter your last name.",
    "Enter your date of birth.",
    "Enter your T.C. Kimlik No.",
    "Enter your e-mail address.",
    "Enter your street and house number.",
    "Enter your city.",
    "Enter your postal code, like 34000.",
    `Only residents of ${country} can apply to Orderflow Türkiye.`,
    "Agree to the terms of Orderflow Türkiye to apply.",
  ])
    await expect(form.getByText(message, { exact: true })).toBeVisible();

  // Wrong values: the rules the exchange applies too, said as they are typed.
  await form.getByLabel("First name").fill("Ayşe");
  await form.getByLabel("Last name").fill("Yılmaz");
  const under18 = new Date(Date.now() - 17 * 365.25 * 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel("Date of birth").fill(under18);
  await form.getByLabel("National ID number (T.C. Kimlik No)").fill("10000000147");
  await form.getByLabel("E-mail address").fill("ayse@example");
  await form.getByLabel("Street and number").fill("İstiklal Caddesi 12");
  await form.getByLabel("City").fill("İstanbul");
  await form.getByLabel("Postal code").fill("3443");
  await form.getByRole("button", { name: "Send application" }).click();
  await expect(form.getByText("You must be at least 18 years old to apply.")).toBeVisible();
  await expect(form.getByText("This is not a valid T.C. Kimlik No: check the digits.")).toBeVisible();
  await expect(form.getByText("Enter a valid e-mail address, like name@example.com.")).toBeVisible();
  await expect(form.getByText("Enter your postal code, like 34000.")).toBeVisible();
  expect(sent).toEqual([]);

  // An address with an application under review already: the exchange answers a repeat as any
  // application (no oracle of who applied), and only the mailbox's owner reads that one is pending.
  const earlierData = {
    region: "tr",
    firstName: "Ayşe",
    lastName: "Yılmaz",
    email,
    birthDate: "1990-04-23",
    nationalId: otherNationalId,
    street: "Bağdat Caddesi 5",
    city: "İstanbul",
    postalCode: "34710",
    resident: true,
    termsVersion: "1.0",
  };
  const earlier = await request.post(`${API}/v2/int/signup/regional`, { data: earlierData });
  expect(earlier.status(), await earlier.text()).toBe(200);
  const repeat = await request.post(`${API}/v2/int/signup/regional`, { data: earlierData });
  expect(repeat.status(), await repeat.text()).toBe(200);
  expect((await mailsTo(request, email))[0]?.body).toContain("is already under review");
  await form.getByLabel("Date of birth").fill("1990-04-23");
  await form.getByLabel("National ID number (T.C. Kimlik No)").fill(grouped(nationalId));
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Postal code").fill("34433");
  await form.getByLabel(`I live in ${country}, and this is my permanent address`).check();

  // The venue's own terms, with the version the exchange serves; agreeing ticks the box.
  await form.getByRole("button", { name: "Read the terms" }).click();
  const terms = page.getByRole("dialog", { name: "Terms of Orderflow Türkiye" });
  await expect(terms).toContainText("Version 1.0");
  await expect(terms).toContainText("check your identity with your T.C. Kimlik No");
  await accessibleAtBothWidths(page, "the regional terms dialog");
  await terms.getByRole("button", { name: "I agree" }).click();
  await expect(form.getByLabel("I have read and agree to the terms of Orderflow Türkiye")).toBeChecked();

  // A good application: the submitted page, with the reference the receipt mail carries.
  const fresh = `applicant_${unique()}@example.test`;
  await form.getByLabel("E-mail address").fill(fresh);
  const application = page.waitForRequest((r) => r.url().endsWith("/v2/int/signup/regional"));
  await form.getByRole("button", { name: "Send application" }).click();
  expect((await application).postDataJSON()).toEqual({
    region: "tr",
    firstName: "Ayşe",
    lastName: "Yılmaz",
    email: fresh,
    birthDate: "1990-04-23",
    nationalId,
    street: "İstiklal Caddesi 12",
    city: "İstanbul",
    postalCode: "34433",
    resident: true,
    termsVersion: "1.0",
  });
  await expect(page).toHaveURL(/\/signup\/tr\/submitted\?ref=TR-[A-Z2-9]{8}$/);
  const reference = new URL(page.url()).searchParams.get("ref") ?? "";
  const submitted = page.getByTestId("regional-submitted");
  await expect(submitted.getByRole("heading", { level: 1, name: "Application received" })).toBeVisible();
  await expect(submitted).toContainText(`Your application to Orderflow Türkiye has the reference ${reference}.`);
  await expect(submitted.getByRole("heading", { name: "What happens next" })).toBeVisible();
  await expect(submitted).toContainText("checks your details and your T.C. Kimlik No, usually within 3 business days");
  await expect(page.getByRole("listitem").filter({ hasText: "Our review" })).toHaveAttribute("aria-current", "step");
  await accessibleAtBothWidths(page, "the application's submitted page");

  const receipts = await mailsTo(request, fresh);
  expect(receipts.map((m) => m.subject)).toEqual(["We received your application to Orderflow Türkiye"]);
  expect(receipts[0]?.body).toContain(reference);
  expect(receipts[0]?.body).not.toContain(nationalId);

  // A region without a venue of its own has no application page.
  await page.goto("/signup/jp");
  await expect(page.getByTestId("not-found")).toBeVisible();
});
