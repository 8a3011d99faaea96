/**
 * The app-wide handling of the exchange's refusals that are not one form's business
 * (docs/product-rules.md#errors): HTTP 429 becomes one notice with when to retry — the server's
 * `Retry-After` (seconds or an HTTP date), else a `wait` in the body (seconds), else the one-minute
 * window the exchange counts in — shown by `ApiNotice` whatever page made the call. The session's
 * transport (src/ui/session/session.ts `browserHttp`) reports every reply here, so the login page
 * and every signed-in page share it. Session-invalid answers are the session's forced logout;
 * maintenance is `maintenance.ts`'s notice; any other API error goes back to the form that made the
 * call, which words it with `apiErrorKind`.
 */
import { proxy } from "valtio";
import { errorAction, parseApiError } from "../../protocol";
import { setMaintenance } from "./maintenance";

/** When the exchange says nothing: its rate limits count in one-minute windows (server/rate-limit.ts). */
export const DEFAULT_RETRY_MS = 60_000;
/** A server asking for more than this is read as this: a notice should not promise next week. */
const MAX_RETRY_MS = 15 * 60_000;

export interface ApiNoticeState {
  /** Epoch ms from which calls may be tried again; null when no rate limit is in force. */
  rateLimitedUntil: number | null;
}

export const apiNotice: ApiNoticeState = proxy({ rateLimitedUntil: null });

/** How long to wait after a 429, from the `Retry-After` header or a `wait` in the body (ms). */
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
