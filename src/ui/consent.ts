/**
 * Cookie consent (docs/product-rules.md#cookie-consent): categories necessary (always on), analytical and
 * marketing; asked again after 90 days; not required for visitors from the exempt countries.
 */
import { COOKIE_BANNER_EXEMPT_COUNTRIES, COOKIE_CONSENT_TTL_MS } from "../protocol";

export interface CookieConsent {
  readonly decidedAt: number;
  readonly necessary: true;
  readonly analytical: boolean;
  readonly marketing: boolean;
}

export const CONSENT_STORAGE_KEY = "cookie-consent";

export function bannerRequired(country: string | null): boolean {
  if (country === null) return true; // unknown country: ask, the safe default
  return !(COOKIE_BANNER_EXEMPT_COUNTRIES as readonly string[]).includes(country.toUpperCase());
}

export function consentValid(consent: CookieConsent | null, now: number): boolean {
  return consent !== null && now - consent.decidedAt < COOKIE_CONSENT_TTL_MS;
}

export function shouldShowBanner(consent: CookieConsent | null, country: string | null, now: number): boolean {
  return bannerRequired(country) && !consentValid(consent, now);
}

export function parseConsent(raw: unknown): CookieConsent | null {
  if (typeof raw !== "object" || raw === null) return null;
  const r = raw as Record<string, unknown>;
  if (
    typeof r["decidedAt"] !== "number" ||
    typeof r["analytical"] !== "boolean" ||
    typeof r["marketing"] !== "boolean"
  ) {
    return null;
  }
  return { decidedAt: r["decidedAt"], necessary: true, analytical: r["analytical"], marketing: r["marketing"] };
}

/**
 * The country of a /v2/int/geo/ip response. The product knows two readings
 * (docs/product-rules.md#calls): the first row's country (`[["GB", …]]` or `[{country: "GB"}]`) and
 * the second element of the response (`[ip, "GB", …]`). Anything else is unknown.
 */
export function countryFromGeo(body: unknown): string | null {
  if (!Array.isArray(body)) return null;
  const first: unknown = body[0];
  if (Array.isArray(first) && typeof first[0] === "string" && /^[A-Z]{2}$/i.test(first[0]))
    return first[0].toUpperCase();
  if (typeof first === "object" && first !== null && !Array.isArray(first)) {
    const c = (first as Record<string, unknown>)["country"];
    if (typeof c === "string" && /^[A-Z]{2}$/i.test(c)) return c.toUpperCase();
  }
  const second: unknown = body[1];
  if (typeof second === "string" && /^[A-Z]{2}$/i.test(second)) return second.toUpperCase();
  return null;
}
