/**
 * The account page's compliance calls over real HTTP and SQLite: KYC submission, review and its
 * level; the US-person answer and the gates it closes; freezing from a mail's link (every
 * credential stops) and support lifting it.
 */
import { describe, expect, it } from "vitest";
import { decodeKycRecord, userInfoCodec } from "../src/protocol/index.ts";
import { DEV_HEADER } from "./api-server.ts";
import { openVenue } from "./exchange/venue.ts";
import { mailsTo } from "./test-support/api.ts";
import { demoSession, signedPost } from "./test-support/session.ts";

const SYMBOL = "tBTCUSD";
const EMAIL = "kyc@example.com";
const LOGIN = { username: "kyc_user", password: "kyc-password-1" };
const venue = openVenue({ dbPath: ":memory:", seed: 5, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const userId = venue.accounts.createUser(EMAIL, LOGIN.username, LOGIN.password, Date.now(), true);
venue.accounts.db.prepare("UPDATE users SET verification_level = 1 WHERE id = ?").run(userId);
venue.balances.credit(userId, "USD", 1_000, "Deposit");
const s = demoSession({ exchange: venue.exchange, account: venue.gateway, login: LOGIN });

const dev = async (path: string, body: unknown): Promise<[number, unknown]> => {
  const r = await fetch(`http://${s.host}${path}`, {
    method: "POST",
    headers: { [DEV_HEADER]: "1" },
    body: JSON.stringify(body),
  });
  return [r.status, await r.json()];
};
const kyc = async () =>
  decodeKycRecord((await s.rest("/v2/auth/w/int/compliance", { action: "fetchPublicKycData" })).body);
const info = async () => {
  const d = userInfoCodec.decode((await s.rest("/v2/auth/r/info/user")).body);
  if (!d.ok) throw new Error("user info");
  return d.value;
};

const GOOD = {
  first_name: "Ada",
  last_name: "Lovelace",
  full_corporate_name: "",
  high_net_worth: false,
  resid_appt_nb: "4",
  resid_office_floor: "",
  resid_building_name: "",
  resid_street: "12 St James's Square",
  resid_district: "",
  resid_city: "London",
  resid_state: "",
  resid_country: "GB",
  resid_zipcode: "SW1Y 4JH",
};
const submit = (data: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  s.rest("/v2/auth/w/int/compliance", { action: "submitKyc", kind: "individual", level: 2, data, ...extra });

describe("KYC submission and review", () => {
  it("asks the US-person question first, refuses bad forms whole, then files one under review", async () => {
    expect(await kyc()).toMatchObject({ status: "none", usResident: null });
    expect((await submit(GOOD)).body).toEqual(["error", 10020, "us_resident: answer the US-person question first"]);
    expect((await s.rest("/v1/account_us_resident", { us_resident: "no" })).status).toBe(400);
    expect((await s.rest("/v1/account_us_resident", { us_resident: false })).body).toEqual({ us_resident: false });
    expect((await s.rest("/v1/account_us_resident", {})).body).toEqual({ us_resident: false });

    const missing = await submit({ ...GOOD, last_name: "  " });
    expect(missing).toEqual({ status: 400, body: ["error", 10020, "last_name: required"] });
    expect((await submit({ ...GOOD, resid_country: "Britain" })).body).toEqual([
      "error",
      10020,
      "resid_country: country",
    ]);
    expect((await submit(GOOD, { kind: "corporate" })).body).toEqual(["error", 10020, "full_corporate_name: required"]);
    expect((await submit(GOOD, { level: 1 })).body).toEqual([
      "error",
      10020,
      "level: this account already has level 1",
    ]);
    expect((await submit(GOOD, { level: 7 })).body).toEqual(["error", 10020, "level: level"]);
    // Nothing of the refused forms was kept.
    expect(await kyc()).toMatchObject({ status: "none" });

    const filed = await submit(GOOD);
    expect(filed.status).toBe(200);
    expect(decodeKycRecord(filed.body)).toMatchObject({
      status: "pending",
      kind: "individual",
      level: 2,
      firstName: "Ada",
      lastName: "Lovelace",
      country: "GB",
    });
    // The public record never carries the address.
    expect(JSON.stringify(filed.body)).not.toContain("St James");
    expect(await info()).toMatchObject({ verificationLevel: 1, verificationLevelSubmitted: 2 });
    expect((await submit(GOOD)).body).toEqual(["error", 10020, "kyc: a submission is already under review"]);
    expect((await mailsTo(`http://${s.host}`, EMAIL))[0]?.subject).toBe("Verification submitted");
  });

  it("a rejection says why and allows a corrected submission; an approval raises the level", async () => {
    expect((await dev("/dev/kyc", { login: LOGIN.username, decision: "maybe" }))[0]).toBe(400);
    expect(
      await dev("/dev/kyc", { login: LOGIN.username, decision: "reject", reason: "The document is blurred" }),
    ).toEqual([200, { login: LOGIN.username, status: "rejected" }]);
    expect(await kyc()).toMatchObject({ status: "rejected", reason: "The document is blurred" });
    expect((await mailsTo(`http://${s.host}`, EMAIL))[0]?.body).toContain("The document is blurred");
    expect(await info()).toMatchObject({ verificationLevel: 1, verificationLevelSubmitted: null });
    // Withdrawing is still gated at level 2.
    const refused = await s.rest("/v2/auth/w/withdraw", {
      wallet: "exchange",
      method: "bitcoin",
      amount: "0.01",
      address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
    });
    expect(JSON.stringify(refused.body)).toContain("verification: level 2 needed to withdraw (this account has 1)");

    expect((await submit(GOOD)).status).toBe(200);
    expect((await dev("/dev/kyc", { login: LOGIN.username, decision: "approve" }))[0]).toBe(200);
    expect(await kyc()).toMatchObject({ status: "approved", reason: null });
    expect(await info()).toMatchObject({ verificationLevel: 2, verificationLevelSubmitted: null });
    expect((await dev("/dev/kyc", { login: LOGIN.username, decision: "approve" }))[1]).toEqual([
      "error",
      10020,
      "kyc: nothing under review",
    ]);
  });
});

describe("the US-person answer", () => {
  it("closes deposits, margin and KYC to a US resident and opens them again on a corrected answer", async () => {
    expect((await s.rest("/v1/account_us_resident", { us_resident: true })).body).toEqual({ us_resident: true });
    const deposit = await s.rest("/v2/auth/w/deposit/address", { wallet: "exchange", method: "bitcoin" });
    expect(JSON.stringify(deposit.body)).toContain("compliance: not available to US residents");
    const margin = await s.rest("/v2/auth/w/order/submit", {
      type: "LIMIT",
      symbol: SYMBOL,
      amount: "0.01",
      price: "1000",
    });
    expect(JSON.stringify(margin.body)).toContain("compliance: not available to US residents");
    expect((await submit(GOOD, { level: 3 })).body).toEqual([
      "error",
      10020,
      "compliance: not available to US residents",
    ]);
    await s.rest("/v1/account_us_resident", { us_resident: false });
    const again = await s.rest("/v2/auth/w/deposit/address", { wallet: "exchange", method: "bitcoin" });
    expect(JSON.stringify(again.body)).not.toContain("US residents");
  });
});

describe("freezing an account", () => {
  it("the link in any mail stops every credential at once; support lifts it", async () => {
    const key = venue.accounts.createApiKey(userId, "bot", ["o", "w"], Date.now());
    expect((await signedPost(s.host, key, "/v2/auth/r/wallets"))[0]).toBe(200);
    const { ws, frames } = await s.socket();
    const closed = new Promise<number>((r) => ws.once("close", (code) => r(code)));
    void frames;

    const mail = (await mailsTo(`http://${s.host}`, EMAIL))[0];
    const link = /\/freeze\?code=([0-9a-f]{32})/.exec(mail?.body ?? "");
    expect(link, "every mail to the account carries its freeze link").not.toBeNull();
    const freeze = (code: string) =>
      fetch(`http://${s.host}/v2/int/account/freeze`, { method: "POST", body: JSON.stringify({ code }) });
    expect((await freeze("0".repeat(32))).status).toBe(400);
    expect((await freeze("nonsense")).status).toBe(400);
    expect(await (await freeze(link?.[1] ?? "")).json()).toEqual({ frozen: true });

    expect(await s.rest("/v2/auth/r/wallets")).toEqual({ status: 500, body: ["error", 10100, "token: invalid"] });
    expect(await signedPost(s.host, key, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "account: frozen"]]);
    await closed;
    const login = await fetch(`http://${s.host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: LOGIN.username, password: LOGIN.password }),
    });
    expect(await login.json()).toEqual(["error", 10100, "account: frozen"]);
    // Following the link again changes nothing and says the same.
    expect(await (await freeze(link?.[1] ?? "")).json()).toEqual({ frozen: true });

    expect(await dev("/dev/unfreeze", { login: LOGIN.username })).toEqual([
      200,
      { login: LOGIN.username, unfrozen: true },
    ]);
    expect((await signedPost(s.host, key, "/v2/auth/r/wallets"))[0]).toBe(200);
    const again = await fetch(`http://${s.host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: LOGIN.username, password: LOGIN.password }),
    });
    expect(typeof ((await again.json()) as unknown[])[0]).toBe("string");
  });
});
