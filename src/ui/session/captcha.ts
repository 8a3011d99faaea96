/**
 * The login captcha's work, done in this tab: altcha-lib's solver tries counter after counter with
 * WebCrypto PBKDF2 until its key matches the one the exchange's challenge names
 * (server/captcha.ts). WebCrypto runs each derivation off the main thread and the solver yields
 * between tries, so the page stays responsive; nothing here needs a worker, `eval` or an inline
 * style, which the app's Content-Security-Policy would refuse. session.ts loads this module on
 * first need, so the login page's chunk does not carry altcha-lib.
 */
import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/web/pbkdf2";
import type { CaptchaChallenge, CaptchaSolution } from "./core";

/**
 * A solve normally takes well under a second (server/captcha.ts has the figures); a tab that is
 * throttled in the background may take much longer, so this only stops a solve that will never end.
 */
const CAPTCHA_SOLVE_TIMEOUT_MS = 60_000;

/** Base64 of UTF-8 text: `btoa` alone takes Latin-1 only. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Solves the challenge; the solution to send with the login (its `captchaToken` is ALTCHA's
 * payload: base64 of `{challenge, solution}` JSON), or null when aborted or out of time.
 */
export async function solveCaptcha(
  captcha: CaptchaChallenge,
  controller?: AbortController,
): Promise<CaptchaSolution | null> {
  const { challenge } = captcha;
  const solution = await solveChallenge({
    challenge,
    deriveKey,
    timeout: CAPTCHA_SOLVE_TIMEOUT_MS,
    ...(controller ? { controller } : {}),
  });
  if (!solution || controller?.signal.aborted) return null;
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return { provider: captcha.provider, token: base64(JSON.stringify(payload)) };
}
