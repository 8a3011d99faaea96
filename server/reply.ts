/**
 * What the REST handlers answer, in the API's shapes: a body with HTTP 200, an error body
 * `["error", CODE, "message"]` (HTTP 500, as the real API answers, unless said), and the
 * notification record a request's reply (and its socket form, as `n`) carries; and how a
 * request's numbers are read.
 */
import { encodeApiError, notificationCodec } from "../src/protocol/index.ts";

export interface Reply {
  readonly status: number;
  readonly body: unknown;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });

export const fail = (code: number, msg: string, status = 500): Reply => ({ status, body: encodeApiError(code, msg) });

/** A request's notification `[MTS, TYPE, null, null, DATA, null, STATUS, TEXT]` (no message id, no code). */
export function notice(
  mts: number,
  type: string,
  data: unknown,
  status: "SUCCESS" | "ERROR",
  text: string | null,
): unknown[] {
  return notificationCodec.encode({ mts, type, mid: null, data, code: null, status, text });
}

/**
 * A number from a request's JSON, where the API takes numbers and numeric strings alike; else NaN.
 * A string must be plain decimal text ("-0.5", "12", ".25"): `Number()` alone would also read
 * "0x10" (16), "0b1", " 1 ", "1e3" or "Infinity", and a hex amount once placed a 16 BTC order.
 */
export function num(v: unknown): number {
  if (typeof v === "number") return Number.isFinite(v) ? v : Number.NaN;
  return typeof v === "string" && DECIMAL.test(v) ? Number(v) : Number.NaN;
}

const DECIMAL = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * `table[key]` only when the table itself has that key: a request naming "constructor" or
 * "__proto__" must find nothing, not Object.prototype's members.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}
