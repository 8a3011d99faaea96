import { describe, expect, it } from "vitest";
import {
  decodeFrozen,
  decodeKycRecord,
  decodeKycSubmission,
  decodeUsResident,
  encodeFrozen,
  encodeKycRecord,
  encodeKycSubmission,
  encodeUsResident,
  kycProblems,
  levelGateMessage,
  levelGateOf,
  marginLevelNeeded,
  type KycRecord,
  type KycSubmission,
  type LevelGate,
} from "./compliance";

const SUBMISSION: KycSubmission = {
  kind: "corporate",
  level: 2,
  data: {
    first_name: "Ada",
    last_name: "Lovelace",
    full_corporate_name: "Analytical Engines Ltd",
    high_net_worth: true,
    resid_appt_nb: "",
    resid_office_floor: "3",
    resid_building_name: "",
    resid_street: "12 St James's Square",
    resid_district: "",
    resid_city: "London",
    resid_state: "",
    resid_country: "GB",
    resid_zipcode: "SW1Y 4JH",
  },
};

describe("compliance records", () => {
  it("each encoder's output reads back through its decoder", () => {
    for (const b of [true, false]) expect(decodeUsResident(encodeUsResident(b))).toBe(b);
    expect(decodeFrozen(encodeFrozen())).toBe(true);
    expect(decodeFrozen({ frozen: "yes" })).toBeNull();
    expect(decodeKycSubmission(encodeKycSubmission(SUBMISSION))).toEqual(SUBMISSION);
    const record: KycRecord = {
      status: "rejected",
      kind: "individual",
      level: 3,
      submittedAt: 1,
      decidedAt: 2,
      reason: "blurred",
      firstName: "Ada",
      lastName: "Lovelace",
      corporateName: null,
      country: "GB",
      usResident: false,
    };
    expect(decodeKycRecord(encodeKycRecord(record))).toEqual(record);
    expect(decodeKycRecord({ ...record, status: "maybe" })).toBeNull();
  });

  it("a verification refusal reads back into the dialog's facts", () => {
    for (const g of [
      { action: "deposit", needed: 1, current: 0 },
      { action: "withdraw", needed: 2, current: 1 },
      { action: "margin", needed: 2, current: 1 },
    ] as LevelGate[])
      expect(levelGateOf(levelGateMessage(g))).toEqual(g);
    expect(levelGateOf("amount: invalid")).toBeNull();
  });

  it("checks a submission field by field", () => {
    expect(kycProblems(SUBMISSION)).toEqual({});
    expect(kycProblems({ ...SUBMISSION, data: { ...SUBMISSION.data, full_corporate_name: " " } })).toEqual({
      full_corporate_name: "required",
    });
    expect(kycProblems({ ...SUBMISSION, level: 4 as 3, data: { ...SUBMISSION.data, resid_country: "gbr" } })).toEqual({
      level: "level",
      resid_country: "country",
    });
  });

  it("the margin level follows the account's opening date", () => {
    expect(marginLevelNeeded(Date.UTC(2021, 11, 31))).toBe(0);
    expect(marginLevelNeeded(Date.UTC(2022, 0, 1))).toBe(1);
    expect(marginLevelNeeded(Date.UTC(2022, 2, 2))).toBe(2);
  });
});
