/**
 * The second factor over HTTP and SQLite: a session token alone cannot turn it on, replace it or
 * turn it off (the current code, or the password plus a mailed code, is needed), the owner is told
 * by mail, and a code is good once for everything (sign-in, key creation, security changes).
 */
import { describe, expect, it } from "vitest";
import { mailsTo } from "./test-support/api.ts";
import { testApi } from "./test-support/session.ts";
import { openVenue } from "./exchange/venue.ts";
import { totp } from "./store/totp.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 5, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });

const api = testApi({ exchange: venue.exchange, account: venue.gateway });

const { post } = api;

const mails = (to: string) => mailsTo(api.base, to);
const codeIn = (mail: { body: string } | undefined): string => /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1] ?? "";

let n = 0;
/** A fresh, verified account and a session token for it. */
async function account(): Promise<{ email: string; token: string; id: number }> {
  n += 1;
  const email = `tfa${n}@example.com`;
  const id = venue.accounts.createUser(email, `tfa${n}`, "long-enough-pw", Date.now(), true);
  const [, t] = await post("/v2/login", { login: `tfa${n}`, password: "long-enough-pw" });
  return { email, token: (t as string[])[0] as string, id };
}

const tfaSecret = (id: number): string | null =>
  (venue.accounts.db.prepare("SELECT tfa_secret FROM users WHERE id = ?").get(id) as { tfa_secret: string | null })
    .tfa_secret;

/** Turns TOTP on the owner's way (password and mailed code); the secret. */
async function enable(a: { email: string; token: string }, at = Date.now()): Promise<string> {
  const [, c] = await post("/v2/auth/r/int/2fa/challenge", { method: "otp" }, a.token);
  const secret = (c as { secret: string }).secret;
  const emailCode = codeIn((await mails(a.email)).find((m) => m.subject === "Confirm two-factor set-up"));
  const r = await post(
    "/v2/auth/w/int/2fa/register",
    { token: totp(secret, at), password: "long-enough-pw", emailCode },
    a.token,
  );
  expect(r).toEqual([200, [1]]);
  return secret;
}

describe("turning two-factor on", () => {
  it("needs the password and the mailed code, not just a session token", async () => {
    const a = await account();
    const [, c] = await post("/v2/auth/r/int/2fa/challenge", { method: "otp" }, a.token);
    const secret = (c as { secret: string }).secret;
    // The attacker holds the token and an authenticator for the new secret, nothing else.
    expect(await post("/v2/auth/w/int/2fa/register", { token: totp(secret, Date.now()) }, a.token)).toEqual([
      400,
      ["error", 10020, "password: invalid"],
    ]);
    const emailCode = codeIn((await mails(a.email)).at(0));
    expect(
      await post(
        "/v2/auth/w/int/2fa/register",
        {
          token: totp(secret, Date.now()),
          password: "long-enough-pw",
          emailCode: "000000" === emailCode ? "1" : "000000",
        },
        a.token,
      ),
    ).toEqual([400, ["error", 10020, "email code: invalid"]]);
    expect(tfaSecret(a.id)).toBeNull();
    expect(
      await post(
        "/v2/auth/w/int/2fa/register",
        { token: totp(secret, Date.now()), password: "long-enough-pw", emailCode },
        a.token,
      ),
    ).toEqual([200, [1]]);
    expect(tfaSecret(a.id)).toBe(secret);
    expect((await mails(a.email)).map((m) => m.subject)).toContain("Two-factor authentication is on");
  });
});

describe("with two-factor on", () => {
  it("a session token cannot replace the authenticator without its current code", async () => {
    const a = await account();
    const now = Date.now();
    const owner = await enable(a, now - 30_000);
    const [, c] = await post("/v2/auth/r/int/2fa/challenge", { method: "otp" }, a.token);
    expect((c as { confirm: string }).confirm).toBe("otp");
    const attacker = (c as { secret: string }).secret;
    // No current code, a wrong one, or the password instead: refused, the owner's secret stays.
    for (const extra of [{}, { currentToken: "000000" }, { password: "long-enough-pw" }]) {
      const [status, body] = await post(
        "/v2/auth/w/int/2fa/register",
        { token: totp(attacker, now), ...extra },
        a.token,
      );
      expect(status).toBe(400);
      expect(body).toEqual(["error", 10020, "otp: current code required"]);
    }
    expect(tfaSecret(a.id)).toBe(owner);
    // The owner, holding the current code, can move to a new authenticator; the mail says so.
    const [, c2] = await post("/v2/auth/r/int/2fa/challenge", { method: "otp" }, a.token);
    const next = (c2 as { secret: string }).secret;
    expect(
      await post("/v2/auth/w/int/2fa/register", { token: totp(next, now), currentToken: totp(owner, now) }, a.token),
    ).toEqual([200, [1]]);
    expect(tfaSecret(a.id)).toBe(next);
    expect((await mails(a.email)).map((m) => m.subject)).toContain("Your two-factor authenticator was changed");
  });

  it("turning it off needs the current code and mails the owner", async () => {
    const a = await account();
    const secret = await enable(a, Date.now() - 30_000);
    expect(await post("/v2/auth/w/int/2fa/disable", {}, a.token)).toEqual([
      400,
      ["error", 10020, "otp: current code required"],
    ]);
    expect(tfaSecret(a.id)).toBe(secret);
    expect(await post("/v2/auth/w/int/2fa/disable", { currentToken: totp(secret, Date.now()) }, a.token)).toEqual([
      200,
      [1],
    ]);
    expect(tfaSecret(a.id)).toBeNull();
    expect((await mails(a.email)).map((m) => m.subject)).toContain("Two-factor authentication is off");
  });

  it("a code that signed the owner in does not also approve an API key", async () => {
    const a = await account();
    const secret = await enable(a, Date.now() - 30_000);
    const code = totp(secret, Date.now());
    const [, step] = await post("/v2/login", { login: `tfa${n}`, password: "long-enough-pw" });
    const [, signedIn] = await post("/v2/login/verify", {
      tempToken: (step as { tempToken: string }).tempToken,
      otp: code,
    });
    const token = (signedIn as string[])[0] as string;
    const [, pending] = await post(
      "/v2/auth/w/api/key/generate",
      { label: "bot", permissions: { orders: { read: 1, write: 0 } } },
      token,
    );
    expect(pending).toMatchObject({ method: "otp" });
    const id = (pending as { id: string }).id;
    const [refused, body] = await post("/v2/auth/w/api/key/verify", { id, code }, token);
    expect(refused).not.toBe(200);
    expect(body).toEqual(["error", 10001, "code: invalid"]);
    const [status] = await post("/v2/auth/w/api/key/verify", { id, code: totp(secret, Date.now() + 30_000) }, token);
    expect(status).toBe(200);
  });
});
