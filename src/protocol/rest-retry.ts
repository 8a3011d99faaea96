/**
 * The one retry rule for exchange calls, on every thread (docs/product-rules.md#errors): a 429 is
 * reported (the app-wide notice) and a read is sent again once the server's wait is over; a 10114
 * (nonce too small) gets a fresh nonce and is sent again once. The main thread's `exchangeFetch`
 * (src/ui/shell/api-notice.ts) and the worker's signed and public REST (src/workers/core/rest.ts)
 * both run their calls through `withRetries`; the I/O and the timers are theirs.
 */
import { ERROR_CODES, parseApiError } from "./errors";
import type { Cancel, Timers } from "./scheduler";

/** When the exchange says nothing: its rate limits count in one-minute windows (docs/protocol.md#rest-errors-and-rate-limits). */
export const DEFAULT_RETRY_MS = 60_000;
/** A server asking for more than this is read as this: a notice should not promise next week. */
export const MAX_RETRY_MS = 15 * 60_000;
/**
 * A read refused for the rate is sent again at most this many times: a server still refusing after
 * its own wait is saying more than "wait", and the caller then gets the 429.
 */
export const MAX_RATE_LIMIT_RETRIES = 2;
/**
 * A read is sent again by itself only when the server's wait is at most this: a page waiting longer
 * looks broken, and the notice already says when the exchange will answer again.
 */
export const MAX_AUTO_RETRY_MS = 60_000;

/** How long to wait after a 429, from the `Retry-After` header (seconds or an HTTP date) or a `wait` in the body (seconds). */
export function retryAfterMs(header: string | null, body: unknown, now: number): number {
  const text = header?.trim() ?? "";
  let ms: number | null = null;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text !== "") {
    const at = Date.parse(text);
    if (Number.isFinite(at)) ms = at - now;
  }
  if (ms === null && typeof body === "object" && body !== null) {
    const wait = (body as Record<string, unknown>)["wait"];
    if (typeof wait === "number" && Number.isFinite(wait) && wait >= 0) ms = wait * 1000;
  }
  if (ms === null || !Number.isFinite(ms)) return DEFAULT_RETRY_MS;
  return Math.min(MAX_RETRY_MS, Math.max(1000, ms));
}

/**
 * Whether a call only reads, so sending it again cannot do anything twice: a GET, or an
 * authenticated read (`/v2/auth/r/…`, docs/protocol.md#authenticated-calls), or a public
 * calculation (`/v2/calc/…`). Everything else — every `w/` call, a login, a sign-up — is a write.
 */
export function isReadCall(method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (m === "GET" || m === "HEAD") return true;
  const p = path.replace(/^[a-z]+:\/\/[^/]+/i, "");
  return /^\/v2\/auth\/r\//.test(p) || /^\/v2\/calc\//.test(p);
}

/** What a sent call came back with, as far as the retry rule reads it. */
export interface CallReply {
  readonly status: number;
  /** The `Retry-After` header, if any. */
  readonly retryAfter: string | null;
  /** The parsed JSON body (null when there was none or it was not read). */
  readonly body: unknown;
}

export interface RetryOptions {
  readonly timers: Pick<Timers, "after" | "now">;
  /**
   * Whether a 429 may be answered by sending the call again. Only reads: a 429 is answered before
   * the exchange runs anything, so a refused write was not applied either — but replaying an order,
   * a transfer or a withdrawal up to a minute after it was clicked would act on a market and a
   * balance its author no longer sees. The write comes back to its form, which keeps what was
   * typed, and the notice says when it can be sent again.
   */
  readonly retryRateLimit: boolean;
  /** Every 429, before any wait: the app-wide notice. */
  readonly onRateLimited?: (retryAfter: string | null, body: unknown, now: number) => void;
  /**
   * Takes the next nonce from the clock and above every nonce used so far; present only when the
   * call is signed with a key's nonce. A 10114 is answered at the signature check, before
   * anything runs (docs/protocol.md#authenticated-rest), so a call refused with it — a read or a
   * write — was not applied and is sent again once with a fresh nonce: usually a call signed later
   * overtook it on the way.
   */
  readonly resetNonce?: () => void;
  /** Wakes a wait early (the caller's abort); the wait then ends with this error. */
  readonly onAbort?: (abort: (reason: unknown) => void) => Cancel;
}

/** Sends `send` until its reply needs no retry under the rules above, and answers the last reply. */
export async function withRetries<R extends CallReply>(send: () => Promise<R>, o: RetryOptions): Promise<R> {
  let rateRetries = 0;
  let nonceRetried = false;
  for (;;) {
    const reply = await send();
    if (reply.status === 429) {
      const now = o.timers.now();
      o.onRateLimited?.(reply.retryAfter, reply.body, now);
      if (!o.retryRateLimit || rateRetries >= MAX_RATE_LIMIT_RETRIES) return reply;
      const ms = retryAfterMs(reply.retryAfter, reply.body, now);
      if (ms > MAX_AUTO_RETRY_MS) return reply;
      rateRetries++;
      await wait(o, ms);
      continue;
    }
    if (o.resetNonce && !nonceRetried && parseApiError(reply.body)?.code === ERROR_CODES.AUTH_NONCE) {
      nonceRetried = true;
      o.resetNonce();
      continue;
    }
    return reply;
  }
}

function wait(o: RetryOptions, ms: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let stopAbort: Cancel = () => {};
    const cancel = o.timers.after(ms, () => {
      stopAbort();
      resolve();
    });
    if (o.onAbort)
      stopAbort = o.onAbort((reason) => {
        cancel();
        // An abort's reason is the caller's (a DOMException, an Error); anything else is wrapped.
        reject(reason instanceof Error ? reason : new Error(String(reason)));
      });
  });
}
