import { describe, expect, it } from "vitest";
import { errorAction, parseApiError } from "./errors";
import {
  abbreviate,
  formatPercent,
  parseTableSorting,
  toFixedCapped,
  toSignificant,
  validBookPrecision,
  validPositiveNumber,
} from "./format";

describe("number formatting (docs/product-rules.md#numbers-and-formats)", () => {
  it("shows 3 decimals under 1% and 2 otherwise", () => {
    expect(formatPercent(0.0012345)).toBe("0.123%");
    expect(formatPercent(-0.0067)).toBe("-0.670%");
    expect(formatPercent(0.0674)).toBe("6.74%");
    expect(formatPercent(-0.2344)).toBe("-23.44%");
  });

  it("abbreviates with k, M, B, T, P, E", () => {
    expect(abbreviate(999)).toBe("999");
    expect(abbreviate(1234)).toBe("1.23k");
    expect(abbreviate(5_000_000_000)).toBe("5B");
    expect(abbreviate(-2.5e12)).toBe("-2.5T");
    expect(abbreviate(7e15)).toBe("7P");
    expect(abbreviate(3e18)).toBe("3E");
    expect(abbreviate(999_999)).toBe("1M");
  });

  it("rounds to 5 significant digits without exponent form, capped at 20 decimals", () => {
    expect(toSignificant(30123.456)).toBe("30123");
    expect(toSignificant(0.000012345678)).toBe("0.000012346");
    expect(toSignificant(7e-7)).toBe("0.00000070000");
    expect(toSignificant(1.23456789e-18, 5)).toBe("0.00000000000000000123");
    expect(toFixedCapped(1 / 3, 50)).toBe((1 / 3).toFixed(20));
    expect(toFixedCapped(2, -1)).toBe("2");
  });

  it("validates book precision and table sorting", () => {
    expect(validBookPrecision("P3")).toBe("P3");
    expect(validBookPrecision("P5")).toBe("P0");
    expect(validBookPrecision("R0")).toBe("P0");
    expect(validBookPrecision(undefined)).toBe("P0");
    expect(parseTableSorting("price-asc")).toEqual({ column: "price", direction: "asc" });
    expect(parseTableSorting("mts_create-desc")).toEqual({ column: "mts_create", direction: "desc" });
    expect(parseTableSorting("price-up")).toBeNull();
    expect(parseTableSorting("price")).toBeNull();
  });

  it("validates positive number inputs", () => {
    expect(validPositiveNumber("", true)).toBe(true);
    expect(validPositiveNumber("", false)).toBe(false);
    expect(validPositiveNumber("0.5", false)).toBe(true);
    expect(validPositiveNumber(".5", false)).toBe(true);
    expect(validPositiveNumber("0", false)).toBe(false);
    expect(validPositiveNumber("-1", false)).toBe(false);
    expect(validPositiveNumber("1e-8", false)).toBe(true);
    expect(validPositiveNumber("abc", false)).toBe(false);
  });
});

describe("error catalogue (docs/product-rules.md#errors)", () => {
  it("maps statuses and codes to the product's reaction", () => {
    expect(errorAction(429, { error: "ERR_RATE_LIMIT" })).toEqual({ kind: "rate-limited" });
    expect(errorAction(500, ["error", 10114, "nonce: small"], "native")).toEqual({ kind: "retry-nonce" });
    expect(errorAction(500, ["error", 10114, "nonce: small"], "web")).toEqual({
      kind: "unknown-api-error",
      errorCode: 10114,
      errorMessage: "nonce: small",
    });
    expect(errorAction(500, ["error", 10100, "apikey: invalid"])).toEqual({ kind: "session-invalid" });
    expect(errorAction(400, ["error", 10001, "token: invalid"])).toEqual({ kind: "session-invalid" });
    expect(errorAction(500, ["error", 20060, "maintenance"])).toEqual({ kind: "maintenance" });
    expect(errorAction(500, "<html>")).toEqual({ kind: "unknown-api-error", errorCode: null, errorMessage: "" });
    expect(parseApiError(["error", 10020, "amount: invalid"])).toEqual({ code: 10020, message: "amount: invalid" });
  });
});
