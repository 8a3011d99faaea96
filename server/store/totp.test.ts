import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, otpauthUrl, totp, verifyTotp } from "./totp.ts";

describe("TOTP", () => {
  it("matches the RFC 6238 SHA-1 test vectors", () => {
    const secret = base32Encode(Buffer.from("12345678901234567890"));
    expect(totp(secret, 59_000)).toBe("287082");
    expect(totp(secret, 1_111_111_109_000)).toBe("081804");
    expect(totp(secret, 1_234_567_890_000)).toBe("005924");
    expect(totp(secret, 2_000_000_000_000)).toBe("279037");
  });

  it("round-trips base32, accepts one step of drift, refuses others", () => {
    expect(base32Decode(base32Encode(Buffer.from("hello world!"))).toString()).toBe("hello world!");
    const secret = base32Encode(Buffer.from("12345678901234567890"));
    const now = 1_700_000_000_000;
    expect(verifyTotp(secret, totp(secret, now - 30_000), now)).toBe(true);
    expect(verifyTotp(secret, totp(secret, now - 90_000), now)).toBe(false);
    expect(verifyTotp(secret, "000000", now)).toBe(totp(secret, now) === "000000");
    expect(otpauthUrl(secret, "demo", "Orderflow", new Date(0))).toBe(
      `otpauth://totp/Orderflow%201970-01-01%3Ademo?secret=${secret}&issuer=Orderflow`,
    );
  });
});
