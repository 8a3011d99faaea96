/**
 * The calls of opening an account and of a forgotten password (docs/product-rules.md#sign-up-and-password-reset),
 * framework-free over an injected `Http` (core.ts's transport), so the pages stay thin and this
 * tests in Node. Every body is built by src/protocol's sign-up rules; every refusal comes back as
 * the field it is about, for the page to say in the person's language.
 */
import {
  encodeSignupRequest,
  parseApiError,
  refusalField,
  SIGNUP_TERMS_ID,
  type SignupField,
  type SignupRequest,
} from "../../protocol";
import { countryFromGeo } from "../consent";
import { log } from "../log";
import type { Http, HttpReply } from "./core";

/** Why a call did not do what was asked: a field the person can fix, or what went wrong around it. */
export type OpeningError =
  | { readonly kind: "field"; readonly field: SignupField; readonly reason: string }
  | { readonly kind: "taken"; readonly field: "email" | "username" }
  | { readonly kind: "invalid-token" }
  | { readonly kind: "rate-limited" }
  | { readonly kind: "server" }
  | { readonly kind: "unreachable" };

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: OpeningError };

export interface Country {
  readonly code: string;
  readonly name: string;
}

/** What the sign-up page needs before its form: where the visitor is, the countries, the terms' version. */
export interface SignupContext {
  /** The geo lookup's country, or null when it could not tell. */
  readonly country: string | null;
  readonly countries: readonly Country[];
  /** The version of `pub:legal:terms:tos`, sent with the agreement; null when it could not be read. */
  readonly termsVersion: string | null;
  /** When the terms last changed (epoch ms), if the exchange says. */
  readonly termsUpdated: number | null;
}

function errorOf(reply: HttpReply): OpeningError {
  if (reply.status === 429) return { kind: "rate-limited" };
  const err = parseApiError(reply.body);
  if (reply.status >= 500 || err === null) return { kind: "server" };
  const [field, reason = ""] = err.message.split(/:\s*/, 2);
  const which = refusalField(err.message);
  if (which === "token" || field === "emailVerifyHash") return { kind: "invalid-token" };
  if ((which === "email" || which === "username") && reason === "taken") return { kind: "taken", field: which };
  if (which !== null && which !== "account") return { kind: "field", field: which, reason };
  return { kind: "server" };
}

async function call<T>(http: Http, path: string, body: unknown, read: (b: unknown) => T): Promise<Result<T>> {
  try {
    const reply = await http({ method: "POST", path, body });
    return reply.status === 200 ? { ok: true, value: read(reply.body) } : { ok: false, error: errorOf(reply) };
  } catch (err) {
    log.warn(`${path} failed`, err);
    return { ok: false, error: { kind: "unreachable" } };
  }
}

const done = (): true => true;

/** The geo lookup, the country list and the terms' version, each on its own: one failing leaves the others. */
export async function signupContext(http: Http): Promise<SignupContext> {
  const get = (path: string): Promise<unknown> =>
    http({ method: "GET", path }).then(
      (r) => (r.status === 200 ? r.body : null),
      () => null,
    );
  const [geo, list, terms] = await Promise.all([
    get("/v2/int/geo/ip"),
    get("/v2/int/countries"),
    get(`/v2/conf/pub:legal:terms:${SIGNUP_TERMS_ID}`),
  ]);
  const countries = Array.isArray(list)
    ? list.flatMap((row): Country[] =>
        Array.isArray(row) && typeof row[0] === "string" && typeof row[1] === "string"
          ? [{ code: row[0].toUpperCase(), name: row[1] }]
          : [],
      )
    : [];
  // `/v2/conf/KEY` answers `[value]`.
  const t = Array.isArray(terms) ? (terms[0] as Record<string, unknown> | null) : null;
  const version = t && typeof t["version"] === "string" ? t["version"] : null;
  const updated = t && typeof t["updated"] === "number" ? t["updated"] : null;
  return { country: countryFromGeo(geo), countries, termsVersion: version, termsUpdated: updated };
}

/** Whether this sign-up must pass the captcha first (`/v2/int/captcha/required {method: "signup"}`). */
export async function signupNeedsCaptcha(http: Http): Promise<boolean> {
  const r = await call(
    http,
    "/v2/int/captcha/required",
    { method: "signup" },
    (b) => Array.isArray(b) && b[0] === true,
  );
  return r.ok && r.value;
}

export function submitSignup(http: Http, request: SignupRequest): Promise<Result<true>> {
  return call(http, "/v2/signup", encodeSignupRequest(request), done);
}

/** Mails the confirmation link again; the exchange answers alike whether or not it sent one. */
export function resendConfirmation(http: Http, email: string): Promise<Result<true>> {
  return call(http, "/v2/int/user/email/confirm/resend", { email }, done);
}

export function confirmEmail(http: Http, hash: string): Promise<Result<true>> {
  return call(http, "/v2/int/user/email/confirm", { emailVerifyHash: hash }, done);
}

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function requestPasswordReset(http: Http, email: string): Promise<Result<true>> {
  return call(http, "/v2/int/user/password/reset/request", { email }, done);
}

export function checkResetToken(http: Http, token: string): Promise<Result<true>> {
  return call(http, "/v2/int/user/password/reset/check", { token }, done);
}

export function resetPassword(http: Http, token: string, password: string): Promise<Result<true>> {
  return call(http, "/v2/int/user/password/reset", { token, password }, done);
}
