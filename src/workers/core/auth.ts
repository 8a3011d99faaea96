/**
 * Authentication of the account socket (docs/protocol.md#authentication): by token, or by API key with
 * authSig = hex(HMAC-SHA384(secret, "AUTH" + nonce)). The signature is made with WebCrypto inside
 * the worker, so the secret never leaves it. Nonces are microseconds, strictly increasing per key.
 * `AccountAuth` holds the credentials and signs every (re)connect in with them.
 */

import {
  ERROR_CODES,
  parseCaps,
  type AccountAuthState,
  type AccountCredentials,
  type AuthResult,
} from "../../protocol";

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

/**
 * How far past the clock a reset moves the nonces: past what another holder of the same key (the
 * key signed in in another tab, a bot) drew within the same millisecond. The exchange accepts
 * nonces up to minutes ahead of its clock (docs/protocol.md#authenticated-rest).
 */
const NONCE_RESET_LEAD_US = 1000;

/** Microsecond nonces, strictly increasing even when called twice in one millisecond. */
export class NonceSource {
  #last = 0;
  next(nowMs: number): number {
    const n = Math.max(Math.floor(nowMs) * 1000, this.#last + 1);
    this.#last = n;
    return n;
  }

  /**
   * After a 10114 (nonce too small, docs/protocol.md#authenticated-rest): the next nonce comes from
   * the clock now, and above every nonce this source gave out — including those of calls still on
   * their way, one of which overtook the refused call and moved the key's nonce past it.
   */
  reset(nowMs: number): void {
    this.#last = Math.max(this.#last, Math.floor(nowMs) * 1000) + NONCE_RESET_LEAD_US;
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

export interface AccountAuthOptions {
  readonly crypto: HmacCrypto;
  /** Epoch ms (the nonce source). */
  readonly now: () => number;
  /** Sends on the account socket; false when it is not open. */
  readonly send: (msg: Record<string, unknown>) => boolean;
  /** Closes the account socket for good. */
  readonly stop: () => void;
  /** Drops the account socket and opens a new one (through the back-off). */
  readonly reconnect: () => void;
  /** Every change of the state (the worker publishes it with the account view). */
  readonly onState?: (state: AccountAuthState) => void;
  readonly authOptions?: { readonly dms?: boolean; readonly filter?: readonly string[] };
}

export const SIGNED_OUT: AccountAuthState = { status: "signed-out", code: null, msg: "", replies: 0 };

/**
 * The account socket's sign-in: holds the credentials, sends `auth` on every open (the Connection's
 * `onOpened`), reads each reply, and tells everyone listening (`onState`) — a refusal on a reconnect
 * an hour after the first sign-in as much as the first reply.
 *
 * Credentials can be swapped (a renewed token) without touching the socket. `auth` is a one-time
 * step per connection (docs/protocol.md#authentication): nothing in the protocol re-authenticates
 * or refreshes a token on a live socket — no such input, no expiry event among channel 0's types,
 * and the error codes have only auth failures (10100, 10111–10114) and an un-authentication error
 * (10200) — so a socket stays signed in with the token it began with (the embedded exchange keeps
 * a session token's socket while the session's renewals come and ends it with the session or at
 * its 12-hour cap: docs/protocol.md#authentication). The new credentials wait for the next
 * (re)connect; reconnecting to use them would only blank the account until the fresh snapshots came.
 */
export class AccountAuth {
  readonly #o: AccountAuthOptions;
  readonly #nonces = new NonceSource();
  #credentials: Credentials | null = null;
  /** The credentials of the `auth` now waiting for its reply; null when none is out. */
  #sent: Credentials | null = null;
  /** Bumped per open and per sign-in/out, so a signature that resolves late goes nowhere stale. */
  #attempt = 0;
  #pending: ((r: AuthResult) => void) | null = null;
  #state: AccountAuthState = SIGNED_OUT;
  /** A 10114 was already answered with a fresh nonce since the last accepted `auth` (once only). */
  #nonceRetried = false;

  constructor(options: AccountAuthOptions) {
    this.#o = options;
  }

  get state(): AccountAuthState {
    return this.#state;
  }

  /** The socket is open and its `auth` was accepted: account inputs may go out. */
  get ready(): boolean {
    return this.#state.status === "ok";
  }

  /** A new sign-in (the caller then opens a fresh socket): resolves with the first reply. */
  begin(credentials: Credentials): Promise<AuthResult> {
    this.#settle({ ok: false, userId: null, code: null, msg: "superseded by a new sign-in" });
    this.#credentials = credentials;
    this.#sent = null;
    this.#attempt++;
    this.#nonceRetried = false;
    this.#set({ status: "pending", code: null, msg: "", replies: 0 });
    return new Promise<AuthResult>((resolve) => {
      this.#pending = resolve;
    });
  }

  /**
   * Keeps `credentials` for the next `auth` in place of the held ones, without reconnecting (see
   * the class comment). False when nothing is held (signed out, or refused) or the kind differs —
   * a token for an API key is another sign-in, not a renewal.
   */
  swap(credentials: Credentials): boolean {
    const held = this.#credentials;
    if (held === null || held.kind !== credentials.kind) return false;
    this.#credentials = credentials;
    return true;
  }

  /**
   * The headers of an authenticated REST call (docs/protocol.md#authenticated-rest) with the held
   * credentials: the token, or the key with a nonce from the same source as the socket's `auth` (the
   * exchange wants a key's nonces to rise across both) and the signature over "/api/" + path +
   * nonce + body. Null when signed out. The secret stays here, in the worker.
   */
  async restHeaders(path: string, body: string): Promise<Record<string, string> | null> {
    const c = this.#credentials;
    if (c === null) return null;
    if (c.kind === "token") return { "bfx-token": c.token };
    const nonce = String(this.#nonces.next(this.#o.now()));
    const signature = await hmacSha384Hex(this.#o.crypto, c.secret, `/api/${path.replace(/^\//, "")}${nonce}${body}`);
    return { "bfx-apikey": c.key, "bfx-nonce": nonce, "bfx-signature": signature };
  }

  /** A 10114 answered a signed REST call: the next signature uses a fresh nonce (NonceSource.reset). */
  resetNonce(): void {
    this.#nonces.reset(this.#o.now());
  }

  /** The socket opened: authenticate with the credentials held now. */
  opened(): void {
    const credentials = this.#credentials;
    if (credentials === null) return;
    const attempt = ++this.#attempt;
    this.#sent = null;
    if (this.#state.status !== "pending") this.#set({ ...this.#state, status: "pending", code: null, msg: "" });
    authMessage(credentials, this.#nonces.next(this.#o.now()), this.#o.crypto, this.#o.authOptions).then(
      (msg) => {
        if (attempt !== this.#attempt) return;
        this.#sent = credentials;
        this.#o.send(msg);
      },
      (err: unknown) => {
        if (attempt !== this.#attempt) return;
        // WebCrypto refused (not a secure context, bad key material): the sign-in fails, loudly.
        this.#refuse(null, err instanceof Error ? err.message : String(err), this.#state.replies);
      },
    );
  }

  /** The socket closed or is going: no sign-in until the next open's reply. */
  closed(): void {
    this.#attempt++;
    this.#sent = null;
    if (this.#state.status === "ok") this.#set({ ...this.#state, status: "pending" });
  }

  /** An `auth` event from the socket. */
  reply(ev: Record<string, unknown>): AuthOutcome {
    const outcome = readAuthReply(ev);
    const sent = this.#sent;
    this.#sent = null;
    if (this.#credentials === null) return outcome; // signed out meanwhile
    const replies = this.#state.replies + 1;
    const result: AuthResult = { ok: outcome.ok, userId: outcome.userId, code: outcome.code, msg: outcome.msg };
    if (outcome.ok) {
      this.#nonceRetried = false;
      const orders = outcome.caps === null ? undefined : parseCaps(outcome.caps)["orders"];
      this.#set({ status: "ok", code: null, msg: "", replies, ...(orders ? { canTrade: orders.write } : {}) });
      this.#settle(result);
      return outcome;
    }
    if (sent !== null && sent !== this.#credentials) {
      // The refused credentials were replaced while their `auth` was out (a renewal raced a
      // reconnect): the new ones get a fresh socket rather than a refusal being reported for a
      // token nobody holds any more.
      this.#set({ ...this.#state, replies });
      this.#o.reconnect();
      return outcome;
    }
    if (outcome.code === ERROR_CODES.AUTH_NONCE && !this.#nonceRetried && this.#credentials.kind === "apiKey") {
      // Nonce too small (docs/product-rules.md#errors): a signed call overtook this `auth` or
      // another holder of the key is ahead; one fresh nonce on a fresh socket, then a refusal.
      this.#nonceRetried = true;
      this.resetNonce();
      this.#set({ ...this.#state, replies });
      this.#o.reconnect();
      return outcome;
    }
    this.#refuse(outcome.code, outcome.msg, replies);
    return outcome;
  }

  /** Signs out: forgets the credentials (the caller closes the socket). */
  clear(): void {
    this.#settle({ ok: false, userId: null, code: null, msg: "signed out" });
    this.#credentials = null;
    this.#sent = null;
    this.#attempt++;
    this.#set(SIGNED_OUT);
  }

  #refuse(code: number | null, msg: string, replies: number): void {
    // Refused credentials are not retried: the same `auth` would be refused on every reconnect.
    this.#credentials = null;
    this.#attempt++;
    this.#set({ status: "failed", code, msg, replies });
    this.#settle({ ok: false, userId: null, code, msg });
    this.#o.stop();
  }

  #settle(result: AuthResult): void {
    const pending = this.#pending;
    this.#pending = null;
    pending?.(result);
  }

  #set(state: AccountAuthState): void {
    this.#state = state;
    this.#o.onState?.(state);
  }
}
