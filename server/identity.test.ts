/**
 * Identity over HTTP: sign-up with the outbox and e-mail confirmation, the proof-of-work captcha
 * after repeated failed logins (captcha.test.ts has its refusals), TOTP two-factor set-up and login, settings, logout feedback.
 */
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCaptchaToken } from "./captcha.ts";
import { listenApi, mailedCode, postJson } from "./test-support/api.ts";
import type { ApiServer } from "./api-server.ts";
import { totp } from "./store/totp.ts";
import { openVenue } from "./exchange/venue.ts";

const { exchange, db, gateway } = openVenue({
  dbPath: ":memory:",
  seed: 2,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
let api: ApiServer;
let base = "";

beforeAll(async () => {
  const started = await listenApi({ exchange, account: gateway });
  api = started.api;
  base = `http://${started.host}`;
});
afterAll(() => api.close());

const post = (path: string, body: unknown, token?: string): Promise<[number, unknown]> =>
  postJson(base + path, body, token);
/** What the sign-up form sends besides the three credentials (signup.test.ts has its rules). */
const FORM = { country: "GB", tosVersion: "1.0", prohibitedPerson: false, newsletter: false };

describe("identity", () => {
  it("signs up, confirms the e-mail from the outbox, then logs in", async () => {
    expect(await post("/v2/signup", { ...FORM, email: "nope", username: "ann", password: "long-enough-pw" })).toEqual([
      400,
      ["error", 10020, "email: invalid"],
    ]);
    expect(await post("/v2/signup", { ...FORM, email: "ann@example.com", username: "ann", password: "short" })).toEqual(
      [400, ["error", 10020, "password: weak (length, digit-or-symbol)"]],
    );
    const [status] = await post("/v2/signup", {
      ...FORM,
      email: "ann@example.com",
      username: "ann",
      password: "long-enough-pw",
    });
    expect(status).toBe(200);
    expect(
      await post("/v2/signup", { ...FORM, email: "ann@example.com", username: "ann2", password: "long-enough-pw" }),
    ).toEqual([400, ["error", 10020, "email: taken"]]);
    expect(await post("/v2/login", { login: "ann", password: "long-enough-pw" })).toEqual([
      400,
      ["error", 10100, "email: not verified"],
    ]);
    const outbox = (await (await fetch(`${base}/dev/outbox`)).json()) as { recipient: string; body: string }[];
    const mail = outbox.find((m) => m.recipient === "ann@example.com");
    const hash = /code: ([0-9a-f]{40})/.exec(mail?.body ?? "")?.[1];
    expect(hash).toBeDefined();
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: hash })).toEqual([200, [1]]);
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: hash })).toEqual([
      400,
      ["error", 10020, "emailVerifyHash: invalid"],
    ]);
    const [s2, token] = await post("/v2/login", { login: "ann@example.com", password: "long-enough-pw" });
    expect(s2).toBe(200);
    expect(typeof (token as string[])[0]).toBe("string");
  });

  it("asks for the proof-of-work captcha after three failed logins", async () => {
    for (let i = 0; i < 3; i++) expect((await post("/v2/login", { login: "ann", password: "wrong" }))[0]).toBe(400);
    expect(await post("/v2/int/captcha/required", { method: "login", login: "ann" })).toEqual([200, [true]]);
    expect(await post("/v2/login", { login: "ann", password: "long-enough-pw" })).toEqual([
      400,
      ["error", 10020, "captcha: required"],
    ]);
    const challenge = (await (await fetch(`${base}/v2/int/captcha/altcha/challenge`)).json()) as Challenge;
    // The work the login page's browser does: altcha-lib's solver over WebCrypto PBKDF2.
    const solution = await solveChallenge({ challenge, deriveKey });
    expect(solution).not.toBeNull();
    const [status] = await post("/v2/login", {
      login: "ann",
      password: "long-enough-pw",
      captchaToken: encodeCaptchaToken({
        challenge: { parameters: challenge.parameters, signature: challenge.signature ?? "" },
        solution: solution!,
      }),
      captchaProvider: "altcha",
    });
    expect(status).toBe(200);
  });

  it("sets up TOTP and then requires the code at login", async () => {
    const [, t] = await post("/v2/login", { login: "ann", password: "long-enough-pw" });
    const token = (t as string[])[0] as string;
    const [, challenge] = await post("/v2/auth/r/int/2fa/challenge", { method: "otp" }, token);
    const secret = (challenge as { secret: string; otpauth: string }).secret;
    expect((challenge as { otpauth: string }).otpauth).toContain(`secret=${secret}`);
    expect((challenge as { confirm: string }).confirm).toBe("password+email");
    const emailCode = await mailedCode(base, "ann@example.com", "Confirm two-factor set-up");
    const proof = { password: "long-enough-pw", emailCode };
    expect(await post("/v2/auth/w/int/2fa/register", { token: "000000", method: "otp", ...proof }, token)).toEqual([
      400,
      ["error", 10020, "otp: invalid"],
    ]);
    expect(
      await post("/v2/auth/w/int/2fa/register", { token: totp(secret, Date.now()), method: "otp", ...proof }, token),
    ).toEqual([200, [1]]);
    // The code that confirmed the set-up is spent: the sign-in below uses the next step's.
    const [, step] = await post("/v2/login", { login: "ann", password: "long-enough-pw" });
    expect(step).toMatchObject({ tfa: "otp" });
    const tempToken = (step as { tempToken: string }).tempToken;
    expect(await post("/v2/login/verify", { tempToken, otp: "123" })).toEqual([400, ["error", 10100, "otp: invalid"]]);
    const [s, final] = await post("/v2/login/verify", { tempToken, otp: totp(secret, Date.now() + 30_000) });
    expect(s).toBe(200);
    expect(typeof (final as string[])[0]).toBe("string");
  });

  it("stores settings per user and takes logout feedback", async () => {
    db.prepare("UPDATE users SET tfa_secret = NULL").run();
    const [, t] = await post("/v2/login", { login: "ann", password: "long-enough-pw" });
    const token = (t as string[])[0] as string;
    expect(
      await post("/v2/auth/w/settings/set", { settings: { "api:grid": { v: "1.0.0" }, theme: "classic" } }, token),
    ).toEqual([200, [2]]);
    expect(await post("/v2/auth/r/settings", { keys: ["theme", "missing"] }, token)).toEqual([
      200,
      [["theme", "classic"]],
    ]);
    expect(
      await post("/v2/int/contact/feedback", { token, rating: 5, description: "smooth", source: "fe-web-logout" }),
    ).toEqual([200, [1]]);
    const row = db.prepare("SELECT rating, source FROM feedback").get() as { rating: number; source: string };
    expect(row).toEqual({ rating: 5, source: "fe-web-logout" });
  });
});
