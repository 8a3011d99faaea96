/**
 * Applying to a regional venue (docs/product-rules.md#regional-sign-up): residents of a region served
 * by a local entity do not open an account on the spot, they apply; the entity reviews the
 * application before the account opens. One copy of the rules for the form that checks them as the
 * person types and the exchange that checks them again; the request body is built and read here on
 * both sides. Nothing here is user text: a refusal is a field and a reason the UI words.
 */
import { emailValid } from "./signup";

/** The regions with a venue of their own: the platform variants whose local entity takes applications. */
export const REGIONAL_VENUE_IDS = ["tr", "br"] as const;
export type RegionalVenueId = (typeof REGIONAL_VENUE_IDS)[number];

export interface RegionalVenue {
  readonly id: RegionalVenueId;
  /** The ISO 3166 country whose residents the venue serves. */
  readonly country: string;
  /** The local entity's name (a proper name, the same in every language). */
  readonly entity: string;
  /** The national identity number's local name (a proper name). */
  readonly idName: string;
  /** How a postal code looks there (shown as an example when one does not). */
  readonly postalExample: string;
  /** The venue's trading currency. */
  readonly currency: string;
  /** The venue's own terms: `GET /v2/conf/pub:legal:terms:{termsId}`. */
  readonly termsId: string;
}

/*
 * Our decision, where the product only names the variants: Türkiye and Brazil apply through their
 * local entity (the tr and br variants trade in their currency); Japan's variant has no sign-up of
 * its own here.
 */
export const REGIONAL_VENUES: Readonly<Record<RegionalVenueId, RegionalVenue>> = {
  tr: {
    id: "tr",
    country: "TR",
    entity: "Orderflow Türkiye",
    idName: "T.C. Kimlik No",
    postalExample: "34000",
    currency: "TRY",
    termsId: "tr",
  },
  br: {
    id: "br",
    country: "BR",
    entity: "Orderflow Brasil",
    idName: "CPF",
    postalExample: "01310-100",
    currency: "BRL",
    termsId: "br",
  },
};

/** The venue of a path segment or request field; null for anything else. */
export function regionalVenue(id: unknown): RegionalVenue | null {
  return typeof id === "string" && (REGIONAL_VENUE_IDS as readonly string[]).includes(id)
    ? REGIONAL_VENUES[id as RegionalVenueId]
    : null;
}

/** The venue that serves residents of `country` (ISO alpha-2), if any. */
export function venueForCountry(country: string): RegionalVenue | null {
  return Object.values(REGIONAL_VENUES).find((v) => v.country === country) ?? null;
}

/** Where an application is sent, and where its venue's pages are. */
export const REGIONAL_APPLICATION_PATH = "/v2/int/signup/regional";
export const regionalSignupPath = (id: RegionalVenueId): string => `/signup/${id}`;
export const regionalSubmittedPath = (id: RegionalVenueId, reference: string): string =>
  `/signup/${id}/submitted?ref=${encodeURIComponent(reference)}`;

/** Youngest age an applicant may be. */
export const APPLICANT_MIN_AGE = 18;
/** A birth date giving an age above this is a typing mistake. */
const APPLICANT_MAX_AGE = 120;
export const APPLICANT_NAME_MAX_LENGTH = 64;
export const STREET_MAX_LENGTH = 128;
/** How many business days the venues take to review an application. */
export const APPLICATION_REVIEW_DAYS = 3;

export type ApplicationField =
  | "region"
  | "firstName"
  | "lastName"
  | "email"
  | "birthDate"
  | "nationalId"
  | "street"
  | "city"
  | "postalCode"
  | "resident"
  | "terms"
  | "captcha";

/**
 * Why a field was refused: `missing`, `invalid` (the form's own checks), `under-age`, `outdated`
 * (terms changed), `required` (captcha due). A repeated application is never refused: answering
 * "already under review" would tell anyone whose address or ID number has applied.
 */
export type ApplicationReason = "missing" | "invalid" | "under-age" | "outdated" | "required";

/** What an applicant sends. */
export interface RegionalApplication {
  readonly region: RegionalVenueId;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  /** `YYYY-MM-DD`. */
  readonly birthDate: string;
  /** Digits only. */
  readonly nationalId: string;
  readonly street: string;
  readonly city: string;
  readonly postalCode: string;
  /** The applicant's statement that they live in the venue's country. */
  readonly resident: boolean;
  /** The version of the venue's terms agreed to; "" when not agreed. */
  readonly termsVersion: string;
  readonly captchaToken?: string;
  readonly captchaProvider?: string;
}

const digitsOf = (s: string): number[] => [...s].map(Number);
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/**
 * T.C. Kimlik No: 11 digits, the first not 0; the 10th is (7 × the odd-placed of the first nine −
 * the even-placed) mod 10 and the 11th the sum of the first ten mod 10.
 */
function kimlikValid(id: string): boolean {
  if (!/^[1-9]\d{10}$/.test(id)) return false;
  const d = digitsOf(id);
  const odd = (d[0] ?? 0) + (d[2] ?? 0) + (d[4] ?? 0) + (d[6] ?? 0) + (d[8] ?? 0);
  const even = (d[1] ?? 0) + (d[3] ?? 0) + (d[5] ?? 0) + (d[7] ?? 0);
  return (((odd * 7 - even) % 10) + 10) % 10 === d[9] && sum(d.slice(0, 10)) % 10 === d[10];
}

/** CPF: 11 digits, not all alike, with two mod-11 check digits (weights 10…2, then 11…2). */
function cpfValid(id: string): boolean {
  if (!/^\d{11}$/.test(id) || /^(\d)\1{10}$/.test(id)) return false;
  const d = digitsOf(id);
  const check = (n: number): number => {
    const s = sum(d.slice(0, n).map((x, i) => x * (n + 1 - i)));
    const r = (s * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === d[9] && check(10) === d[10];
}

/** The ID number as typed, without the spaces, dots and dashes people group it with. */
export const normalizeNationalId = (id: string): string => id.replace(/[\s.-]/g, "");

export function nationalIdValid(venue: RegionalVenue, id: string): boolean {
  const digits = normalizeNationalId(id);
  return venue.id === "tr" ? kimlikValid(digits) : cpfValid(digits);
}

export function postalCodeValid(venue: RegionalVenue, code: string): boolean {
  return venue.id === "tr" ? /^\d{5}$/.test(code) : /^\d{5}-?\d{3}$/.test(code);
}

/** Letters (any script) with spaces, hyphens, apostrophes and dots between them. */
const nameValid = (s: string): boolean =>
  s.length <= APPLICANT_NAME_MAX_LENGTH && /^\p{L}[\p{L}\p{M}' .-]*$/u.test(s) && !/[' .-]{2}/.test(s);

/** Whole years from `birth` (YYYY-MM-DD) to the UTC day of `nowMs`; null for no real date. */
export function ageOn(birth: string, nowMs: number): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(birth);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  // Date.UTC rolls 2001-02-30 over into March: a date that does not come back as typed is no date.
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  const now = new Date(nowMs);
  const [ny, nm, nd] = [now.getUTCFullYear(), now.getUTCMonth() + 1, now.getUTCDate()];
  return ny - y - (nm < mo || (nm === mo && nd < d) ? 1 : 0);
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** Every field's first problem, in the form's order (empty: the application may be sent). */
export function applicationProblems(
  a: Omit<RegionalApplication, "captchaToken" | "captchaProvider">,
  nowMs: number,
): Partial<Record<ApplicationField, ApplicationReason>> {
  const out: Partial<Record<ApplicationField, ApplicationReason>> = {};
  const venue = regionalVenue(a.region);
  if (!venue) return { region: "invalid" };
  const text = (field: ApplicationField, value: string, valid: (s: string) => boolean): void => {
    if (value.trim() === "") out[field] = "missing";
    else if (!valid(value.trim())) out[field] = "invalid";
  };
  text("firstName", a.firstName, nameValid);
  text("lastName", a.lastName, nameValid);
  text("email", a.email, (e) => emailValid(e.toLowerCase()));
  if (a.birthDate.trim() === "") out.birthDate = "missing";
  else {
    const age = ageOn(a.birthDate.trim(), nowMs);
    if (age === null || age < 0 || age > APPLICANT_MAX_AGE) out.birthDate = "invalid";
    else if (age < APPLICANT_MIN_AGE) out.birthDate = "under-age";
  }
  text("nationalId", a.nationalId, (id) => nationalIdValid(venue, id));
  text("street", a.street, (s) => s.length >= 3 && s.length <= STREET_MAX_LENGTH && !/\p{Cc}/u.test(s));
  text("city", a.city, (s) => s.length <= APPLICANT_NAME_MAX_LENGTH && /^\p{L}[\p{L}\p{M}\d' .()/-]*$/u.test(s));
  text("postalCode", a.postalCode, (c) => postalCodeValid(venue, c));
  if (!a.resident) out.resident = "missing";
  if (a.termsVersion === "") out.terms = "missing";
  return out;
}

/** The request body, trimmed as the exchange reads it. */
export function encodeRegionalApplication(a: RegionalApplication): Record<string, unknown> {
  return {
    region: a.region,
    firstName: a.firstName.trim(),
    lastName: a.lastName.trim(),
    email: a.email.trim(),
    birthDate: a.birthDate.trim(),
    nationalId: normalizeNationalId(a.nationalId),
    street: a.street.trim(),
    city: a.city.trim(),
    postalCode: a.postalCode.trim(),
    resident: a.resident,
    termsVersion: a.termsVersion,
    ...(a.captchaToken !== undefined ? { captchaToken: a.captchaToken, captchaProvider: a.captchaProvider ?? "" } : {}),
  };
}

/**
 * Reads and checks an application body against every rule that needs no stored state (applications
 * under review, the terms' current version and the captcha are the exchange's to check). Text is
 * trimmed, the e-mail lower-cased, the ID number reduced to its digits.
 */
export function decodeRegionalApplication(
  body: Readonly<Record<string, unknown>>,
  nowMs: number,
):
  | { readonly ok: true; readonly value: RegionalApplication }
  | { readonly ok: false; readonly field: ApplicationField; readonly reason: ApplicationReason } {
  const venue = regionalVenue(body["region"]);
  if (!venue) return { ok: false, field: "region", reason: "invalid" };
  const token = body["captchaToken"];
  const value: RegionalApplication = {
    region: venue.id,
    firstName: str(body["firstName"]).trim(),
    lastName: str(body["lastName"]).trim(),
    email: str(body["email"]).trim().toLowerCase(),
    birthDate: str(body["birthDate"]).trim(),
    nationalId: normalizeNationalId(str(body["nationalId"])),
    street: str(body["street"]).trim(),
    city: str(body["city"]).trim(),
    postalCode: str(body["postalCode"]).trim(),
    // Only a literal `true` states residence: a string or a 1 is no statement.
    resident: body["resident"] === true,
    termsVersion: str(body["termsVersion"]),
    ...(typeof token === "string" && token !== ""
      ? { captchaToken: token, captchaProvider: str(body["captchaProvider"]) }
      : {}),
  };
  const first = Object.entries(applicationProblems(value, nowMs))[0] as
    [ApplicationField, ApplicationReason] | undefined;
  return first ? { ok: false, field: first[0], reason: first[1] } : { ok: true, value };
}

/** The field and reason of an exchange refusal (`"field: reason"`), or null for any other message. */
export function applicationRefusal(
  message: string,
): { readonly field: ApplicationField; readonly reason: ApplicationReason } | null {
  const m = /^([a-zA-Z]+): ([a-z-]+)$/.exec(message);
  if (!m) return null;
  const fields: readonly string[] = [
    "region",
    "firstName",
    "lastName",
    "email",
    "birthDate",
    "nationalId",
    "street",
    "city",
    "postalCode",
    "resident",
    "terms",
    "captcha",
  ];
  const reasons: readonly string[] = ["missing", "invalid", "under-age", "outdated", "required"];
  return fields.includes(m[1] ?? "") && reasons.includes(m[2] ?? "")
    ? { field: m[1] as ApplicationField, reason: m[2] as ApplicationReason }
    : null;
}
