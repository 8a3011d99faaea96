import { accessibleAtBothWidths } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

test.use({ viewport: { width: 1440, height: 900 } });

/** What a visitor sees first on each company page: its one h1 and a phrase of its own content. */
const PAGES: readonly (readonly [path: string, h1: string, phrase: string])[] = [
  ["/support", "Support", "Answers to what traders ask us most"],
  ["/report", "Report a problem", "Our team reads every report"],
  ["/anti-spam", "Anti-spam", "Contact you first on Telegram"],
  ["/about", "About us", "built for high-volume traders"],
  ["/security-policy", "Security policy", "Passwords are stored only as scrypt hashes"],
  ["/bug-bounty", "Bug bounty", "Test only with your own accounts"],
  ["/manifesto", "Manifesto", "Correct before fast"],
  ["/press", "Press", "Write Orderflow as one word"],
  ["/affiliates", "Affiliates", "What we ask of partners"],
  ["/join", "Join us", "Exchange engineering"],
  ["/channels", "Official channels", "We run no support account on Telegram"],
];

test("a visitor finds an answer in support by typing, in English and in Chinese", async ({ page }) => {
  await page.goto("/support");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 1, name: "Support" })).toBeVisible();
  const count = page.getByRole("status").filter({ hasText: /^Answers/ });
  const all = Number((await count.textContent())?.replace(/\D/g, ""));
  expect(all).toBeGreaterThan(5);

  const search = page.getByRole("searchbox");
  await expect(search).toHaveAccessibleName("Search the answers");
  await search.fill("destination tag");
  await expect(count).toHaveText("Answers found: 1");
  // A match is shown open: the answer itself is readable without another click.
  await expect(page.getByText("Every account shares one XRP address")).toBeVisible();
  await expect(page.getByText("What are the trading fees?")).toBeHidden();

  // The same answers in Chinese, searched with Chinese words (the page is live: the count above answered).
  await page.getByTestId("locale-select").selectOption("zh-CN");
  await expect(page.getByRole("heading", { level: 1, name: "支持" })).toBeVisible();
  await search.fill("手续费");
  await expect(page.getByText("从金额中扣除固定的网络手续费")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "找到的解答" })).not.toHaveText("找到的解答：0");
  await page.getByTestId("locale-select").selectOption("en");
  await expect(page.getByRole("heading", { level: 1, name: "Support" })).toBeVisible();

  await search.fill("no such words anywhere");
  await expect(count).toHaveText("Answers found: 0");
  await page.getByRole("link", { name: "send us a report" }).click();
  await expect(page).toHaveURL(/\/report$/);
  await expect(page.getByRole("heading", { level: 1, name: "Report a problem" })).toBeVisible();
});

test("a visitor reports a problem: bad input is refused in words and sent nowhere, good input gets a reference", async ({
  page,
}) => {
  await page.goto("/report");
  await acceptCookies(page);
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v2/int/site/report")) sent.push(r.method());
  });
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Send report" }) });

  await form.getByLabel("What happened?").fill("broken");
  await form.getByLabel("E-mail for our answer (optional)").fill("not-an-address");
  await form.getByRole("button", { name: "Send report" }).click();
  await expect(form.getByText("Choose what the report is about.")).toBeVisible();
  await expect(form.getByText("Write at least 20 characters, so we can act on it.")).toBeVisible();
  await expect(form.getByText("Enter a valid e-mail address, or leave the field empty.")).toBeVisible();
  await expect(form.getByLabel("What is it about?")).toBeFocused();
  await expect(form.getByLabel("What is it about?")).toHaveAttribute("aria-invalid", "true");
  expect(sent).toEqual([]);

  await form.getByLabel("What is it about?").selectOption({ label: "Orders and trading" });
  await form
    .getByLabel("What happened?")
    .fill("My stop order on BTC/USD did not trigger when the price crossed 29,500 at 14:02 UTC.");
  await form.getByLabel("E-mail for our answer (optional)").fill("trader@example.test");
  await expect(form.getByText("Choose what the report is about.")).toBeHidden();
  await accessibleAtBothWidths(page, "the report form");
  await form.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByRole("heading", { name: "Report received" })).toBeFocused();
  await expect(page.getByTestId("report-reference")).toHaveText(/^RP-[A-HJ-NP-Z2-9]{8}$/);
  expect(sent).toEqual(["POST"]);
  await accessibleAtBothWidths(page, "the report's receipt");
});

test("a visitor reports a fake support account from the anti-spam page", async ({ page }) => {
  await page.goto("/anti-spam");
  await acceptCookies(page);
  await expect(page.getByRole("heading", { level: 2, name: "What we never do" })).toBeVisible();
  await page
    .getByRole("navigation", { name: "On this page" })
    .getByRole("link", { name: "Report a suspicious message" })
    .click();
  await expect(page).toHaveURL(/#report$/);
  await page.getByLabel("How did it reach you?").selectOption({ label: "Messenger (Telegram, WhatsApp…)" });
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByText("Enter the sender's address, number, account name or link.")).toBeVisible();
  await page.getByLabel("Sender's address, number, account name or link").fill("@orderflow_support_desk");
  await page
    .getByLabel("What did it say or ask you to do?")
    .fill("They said my withdrawal was blocked and asked for my two-factor code to release it.");
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByTestId("report-reference")).toHaveText(/^SP-[A-HJ-NP-Z2-9]{8}$/);
  await expect(page.getByText("Do not reply to the message")).toBeVisible();
});

test("the bug bounty sends a researcher to the report form with the vulnerability category chosen", async ({
  page,
}) => {
  await page.goto("/bug-bounty");
  await acceptCookies(page);
  await page.getByRole("link", { name: "Report a vulnerability" }).click();
  await expect(page).toHaveURL(/\/report\?category=security$/);
  await expect(page.getByLabel("What is it about?")).toHaveValue("security");
});

for (const [path, h1, phrase] of PAGES)
  test(`${path} has one h1 and its own content, and is accessible at both widths`, async ({ page }) => {
    await page.goto(path);
    await acceptCookies(page);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(h1);
    await expect(page.getByText(phrase).first()).toBeVisible();
    await accessibleAtBothWidths(page, path);
  });
