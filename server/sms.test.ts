/**
 * SMS as a second factor over HTTP and SQLite: a number is checked and stored as E.164, a texted
 * code (read from the development SMS outbox) turns it on with the password, codes expire, are
 * good once and take a few wrong tries, texts wait between them, turning it off needs the password
 * and a texted code, each change mails the owner, and an account with SMS signs in with a code.
 */
import { describe, expect, it } from "vitest";
import { SMS_CODE_TTL_MS, SMS_MAX_FAILURES, SMS_MAX_TRIES, SMS_RESEND_MS } from "../src/protocol/index.ts";
import { openVenue } from "./exchange/venue.ts";
import { mailsTo } from "./test-support/api.ts";
import { testApi } from "./test-support/session.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 7, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let clock = Date.now();

const api = testApi({ exchange: venue.exchange, account: venue.gateway, now: () => clock });

const { post } = api;

interface Text {
  readonly recipient: string;
  readonly body: string;
}
const texts = async (to: string): Promise<Text[]> =>
  (await (await fetch(`${api.base}/dev/sms?to=${encodeURIComponent(to)}`)).json()) as Text[];
const lastCode = async (to: string): Promise<string> => /\b(\d{6})\b/.exec((await texts(to))[0]?.body ?? "")?.[1] ?? "";

let n = 0;
async function account(): Promise<{ email: string; login: string; token: string; id: number; phone: string }> {
  n += 1;
  const email = `sms${n}@example.com`;
  const id = venue.accounts.createUser(email, `sms${n}`, "long-enough-pw", clock, true);
  const [, t] = await post("/v2/login", { login: `sms${n}`, password: "long-enough-pw" });
  // A UK mobile number per account: 07911 12345n.
  return { email, login: `sms${n}`, token: (t as string[])[0] as string, id, phone: `+4479111234${10 + n}` };
}

const factors = (id: number): unknown =>
  venue.accounts.db.prepare("SELECT phone FROM sms_factors WHERE user_id = ?").get(id);

/** Turns SMS on for `a` the owner's way; the code it used. */
async function enable(a: { token: string; phone: string }): Promise<void> {
  clock += SMS_RESEND_MS;
  expect((await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token))[0]).toBe(200);
  const code = await lastCode(a.phone);
  expect(await post("/v2/auth/w/int/2fa/sms/enable", { code, password: "long-enough-pw" }, a.token)).toEqual([
    200,
    [1],
  ]);
}

describe("turning SMS on", () => {
  it("reads the number by its country's rules and stores it as E.164", async () => {
    const a = await account();
    for (const bad of ["12", "+44 12", "not a number", "+1 555 0100", "0791112345"])
      expect(await post("/v2/auth/w/int/2fa/sms/send", { phone: bad, country: "GB" }, a.token)).toEqual([
        400,
        ["error", 10020, "phone: invalid"],
      ]);
    expect(await texts("+447911123456")).toEqual([]);
    // A national number with its country, spaces and all.
    const [status, sent] = await post("/v2/auth/w/int/2fa/sms/send", { phone: "07911 123456", country: "GB" }, a.token);
    expect(status).toBe(200);
    expect(sent).toEqual(["+44 ••• 3456", clock + SMS_CODE_TTL_MS, clock + SMS_RESEND_MS]);
    expect((await texts("+447911123456"))[0]?.recipient).toBe("+447911123456");
    const [, state] = await post("/v2/auth/r/int/2fa/sms", {}, a.token);
    expect(state).toEqual([null, 0, "+44 ••• 3456", clock + SMS_CODE_TTL_MS, clock + SMS_RESEND_MS, 0]);
  });

  it("needs the texted code and the password; a code is good once and expires", async () => {
    const a = await account();
    clock += SMS_RESEND_MS;
    await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token);
    const code = await lastCode(a.phone);
    expect(await post("/v2/auth/w/int/2fa/sms/enable", { code }, a.token)).toEqual([
      400,
      ["error", 10020, "password: invalid"],
    ]);
    const wrong = code === "000000" ? "111111" : "000000";
    expect(await post("/v2/auth/w/int/2fa/sms/enable", { code: wrong, password: "long-enough-pw" }, a.token)).toEqual([
      400,
      ["error", 10020, "sms: code invalid"],
    ]);
    expect(factors(a.id)).toBeUndefined();
    // Expired: five minutes later the right code is refused.
    clock += SMS_CODE_TTL_MS;
    expect(await post("/v2/auth/w/int/2fa/sms/enable", { code, password: "long-enough-pw" }, a.token)).toEqual([
      400,
      ["error", 10020, "sms: code expired, ask for a new one"],
    ]);
    await enable(a);
    expect(factors(a.id)).toEqual({ phone: a.phone });
    const [, info] = await post("/v2/auth/r/int/security", {}, a.token);
    expect((info as { factors: string[] }).factors).toEqual(["sms"]);
    const mail = (await mailsTo(api.base, a.email))[0];
    expect(mail?.subject).toBe("SMS sign-in codes are on");
    expect(mail?.body).toContain("+44 ••• ");
  });

  it("waits between texts and drops a code after a few wrong tries", async () => {
    const a = await account();
    clock += SMS_RESEND_MS;
    expect((await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token))[0]).toBe(200);
    expect(await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token)).toEqual([
      400,
      ["error", 10020, "sms: wait before asking for another code"],
    ]);
    expect(await texts(a.phone)).toHaveLength(1);
    const code = await lastCode(a.phone);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < SMS_MAX_TRIES; i++)
      await post("/v2/auth/w/int/2fa/sms/enable", { code: wrong, password: "long-enough-pw" }, a.token);
    expect(await post("/v2/auth/w/int/2fa/sms/enable", { code, password: "long-enough-pw" }, a.token)).toEqual([
      400,
      ["error", 10020, "sms: code expired, ask for a new one"],
    ]);
    expect(factors(a.id)).toBeUndefined();
  });

  it("refuses every code once the account has had too many wrong ones", async () => {
    const a = await account();
    let code = "";
    for (let i = 0; i < SMS_MAX_FAILURES; i++) {
      if (i % (SMS_MAX_TRIES - 1) === 0) {
        clock += SMS_RESEND_MS;
        expect((await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token))[0]).toBe(200);
        code = await lastCode(a.phone);
      }
      await post(
        "/v2/auth/w/int/2fa/sms/enable",
        { code: code === "000000" ? "111111" : "000000", password: "long-enough-pw" },
        a.token,
      );
    }
    clock += SMS_RESEND_MS;
    await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token);
    expect(
      await post(
        "/v2/auth/w/int/2fa/sms/enable",
        { code: await lastCode(a.phone), password: "long-enough-pw" },
        a.token,
      ),
    ).toEqual([400, ["error", 10020, "sms: too many attempts, try again later"]]);
    expect(factors(a.id)).toBeUndefined();
    // Ten minutes on, the window has passed (the session's token has too: sign in again).
    clock += 10 * 60_000;
    const [, t] = await post("/v2/login", { login: a.login, password: "long-enough-pw" });
    await enable({ token: (t as string[])[0] as string, phone: a.phone });
  });

  it("sends at most five texts an hour to one account", async () => {
    const a = await account();
    for (let i = 0; i < 5; i++) {
      clock += SMS_RESEND_MS;
      expect((await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token))[0]).toBe(200);
    }
    clock += SMS_RESEND_MS;
    expect(await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token)).toEqual([
      400,
      ["error", 10020, "sms: too many messages, try again later"],
    ]);
  });

  it("needs a mailed code too when the account's only second factor is a hardware key", async () => {
    const a = await account();
    venue.accounts.db
      .prepare(
        "INSERT INTO webauthn_keys (id, user_id, name, public_key, counter, transports, rp_id, created_at) VALUES (?, ?, ?, ?, 0, '[]', 'localhost', ?)",
      )
      .run(`key-${a.id}`, a.id, "Key", Buffer.from([1]), clock);
    const state = async (): Promise<unknown[]> => (await post("/v2/auth/r/int/2fa/sms", {}, a.token))[1] as unknown[];
    expect((await state())[5]).toBe(1);
    clock += SMS_RESEND_MS;
    expect((await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, a.token))[0]).toBe(200);
    const code = await lastCode(a.phone);
    const mail = (await mailsTo(api.base, a.email)).find((m) => m.subject === "Your code to turn on SMS sign-in");
    const mailed = /code (\d{6})/.exec(mail?.body ?? "")?.[1] ?? "";
    expect(mailed).toMatch(/^\d{6}$/);
    // A session and the password alone (what a thief may hold) do not add a phone beside the key.
    const enable = (extra: Record<string, unknown>) =>
      post("/v2/auth/w/int/2fa/sms/enable", { code, password: "long-enough-pw", ...extra }, a.token);
    expect(await enable({})).toEqual([400, ["error", 10020, "email code: invalid"]]);
    expect(await enable({ emailCode: mailed === "000000" ? "111111" : "000000" })).toEqual([
      400,
      ["error", 10020, "email code: invalid"],
    ]);
    expect(factors(a.id)).toBeUndefined();
    // The texted code was not spent by those refusals; with both codes it turns on.
    expect(await enable({ emailCode: mailed })).toEqual([200, [1]]);
    expect(factors(a.id)).toEqual({ phone: a.phone });
    expect((await state())[5]).toBe(0);
  });

  it("is a session's call only: an API-key-limited token is refused", async () => {
    const a = await account();
    const [, limited] = await post("/v2/auth/w/token", { scope: "api", caps: ["o"], writePermission: true }, a.token);
    const [status, body] = await post("/v2/auth/w/int/2fa/sms/send", { phone: a.phone }, (limited as string[])[0]);
    expect(status).toBe(500);
    expect(body).toEqual(["error", 10100, "security: a session token is required"]);
  });
});

describe("signing in and turning SMS off", () => {
  it("signs in with a texted code, once", async () => {
    const a = await account();
    await enable(a);
    const [, login] = await post("/v2/login", { login: a.login, password: "long-enough-pw" });
    expect(login).toMatchObject({ tfa: "sms", tfaTypes: ["sms"] });
    const tempToken = (login as { tempToken: string }).tempToken;
    clock += SMS_RESEND_MS;
    const [status, sent] = await post("/v2/login/sms", { tempToken, method: "sms" });
    expect(status).toBe(200);
    expect((sent as unknown[])[0]).toBe("+44 ••• " + a.phone.slice(-4));
    const code = await lastCode(a.phone);
    expect(
      await post("/v2/login/verify", { tempToken, method: "sms", otp: code === "000000" ? "1" : "000000" }),
    ).toEqual([400, ["error", 10100, "sms: code invalid"]]);
    // The sign-in history tells a wrong texted code from a wrong authenticator code.
    expect(
      venue.accounts.db
        .prepare("SELECT outcome FROM login_history WHERE user_id = ? ORDER BY id DESC LIMIT 1")
        .get(a.id),
    ).toEqual({ outcome: "sms" });
    const [ok, token] = await post("/v2/login/verify", { tempToken, method: "sms", otp: code });
    expect(ok).toBe(200);
    expect(typeof (token as string[])[0]).toBe("string");
    // The same code again, on a new sign-in: spent.
    const [, again] = await post("/v2/login", { login: a.login, password: "long-enough-pw" });
    expect(
      await post("/v2/login/verify", {
        tempToken: (again as { tempToken: string }).tempToken,
        method: "sms",
        otp: code,
      }),
    ).toEqual([400, ["error", 10100, "sms: code expired, ask for a new one"]]);
  });

  it("turns off with the password and a texted code, and mails the owner", async () => {
    const a = await account();
    await enable(a);
    clock += SMS_RESEND_MS;
    expect((await post("/v2/auth/w/int/2fa/sms/disable/send", {}, a.token))[0]).toBe(200);
    const code = await lastCode(a.phone);
    expect(await post("/v2/auth/w/int/2fa/sms/disable", { code, password: "wrong-password" }, a.token)).toEqual([
      400,
      ["error", 10020, "password: invalid"],
    ]);
    expect(
      await post(
        "/v2/auth/w/int/2fa/sms/disable",
        { code: code === "000000" ? "111111" : "000000", password: "long-enough-pw" },
        a.token,
      ),
    ).toEqual([400, ["error", 10020, "sms: code invalid"]]);
    expect(factors(a.id)).toBeDefined();
    expect(await post("/v2/auth/w/int/2fa/sms/disable", { code, password: "long-enough-pw" }, a.token)).toEqual([
      200,
      [1],
    ]);
    expect(factors(a.id)).toBeUndefined();
    expect((await mailsTo(api.base, a.email))[0]?.subject).toBe("SMS sign-in codes are off");
    const [, login] = await post("/v2/login", { login: a.login, password: "long-enough-pw" });
    expect(Array.isArray(login)).toBe(true);
  });
});
