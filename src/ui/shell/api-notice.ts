/**
 * The app-wide handling of the exchange's refusals that are not one form's business
 * (docs/product-rules.md#errors): HTTP 429 becomes one notice with when to retry — the server's
 * `Retry-After` (seconds or an HTTP date), else a `wait` in the body (seconds), else the one-minute
 * window the exchange counts in — shown by `ApiNotice` whatever page made the call, and a read is
 * sent again once that wait is over (`withRetries` in src/protocol: the same rule the worker's REST
 * follows). Every main-thread call to the exchange goes through `exchangeFetch` here — the session's
 * transport (src/ui/session/session.ts `browserHttp`), the desk's chart history, layouts and order
 * history, the report downloads, the platform status and the cookie banner's country lookup — and
 * the worker reports its own 429s through the market bridge, so one notice speaks for all of them.
 * Session-invalid answers are the session's forced logout; maintenance is `maintenance.ts`'s
 * notice; any other API error goes back to the form that made the call, which words it with
 * `apiErrorKind` (and an error code with `error-message.ts`).
 */
import { proxy } from "valtio";
import { errorAction, isReadCall, parseApiError, retryAfterMs, withRetries, type Timers } from "../../protocol";
import { appScheduler } from "../scheduler";
import { setMaintenance } from "./maintenance";

export { DEFAULT_RETRY_MS, retryAfterMs } from "../../protocol";

export interface ApiNoticeState {
  /** Epoch ms from which calls may be tried again; null when no rate limit is in force. */
  rateLimitedUntil: number | null;
}

export const apiNotice: ApiNoticeState = proxy({ rateLimitedUntil: null });

/**
 * Takes in a reply of any exchange call (status, parsed body, `Retry-After` header): a 429 sets the
 * rate-limit notice (a later limit extends it, never shortens it), a maintenance answer the
 * maintenance notice.
 */
export function reportApiReply(status: number, body: unknown, retryAfter: string | null, now: number): void {
  const action = errorAction(status, body);
  if (status === 429) {
    const until = now + retryAfterMs(retryAfter, body, now);
    apiNotice.rateLimitedUntil = Math.max(apiNotice.rateLimitedUntil ?? 0, until);
  } else if (status >= 400 && action.kind === "maintenance") setMaintenance(true);
}

export interface ExchangeFetchOptions {
  /** The transport (tests pass a fake); the page's `fetch` by default. */
  readonly fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** The clock and timers of the waits; the app's scheduler by default. */
  readonly timers?: Pick<Timers, "after" | "now">;
  /** The longest one attempt may take (the waits between attempts not counted); none by default. */
  readonly timeoutMs?: number;
}

/**
 * `fetch` for a call to the exchange: every 429 sets the app-wide notice, and a read
 * (`isReadCall`: a GET, an `auth/r/` or `calc` POST) is sent again after the server's wait — at most
 * twice — so the page that made it fills in by itself; a write gets its 429 back. A maintenance
 * answer turns the maintenance notice on. The caller's `signal` also ends a wait.
 */
export async function exchangeFetch(
  input: RequestInfo | URL,
  init: RequestInit = {},
  o: ExchangeFetchOptions = {},
): Promise<Response> {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const timers = o.timers ?? appScheduler;
  const send = o.fetch ?? ((i: string, n: RequestInit) => fetch(i, n));
  const outer = init.signal ?? null;
  const reply = await withRetries(
    async () => {
      const res = await attempt(send, url, init, timers, o.timeoutMs);
      const body = res.status >= 400 ? await jsonOf(res.clone()) : null;
      if (res.status !== 429) reportApiReply(res.status, body, null, timers.now());
      return { status: res.status, retryAfter: res.headers.get("retry-after"), body, res };
    },
    {
      timers,
      retryRateLimit: isReadCall(init.method ?? "GET", url),
      onRateLimited: (retryAfter, body, now) => reportApiReply(429, body, retryAfter, now),
      ...(outer
        ? {
            onAbort: (abort: (reason: unknown) => void) => {
              if (outer.aborted) {
                abort(outer.reason);
                return () => {};
              }
              const listener = (): void => abort(outer.reason);
              outer.addEventListener("abort", listener, { once: true });
              return () => outer.removeEventListener("abort", listener);
            },
          }
        : {}),
    },
  );
  return reply.res;
}

/** One attempt, aborted by the caller's signal or by its own time limit. */
async function attempt(
  send: (input: string, init: RequestInit) => Promise<Response>,
  input: string,
  init: RequestInit,
  timers: Pick<Timers, "after">,
  timeoutMs: number | undefined,
): Promise<Response> {
  if (timeoutMs === undefined) return send(input, init);
  const controller = new AbortController();
  const outer = init.signal;
  const forward = (): void => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  outer?.addEventListener("abort", forward, { once: true });
  const cancel = timers.after(timeoutMs, () => controller.abort());
  try {
    return await send(input, { ...init, signal: controller.signal });
  } finally {
    cancel();
    outer?.removeEventListener("abort", forward);
  }
}

async function jsonOf(res: Response): Promise<unknown> {
  try {
    const text = await res.text();
    return text === "" ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/** Whole seconds left of the rate limit at `now` (0: none in force). */
export function rateLimitSecondsLeft(state: Pick<ApiNoticeState, "rateLimitedUntil">, now: number): number {
  return state.rateLimitedUntil === null ? 0 : Math.max(0, Math.ceil((state.rateLimitedUntil - now) / 1000));
}

export function dismissRateLimit(): void {
  apiNotice.rateLimitedUntil = null;
}

/**
 * What a form tells its user about a failed call, by kind: `rate-limited` and `session` are
 * already shown app-wide (the notice, the forced logout), so a form says nothing more for them.
 */
export type ApiErrorKind = "rate-limited" | "session" | "maintenance" | "unreachable" | "server" | "refused";

/**
 * The failures the app tells once for every page — the rate-limit notice with its countdown and the
 * maintenance notice — so a form beside the call adds nothing of its own (or, for maintenance, the
 * one shared sentence of `useApiErrorText`). Not 10100: the security calls answer a wrong password
 * or code with it, which is the form's to say.
 */
export type AppWideError = Extract<ApiErrorKind, "rate-limited" | "maintenance">;

export function appWideError(status: number, body: unknown): AppWideError | null {
  if (status === 429) return "rate-limited";
  return apiErrorKind(status, body) === "maintenance" ? "maintenance" : null;
}

/** Classifies a reply (status 0: the exchange could not be reached). */
export function apiErrorKind(status: number, body: unknown): ApiErrorKind {
  if (status === 0) return "unreachable";
  const action = errorAction(status, body);
  switch (action.kind) {
    case "rate-limited":
      return "rate-limited";
    case "session-invalid":
      return "session";
    case "maintenance":
      return "maintenance";
    case "retry-nonce":
      return "server";
    case "unknown-api-error":
      return parseApiError(body) === null ? "server" : "refused";
    default: {
      const never: never = action;
      return never;
    }
  }
}
