import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, INFO_CODES } from "../../protocol";
import { errorCodeMessage, errorCodeText } from "./error-message";

describe("the message for an error code", () => {
  it("words the codes a person can act on, each its own way", () => {
    const known = [
      null,
      ERROR_CODES.PARAMS,
      ERROR_CODES.AUTH_FAILED,
      ERROR_CODES.NOT_READY,
      ERROR_CODES.RATE_LIMIT,
      INFO_CODES.MAINTENANCE_START,
    ];
    const ids = known.map((c) => errorCodeMessage(c).id);
    expect(new Set(ids).size).toBe(known.length);
    // Every code of the sign-in family reads the same.
    expect(errorCodeMessage(ERROR_CODES.AUTH_NONCE).id).toBe(errorCodeMessage(ERROR_CODES.AUTH_FAILED).id);
  });

  it("gives any other code a readable sentence with the code, never the exchange's own text", () => {
    const i18n = setupI18n({ locale: "en", messages: { en: {} } });
    const text = errorCodeText(i18n, 12345);
    expect(text).toContain("12345");
    expect(text).toMatch(/^The exchange refused/);
    expect(errorCodeMessage(54321).id).toBe(errorCodeMessage(12345).id);
  });
});
