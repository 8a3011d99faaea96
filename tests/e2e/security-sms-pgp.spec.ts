import type { APIRequestContext } from "@playwright/test";
import { decrypt, generateKey, readMessage, readPrivateKey } from "openpgp";
import { accessibleAtBothWidths, API, confirmedAccount, mailsTo, signInWithPassword, signOut } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

const PASSWORD = "correct-horse-battery";

// Sign-ins, texts, key generation and axe at two widths several times: longer than the 30 s default.
test.describe.configure({ timeout: 120_000 });

/** The newest six-digit code texted to `phone` (the exchange's development SMS outbox). */
async function textedCode(request: APIRequestContext, phone: string, after = ""): Promise<string> {
  let code = "";
  await expect
    .poll(async () => {
      const texts = (await (await request.get(`${API}/dev/sms?to=${encodeURIComponent(phone)}`)).json()) as {
        body: string;
      }[];
      code = /\b(\d{6})\b/.exec(texts[0]?.body ?? "")?.[1] ?? "";
      return code !== "" && code !== after;
    })
    .toBe(true);
  return code;
}

test("turns on SMS with a texted code, signs in with one, and adds a PGP key confirmed from an encrypted mail", async ({
  page,
  request,
}) => {
  const { username, email } = await confirmedAccount(request, "smspgp", PASSWORD);
  // A UK mobile number of the account's own (the outbox is shared by every journey).
  const national = `07911 1${String(Date.now()).slice(-5)}`;
  const e164 = `+44${national.replace(/\s/g, "").slice(1)}`;

  await page.goto("/login?back=%2Fsecurity");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);
  const sms = page.getByTestId("sms-card");
  await expect(sms.getByTestId("sms-state")).toHaveText("Off");
  await expect(page.getByTestId("pgp-status")).toHaveText("Off");
  await accessibleAtBothWidths(page, "/security with the SMS and PGP cards");

  // A number that is not one of the chosen country's is refused on the page, before any text.
  await sms.getByLabel("Country").selectOption("GB");
  await sms.getByLabel("Mobile number").fill("0791 12");
  await sms.getByRole("button", { name: "Text me a code" }).click();
  await expect(sms).toContainText("This is not a valid number for the country chosen.");
  await sms.getByLabel("Mobile number").fill(national);
  await sms.getByRole("button", { name: "Text me a code" }).click();
  await expect(sms).toContainText(`We texted a code to +44 ••• ${e164.slice(-4)}`);
  await expect(sms.getByRole("button", { name: /Send again in \d+ s/ })).toBeDisabled();
  const code = await textedCode(request, e164);
  await accessibleAtBothWidths(page, "/security with the SMS code step");

  // A wrong code is told in the page's words; the right one turns SMS on.
  await sms.getByLabel("Code from the text message").fill(code === "000000" ? "111111" : "000000");
  await sms.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await sms.getByRole("button", { name: "Turn on SMS" }).click();
  await expect(sms.getByRole("alert")).toContainText("That code is not right.");
  await sms.getByLabel("Code from the text message").fill(code);
  await sms.getByRole("button", { name: "Turn on SMS" }).click();
  await expect(sms.getByTestId("sms-state")).toHaveText("On");
  await expect(sms).toContainText(`Sign-in codes go to +44 ••• ${e164.slice(-4)}.`);
  expect((await mailsTo(request, email)).map((m) => m.subject)).toContain("SMS sign-in codes are on");

  await signOut(page);
  await page.goto("/login?back=%2Fsecurity");
  await signInWithPassword(page, username, PASSWORD);
  await expect(page.getByTestId("two-factor-form")).toBeVisible();
  await page.getByRole("button", { name: "Text me a code" }).click();
  await expect(page.getByTestId("two-factor-form")).toContainText(`We texted a code to +44 ••• ${e164.slice(-4)}.`);
  await accessibleAtBothWidths(page, "/login with the SMS code step");
  await page.getByLabel("Code from the text message").fill(await textedCode(request, e164, code));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(page.getByTestId("sms-card").getByTestId("sms-state")).toHaveText("On");

  // The PGP key: the person's own key pair, made by their key tool (here openpgp.js).
  const pair = await generateKey({
    type: "ecc",
    curve: "curve25519Legacy",
    userIDs: [{ name: "Journey Owner", email }],
    format: "armored",
  });
  const pgp = page.getByTestId("pgp-card");
  await pgp.getByRole("button", { name: "Add a PGP key" }).click();
  // A private key is refused with the page's words.
  await pgp.getByLabel("Your public key (ASCII armored)").fill(pair.privateKey);
  await pgp.getByRole("button", { name: "Save key" }).click();
  await expect(pgp.getByRole("alert")).toContainText("This is a private key.");
  await pgp.getByLabel("Your public key (ASCII armored)").fill(pair.publicKey);
  await pgp.getByRole("button", { name: "Save key" }).click();
  await expect(pgp.getByTestId("pgp-status")).toHaveText("Pending");
  await accessibleAtBothWidths(page, "/security with a pending PGP key");

  let armored = "";
  await expect
    .poll(async () => {
      armored = (await mailsTo(request, email)).find((m) => m.subject === "Confirm your PGP key")?.body ?? "";
      return armored.startsWith("-----BEGIN PGP MESSAGE-----");
    })
    .toBe(true);
  const decrypted: { data: unknown } = await decrypt({
    message: await readMessage({ armoredMessage: armored }),
    decryptionKeys: await readPrivateKey({ armoredKey: pair.privateKey }),
    format: "utf8",
  });
  const pgpCode = /is (\d{6})\./.exec(String(decrypted.data))?.[1] ?? "";
  expect(pgpCode).toMatch(/^\d{6}$/);
  await pgp.getByLabel("Code from the encrypted mail").fill(pgpCode);
  await pgp.getByRole("button", { name: "Confirm key" }).click();
  await expect(pgp.getByTestId("pgp-status")).toHaveText("Active");
  await expect(pgp.getByTestId("pgp-fingerprint")).toHaveText(/^([0-9A-F]{4} ){9}[0-9A-F]{4}$/);
  await accessibleAtBothWidths(page, "/security with an active PGP key");
  // From now on the account's mail is encrypted to the key.
  await expect
    .poll(async () => (await mailsTo(request, email)).find((m) => m.subject === "Your PGP key is active")?.body ?? "")
    .toMatch(/^-----BEGIN PGP MESSAGE-----/);

  // A new key waits beside the active one until the link in its own encrypted mail is opened.
  const next = await generateKey({
    type: "ecc",
    curve: "curve25519Legacy",
    userIDs: [{ name: "Journey Owner", email }],
    format: "armored",
  });
  const confirmations = (await mailsTo(request, email)).filter((m) => m.subject === "Confirm your PGP key").length;
  const firstPrint = (await pgp.getByTestId("pgp-fingerprint").textContent()) ?? "";
  await pgp.getByRole("button", { name: "Replace key" }).click();
  await pgp.getByLabel("Your public key (ASCII armored)").fill(next.publicKey);
  await pgp.getByRole("button", { name: "Save key" }).click();
  await expect(pgp).toContainText("A new key waits for confirmation; the active key stays in use until then.");
  let second = "";
  await expect
    .poll(async () => {
      const mails = (await mailsTo(request, email)).filter((m) => m.subject === "Confirm your PGP key");
      second = mails.length > confirmations ? (mails[0]?.body ?? "") : "";
      return second !== "";
    })
    .toBe(true);
  const opened: { data: unknown } = await decrypt({
    message: await readMessage({ armoredMessage: second }),
    decryptionKeys: await readPrivateKey({ armoredKey: next.privateKey }),
    format: "utf8",
  });
  const link = /\/security\?pgp=\d{6}/.exec(String(opened.data))?.[0] ?? "";
  expect(link).not.toBe("");
  await page.goto(link);
  await expect(page).toHaveURL(/\/security$/);
  await expect(pgp.getByTestId("pgp-status")).toHaveText("Active");
  await expect(pgp.getByTestId("pgp-fingerprint")).toHaveCount(1);
  await expect(pgp.getByTestId("pgp-fingerprint")).not.toHaveText(firstPrint);
  await expect(pgp).not.toContainText("A new key waits for confirmation");
});
