/**
 * The login captcha over HTTP: an ALTCHA proof of work. A solution found by doing the work (here
 * with altcha-lib's solver and the WebCrypto key derivation the browser uses) signs in once; what a
 * script can make from the challenge without the work — an "id:answer" token, the key prefix the
 * challenge shows, a challenge of its own signing, tampered parameters — is refused, and so are a
 * reused and an expired solution.
 */
import { createChallenge, solveChallenge, type Challenge } from "altcha-lib";
import { deriveKey as nodeDeriveKey } from "altcha-lib/algorithms/pbkdf2";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";
import { describe, expect, it } from "vitest";
import { AltchaCaptcha, CAPTCHA_COST, CAPTCHA_TTL_MS, encodeCaptchaToken } from "./captcha.ts";
import { testApi } from "./test-support/session.ts";
import { openVenue } from "./exchange/venue.ts";
import { Identity } from "./identity.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 9, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
// The exchange's clock, moved by the expiry test; it starts at the wall clock, which altcha-lib
// checks expiry against too.
let clock = Date.now();
const identity = new Identity(venue.gateway, () => clock);

const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  identity,
  now: () => clock,
  // More logins than a person makes in a minute, all from loopback.
  limits: { public: 1000, auth: 1000, login: 1000 },
});

const { post } = api;

async function challenge(): Promise<Challenge> {
  const res = await fetch(`${api.base}/v2/int/captcha/altcha/challenge`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  return (await res.json()) as Challenge;
}

/** Does the work, as the login page does: altcha-lib's solver with WebCrypto PBKDF2. */
async function solved(c?: Challenge): Promise<string> {
  const ch = c ?? (await challenge());
  const solution = await solveChallenge({ challenge: ch, deriveKey });
  if (!solution) throw new Error("no solution");
  return encodeCaptchaToken({ challenge: { parameters: ch.parameters, signature: ch.signature ?? "" }, solution });
}

let accounts = 0;
/** A confirmed account with three failed logins behind it: its next login needs the captcha. */
async function lockedAccount(): Promise<{ login: string; password: string }> {
  const login = `captcha${++accounts}`;
  const password = "correct-horse-battery";
  venue.gateway.accounts.createUser(`${login}@example.test`, login, password, clock, true);
  for (let i = 0; i < 3; i++) await post("/v2/login", { login, password: "wrong" });
  expect(await post("/v2/int/captcha/required", { method: "login", login })).toEqual([200, [true]]);
  return { login, password };
}

const signIn = (who: { login: string; password: string }, captchaToken: string, captchaProvider = "altcha") =>
  post("/v2/login", { ...who, captchaToken, captchaProvider });
const INVALID = [400, ["error", 10020, "captcha: invalid"]];

describe("the ALTCHA login captcha", () => {
  it("lists altcha as the provider and serves a signed, expiring challenge with no answer in it", async () => {
    expect(await post("/v2/int/captcha/providers", {})).toEqual([200, ["altcha"]]);
    const c = await challenge();
    expect(c.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: CAPTCHA_COST });
    expect(c.signature).toMatch(/^[0-9a-f]{64}$/);
    // The target key is signed, never sent: only its first half (the prefix to match) is.
    expect(c.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    expect(c.parameters.keyPrefix).toMatch(/^[0-9a-f]{32}$/);
    expect((c.parameters.expiresAt ?? 0) * 1000 - clock).toBeGreaterThan(CAPTCHA_TTL_MS - 2000);
    expect(c.parameters.expiresAt! * 1000 - clock).toBeLessThanOrEqual(CAPTCHA_TTL_MS);
    expect(JSON.stringify(c)).not.toMatch(/question|answer|counter/);
  });

  it("accepts a solution found by doing the work, once", async () => {
    const who = await lockedAccount();
    expect(await post("/v2/login", who)).toEqual([400, ["error", 10020, "captcha: required"]]);
    const token = await solved();
    // The captcha passes; the password is wrong, so the captcha stays required and the token is spent.
    expect(await signIn({ ...who, password: "still-wrong" }, token)).toEqual([400, ["error", 10100, "login: invalid"]]);
    expect(await signIn(who, token)).toEqual(INVALID);
    const [status, body] = await signIn(who, await solved());
    expect(status).toBe(200);
    expect((body as string[])[0]).toMatch(/^[0-9a-f]{48}$/);
  });

  it("lets one solution through once when it is sent twice at the same moment", async () => {
    const who = await lockedAccount();
    const token = await solved();
    const answers = await Promise.all([signIn(who, token), signIn(who, token)]);
    expect(answers.filter(([status]) => status === 200)).toHaveLength(1);
    expect(answers).toContainEqual(INVALID);
  });

  it("refuses what a script makes from the challenge without the work", async () => {
    const who = await lockedAccount();
    const c = await challenge();
    const { parameters, signature = "" } = c;
    // Without the key's signature the server would have to derive the key to check a solution.
    const { keySignature: _signed, ...unsigned } = parameters;
    const forged = (solution: { counter: number; derivedKey: string }, p = parameters, s = signature) =>
      encodeCaptchaToken({ challenge: { parameters: p, signature: s }, solution });
    const tries = [
      // The old captcha's form, "id:answer".
      `${parameters.nonce}:11`,
      "0123456789abcdef:7",
      "",
      "not base64 at all",
      Buffer.from("{}").toString("base64"),
      // The prefix the challenge shows, padded out to a whole key.
      forged({ counter: 0, derivedKey: parameters.keyPrefix.padEnd(64, "0") }),
      forged({ counter: 1, derivedKey: `${parameters.keyPrefix}${parameters.keyPrefix}` }),
      // Easier parameters under the server's signature.
      forged({ counter: 0, derivedKey: "00".repeat(32) }, { ...unsigned, keyPrefix: "0" }),
      forged({ counter: 0, derivedKey: parameters.keyPrefix.padEnd(64, "0") }, { ...parameters, cost: 1 }),
      // No signature at all.
      forged({ counter: 0, derivedKey: "00".repeat(32) }, parameters, ""),
    ];
    for (const token of tries) {
      const [status, body] = await signIn(who, token);
      expect(status, token).toBe(400);
      expect((body as unknown[])[2], token).toMatch(/^captcha: (invalid|required)$/);
    }
    // A real solution of the challenge, under another provider's name, is not this captcha either.
    expect(await signIn(who, await solved(c), "local")).toEqual(INVALID);
  });

  it("refuses a wrong solution and a challenge signed by anyone else", async () => {
    const who = await lockedAccount();
    const c = await challenge();
    const solution = await solveChallenge({ challenge: c, deriveKey });
    if (!solution) throw new Error("no solution");
    const wrongKey = solution.derivedKey.replace(/.$/, (d) => (d === "0" ? "1" : "0"));
    const payload = { parameters: c.parameters, signature: c.signature ?? "" };
    expect(
      await signIn(who, encodeCaptchaToken({ challenge: payload, solution: { ...solution, derivedKey: wrongKey } })),
    ).toEqual(INVALID);
    // A challenge of the script's own making (its own secret, its own cheap cost), solved.
    const own = await createChallenge({
      algorithm: "PBKDF2/SHA-256",
      cost: 1,
      counter: 1,
      deriveKey: nodeDeriveKey,
      expiresAt: Math.floor(clock / 1000) + 60,
      hmacSignatureSecret: "guessed-secret",
      hmacKeySignatureSecret: "guessed-key-secret",
    });
    expect(await signIn(who, await solved(own))).toEqual(INVALID);
    // Another exchange process (another secret) did not sign it either.
    const other = new AltchaCaptcha(() => clock);
    expect(await signIn(who, await solved(await other.challenge()))).toEqual(INVALID);
    // The untouched solution still passes: nothing above spent it.
    expect((await signIn(who, encodeCaptchaToken({ challenge: payload, solution })))[0]).toBe(200);
  });

  it("refuses a solution whose challenge has expired on the exchange's clock", async () => {
    const who = await lockedAccount();
    const token = await solved();
    clock += CAPTCHA_TTL_MS + 1000;
    try {
      // The failures that brought the captcha are still within their 10-minute window.
      expect(await signIn(who, token)).toEqual(INVALID);
      expect((await signIn(who, await solved()))[0]).toBe(200);
    } finally {
      clock -= CAPTCHA_TTL_MS + 1000;
    }
  });
});

describe("the used-solution memory", () => {
  it("holds a bounded number of solutions, refusing new ones rather than forgetting live ones", async () => {
    let now = Date.now();
    const captcha = new AltchaCaptcha(() => now, 2);
    const token = async (): Promise<string> => solved(await captcha.challenge());
    const [a, b, c] = await Promise.all([token(), token(), token()]);
    expect(await captcha.redeem(a)).toBe(true);
    expect(await captcha.redeem(b)).toBe(true);
    // Full of live solutions: c is refused, and a stays spent.
    expect(await captcha.redeem(c)).toBe(false);
    expect(await captcha.redeem(a)).toBe(false);
    now += CAPTCHA_TTL_MS / 2;
    const d = await token();
    expect(await captcha.redeem(d)).toBe(false);
    // a and b have expired: forgotten, which frees their room — and their challenges are refused
    // as expired, so forgetting them reopens nothing.
    now += CAPTCHA_TTL_MS / 2 + 1000;
    expect(await captcha.redeem(d)).toBe(true);
    expect(await captcha.redeem(a)).toBe(false);
  });
});
