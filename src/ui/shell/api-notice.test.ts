import { beforeEach, describe, expect, it } from "vitest";
import { encodeApiError, ERROR_CODES, INFO_CODES } from "../../protocol";
import {
  apiErrorKind,
  apiNotice,
  DEFAULT_RETRY_MS,
  rateLimitSecondsLeft,
  reportApiReply,
  retryAfterMs,
} from "./api-notice";
import { maintenance } from "./maintenance";

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);

beforeEach(() => {
  apiNotice.rateLimitedUntil = null;
  maintenance.active = false;
});

describe("when to retry after a 429", () => {
  it("reads Retry-After in seconds or as an HTTP date, else the body's wait, else a minute", () => {
    expect(retryAfterMs("17", null, NOW)).toBe(17_000);
    expect(retryAfterMs(new Date(NOW + 90_000).toUTCString(), null, NOW)).toBe(90_000);
    expect(retryAfterMs(null, { error: "ERR_RATE_LIMIT", wait: 5 }, NOW)).toBe(5000);
    expect(retryAfterMs(null, { error: "ERR_RATE_LIMIT" }, NOW)).toBe(DEFAULT_RETRY_MS);
    expect(retryAfterMs("soon", null, NOW)).toBe(DEFAULT_RETRY_MS);
    // Never less than a second, never more than a quarter of an hour.
    expect(retryAfterMs("0", null, NOW)).toBe(1000);
    expect(retryAfterMs("999999", null, NOW)).toBe(15 * 60_000);
  });

  it("sets one app-wide notice; a later 429 extends it, never shortens it", () => {
    reportApiReply(429, { error: "ERR_RATE_LIMIT" }, "30", NOW);
    expect(rateLimitSecondsLeft(apiNotice, NOW)).toBe(30);
    reportApiReply(429, { error: "ERR_RATE_LIMIT" }, "5", NOW + 1000);
    expect(rateLimitSecondsLeft(apiNotice, NOW + 1000)).toBe(29);
    expect(rateLimitSecondsLeft(apiNotice, NOW + 31_000)).toBe(0);
  });

  it("leaves other replies to their forms, and turns a maintenance answer into the maintenance notice", () => {
    reportApiReply(500, encodeApiError(ERROR_CODES.GENERIC, "code: invalid"), null, NOW);
    expect(apiNotice.rateLimitedUntil).toBeNull();
    expect(maintenance.active).toBe(false);
    reportApiReply(503, encodeApiError(INFO_CODES.MAINTENANCE_START, "platform: maintenance"), null, NOW);
    expect(maintenance.active).toBe(true);
  });
});

describe("apiErrorKind", () => {
  it("classifies every reply once for all forms", () => {
    expect(apiErrorKind(0, null)).toBe("unreachable");
    expect(apiErrorKind(429, { error: "ERR_RATE_LIMIT" })).toBe("rate-limited");
    expect(apiErrorKind(500, encodeApiError(ERROR_CODES.AUTH_FAILED, "token: invalid"))).toBe("session");
    expect(apiErrorKind(500, encodeApiError(ERROR_CODES.GENERIC, "label: invalid"))).toBe("refused");
    expect(apiErrorKind(502, null)).toBe("server");
  });
});
