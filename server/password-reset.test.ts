/**
 * Forgotten password over HTTP against SQLite (password-reset.ts): one answer for every address,
 * a link that works once and expires, the sign-up's password rules, every session signed out,
 * and the limits per address (429) and per account (no more mail, same answer).
 */
import { describe, expect, it } from "vitest";
import { openVenue } from "./exchange/venue.ts";
import { MAILS_PER_ACCOUNT, PasswordReset, REQUESTS_PER_ADDRESS } from "./password-reset.ts";
import { Signup } from "./signup.ts";
import { AltchaCaptcha } from "./captcha.ts";
import { mailsTo } from "./test-support/api.ts";
import { testApi } from "./test-support/session.ts";

let clock = Date.now();
const now = (): number => clock;
const venue = openVenue({ dbPath: ":memory:", seed: 4, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const reset = new PasswordReset(venue.gateway.accounts, now);

const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  now,
  opening: { signup: new Signup(venue.gateway, now, new AltchaCaptcha(now)), reset },
});

const { post } = api;
const refusal = (msg: string): [number, unknown] => [400, ["error", 10020, msg]];
const linkIn = (body: string | undefined): string => /token=([0-9a-f]{64})/.exec(body ?? "")?.[1] ?? "";
/** The newest reset link mailed to `to`. */
const newestLink = async (to: string): Promise<string> =>
  linkIn((await mailsTo(api.base, to)).find((m) => m.subject === "Reset your password")?.body);
/** A fresh limiter window for the next test (the per-address limit is tested on its own). */
const nextWindow = (): void => void (clock += 15 * 60_000 + 1);

venue.accounts.createUser("max@example.com", "max", "Old-password-1", Date.now(), true);
venue.accounts.createUser("eva@example.com", "eva", "Old-password-2", Date.now(), true);

describe("password reset", () => {
  it("answers every address alike and mails only an account's own address", async () => {
    for (const email of ["max@example.com", "MAX@example.com ", "nobody@example.com", "max", 7])
      expect(await post("/v2/int/user/password/reset/request", { email })).toEqual([200, [1]]);
    const mails = (await mailsTo(api.base, "max@example.com")).filter((m) => m.subject === "Reset your password");
    expect(mails).toHaveLength(2);
    expect(mails[0]?.body).toMatch(/\/reset-password\?token=[0-9a-f]{64}/);
    // Only the newest link works: the earlier one was spent by the second request.
    expect(await post("/v2/int/user/password/reset/check", { token: linkIn(mails[1]?.body) })).toEqual(
      refusal("token: invalid"),
    );
    expect(await post("/v2/int/user/password/reset/check", { token: linkIn(mails[0]?.body) })).toEqual([200, [1]]);
    // Only a hash of the token is stored.
    const stored = venue.db.prepare("SELECT token_hash FROM password_resets").all() as { token_hash: string }[];
    expect(stored.map((r) => r.token_hash)).not.toContain(linkIn(mails[0]?.body));
  });

  it("sets a new password by the sign-up's rules, once, and signs every session out", async () => {
    nextWindow();
    const [, t] = await post("/v2/login", { login: "max", password: "Old-password-1" });
    const token = (t as string[])[0] as string;
    expect((await post("/v2/auth/r/info/user", {}, token))[0]).toBe(200);
    const link = await newestLink("max@example.com");
    expect(await post("/v2/int/user/password/reset", { token: link, password: "short" })).toEqual(
      refusal("password: weak (length, digit-or-symbol)"),
    );
    expect(await post("/v2/int/user/password/reset", { token: link, password: "max-is-my-name-1" })).toEqual(
      refusal("password: weak (not-identity)"),
    );
    // A refused password leaves the link usable and the old password in place.
    expect(await post("/v2/int/user/password/reset/check", { token: link })).toEqual([200, [1]]);
    expect(await post("/v2/int/user/password/reset", { token: link, password: "New-password-9" })).toEqual([200, [1]]);
    expect(await post("/v2/int/user/password/reset", { token: link, password: "Other-password-9" })).toEqual(
      refusal("token: invalid"),
    );
    expect((await post("/v2/auth/r/info/user", {}, token))[1]).toEqual(["error", 10100, "token: invalid"]);
    expect((await post("/v2/login", { login: "max", password: "Old-password-1" }))[0]).toBe(400);
    expect((await post("/v2/login", { login: "max", password: "New-password-9" }))[0]).toBe(200);
    const told = (await mailsTo(api.base, "max@example.com")).find((m) => m.subject === "Your password was changed");
    expect(told?.body).toMatch(/signed out/);
  });

  it("refuses a link past its 30 minutes, and garbage", async () => {
    nextWindow();
    expect(await post("/v2/int/user/password/reset/request", { email: "eva@example.com" })).toEqual([200, [1]]);
    const link = await newestLink("eva@example.com");
    clock += 30 * 60_000;
    expect(await post("/v2/int/user/password/reset", { token: link, password: "New-password-9" })).toEqual(
      refusal("token: invalid"),
    );
    for (const token of ["", "zz", 12, null, "0".repeat(64)])
      expect(await post("/v2/int/user/password/reset/check", { token })).toEqual(refusal("token: invalid"));
    expect((await post("/v2/login", { login: "eva", password: "Old-password-2" }))[0]).toBe(200);
  });

  it("mails an account a few links an hour, with the same answer beyond", async () => {
    nextWindow();
    clock += 3_600_000;
    const before = (await mailsTo(api.base, "eva@example.com")).length;
    for (let i = 0; i < MAILS_PER_ACCOUNT + 1; i++)
      expect(await post("/v2/int/user/password/reset/request", { email: "eva@example.com" })).toEqual([200, [1]]);
    expect((await mailsTo(api.base, "eva@example.com")).length).toBe(before + MAILS_PER_ACCOUNT);
  });

  it("limits the requests and token tries of one address (429), whatever the accounts", async () => {
    nextWindow();
    for (let i = 0; i < REQUESTS_PER_ADDRESS; i++)
      expect((await post("/v2/int/user/password/reset/request", { email: `x${i}@example.com` }))[0]).toBe(200);
    const [status] = await post("/v2/int/user/password/reset/request", { email: "max@example.com" });
    expect(status).toBe(429);
    for (let i = 0; i < REQUESTS_PER_ADDRESS * 2; i++)
      expect((await post("/v2/int/user/password/reset/check", { token: "0".repeat(64) }))[0]).toBe(400);
    expect((await post("/v2/int/user/password/reset", { token: "0".repeat(64), password: "x" }))[0]).toBe(429);
  });
});
