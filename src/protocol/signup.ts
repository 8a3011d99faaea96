/**
 * Sign-up and password rules (docs/product-rules.md#sign-up-and-password-reset), one copy for the
 * form that checks them as the person types and the exchange that checks them again: the request
 * bodies of `/v2/signup` and the password-reset calls are built and read here on both sides.
 * Nothing here is user text: a refusal is a field and a reason the UI maps to a localized message.
 */

/** The sign-up flow's steps, in order (docs/product-rules.md#other-flows). */
export const SIGNUP_STEPS = ["PROHIBITED", "FORM", "SECURITY", "VERIFY_EMAIL", "COMPLETE"] as const;
export type SignupStep = (typeof SIGNUP_STEPS)[number];

export const PASSWORD_MIN_LENGTH = 10;
/** scrypt takes any length; a cap keeps one request from costing seconds of hashing. */
export const PASSWORD_MAX_LENGTH = 128;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 32;
/** RFC 5321's limit on a forward path. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * Countries whose residents cannot open an account (the PROHIBITED step and the exchange's
 * refusal): the United States, as the product's terms exclude US persons, and the comprehensively
 * sanctioned jurisdictions.
 */
export const PROHIBITED_COUNTRIES: ReadonlySet<string> = new Set(["US", "CU", "IR", "KP", "SY"]);
/** Countries whose residents see the UK financial-promotion risk warning before the form. */
export const UK_WARNING_COUNTRIES: ReadonlySet<string> = new Set(["GB"]);

/** The terms the sign-up agreement is to: `GET /v2/conf/pub:legal:terms:tos`. */
export const SIGNUP_TERMS_ID = "tos";

/** How long the verification page waits between two resends of the confirmation mail. */
export const EMAIL_RESEND_COOLDOWN_MS = 60_000;
/** How long a confirmation link works. */
export const EMAIL_VERIFY_TTL_MS = 24 * 3_600_000;
/** How long a password-reset link works; it works once. */
export const PASSWORD_RESET_TTL_MS = 30 * 60_000;

export type PasswordRule = "length" | "max-length" | "letter" | "digit-or-symbol" | "not-identity";

/** Every rule a password breaks (empty: it may be used), for a person known by `username` and `email`. */
export function passwordProblems(
  password: string,
  who: { readonly username: string; readonly email: string },
): PasswordRule[] {
  const out: PasswordRule[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) out.push("length");
  if (password.length > PASSWORD_MAX_LENGTH) out.push("max-length");
  if (!/\p{L}/u.test(password)) out.push("letter");
  if (!/[^\p{L}\s]/u.test(password)) out.push("digit-or-symbol");
  const lower = password.toLowerCase();
  const name = who.username.trim().toLowerCase();
  const local = who.email.trim().toLowerCase().split("@")[0] ?? "";
  if ((name.length >= USERNAME_MIN_LENGTH && lower.includes(name)) || (local.length >= 3 && lower.includes(local)))
    out.push("not-identity");
  return out;
}

export function emailValid(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(email);
}

export function usernameValid(username: string): boolean {
  return new RegExp(`^[A-Za-z0-9_]{${USERNAME_MIN_LENGTH},${USERNAME_MAX_LENGTH}}$`).test(username);
}

export type SignupField = "email" | "username" | "password" | "country" | "terms" | "prohibited" | "captcha";

/** What `/v2/signup` takes. */
export interface SignupRequest {
  readonly email: string;
  readonly username: string;
  readonly password: string;
  /** ISO 3166 alpha-2 country of residence. */
  readonly country: string;
  /** The version of the terms (`pub:legal:terms:tos`) the person agreed to. */
  readonly tosVersion: string;
  /** The answer to the prohibited-person question: must be false to open an account. */
  readonly prohibitedPerson: boolean;
  readonly newsletter: boolean;
  readonly captchaToken?: string;
  readonly captchaProvider?: string;
}

/** A refusal of a sign-up or reset body: the field and a short reason (the API's message is `field: reason`). */
export interface FieldRefusal {
  readonly field: SignupField | "token";
  readonly reason: string;
}

export function encodeSignupRequest(r: SignupRequest): Record<string, unknown> {
  return {
    email: r.email,
    username: r.username,
    password: r.password,
    country: r.country,
    tosVersion: r.tosVersion,
    prohibitedPerson: r.prohibitedPerson,
    newsletter: r.newsletter,
    ...(r.captchaToken !== undefined ? { captchaToken: r.captchaToken, captchaProvider: r.captchaProvider ?? "" } : {}),
  };
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * Reads and checks a `/v2/signup` body against every rule that needs no stored state (taken names,
 * the terms' current version and the captcha are the exchange's to check). E-mail and username
 * are trimmed, the e-mail lower-cased; the password is taken as typed.
 */
export function decodeSignupRequest(
  body: Readonly<Record<string, unknown>>,
): { readonly ok: true; readonly value: SignupRequest } | { readonly ok: false; readonly refusal: FieldRefusal } {
  const email = str(body["email"]).trim().toLowerCase();
  const username = str(body["username"]).trim();
  const password = str(body["password"]);
  const country = str(body["country"]).trim().toUpperCase();
  const refuse = (field: SignupField, reason: string) => ({ ok: false as const, refusal: { field, reason } });
  if (!emailValid(email)) return refuse("email", "invalid");
  if (!usernameValid(username)) return refuse("username", "invalid");
  const weak = passwordProblems(password, { username, email });
  if (weak.length > 0) return refuse("password", `weak (${weak.join(", ")})`);
  if (!/^[A-Z]{2}$/.test(country)) return refuse("country", "invalid");
  if (PROHIBITED_COUNTRIES.has(country)) return refuse("country", "prohibited");
  if (body["prohibitedPerson"] !== false) return refuse("prohibited", "not eligible");
  const tosVersion = str(body["tosVersion"]);
  if (tosVersion === "") return refuse("terms", "not accepted");
  const token = body["captchaToken"];
  return {
    ok: true,
    value: {
      email,
      username,
      password,
      country,
      tosVersion,
      prohibitedPerson: false,
      newsletter: body["newsletter"] === true,
      ...(typeof token === "string" && token !== ""
        ? { captchaToken: token, captchaProvider: str(body["captchaProvider"]) }
        : {}),
    },
  };
}

/** The field an exchange refusal (`"field: reason"`) is about, or null for any other message. */
export function refusalField(message: string): SignupField | "token" | "account" | null {
  const field = /^([a-z]+):/.exec(message)?.[1];
  switch (field) {
    case "email":
    case "username":
    case "password":
    case "country":
    case "terms":
    case "prohibited":
    case "captcha":
    case "token":
    case "account":
      return field;
    default:
      return null;
  }
}
