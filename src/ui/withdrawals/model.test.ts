import { describe, expect, it } from "vitest";
import {
  WITHDRAW_REFUSALS,
  withdrawalMethodInfo,
  type WithdrawalMethodInfo,
  type WithdrawRefusal,
} from "../../protocol";
import {
  amountProblem,
  fieldOfRefusal,
  maxUnits,
  receiveUnits,
  RequestIds,
  textOfUnits,
  travelRuleNeeded,
  unitsOf,
  usdValue,
} from "./model";

const method = (name: string): WithdrawalMethodInfo => {
  const m = withdrawalMethodInfo(name);
  if (!m) throw new Error(`no method ${name}`);
  return m;
};
const BTC = method("bitcoin");
const XRP = method("ripple");

describe("amount arithmetic in units of 1e-8", () => {
  it("reads decimal text exactly and writes it back without trailing zeros", () => {
    expect(unitsOf("0.3")).toBe(30_000_000n);
    expect(unitsOf(" 1.50000000 ")).toBe(150_000_000n);
    expect(unitsOf(".5")).toBe(50_000_000n);
    expect(unitsOf("0.000000001")).toBeNull();
    expect(unitsOf("1e3")).toBeNull();
    expect(unitsOf("")).toBeNull();
    expect(unitsOf(".")).toBeNull();
    expect(textOfUnits(30_000_000n)).toBe("0.3");
    expect(textOfUnits(200_000_000n)).toBe("2");
    expect(textOfUnits(1n)).toBe("0.00000001");
  });

  it("receives the amount less the fee, exactly", () => {
    // 0.3 − 0.1 in floats is 0.19999999999999998: counted in units it is 0.2.
    expect(textOfUnits(receiveUnits("1.3", XRP.fee) ?? 0n)).toBe("1.2");
    expect(textOfUnits(receiveUnits("0.0005", BTC.fee) ?? 0n)).toBe("0.0001");
    expect(receiveUnits("0.0004", BTC.fee)).toBeNull();
    expect(receiveUnits("abc", BTC.fee)).toBeNull();
  });

  it("offers at most the smaller of the available amount and what is left of the daily limit", () => {
    expect(textOfUnits(maxUnits(0.5, 2.25))).toBe("0.5");
    expect(textOfUnits(maxUnits(3, 0.123456789))).toBe("0.12345678");
    // Without a rate the limit is unknown: the wallet decides.
    expect(textOfUnits(maxUnits(0.3, null))).toBe("0.3");
    expect(maxUnits(1, 0)).toBe(0n);
    expect(maxUnits(-1, null)).toBe(0n);
  });
});

describe("the travel rule", () => {
  it("is needed from the threshold's USD value on, and unknown without a rate", () => {
    expect(usdValue("0.02", 50_000)).toBe(1000);
    expect(travelRuleNeeded("0.02", 50_000, 1000)).toBe(true);
    expect(travelRuleNeeded("0.01999999", 50_000, 1000)).toBe(false);
    expect(travelRuleNeeded("5", null, 1000)).toBe(false);
    expect(travelRuleNeeded("nonsense", 50_000, 1000)).toBe(false);
  });
});

describe("the amount's problems before sending", () => {
  it("applies the exchange's text rules and the method's minimum first", () => {
    expect(amountProblem("", BTC, 1, null)).toBe("invalid");
    expect(amountProblem("-1", BTC, 1, null)).toBe("invalid");
    expect(amountProblem("0.123456789", BTC, 1, null)).toBe("precision");
    expect(amountProblem("0.0004", BTC, 1, null)).toBe("below-minimum");
    expect(amountProblem("0.0005", BTC, 1, null)).toBeNull();
  });

  it("then the available amount, then the daily limit", () => {
    expect(amountProblem("0.6", BTC, 0.5, null)).toBe("insufficient");
    expect(amountProblem("0.5", BTC, 0.5, null)).toBeNull();
    expect(amountProblem("0.3", BTC, 0.5, 0.2)).toBe("daily-limit");
    expect(amountProblem("0.2", BTC, 0.5, 0.2)).toBeNull();
    // Over both: the wallet is named first (topping it up would not lift the limit, but it is the first fix).
    expect(amountProblem("0.7", BTC, 0.5, 0.2)).toBe("insufficient");
  });
});

describe("which field a refusal is shown beside", () => {
  it("puts every refusal of the exchange somewhere", () => {
    const fields = Object.keys(WITHDRAW_REFUSALS).map((r) => fieldOfRefusal(r as WithdrawRefusal));
    expect(fields.every((f) => typeof f === "string")).toBe(true);
  });

  it("sends amount, address, code and travel-rule refusals to their fields", () => {
    expect(fieldOfRefusal("belowMinimum")).toBe("amount");
    expect(fieldOfRefusal("insufficient")).toBe("amount");
    expect(fieldOfRefusal("dailyLimit")).toBe("amount");
    expect(fieldOfRefusal("whitelist")).toBe("address");
    expect(fieldOfRefusal("address")).toBe("address");
    expect(fieldOfRefusal("paymentId")).toBe("payment-id");
    expect(fieldOfRefusal("secondFactorWrong")).toBe("code");
    expect(fieldOfRefusal("travelRuleRequired")).toBe("travel-rule");
    expect(fieldOfRefusal("level")).toBe("level");
    expect(fieldOfRefusal("withdrawalsOff")).toBe("form");
    expect(fieldOfRefusal("cancelTooLate")).toBe("history");
    expect(fieldOfRefusal("confirmLink")).toBe("confirm");
  });
});

describe("request ids", () => {
  it("keeps the id while the same withdrawal is retried, and takes a new one after a change or success", () => {
    let n = 0;
    const ids = new RequestIds(() => `request-${++n}`);
    expect(ids.for("a")).toBe("request-1");
    expect(ids.for("a")).toBe("request-1");
    expect(ids.for("b")).toBe("request-2");
    ids.done();
    expect(ids.for("b")).toBe("request-3");
  });
});
