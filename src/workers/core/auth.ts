/**
 * Authentication of the account socket (PROTOCOL.md 4.1): by token, or by API key with
 * authSig = hex(HMAC-SHA384(secret, "AUTH" + nonce)). The signature is made with WebCrypto inside
 * the worker, so the secret never leaves it. Nonces are microseconds, strictly increasing per key.
 */

import type { AccountCredentials } from "../../protocol";

export type Credentials = AccountCredentials;

/** The WebCrypto calls used (window.crypto.subtle, a worker's, and Node's all fit). */
export interface HmacCrypto {
  importKey(
    format: "raw",
    key: Uint8Array,
    algorithm: { name: "HMAC"; hash: "SHA-384" },
    extractable: false,
    usages: ["sign"],
  ): Promise<unknown>;
  sign(algorithm: "HMAC", key: never, data: Uint8Array): Promise<ArrayBuffer>;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export async function hmacSha384Hex(crypto: HmacCrypto, secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-384" }, false, ["sign"]);
  const sig = new Uint8Array(await crypto.sign("HMAC", key as never, enc.encode(message)));
  let out = "";
  for (const b of sig) out += HEX[b];
  return out;
}

/** Microsecond nonces, strictly increasing even when called twice in one millisecond. */
export class NonceSource {
  #last = 0;
  next(nowMs: number): number {
    const n = Math.max(Math.floor(nowMs) * 1000, this.#last + 1);
    this.#last = n;
    return n;
  }
}

export async function authMessage(
  credentials: Credentials,
  nonce: number,
  crypto: HmacCrypto,
  options: { readonly dms?: boolean; readonly filter?: readonly string[] } = {},
): Promise<Record<string, unknown>> {
  const extra: Record<string, unknown> = {};
  if (options.dms) extra["dms"] = 4; // dead-man switch: cancel all orders if this socket drops
  if (options.filter) extra["filter"] = options.filter;
  if (credentials.kind === "token") return { event: "auth", token: credentials.token, ...extra };
  const authPayload = `AUTH${nonce}`;
  return {
    event: "auth",
    apiKey: credentials.key,
    authSig: await hmacSha384Hex(crypto, credentials.secret, authPayload),
    authNonce: nonce,
    authPayload,
    ...extra,
  };
}

export interface AuthOutcome {
  readonly ok: boolean;
  readonly userId: number | null;
  readonly code: number | null;
  readonly msg: string;
  readonly caps: unknown;
}

/** Reads the auth reply: "OK" is success; anything else ("FAILED", "FAIL") is failure. */
export function readAuthReply(ev: Record<string, unknown>): AuthOutcome {
  return {
    ok: ev["status"] === "OK",
    userId: typeof ev["userId"] === "number" ? ev["userId"] : null,
    code: typeof ev["code"] === "number" ? ev["code"] : null,
    msg: typeof ev["msg"] === "string" ? ev["msg"] : "",
    caps: ev["caps"] ?? null,
  };
}
