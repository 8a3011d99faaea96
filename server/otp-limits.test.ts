/**
 * `/v2/login/verify` over HTTP: a one-time code is exactly six digits, and an account takes
 * MAX_OTP_FAILURES wrong codes within the window over all its temporary tokens — logging in again
 * for a fresh one buys no more guesses — after which every code is refused, a right one too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "./api-server.ts";
import { listenApi } from "./test-support/api.ts";
import { openVenue } from "./exchange/venue.ts";
import { MAX_OTP_FAILURES, MAX_OTP_TRIES } from "./identity.ts";
import { newTotpSecret, totp } from "./store/totp.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 8, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let api: ApiServer;
let host = "";
beforeAll(async () => {
  // The per-address login limit is not what is tested here.
  ({ api, host } = await listenApi({
    exchange: venue.exchange,
    account: venue.gateway,
    limits: { public: 1000, auth: 1000, login: 1000 },
  }));
});
afterAll(() => api.close());

async function post(path: string, body: unknown): Promise<[number, unknown]> {
  const res = await fetch(`http://${host}${path}`, { method: "POST", body: JSON.stringify(body) });
  return [res.status, await res.json()];
}

/** A user with TOTP on; `temp()` logs in with the password for a temporary token. */
function tfaUser(name: string): { secret: string; temp: () => Promise<string> } {
  const secret = newTotpSecret();
  const id = venue.accounts.createUser(`${name}@example.com`, name, `${name}-password-1`, Date.now(), true);
  venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, id);
  return {
    secret,
    temp: async () =>
      ((await post("/v2/login", { login: name, password: `${name}-password-1` }))[1] as { tempToken: string })
        .tempToken,
  };
}

const INVALID = [400, ["error", 10100, "otp: invalid"]];
const wrong = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

describe("/v2/login/verify", () => {
  it("takes exactly six digits: a valid code with more after it is no code", async () => {
    const u = tfaUser("sixdigits");
    const t = await u.temp();
    const code = totp(u.secret, Date.now());
    for (const otp of [`${code}9`, `${code} `, ` ${code}`, `+${code}`, code.slice(1)])
      expect([otp, await post("/v2/login/verify", { tempToken: t, otp })]).toEqual([otp, INVALID]);
    expect((await post("/v2/login/verify", { tempToken: await u.temp(), otp: code }))[0]).toBe(200);
  });

  it(`refuses every code for an account after ${MAX_OTP_FAILURES} wrong ones over fresh temporary tokens`, async () => {
    const u = tfaUser("guessed");
    const code = totp(u.secret, Date.now());
    let t = await u.temp();
    for (let i = 0; i < MAX_OTP_FAILURES; i++) {
      if (i % MAX_OTP_TRIES === 0) t = await u.temp();
      expect(await post("/v2/login/verify", { tempToken: t, otp: wrong(code) })).toEqual(INVALID);
    }
    expect(await post("/v2/login/verify", { tempToken: await u.temp(), otp: code })).toEqual([
      400,
      ["error", 10100, "otp: too many attempts, try again later"],
    ]);
    // Another account is not locked with it.
    const other = tfaUser("bystander");
    expect(
      (await post("/v2/login/verify", { tempToken: await other.temp(), otp: totp(other.secret, Date.now()) }))[0],
    ).toBe(200);
  });
});
