import { describe, expect, it } from "vitest";
import { encodeApiError, ERROR_CODES } from "./errors";
import { isReadCall, MAX_RATE_LIMIT_RETRIES, withRetries, type CallReply } from "./rest-retry";

/** Timers on a virtual clock: a wait moves it on by its length, then ends. */
function virtual() {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    waits,
    timers: {
      now: () => now,
      after: (ms: number, fn: () => void) => {
        waits.push(ms);
        now += ms;
        queueMicrotask(fn);
        return () => {};
      },
    },
  };
}

const limited: CallReply = { status: 429, retryAfter: "3", body: { error: "ERR_RATE_LIMIT" } };
const ok: CallReply = { status: 200, retryAfter: null, body: [] };
const smallNonce: CallReply = {
  status: 500,
  retryAfter: null,
  body: encodeApiError(ERROR_CODES.AUTH_NONCE, "nonce: small"),
};

function script(...replies: CallReply[]) {
  let sent = 0;
  return {
    send: () => Promise.resolve(replies[Math.min(sent++, replies.length - 1)] as CallReply),
    sent: () => sent,
  };
}

describe("the one retry rule", () => {
  it("tells every 429 and sends a read again after the server's wait, at most twice", async () => {
    const v = virtual();
    const told: (string | null)[] = [];
    const s = script(limited, ok);
    const reply = await withRetries(s.send, {
      timers: v.timers,
      retryRateLimit: true,
      onRateLimited: (retryAfter) => told.push(retryAfter),
    });
    expect(reply).toBe(ok);
    expect(told).toEqual(["3"]);
    expect(v.waits).toEqual([3000]);

    const always = script(limited);
    expect(await withRetries(always.send, { timers: v.timers, retryRateLimit: true })).toBe(limited);
    expect(always.sent()).toBe(1 + MAX_RATE_LIMIT_RETRIES);
  });

  it("gives a read its 429 back when the server asks for more than a minute", async () => {
    const v = virtual();
    const s = script({ ...limited, retryAfter: "61" }, ok);
    expect((await withRetries(s.send, { timers: v.timers, retryRateLimit: true })).status).toBe(429);
    expect(s.sent()).toBe(1);
    expect(v.waits).toEqual([]);
  });

  it("gives a write its 429 back at once", async () => {
    const v = virtual();
    const s = script(limited, ok);
    expect(await withRetries(s.send, { timers: v.timers, retryRateLimit: false })).toBe(limited);
    expect(s.sent()).toBe(1);
    expect(v.waits).toEqual([]);
  });

  it("answers a 10114 with a fresh nonce once, and only for a signed call", async () => {
    const v = virtual();
    let resets = 0;
    const s = script(smallNonce, ok);
    expect(await withRetries(s.send, { timers: v.timers, retryRateLimit: false, resetNonce: () => resets++ })).toBe(ok);
    expect(resets).toBe(1);
    const twice = script(smallNonce, smallNonce, ok);
    expect(await withRetries(twice.send, { timers: v.timers, retryRateLimit: false, resetNonce: () => resets++ })).toBe(
      smallNonce,
    );
    expect(twice.sent()).toBe(2);
    const unsigned = script(smallNonce, ok);
    expect(await withRetries(unsigned.send, { timers: v.timers, retryRateLimit: true })).toBe(smallNonce);
  });

  it("ends a wait when the caller aborts it", async () => {
    const never = { now: () => 0, after: () => () => {} };
    let abort: (reason: unknown) => void = () => {};
    const call = withRetries(script(limited, ok).send, {
      timers: never,
      retryRateLimit: true,
      onAbort: (a) => {
        abort = a;
        return () => {};
      },
    });
    await Promise.resolve();
    await Promise.resolve();
    abort(new Error("left the page"));
    await expect(call).rejects.toThrow("left the page");
  });

  it("reads are GETs, authenticated reads and public calculations; the rest are writes", () => {
    expect(isReadCall("GET", "https://api/v2/candles/trade:1m:tBTCUSD/hist")).toBe(true);
    expect(isReadCall("POST", "https://api/v2/auth/r/wallets")).toBe(true);
    expect(isReadCall("POST", "/v2/calc/fx")).toBe(true);
    expect(isReadCall("POST", "https://api/v2/auth/w/order/submit")).toBe(false);
    expect(isReadCall("POST", "/v2/login")).toBe(false);
    expect(isReadCall("post", "https://api/v2/auth/w/settings/set")).toBe(false);
  });
});
