/**
 * The login page's captcha work: a challenge made as the exchange makes it (altcha-lib, signed,
 * deterministic) is solved here with WebCrypto PBKDF2, and the token it yields is the ALTCHA
 * payload that verifySolution accepts. Node has the same WebCrypto the browser has.
 */
import { createChallenge, verifySolution, type Challenge, type Solution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { describe, expect, it } from "vitest";
import { solveCaptcha } from "./captcha";
import type { CaptchaChallenge } from "./core";

const SECRET = "test-secret";
const KEY_SECRET = "test-key-secret";

async function served(counter: number): Promise<CaptchaChallenge> {
  const challenge = await createChallenge({
    algorithm: "PBKDF2/SHA-256",
    cost: 50,
    counter,
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + 300,
    hmacSignatureSecret: SECRET,
    hmacKeySignatureSecret: KEY_SECRET,
  });
  return { provider: "altcha", challenge: { ...challenge, signature: challenge.signature ?? "" } };
}

describe("solveCaptcha", () => {
  it("finds the challenge's counter and sends ALTCHA's payload", async () => {
    const captcha = await served(37);
    const solved = await solveCaptcha(captcha);
    expect(solved?.provider).toBe("altcha");
    const payload = JSON.parse(atob(solved?.token ?? "")) as { challenge: Challenge; solution: Solution };
    expect(payload.challenge).toEqual(captcha.challenge);
    expect(payload.solution.counter).toBe(37);
    const result = await verifySolution({
      ...payload,
      deriveKey,
      hmacSignatureSecret: SECRET,
      hmacKeySignatureSecret: KEY_SECRET,
    });
    expect(result.verified).toBe(true);
  });

  it("gives up when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await solveCaptcha(await served(5000), controller)).toBeNull();
  });
});
