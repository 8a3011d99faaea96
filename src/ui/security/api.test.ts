import { describe, expect, it } from "vitest";
import { encodeApiError, INFO_CODES } from "../../protocol";
import { securityErrorOf } from "./api";

describe("securityErrorOf, for what the app tells once", () => {
  it("leaves the rate limit and maintenance to the app-wide notices", () => {
    expect(securityErrorOf(429, ["error", 11010, "ratelimit: error"])).toBe("rate-limited");
    expect(securityErrorOf(503, encodeApiError(INFO_CODES.MAINTENANCE_START, "platform: maintenance"))).toBe(
      "maintenance",
    );
  });
});

describe("securityErrorOf", () => {
  it("sorts the exchange's refusals into what the security page says", () => {
    const e = (msg: string): unknown => ["error", 10100, msg];
    expect(securityErrorOf(0, null)).toBe("unreachable");
    expect(securityErrorOf(400, e("password: invalid"))).toBe("password");
    expect(securityErrorOf(400, e("email code: invalid"))).toBe("email-code");
    expect(securityErrorOf(400, e("otp: current code required"))).toBe("code");
    expect(securityErrorOf(400, e("otp: invalid"))).toBe("code");
    expect(securityErrorOf(400, e("otp: too many attempts, try again later"))).toBe("too-many");
    expect(securityErrorOf(400, ["error", 10020, "name: invalid"])).toBe("name");
    expect(securityErrorOf(400, ["error", 10020, "key: already registered"])).toBe("key-exists");
    expect(securityErrorOf(400, e("key: not verified"))).toBe("key");
    expect(securityErrorOf(400, ["error", 10020, "origin: not allowed"])).toBe("key");
    expect(securityErrorOf(400, ["error", 10020, "session: not found"])).toBe("session-gone");
    expect(securityErrorOf(500, ["error", 10001, "internal error"])).toBe("server");
    expect(securityErrorOf(502, "<html>")).toBe("server");
  });
});
