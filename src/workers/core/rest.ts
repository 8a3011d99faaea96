/**
 * The worker's REST calls under the app's one retry rule (`withRetries` in src/protocol,
 * docs/product-rules.md#errors): a 429 is reported to the main thread, which shows the app-wide
 * notice (src/ui/shell/api-notice.ts), and a read is sent again after the server's wait; a signed
 * call refused with 10114 (nonce too small) is signed again with a fresh nonce and sent once more.
 */
import { isReadCall, withRetries, type Timers } from "../../protocol";

/** The parts of a fetch Response read here (the worker's fetch, or a fake in tests). */
export interface RestResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly headers?: { get(name: string): string | null };
  json(): Promise<unknown>;
}

export interface RestInit {
  readonly method: "POST";
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface WorkerRest {
  readonly fetch: (url: string, init?: RestInit) => Promise<RestResponse>;
  readonly timers: Pick<Timers, "after" | "now">;
  /** Every 429 the exchange answered, with its `Retry-After` and body: the main thread's notice. */
  readonly onRateLimited?: (retryAfter: string | null, body: unknown) => void;
}

/** A reply with its body read (null when it was not JSON). */
export interface RestReply {
  readonly ok: boolean;
  readonly status: number;
  readonly body: unknown;
}

/** The signing of an authenticated call (AccountAuth.restHeaders and resetNonce). */
export interface RestSigner {
  /** The headers for `path` and the exact body text; null when signed out. */
  readonly headers: (path: string, body: string) => Promise<Record<string, string> | null>;
  /** The next nonce from the clock and above every one used (AccountAuth.resetNonce). */
  readonly resetNonce?: () => void;
}

async function read(res: RestResponse): Promise<RestReply & { retryAfter: string | null }> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  return { ok: res.ok, status: res.status, body, retryAfter: res.headers?.get("retry-after") ?? null };
}

/** A public GET, sent again after a 429's wait. Throws when the exchange cannot be reached. */
export async function restGet(rest: WorkerRest, url: string): Promise<RestReply> {
  return withRetries(async () => read(await rest.fetch(url)), {
    timers: rest.timers,
    retryRateLimit: true,
    ...(rest.onRateLimited ? { onRateLimited: rest.onRateLimited } : {}),
  });
}

/**
 * An authenticated POST (docs/protocol.md#authenticated-rest), signed afresh for every attempt —
 * a retry never reuses a nonce. Null when signed out; throws when the exchange cannot be reached.
 */
export async function signedPost(
  rest: WorkerRest,
  signer: RestSigner,
  base: string,
  path: string,
  body: string,
): Promise<RestReply | null> {
  let signedOut = false;
  const reply = await withRetries(
    async () => {
      const headers = await signer.headers(path, body);
      if (headers === null) {
        signedOut = true;
        return { ok: false, status: 0, body: null, retryAfter: null };
      }
      const res = await rest.fetch(`${base}${path}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body,
      });
      return read(res);
    },
    {
      timers: rest.timers,
      retryRateLimit: isReadCall("POST", path),
      ...(rest.onRateLimited ? { onRateLimited: rest.onRateLimited } : {}),
      ...(signer.resetNonce ? { resetNonce: signer.resetNonce } : {}),
    },
  );
  return signedOut ? null : reply;
}
