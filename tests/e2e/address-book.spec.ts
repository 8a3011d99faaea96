import { acceptCookies, expect, test } from "./fixtures";
import { accessibleAtBothWidths, confirmedAccount, mailedLink, signInWithPassword } from "./account-helpers";

const PASSWORD = "correct-horse-battery";
/** A real mainnet segwit address (v0, 20 bytes) and the same with its last character mistyped. */
const ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
const TYPO = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdp";

// Signs in, runs axe at two widths three times and waits for a mail: longer than the 30 s default.
test.describe.configure({ timeout: 90_000 });

test("adds a withdrawal address, confirms it by the mailed link, and switches the whitelist", async ({
  page,
  request,
}) => {
  const { username, email } = await confirmedAccount(request, "book", PASSWORD);
  await page.goto("/login?back=%2Fsecurity%2Faddresses");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security\/addresses$/);
  await expect(page.getByRole("heading", { name: "Withdrawal addresses", level: 1 })).toBeVisible();
  const btc = page.getByTestId("currency-BTC");
  await expect(btc.getByRole("switch", { name: "Withdraw BTC only to confirmed addresses" })).not.toBeChecked();
  await accessibleAtBothWidths(page, "/security/addresses");

  // The "add address" dialog checks the address as it is typed.
  await page.getByRole("button", { name: "Add address" }).click();
  const dialog = page.getByTestId("add-address-dialog");
  await dialog.getByLabel("Label").fill("Cold storage");
  await dialog.getByLabel("Address", { exact: true }).fill(TYPO);
  await expect(dialog.getByText("The address's checksum does not match")).toBeVisible();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("beneficiary-dialog")).toBeHidden();
  await accessibleAtBothWidths(page, "the add-address dialog with an invalid address");
  await dialog.getByLabel("Address", { exact: true }).fill(ADDRESS);
  await expect(dialog.getByText("A valid Bitcoin address.")).toBeVisible();
  await dialog.getByRole("button", { name: "Continue" }).click();

  // The "permitted beneficiary" dialog: who owns it, then the owner's proof.
  const beneficiary = page.getByTestId("beneficiary-dialog");
  await expect(beneficiary.getByRole("radio", { name: "I do: it is my own wallet" })).toBeChecked();
  await beneficiary.getByRole("radio", { name: "Another person or a company" }).check();
  await beneficiary.getByLabel("Full name of the person or company").fill("Ann Example");
  await beneficiary.getByLabel("Their country").selectOption("DE");
  await accessibleAtBothWidths(page, "the permitted-beneficiary dialog");
  await beneficiary.getByLabel("Password", { exact: true }).fill("not-my-password");
  await beneficiary.getByRole("button", { name: "Add address" }).click();
  await expect(beneficiary.getByRole("alert")).toHaveText("The password is not right.");
  await beneficiary.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await beneficiary.getByRole("button", { name: "Add address" }).click();
  await expect(beneficiary).toBeHidden();

  const entry = btc.getByTestId("address-entry");
  await expect(entry).toContainText("Cold storage");
  await expect(entry).toContainText(ADDRESS);
  await expect(entry).toContainText("Waiting for e-mail confirmation");
  await expect(entry).toContainText("Owner: Ann Example (Germany)");
  // Adding an address turns the currency's whitelist on.
  const whitelist = btc.getByRole("switch", { name: "Withdraw BTC only to confirmed addresses" });
  await expect(whitelist).toBeChecked();

  // The mailed link confirms it.
  const link = await mailedLink(request, email, "/security/addresses?confirm=");
  await page.goto(link);
  await expect(page.getByTestId("address-confirmed")).toBeVisible();
  await expect(page).toHaveURL(/\/security\/addresses$/);
  await expect(entry).toContainText("Confirmed");
  // The link works once.
  await page.goto(link);
  await expect(page.getByRole("alert")).toContainText("This confirmation link is not valid");
  await accessibleAtBothWidths(page, "/security/addresses with a confirmed address");

  // Off needs the owner's proof and then the mailed link; on again needs nothing.
  // The switch stays on until the proof is given: a click opens the dialog.
  await whitelist.click();
  const proof = page.getByTestId("proof-dialog");
  await proof.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await proof.getByRole("button", { name: "Turn off" }).click();
  await expect(proof).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "We sent you an e-mail." })).toBeVisible();
  // Password and code alone do not loosen it: it waits for the mailbox, and the page says so.
  await expect(whitelist).toBeChecked();
  const waiting = page.getByTestId("waiting-whitelist-BTC");
  await expect(waiting).toContainText("Waiting for your confirmation by e-mail: the BTC whitelist turns off.");
  await accessibleAtBothWidths(page, "/security/addresses with a change waiting for the mail");
  // Cancelled from the page, its link does nothing.
  const cancelled = await mailedLink(request, email, "/security/addresses?apply=");
  await waiting.getByRole("button", { name: "Cancel change" }).click();
  await expect(waiting).toHaveCount(0);
  await page.goto(cancelled);
  await expect(page.getByRole("alert")).toContainText("This confirmation link is not valid");
  await expect(whitelist).toBeChecked();
  // Asked again and confirmed by its link, it turns off.
  await whitelist.click();
  await proof.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await proof.getByRole("button", { name: "Turn off" }).click();
  await expect(waiting).toBeVisible();
  let applyLink = "";
  await expect
    .poll(async () => {
      applyLink = await mailedLink(request, email, "/security/addresses?apply=");
      return applyLink;
    })
    .not.toBe(cancelled);
  await page.goto(applyLink);
  await expect(page.getByTestId("change-applied")).toBeVisible();
  await expect(whitelist).not.toBeChecked();
  await expect(waiting).toHaveCount(0);
  // A controlled switch: it turns on once the exchange answers, so click and wait (`check()` would
  // look at once and see no change).
  await whitelist.click();
  await expect(whitelist).toBeChecked();
  await page.reload();
  await expect(page.getByTestId("currency-BTC").getByRole("switch")).toBeChecked();
});
