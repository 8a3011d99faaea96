import { describe, expect, it } from "vitest";
import { encodeApiError, INFO_CODES } from "../../protocol";
import { factorErrorOf } from "./factor-api";
import { phoneE164 } from "./phone";

describe("factorErrorOf", () => {
  it("sorts the exchange's SMS and PGP refusals into what the page says", () => {
    const e = (msg: string): unknown => ["error", 10020, msg];
    expect(factorErrorOf(0, null)).toBe("unreachable");
    expect(factorErrorOf(400, e("phone: invalid"))).toBe("phone");
    expect(factorErrorOf(400, e("password: invalid"))).toBe("password");
    expect(factorErrorOf(400, e("otp: current code required"))).toBe("otp");
    expect(factorErrorOf(400, e("sms: code invalid"))).toBe("code");
    expect(factorErrorOf(400, e("sms: code expired, ask for a new one"))).toBe("code-expired");
    expect(factorErrorOf(400, e("sms: too many attempts, try again later"))).toBe("too-many");
    expect(factorErrorOf(400, e("sms: wait before asking for another code"))).toBe("wait");
    expect(factorErrorOf(400, e("sms: too many messages, try again later"))).toBe("texts");
    expect(factorErrorOf(400, e("key: private key, paste the public key"))).toBe("key-private");
    expect(factorErrorOf(400, e("key: expired"))).toBe("key-expired");
    expect(factorErrorOf(400, e("key: revoked"))).toBe("key-revoked");
    expect(factorErrorOf(400, e("key: not an OpenPGP public key"))).toBe("key-invalid");
    expect(factorErrorOf(400, e("key: no encryption key"))).toBe("key-no-encryption");
    expect(factorErrorOf(400, e("key: code invalid"))).toBe("key-code");
    expect(factorErrorOf(400, e("key: nothing to confirm"))).toBe("key-nothing");
    // A message not known here (or an own property of Object.prototype) is the exchange's problem.
    expect(factorErrorOf(400, e("constructor"))).toBe("server");
    expect(factorErrorOf(500, ["error", 10001, "internal error"])).toBe("server");
  });

  it("leaves what the app tells once for all pages to it: the rate limit and maintenance", () => {
    expect(factorErrorOf(429, ["error", 11010, "ratelimit: error"])).toBe("rate-limited");
    expect(factorErrorOf(503, encodeApiError(INFO_CODES.MAINTENANCE_START, "platform: maintenance"))).toBe(
      "maintenance",
    );
  });
});

describe("phoneE164", () => {
  it("reads a number by the chosen country's rules, or by its own + prefix", () => {
    expect(phoneE164("07911 123456", "GB")).toBe("+447911123456");
    expect(phoneE164("+1 415 555 2671", "GB")).toBe("+14155552671");
    expect(phoneE164("(415) 555-2671", "US")).toBe("+14155552671");
    // Right length for one country, not a number of the chosen one.
    expect(phoneE164("07911 123456", "US")).toBeNull();
    expect(phoneE164("0791 12", "GB")).toBeNull();
    expect(phoneE164("not a number", "GB")).toBeNull();
  });
});
