import { describe, expect, it } from "vitest";
import { levelGateMessage } from "./compliance";
import {
  checkWithdrawalAmount,
  encodeWithdrawRequest,
  readTravelRule,
  TRAVEL_RULE_THRESHOLD_USD,
  travelRuleInfoCodec,
  VASPS,
  WITHDRAW_REFUSALS,
  withdrawalCancellable,
  withdrawalConfirmCheckCodec,
  withdrawalDailyLimitUsd,
  withdrawalMethodInfo,
  WITHDRAWAL_METHODS,
  withdrawalStateCodec,
  withdrawInfoCodec,
  withdrawRefusalOf,
  type WithdrawalMethodInfo,
  type WithdrawInfo,
} from "./withdrawals";

const btc = withdrawalMethodInfo("BITCOIN") as WithdrawalMethodInfo;
const xrp = withdrawalMethodInfo("ripple") as WithdrawalMethodInfo;

describe("withdrawal methods", () => {
  it("cover every network with its fee below its minimum", () => {
    expect(WITHDRAWAL_METHODS.map((m) => [m.method, m.currency, m.fee, m.minimum])).toEqual([
      ["bitcoin", "BTC", 0.0004, 0.0005],
      ["ethereum", "ETH", 0.0024, 0.005],
      ["litecoin", "LTC", 0.001, 0.01],
      ["ripple", "XRP", 0.1, 1],
      ["solana", "SOL", 0.01, 0.05],
    ]);
    for (const m of WITHDRAWAL_METHODS) expect(m.fee, m.method).toBeLessThan(m.minimum);
    expect(withdrawalMethodInfo("dogecoin")).toBeUndefined();
    expect(withdrawalMethodInfo(7)).toBeUndefined();
  });

  it("limit each level over 24 hours, nothing below level 2", () => {
    expect([0, 1, 2, 3].map(withdrawalDailyLimitUsd)).toEqual([0, 0, 50_000, 1_000_000]);
    expect(TRAVEL_RULE_THRESHOLD_USD).toBe(1000);
  });
});

describe("checkWithdrawalAmount", () => {
  it("takes plain decimals and JSON numbers at or above the minimum", () => {
    for (const v of ["0.0005", "1", " 2.5 ", 0.0005, 3, "0.12345678", "1.000000000"])
      expect(checkWithdrawalAmount(v, btc), String(v)).toBeNull();
    expect(checkWithdrawalAmount("1", xrp)).toBeNull();
  });

  it("refuses what is not a plain positive number", () => {
    for (const v of ["NaN", "Infinity", "-1", "-0.5", "+1", "1e3", "1E-3", "0x10", "", " ", "1,5", "abc", "0", "0.0"])
      expect(checkWithdrawalAmount(v, btc), JSON.stringify(v)).toBe("invalid");
    for (const v of [Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 1e12, null, undefined, {}, [1], true])
      expect(checkWithdrawalAmount(v, btc), JSON.stringify(v) ?? "undefined").toBe("invalid");
  });

  it("refuses more than 8 decimals, and below the method's minimum", () => {
    expect(checkWithdrawalAmount("0.123456789", btc)).toBe("precision");
    expect(checkWithdrawalAmount(1e-9, btc)).toBe("precision");
    expect(checkWithdrawalAmount("0.00049999", btc)).toBe("below-minimum");
    expect(checkWithdrawalAmount(0.0004, btc)).toBe("below-minimum");
    expect(checkWithdrawalAmount("0.99999999", xrp)).toBe("below-minimum");
  });
});

describe("the travel rule", () => {
  const self = { type: "self" } as const;
  it("reads a beneficiary with a self-hosted attestation or a known provider", () => {
    expect(readTravelRule({ beneficiary: self, destination: { type: "self_hosted", attested: true } })).toEqual({
      beneficiary: self,
      destination: { type: "self_hosted", attested: true },
    });
    const third = { type: "third_party", name: " Ann Example ", country: "de" };
    expect(readTravelRule({ beneficiary: third, destination: { type: "vasp", vasp: "kraken" } })).toEqual({
      beneficiary: { type: "third_party", name: "Ann Example", country: "DE" },
      destination: { type: "vasp", vasp: "kraken" },
    });
  });

  it("refuses other shapes, and names an unknown provider", () => {
    for (const v of [
      null,
      "self",
      [],
      { beneficiary: self },
      { beneficiary: self, destination: { type: "self_hosted" } },
      { beneficiary: self, destination: { type: "self_hosted", attested: "yes" } },
      { beneficiary: { type: "third_party", name: "", country: "DE" }, destination: { type: "vasp", vasp: "kraken" } },
      {
        beneficiary: { type: "third_party", name: "A", country: "Germany" },
        destination: { type: "vasp", vasp: "kraken" },
      },
      { beneficiary: self, destination: { type: "vasp" } },
      { beneficiary: self, destination: { type: "bank", vasp: "kraken" } },
    ])
      expect(readTravelRule(v), JSON.stringify(v)).toBe("invalid");
    expect(readTravelRule({ beneficiary: self, destination: { type: "vasp", vasp: "nowhere" } })).toBe("vasp");
  });

  it("has providers with unique slugs and country codes", () => {
    expect(new Set(VASPS.map((v) => v.id)).size).toBe(VASPS.length);
    for (const v of VASPS) expect(v.country).toMatch(/^[A-Z]{2}$/);
  });
});

describe("refusals", () => {
  it("map every message back to its name, and the level gate to level", () => {
    for (const [k, v] of Object.entries(WITHDRAW_REFUSALS)) if (k !== "level") expect(withdrawRefusalOf(v)).toBe(k);
    expect(withdrawRefusalOf(levelGateMessage({ action: "withdraw", needed: 2, current: 1 }))).toBe("level");
    expect(withdrawRefusalOf(levelGateMessage({ action: "deposit", needed: 1, current: 0 }))).toBeNull();
    expect(withdrawRefusalOf("something else")).toBeNull();
    expect(new Set(Object.values(WITHDRAW_REFUSALS)).size).toBe(Object.keys(WITHDRAW_REFUSALS).length);
  });
});

describe("bodies", () => {
  it("encode a request leaving empty optional fields out", () => {
    expect(
      encodeWithdrawRequest({
        wallet: "exchange",
        method: "bitcoin",
        amount: " 0.01 ",
        address: " bc1q ",
        paymentId: "",
        note: "",
        requestId: "req-12345",
        code: "123 456",
        travelRule: null,
      }),
    ).toEqual({
      wallet: "exchange",
      method: "bitcoin",
      amount: "0.01",
      address: "bc1q",
      request_id: "req-12345",
      code: "123456",
    });
  });

  it("round-trip info, travel-rule info, states and confirmation checks; refuse malformed ones", () => {
    const info: WithdrawInfo = {
      method: "bitcoin",
      currency: "BTC",
      fee: 0.0004,
      minimum: 0.0005,
      level: { current: 2, needed: 2 },
      dailyLimitUsd: 50_000,
      usedUsd: 10,
      remaining: 1.2,
      usdRate: 40_000,
      travelRuleThresholdUsd: 1000,
      secondFactor: "otp",
      mailConfirmation: true,
      available: { exchange: 1, margin: 0, funding: 0 },
    };
    expect(withdrawInfoCodec.decode(JSON.parse(JSON.stringify(withdrawInfoCodec.encode(info))))).toEqual(info);
    expect(withdrawInfoCodec.decode({ ...withdrawInfoCodec.encode(info), secondFactor: "u2f" })).toBeNull();
    expect(withdrawInfoCodec.decode({ ...withdrawInfoCodec.encode(info), available: {} })).toBeNull();
    const tr = { entry: { label: "Cold", beneficiary: { type: "self" as const } }, vasps: VASPS };
    expect(travelRuleInfoCodec.decode(travelRuleInfoCodec.encode(tr))).toEqual(tr);
    expect(travelRuleInfoCodec.decode({ entry: null, vasps: [] })).toEqual({ entry: null, vasps: [] });
    expect(travelRuleInfoCodec.decode({ entry: { label: "x" }, vasps: [] })).toBeNull();
    expect(withdrawalStateCodec.decode(withdrawalStateCodec.encode({ id: 3, status: "PENDING" }))).toEqual({
      id: 3,
      status: "PENDING",
    });
    expect(withdrawalStateCodec.decode({ id: 3, status: "LOST" })).toBeNull();
    const check = { id: 4, currency: "BTC", amount: 0.5, address: "bc1q", status: "UNCONFIRMED" as const };
    expect(withdrawalConfirmCheckCodec.decode(withdrawalConfirmCheckCodec.encode(check))).toEqual(check);
    expect(withdrawalConfirmCheckCodec.decode({ ...check, amount: "0.5" })).toBeNull();
  });

  it("cancel only while unconfirmed or pending", () => {
    expect(["UNCONFIRMED", "PENDING", "PROCESSING", "COMPLETED", "CANCELED"].map(withdrawalCancellable)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
