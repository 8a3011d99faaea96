/**
 * Error and info codes of the protocol (docs/protocol.md#info-codes, #error-codes) and the product's
 * reaction to each (docs/product-rules.md#errors). The UI maps an ErrorAction to a localized
 * message; nothing here is user text.
 */

export const INFO_CODES = { RECONNECT: 20051, MAINTENANCE_START: 20060, MAINTENANCE_END: 20061, INFO: 5000 } as const;

export const ERROR_CODES = {
  UNKNOWN: 10000,
  GENERIC: 10001,
  CONCURRENCY: 10008,
  BOOK_PRECISION: 10011,
  BOOK_LENGTH: 10012,
  PARAMS: 10020,
  CONF_FAILED: 10050,
  AUTH_FAILED: 10100,
  AUTH_PAYLOAD: 10111,
  AUTH_SIGNATURE: 10112,
  AUTH_HMAC: 10113,
  AUTH_NONCE: 10114,
  UNAUTH_FAILED: 10200,
  SUB_FAILED: 10300,
  SUB_DUPLICATE: 10301,
  SUB_UNKNOWN_CHANNEL: 10302,
  SUB_LIMIT: 10305,
  UNSUB_FAILED: 10400,
  UNSUB_NOT_SUBSCRIBED: 10401,
  NOT_READY: 11000,
  RATE_LIMIT: 11010,
} as const;

export type ErrorAction =
  | { readonly kind: "rate-limited" }
  | { readonly kind: "retry-nonce" }
  | { readonly kind: "session-invalid" }
  | { readonly kind: "maintenance" }
  | { readonly kind: "unknown-api-error"; readonly errorCode: number | null; readonly errorMessage: string };

/** The error body REST answers with (and an account socket's refusal): `["error", CODE, "message"]`. */
export function encodeApiError(code: number, message: string): ["error", number, string] {
  return ["error", code, message];
}

/** REST/WS error body `["error", CODE, "message"]`, or `{error: "ERR_RATE_LIMIT"}` on 429. */
export function parseApiError(body: unknown): { code: number | null; message: string } | null {
  if (Array.isArray(body) && body[0] === "error") {
    return { code: typeof body[1] === "number" ? body[1] : null, message: typeof body[2] === "string" ? body[2] : "" };
  }
  if (typeof body === "object" && body !== null && typeof (body as Record<string, unknown>)["error"] === "string") {
    return { code: null, message: (body as Record<string, string>)["error"] as string };
  }
  return null;
}

/**
 * docs/product-rules.md#errors: HTTP 429 → rate-limit action; 10114 (small nonce) → reset the nonce and retry once
 * (desktop/native clients); 10100 or an invalid-token message → forced logout; 20060 → maintenance;
 * everything else → an unknown-API-error action carrying code and message.
 */
export function errorAction(httpStatus: number, body: unknown, client: "web" | "native" = "web"): ErrorAction {
  if (httpStatus === 429) return { kind: "rate-limited" };
  const err = parseApiError(body);
  if (err?.code === ERROR_CODES.AUTH_NONCE && client === "native") return { kind: "retry-nonce" };
  if (err?.code === ERROR_CODES.AUTH_FAILED || /token.*invalid|invalid.*token/i.test(err?.message ?? ""))
    return { kind: "session-invalid" };
  if (err?.code === INFO_CODES.MAINTENANCE_START) return { kind: "maintenance" };
  return { kind: "unknown-api-error", errorCode: err?.code ?? null, errorMessage: err?.message ?? "" };
}
