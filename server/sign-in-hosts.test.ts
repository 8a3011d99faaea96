/**
 * The exchange host's two API servers (public and authenticated) share one sign-in state: failed
 * logins counted on one require the captcha on the other, a captcha solution is spent on both at
 * once, and a login started on one is verified on the other.
 */
import { solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeCaptchaToken } from "./captcha.ts";
import { startExchangeHost, type ExchangeHost } from "./exchange-host.ts";

let host: ExchangeHost;
beforeAll(async () => {
  host = await startExchangeHost({
    host: "127.0.0.1",
    publicPort: 0,
    authPort: 0,
    appOrigin: "http://127.0.0.1:1",
    dbPath: ":memory:",
    simStepMs: 1000,
    seed: 6,
    geoCountry: "GB",
    log: () => undefined,
  });
});
afterAll(() => host.stop());

async function post(base: string, path: string, body: unknown): Promise<[number, unknown]> {
  const res = await fetch(`http://${base}${path}`, { method: "POST", body: JSON.stringify(body) });
  return [res.status, await res.json()];
}

describe("the two API hosts", () => {
  it("count failed logins together", async () => {
    const [pub, auth] = host.hosts as [string, string];
    expect(pub).not.toBe(auth);
    const login = "nobody-here";
    expect(await post(auth, "/v2/int/captcha/required", { login })).toEqual([200, [false]]);
    for (let i = 0; i < 3; i++)
      expect(await post(pub, "/v2/login", { login, password: "wrong-password" })).toEqual([
        400,
        ["error", 10100, "login: invalid"],
      ]);
    expect(await post(auth, "/v2/int/captcha/required", { login })).toEqual([200, [true]]);
    expect(await post(auth, "/v2/login", { login, password: "wrong-password" })).toEqual([
      400,
      ["error", 10020, "captcha: required"],
    ]);
  });

  it("take a captcha solution signed by either, and only once over both", async () => {
    const [pub, auth] = host.hosts as [string, string];
    const login = "nobody-either";
    for (let i = 0; i < 3; i++) await post(auth, "/v2/login", { login, password: "wrong-password" });
    const challenge = (await (await fetch(`http://${pub}/v2/int/captcha/altcha/challenge`)).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    const captchaToken = encodeCaptchaToken({
      challenge: { parameters: challenge.parameters, signature: challenge.signature ?? "" },
      solution: solution!,
    });
    const attempt = { login, password: "wrong-password", captchaToken, captchaProvider: "altcha" };
    // Signed on the public host, accepted on the authenticated one (the password is still wrong)…
    expect(await post(auth, "/v2/login", attempt)).toEqual([400, ["error", 10100, "login: invalid"]]);
    // …and spent there for both.
    expect(await post(pub, "/v2/login", attempt)).toEqual([400, ["error", 10020, "captcha: invalid"]]);
  });
});
