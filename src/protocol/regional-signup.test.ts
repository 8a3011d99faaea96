import { describe, expect, it } from "vitest";
import {
  ageOn,
  applicationProblems,
  applicationRefusal,
  decodeRegionalApplication,
  encodeRegionalApplication,
  nationalIdValid,
  REGIONAL_VENUES,
  type RegionalApplication,
  venueForCountry,
} from "./regional-signup";
import { seededRandom } from "./random";

const { tr, br } = REGIONAL_VENUES;
const NOW = Date.parse("2026-11-26T12:00:00Z");

/** A T.C. Kimlik No with its two check digits computed from nine drawn ones (the first not 0). */
function kimlik(nine: number[]): string {
  const d = nine;
  const odd = d[0]! + d[2]! + d[4]! + d[6]! + d[8]!;
  const even = d[1]! + d[3]! + d[5]! + d[7]!;
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  const eleventh = (d.reduce((a, b) => a + b, 0) + tenth) % 10;
  return [...d, tenth, eleventh].join("");
}

const good: RegionalApplication = {
  region: "tr",
  firstName: "Ayşe",
  lastName: "Yılmaz",
  email: "ayse@example.com",
  birthDate: "1990-04-23",
  nationalId: "10000000146",
  street: "İstiklal Caddesi 12",
  city: "İstanbul",
  postalCode: "34433",
  resident: true,
  termsVersion: "1.0",
};

describe("national ID numbers", () => {
  it("takes a T.C. Kimlik No only with both check digits right, and refuses any one-digit change", () => {
    const rnd = seededRandom(7);
    for (let i = 0; i < 200; i++) {
      const nine = [1 + Math.floor(rnd() * 9), ...Array.from({ length: 8 }, () => Math.floor(rnd() * 10))];
      const id = kimlik(nine);
      expect(nationalIdValid(tr, id), id).toBe(true);
      const at = 9 + Math.floor(rnd() * 2);
      const wrong = id.slice(0, at) + ((Number(id[at]) + 1 + Math.floor(rnd() * 9)) % 10) + id.slice(at + 1);
      expect(nationalIdValid(tr, wrong), wrong).toBe(false);
    }
    expect(nationalIdValid(tr, "01234567890")).toBe(false);
    expect(nationalIdValid(tr, "100 000 001 46")).toBe(true);
  });

  it("takes a CPF with its check digits, grouped or not, and never eleven equal digits", () => {
    expect(nationalIdValid(br, "529.982.247-25")).toBe(true);
    expect(nationalIdValid(br, "52998224725")).toBe(true);
    expect(nationalIdValid(br, "52998224715")).toBe(false);
    expect(nationalIdValid(br, "00000000000")).toBe(false);
    expect(nationalIdValid(br, "5299822472")).toBe(false);
  });
});

describe("applications", () => {
  it("counts whole years on the UTC day and refuses dates that do not exist", () => {
    expect(ageOn("2008-11-26", NOW)).toBe(18);
    expect(ageOn("2008-11-27", NOW)).toBe(17);
    expect(ageOn("2004-02-29", Date.parse("2026-02-28T23:00:00Z"))).toBe(21);
    expect(ageOn("2023-02-29", NOW)).toBeNull();
    expect(ageOn("1990-4-23", NOW)).toBeNull();
  });

  it("names each field's first problem, and none for a good application", () => {
    expect(applicationProblems(good, NOW)).toEqual({});
    expect(
      applicationProblems(
        { ...good, firstName: "", birthDate: "2010-01-01", postalCode: "01310-100", resident: false, termsVersion: "" },
        NOW,
      ),
    ).toEqual({
      firstName: "missing",
      birthDate: "under-age",
      postalCode: "invalid",
      resident: "missing",
      terms: "missing",
    });
    expect(
      applicationProblems({ ...good, region: "br", postalCode: "01310100", nationalId: "52998224725" }, NOW),
    ).toEqual({});
    expect(venueForCountry("TR")).toBe(tr);
    expect(venueForCountry("GB")).toBeNull();
  });

  it("reads back what it encodes, trimmed, the ID number as digits and the e-mail lower-cased", () => {
    const typed = { ...good, email: " Ayse@Example.com ", nationalId: "100 000 001 46", city: " İstanbul " };
    const decoded = decodeRegionalApplication(encodeRegionalApplication(typed), NOW);
    expect(decoded).toEqual({ ok: true, value: { ...good } });
    expect(decodeRegionalApplication({ ...encodeRegionalApplication(good), resident: "yes" }, NOW)).toEqual({
      ok: false,
      field: "resident",
      reason: "missing",
    });
  });

  it("reads an exchange refusal only in its `field: reason` form", () => {
    expect(applicationRefusal("nationalId: invalid")).toEqual({ field: "nationalId", reason: "invalid" });
    // A repeated application is not refused (the answer would tell who applied): no `pending` reason.
    expect(applicationRefusal("nationalId: pending")).toBeNull();
    expect(applicationRefusal("password: weak (length)")).toBeNull();
    expect(applicationRefusal("nationalId: stolen")).toBeNull();
  });
});
