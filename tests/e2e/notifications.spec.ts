/**
 * The notifications page as a new user finds it (docs/product-rules.md#notifications-page): open an
 * account, change a preference and find it kept after a reload, subscribe to a newsletter and
 * confirm it by the link in the mail (double opt-in), place an order on the desk and find its
 * notification in the history; and a visitor's subscription from the home page, confirmed and
 * then ended by the unsubscribe link of the welcome mail, without signing in.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { accessibleAtBothWidths, mailedLink, signInWithPassword, unique } from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

/** Opens an account through the sign-up page and confirms its address by the mailed link. */
async function openAccount(page: Page, request: APIRequestContext, email: string, username: string, password: string) {
  // The consent banner first: the sign-up's opening dialogs are modal.
  await page.goto("/");
  await acceptCookies(page);
  await page.goto("/signup");
  await page.getByRole("dialog", { name: "Before you start" }).getByRole("button", { name: "No, I am not" }).click();
  await page
    .getByRole("dialog", { name: "Risk warning for UK residents" })
    .getByRole("button", { name: "I understand the risk" })
    .click();
  await page.getByLabel("E-mail address").fill(email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByLabel("I have read and agree to the terms of service").check();
  await page.getByTestId("signup-form").getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signup-security")).toBeVisible();
  await page.goto(await mailedLink(request, email, "/confirm-signup?hash="));
  await expect(page.getByRole("heading", { name: "Your account is ready" })).toBeVisible();
}

test("a new user keeps a preference, confirms a newsletter by mail, and finds an order in the history", async ({
  page,
  context,
  browser,
  request,
}) => {
  // Sign-up, four pages with axe at two widths, the desk: well over the default on 2 shared cores.
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = unique();
  const email = `notify_${id}@example.com`;
  const password = "Notify-me-2026!";
  await openAccount(page, request, email, `notify_${id}`, password);

  // The page is in the account menu.
  await page.goto("/login?back=%2Ftradedesk");
  await signInWithPassword(page, `notify_${id}`, password);
  await expect(page).toHaveURL(/\/tradedesk/);
  await page.getByTestId("account-menu").click();
  await page.getByRole("navigation", { name: "Account pages" }).getByRole("link", { name: "Notifications" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();

  // Preferences: order notices off on this site, the deposit mail off; both kept after a reload.
  const prefs = page.getByTestId("notification-prefs");
  const orders = prefs.getByRole("checkbox", { name: "Orders", exact: true });
  const depositMail = prefs.getByRole("checkbox", { name: "A deposit arrives" });
  await expect(orders).toBeEnabled();
  await expect(orders).toBeChecked();
  await orders.uncheck();
  await expect(prefs.getByTestId("prefs-saved")).toBeVisible();
  await depositMail.uncheck();
  await expect(depositMail).not.toBeChecked();
  await expect(prefs.getByText("Security e-mails", { exact: false })).toBeVisible();
  await page.reload();
  await expect(orders).toBeEnabled();
  await expect(orders).not.toBeChecked();
  await expect(depositMail).not.toBeChecked();
  await expect(prefs.getByRole("checkbox", { name: "Trades" })).toBeChecked();
  await accessibleAtBothWidths(page, "/notifications");
  // Kept by the exchange, not only this browser: another device (a fresh context) finds them too.
  const baseURL = test.info().project.use.baseURL;
  const other = await browser.newContext(baseURL === undefined ? {} : { baseURL });
  const device = await other.newPage();
  await device.goto("/login?back=%2Fnotifications");
  await acceptCookies(device);
  await signInWithPassword(device, `notify_${id}`, password);
  const elsewhere = device.getByTestId("notification-prefs");
  await expect(elsewhere.getByRole("checkbox", { name: "Trades" })).toBeEnabled();
  await expect(elsewhere.getByRole("checkbox", { name: "Orders", exact: true })).not.toBeChecked();
  await expect(elsewhere.getByRole("checkbox", { name: "A deposit arrives" })).not.toBeChecked();
  await other.close();

  // A newsletter: pending until the mailed link is opened.
  const weekly = page.getByTestId("campaign-market-weekly");
  await weekly.getByRole("button", { name: "Subscribe to The Weekly Close" }).click();
  await expect(weekly.getByText("Waiting for your confirmation: check your inbox")).toBeVisible();
  const mailTab = await context.newPage();
  await mailTab.goto(await mailedLink(request, email, "/newsletters/confirm?token="));
  await expect(mailTab.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();
  await expect(mailTab.getByText(`${email} will receive The Weekly Close.`, { exact: false })).toBeVisible();
  await accessibleAtBothWidths(mailTab, "/newsletters/confirm");
  // The link works once.
  await mailTab.reload();
  await expect(mailTab.getByRole("heading", { name: "This link was already used" })).toBeVisible();
  await mailTab.close();
  await page.reload();
  await expect(weekly.getByText("Subscribed", { exact: true })).toBeVisible();
  await expect(weekly.getByRole("button", { name: "Unsubscribe from The Weekly Close" })).toBeVisible();

  // An order on the desk. Order notices are off: no toast for it, but the history keeps it.
  const history = page.getByTestId("notification-history");
  await expect(history.getByTestId("history-empty")).toHaveText("No notifications yet.");
  await page.goto("/tradedesk/BTCUSD");
  await page.getByTestId("order-form").getByTestId("price").fill("1000");
  await page.getByTestId("order-form").getByTestId("amount").fill("0.01");
  await page.getByTestId("submit-order").click();
  await page.getByTestId("confirm-order").click();
  await expect(page.getByTestId("table-orders").locator("tr[data-row]").filter({ hasText: "1000" })).toHaveCount(1);
  await expect(page.getByTestId("toast").filter({ hasText: /order/i })).toHaveCount(0);

  await page.goto("/notifications");
  const row = history.getByRole("row").filter({ hasText: "New order" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Success");
  await expect(row).toContainText("Submitting exchange limit buy order for 0.01 BTC.");
  await expect(row).toHaveAttribute("data-read", "0");
  await history.getByLabel("Show").selectOption({ label: "Funding" });
  await expect(history.getByTestId("history-empty")).toBeVisible();
  await history.getByLabel("Show").selectOption({ label: "Orders" });
  await expect(row).toHaveCount(1);
  await history.getByRole("button", { name: "Mark all read" }).click();
  await expect(history.getByText("1 marked read.")).toBeVisible();
  await expect(row).toHaveAttribute("data-read", "1");
  await accessibleAtBothWidths(page, "/notifications with its history");
});

test("a visitor subscribes from the home page, confirms, and unsubscribes by the mail's link", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const email = `visitor_${unique()}@example.com`;
  await page.goto("/");
  await acceptCookies(page);
  const form = page.getByTestId("newsletter-signup");
  await form.getByLabel("Newsletter").selectOption({ label: "Product News" });
  await form.getByLabel("E-mail address").fill("visitor@example");
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(form.getByRole("alert")).toHaveText("Enter an e-mail address such as name@example.com.");
  await form.getByLabel("E-mail address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(form.getByTestId("newsletter-sent")).toBeVisible();

  await page.goto(await mailedLink(request, email, "/newsletters/confirm?token="));
  await expect(page.getByRole("heading", { name: "Subscription confirmed" })).toBeVisible();
  await page.goto(await mailedLink(request, email, "/newsletters/unsubscribe?token="));
  await expect(page.getByRole("heading", { name: "You are unsubscribed" })).toBeVisible();
  await expect(page.getByText(`${email} will no longer receive Product News.`)).toBeVisible();
  await accessibleAtBothWidths(page, "/newsletters/unsubscribe");
  await page.goto("/newsletters/confirm?token=0123");
  await expect(page.getByTestId("newsletter-link-error")).toHaveText(
    "This link is not valid. Check that you opened the whole link from the mail.",
  );
});
