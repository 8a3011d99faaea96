import { request as httpRequest } from "node:http";
import {
  accessibleAtBothWidths,
  API,
  AUTH,
  confirmedAccount,
  mailedLink,
  signInWithPassword,
  signOut,
} from "./account-helpers";
import { acceptCookies, expect, test } from "./fixtures";

const PASSWORD = "correct-horse-battery";

// Two sign-ins, two mailed links and axe at two widths on three pages: longer than the 30 s default.
test.describe.configure({ timeout: 120_000 });

/**
 * A POST to the exchange from another device: 127.0.0.2, which Linux routes to the loopback host
 * like 127.0.0.1 but the exchange sees as a different address. The status and JSON body.
 */
function fromPhone(url: string, body: unknown, token?: string): Promise<[number, unknown]> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: u.hostname,
        port: Number(u.port),
        path: u.pathname,
        method: "POST",
        localAddress: "127.0.0.2",
        headers: { "content-type": "application/json", ...(token ? { "bfx-token": token } : {}) },
      },
      (res) => {
        let data = "";
        res.on("data", (c: Buffer) => (data += c.toString("utf8")));
        res.on("end", () => resolve([res.statusCode ?? 0, JSON.parse(data) as unknown]));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

test("new-address confirmation, single login and a weakening that waits for its mailed link", async ({
  page,
  request,
}) => {
  const { username, email } = await confirmedAccount(request, "setg", PASSWORD);
  // The account's first sign-in is on a phone, which turns on the confirmation for new addresses.
  const [, signedIn] = await fromPhone(`${API}/v2/login`, { login: username, password: PASSWORD });
  const phone = (signedIn as string[])[0] ?? "";
  expect(phone).not.toBe("");
  const [status] = await fromPhone(
    `${AUTH}/v2/auth/w/int/security/settings`,
    { setting: "lock_on_new_ip", val: "1" },
    phone,
  );
  expect(status).toBe(200);

  // This browser is a new address: the sign-in waits for the mailed link.
  await page.goto("/login?back=%2Fsecurity");
  await acceptCookies(page);
  await signInWithPassword(page, username, PASSWORD);
  await expect(page.getByRole("heading", { name: "Check your e-mail to confirm this sign-in" })).toBeVisible();
  await accessibleAtBothWidths(page, "/login waiting for the mailed confirmation");

  const confirmLink = await mailedLink(request, email, "/login-confirm?token=");
  await page.goto(confirmLink);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm a sign-in" })).toBeVisible();
  await expect(page.getByTestId("login-confirm")).toContainText("127.0.0.1");
  await accessibleAtBothWidths(page, "/login-confirm");
  await page.getByRole("button", { name: "Yes, confirm this sign-in" }).click();
  await expect(page.getByText("The address is confirmed.")).toBeVisible();

  await page.goto("/login?back=%2Fsecurity");
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);
  const settings = page.getByTestId("security-settings");
  await expect(settings.getByRole("switch", { name: "Confirm sign-ins from new addresses" })).toBeChecked();
  // Withdrawals wait for their mailed link unless this is turned on (a weakening, like the others).
  await expect(settings.getByRole("switch", { name: "Skip the withdrawal e-mail confirmation" })).not.toBeChecked();
  await accessibleAtBothWidths(page, "/security with its settings");

  // Single login is a tightening: at once. The next sign-in ends every other session.
  const single = settings.getByRole("switch", { name: "Single login" });
  await expect(single).not.toBeChecked();
  await single.click();
  await expect(settings.getByRole("status")).toHaveText("Saved.");
  await expect(single).toBeChecked();
  await signOut(page);
  await page.goto("/login?back=%2Fsecurity");
  await signInWithPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/security$/);
  const [, phoneNow] = await fromPhone(`${AUTH}/v2/auth/r/info/user`, {}, phone);
  expect(phoneNow).toEqual(["error", 10100, "token: invalid"]);

  // Turning the new-address confirmation off weakens the account: it waits for the mailed link.
  const newAddresses = settings.getByRole("switch", { name: "Confirm sign-ins from new addresses" });
  await newAddresses.click();
  await expect(settings.getByRole("status")).toContainText("We sent you an e-mail.");
  await expect(newAddresses).toBeChecked();
  await expect(page.getByTestId("pending-lock_on_new_ip")).toContainText(
    "Waiting for your confirmation by e-mail: turns off.",
  );
  await expect(page.getByTestId("pending-lock_on_new_ip").getByRole("button", { name: "Cancel change" })).toBeVisible();

  const changeLink = await mailedLink(request, email, "/confirm-security-change?token=");
  await page.goto(changeLink);
  await expect(page.getByRole("heading", { level: 1, name: "Confirm a security change" })).toBeVisible();
  await expect(page.getByTestId("confirm-security-change")).toContainText("Confirm sign-ins from new addresses");
  await accessibleAtBothWidths(page, "/confirm-security-change");
  await page.getByRole("button", { name: "Confirm the change" }).click();
  await expect(page.getByText("The change is made.")).toBeVisible();
  await page.getByRole("link", { name: "Go to your security settings" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(settings.getByRole("switch", { name: "Confirm sign-ins from new addresses" })).not.toBeChecked();
  await expect(page.getByTestId("pending-lock_on_new_ip")).toHaveCount(0);

  // A weakening can also be dropped from the page: it never applies, and its link dies with it.
  const mailOnSignIn = settings.getByRole("switch", { name: "E-mail me on every sign-in" });
  await mailOnSignIn.click();
  await expect(settings.getByRole("status")).toHaveText("Saved.");
  await expect(mailOnSignIn).toBeChecked();
  await mailOnSignIn.click();
  await expect(page.getByTestId("pending-email_on_login")).toBeVisible();
  const dropped = await mailedLink(request, email, "/confirm-security-change?token=");
  await page.getByTestId("pending-email_on_login").getByRole("button", { name: "Cancel change" }).click();
  await expect(settings.getByRole("status")).toHaveText("The change was cancelled.");
  await expect(page.getByTestId("pending-email_on_login")).toHaveCount(0);
  await expect(mailOnSignIn).toBeChecked();
  const [, deadLink] = await fromPhone(`${API}/v2/int/security/change/check`, {
    token: new URL(dropped, API).searchParams.get("token"),
  });
  expect(deadLink).toEqual(["error", 10020, "token: invalid"]);

  // The address lock: checked in the page by the exchange's rules before anything is sent.
  const list = settings.getByLabel("Allowed addresses (IPv4 or IPv6), one per line");
  await expect(list).toHaveValue("127.0.0.1");
  await list.fill("127.0.0.1\n300.1.2.3");
  await settings.getByRole("button", { name: "Turn the lock on" }).click();
  await expect(settings).toContainText('"300.1.2.3" is not an IPv4 or IPv6 address.');
  await expect(settings).toContainText("Off: any address may sign in.");
  await list.fill("127.0.0.1\n::1");
  await settings.getByRole("button", { name: "Turn the lock on" }).click();
  // Turning the lock on names addresses, so it waits for the mailed link: a stolen session could
  // otherwise lock the owner out at once.
  await expect(settings.getByRole("status")).toContainText("We sent you an e-mail.");
  await expect(settings).toContainText("Off: any address may sign in.");
  await expect(page.getByTestId("pending-ip_lock")).toContainText(
    "Waiting for your confirmation by e-mail: the list becomes 127.0.0.1, ::1.",
  );
  await page.goto(await mailedLink(request, email, "/confirm-security-change?token="));
  await expect(page.getByTestId("confirm-security-change")).toContainText("Sign-in address lock");
  await page.getByRole("button", { name: "Confirm the change" }).click();
  await expect(page.getByText("The change is made.")).toBeVisible();
  await page.getByRole("link", { name: "Go to your security settings" }).click();
  await expect(page).toHaveURL(/\/security$/);
  await expect(settings).toContainText("On: only these addresses may sign in or use a session: 127.0.0.1, ::1");
  await expect(page.getByTestId("pending-ip_lock")).toHaveCount(0);
  // The phone's address is not on the list: its sign-in is refused.
  expect((await fromPhone(`${API}/v2/login`, { login: username, password: PASSWORD }))[1]).toEqual([
    "error",
    10100,
    "ip: address not allowed",
  ]);

  // The link worked once: opened again, it lands on the page that says why it does not work.
  await page.goto(changeLink);
  await expect(page).toHaveURL(/\/invalid-token\?kind=security$/);
  await expect(page.getByRole("heading", { name: "This link does not work" })).toBeVisible();
});
