import { describe, expect, it } from "vitest";
import { otpauthUrl, totp, totpStep, verifyTotp } from "./totp.ts";

/** "12345678901234567890" in base32: the RFC 6238 SHA-1 test key. */
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("TOTP", () => {
  it("matches the RFC 6238 SHA-1 test vectors", () => {
    expect(totp(RFC_SECRET, 59_000)).toBe("287082");
    expect(totp(RFC_SECRET, 1_111_111_109_000)).toBe("081804");
    expect(totp(RFC_SECRET, 1_234_567_890_000)).toBe("005924");
    expect(totp(RFC_SECRET, 2_000_000_000_000)).toBe("279037");
  });

  it("accepts one step of drift, refuses others, and names the step a code belongs to", () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 30_000), now)).toBe(true);
    expect(totpStep(RFC_SECRET, totp(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
    expect(totpStep(RFC_SECRET, totp(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
    expect(verifyTotp(RFC_SECRET, totp(RFC_SECRET, now - 90_000), now)).toBe(false);
    expect(verifyTotp(RFC_SECRET, `${totp(RFC_SECRET, now)}0`, now)).toBe(false);
    expect(verifyTotp(RFC_SECRET, ` ${totp(RFC_SECRET, now)}`, now)).toBe(false);
    expect(otpauthUrl(RFC_SECRET, "demo", "Orderflow", new Date(0))).toBe(
      `otpauth://totp/Orderflow%201970-01-01%3Ademo?secret=${RFC_SECRET}&issuer=Orderflow`,
    );
  });
});
