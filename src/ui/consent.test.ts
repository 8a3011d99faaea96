import { describe, expect, it } from "vitest";
import { COOKIE_CONSENT_TTL_MS } from "../protocol";
import { bannerRequired, countryFromGeo, parseConsent, shouldShowBanner, type CookieConsent } from "./consent";

const NOW = 1_800_000_000_000;
const decided = (ago: number): CookieConsent => ({
  decidedAt: NOW - ago,
  necessary: true,
  analytical: true,
  marketing: false,
});

describe("cookie banner", () => {
  it("is not required in the Latin American countries and Turkey, required elsewhere and when unknown", () => {
    for (const c of ["AR", "BR", "CL", "CO", "PE", "SV", "MX", "VE", "TR", "br"])
      expect(bannerRequired(c), c).toBe(false);
    for (const c of ["GB", "DE", "US", "PL", "ES"]) expect(bannerRequired(c), c).toBe(true);
    expect(bannerRequired(null)).toBe(true);
  });

  it("asks again after 90 days", () => {
    expect(shouldShowBanner(null, "GB", NOW)).toBe(true);
    expect(shouldShowBanner(decided(COOKIE_CONSENT_TTL_MS - 1), "GB", NOW)).toBe(false);
    expect(shouldShowBanner(decided(COOKIE_CONSENT_TTL_MS), "GB", NOW)).toBe(true);
    expect(shouldShowBanner(null, "BR", NOW)).toBe(false);
    expect(COOKIE_CONSENT_TTL_MS).toBe(90 * 86_400_000);
  });

  it("reads stored consent defensively", () => {
    expect(parseConsent({ decidedAt: 5, analytical: false, marketing: true })).toEqual({
      decidedAt: 5,
      necessary: true,
      analytical: false,
      marketing: true,
    });
    expect(parseConsent({ decidedAt: "5", analytical: false, marketing: true })).toBeNull();
    expect(parseConsent(undefined)).toBeNull();
  });

  it("reads the country from both geo response shapes", () => {
    expect(countryFromGeo([["GB", "London"]])).toBe("GB");
    expect(countryFromGeo([{ country: "br" }])).toBe("BR");
    expect(countryFromGeo(["1.2.3.4", "TR"])).toBe("TR");
    expect(countryFromGeo({ country: "GB" })).toBeNull();
    expect(countryFromGeo([])).toBeNull();
    expect(countryFromGeo(["1.2.3.4", "Turkey"])).toBeNull();
  });
});
