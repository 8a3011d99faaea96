/**
 * Sign-up over HTTP against SQLite (signup.ts): every rule of docs/product-rules.md#sign-up-and-password-reset
 * refused with its field and nothing written, what a sign-up stores, the confirmation link (once,
 * until it expires), the resend's cooldown and its one answer for every address, and the captcha
 * after SIGNUPS_BEFORE_CAPTCHA sign-ups from one address.
 */
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";
import { describe, expect, it, onTestFinished } from "vitest";
import { AltchaCaptcha, encodeCaptchaToken } from "./captcha.ts";
import { openVenue } from "./exchange/venue.ts";
import { PasswordReset } from "./password-reset.ts";
import { Signup, SIGNUPS_BEFORE_CAPTCHA } from "./signup.ts";
import { listenApi, mailsTo, postJson } from "./test-support/api.ts";
import { testApi } from "./test-support/session.ts";

let clock = Date.now();
const now = (): number => clock;
const venue = openVenue({ dbPath: ":memory:", seed: 3, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const captcha = new AltchaCaptcha(now);

const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  now,
  opening: {
    // The captcha has its own host below: here the rules are tried without it.
    signup: new Signup(venue.gateway, now, captcha, { captchaAfter: 1000 }),
    reset: new PasswordReset(venue.gateway.accounts, now),
  },
});

const { post } = api;
const form = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  email: "zoe@example.com",
  username: "zoe",
  password: "Tr4ding-desk!",
  country: "DE",
  tosVersion: "1.0",
  prohibitedPerson: false,
  newsletter: true,
  ...over,
});
const users = (): number => (venue.db.prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
const refusal = (msg: string): [number, unknown] => [400, ["error", 10020, msg]];

describe("sign-up", () => {
  it("refuses every broken rule with its field, and writes nothing", async () => {
    const before = users();
    const outbox = (await (await fetch(`${api.base}/dev/outbox`)).json()) as unknown[];
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "zoe@example" }, "email: invalid"],
      [{ email: `${"a".repeat(250)}@example.com` }, "email: invalid"],
      [{ email: 42 }, "email: invalid"],
      [{ username: "zo" }, "username: invalid"],
      [{ username: "zoe smith" }, "username: invalid"],
      [{ username: "z".repeat(33) }, "username: invalid"],
      [{ password: "Short-1" }, "password: weak (length)"],
      [{ password: "1234567890!" }, "password: weak (letter)"],
      [{ password: "onlyletterslong" }, "password: weak (digit-or-symbol)"],
      [{ password: "my-zoe-password-1" }, "password: weak (not-identity)"],
      [{ password: `A1${"x".repeat(127)}` }, "password: weak (max-length)"],
      [{ country: "" }, "country: invalid"],
      [{ country: "USA" }, "country: invalid"],
      [{ country: "us" }, "country: prohibited"],
      [{ prohibitedPerson: true }, "prohibited: not eligible"],
      [{ prohibitedPerson: undefined }, "prohibited: not eligible"],
      [{ tosVersion: "" }, "terms: not accepted"],
      [{ tosVersion: "0.9" }, "terms: outdated, read them again"],
    ];
    for (const [over, msg] of cases) expect(await post("/v2/signup", form(over)), msg).toEqual(refusal(msg));
    const raw = await fetch(`${api.base}/v2/signup`, { method: "POST", body: "{not json" });
    expect(raw.status).toBe(400);
    expect(users()).toBe(before);
    expect(((await (await fetch(`${api.base}/dev/outbox`)).json()) as unknown[]).length).toBe(outbox.length);
  });

  it("opens the account with its country, terms, newsletter choice, paper balances and one confirmation mail", async () => {
    const [status, body] = await post("/v2/signup", form({ email: " Zoe@Example.com ", username: " zoe " }));
    expect(status).toBe(200);
    const id = (body as number[])[0];
    const row = venue.db
      .prepare("SELECT email, username, country, newsletter, tos_version, email_verified FROM users WHERE id = ?")
      .get(id);
    expect(row).toEqual({
      email: "zoe@example.com",
      username: "zoe",
      country: "DE",
      newsletter: 1,
      tos_version: "1.0",
      email_verified: 0,
    });
    const wallets = venue.db
      .prepare("SELECT currency, balance FROM wallets WHERE user_id = ? ORDER BY currency")
      .all(id) as { currency: string; balance: number }[];
    expect(wallets.map((w) => w.currency)).toEqual(["BTC", "TESTBTC", "TESTUSD", "USD"]);
    const mails = await mailsTo(api.base, "zoe@example.com");
    expect(mails.map((m) => m.subject)).toEqual(["Confirm your e-mail"]);
    expect(mails[0]?.body).toMatch(/\/confirm-signup\?hash=[0-9a-f]{40}/);
    // Taken, whatever the case of the address; a taken username too.
    expect(await post("/v2/signup", form({ email: "ZOE@example.com", username: "zoe2" }))).toEqual(
      refusal("email: taken"),
    );
    expect(await post("/v2/signup", form({ email: "zoe2@example.com" }))).toEqual(refusal("username: taken"));
    expect(await post("/v2/login", { login: "zoe", password: "Tr4ding-desk!" })).toEqual([
      400,
      ["error", 10100, "email: not verified"],
    ]);
  });

  it("confirms with the mailed link once; a used, unknown or expired link is refused", async () => {
    const hash = /hash=([0-9a-f]{40})/.exec((await mailsTo(api.base, "zoe@example.com"))[0]?.body ?? "")?.[1];
    expect(hash).toBeDefined();
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: "nope" })).toEqual(
      refusal("emailVerifyHash: invalid"),
    );
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: hash })).toEqual([200, [1]]);
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: hash })).toEqual(
      refusal("emailVerifyHash: invalid"),
    );
    const [s] = await post("/v2/login", { login: "zoe", password: "Tr4ding-desk!" });
    expect(s).toBe(200);

    expect((await post("/v2/signup", form({ email: "late@example.com", username: "late" })))[0]).toBe(200);
    const late = /hash=([0-9a-f]{40})/.exec((await mailsTo(api.base, "late@example.com"))[0]?.body ?? "")?.[1];
    clock += 24 * 3_600_000 + 1;
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: late })).toEqual(
      refusal("emailVerifyHash: invalid"),
    );
  });

  it("resends only to an unconfirmed account, once a minute, with one answer for every address", async () => {
    const mails = async (to: string): Promise<number> => (await mailsTo(api.base, to)).length;
    const before = await mails("late@example.com");
    for (const email of ["late@example.com", "nobody@example.com", "zoe@example.com", "late", ""])
      expect(await post("/v2/int/user/email/confirm/resend", { email })).toEqual([200, [1]]);
    expect(await mails("late@example.com")).toBe(before + 1);
    expect(await mails("zoe@example.com")).toBe(1);
    // Within the cooldown: the same answer, no mail.
    clock += 30_000;
    expect(await post("/v2/int/user/email/confirm/resend", { email: "LATE@example.com" })).toEqual([200, [1]]);
    expect(await mails("late@example.com")).toBe(before + 1);
    clock += 30_000;
    expect(await post("/v2/int/user/email/confirm/resend", { email: "late@example.com" })).toEqual([200, [1]]);
    expect(await mails("late@example.com")).toBe(before + 2);
    // The newest link works, and so does the one before it (both within their day).
    const links = (await mailsTo(api.base, "late@example.com")).map((m) => /hash=([0-9a-f]{40})/.exec(m.body)?.[1]);
    expect(await post("/v2/int/user/email/confirm", { emailVerifyHash: links[0] })).toEqual([200, [1]]);
  });

  it("asks for the captcha after the sign-ups one address may make, and takes a solution once", async () => {
    const own = await listenApi({ exchange: venue.exchange, account: venue.gateway, now });
    const post = (path: string, body: unknown): Promise<[number, unknown]> =>
      postJson(`http://${own.host}${path}`, body);
    onTestFinished(() => own.api.close());
    expect(await post("/v2/int/captcha/required", { method: "signup" })).toEqual([200, [false]]);
    // Two sign-ups and a try at a taken address: the default allowance.
    expect(SIGNUPS_BEFORE_CAPTCHA).toBe(3);
    expect((await post("/v2/signup", form({ email: "ida@example.com", username: "ida" })))[0]).toBe(200);
    expect((await post("/v2/signup", form({ email: "ivy@example.com", username: "ivy" })))[0]).toBe(200);
    expect(await post("/v2/signup", form({ email: "ivy@example.com", username: "ivy2" }))).toEqual(
      refusal("email: taken"),
    );
    expect(await post("/v2/int/captcha/required", { method: "signup" })).toEqual([200, [true]]);
    expect(await post("/v2/signup", form({ email: "kim@example.com", username: "kim" }))).toEqual(
      refusal("captcha: required"),
    );
    const challenge = (await (await fetch(`http://${own.host}/v2/int/captcha/altcha/challenge`)).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const captchaToken = encodeCaptchaToken({
      challenge: { parameters: challenge.parameters, signature: challenge.signature ?? "" },
      solution: solution!,
    });
    expect(
      await post("/v2/signup", form({ email: "kim@example.com", username: "kim", captchaToken, captchaProvider: "x" })),
    ).toEqual(refusal("captcha: invalid"));
    const ok = await post(
      "/v2/signup",
      form({ email: "kim@example.com", username: "kim", captchaToken, captchaProvider: "altcha" }),
    );
    expect(ok[0]).toBe(200);
    expect(
      await post(
        "/v2/signup",
        form({ email: "lee@example.com", username: "lee", captchaToken, captchaProvider: "altcha" }),
      ),
    ).toEqual(refusal("captcha: invalid"));
    // An hour later the address starts afresh.
    clock += 3_600_001;
    expect(await post("/v2/int/captcha/required", { method: "signup" })).toEqual([200, [false]]);
    // The login's own question is still the identity's.
    expect(await post("/v2/int/captcha/required", { method: "login", login: "kim" })).toEqual([200, [false]]);
  });
});
