/**
 * The session core: login (password, captcha, two-factor, API key), the token lifecycle
 * (docs/product-rules.md#session-and-token), and logout. Framework-free: timers, the HTTP transport, token
 * storage, the account socket and navigation are injected, so it runs in Node with fake timers.
 *
 * Lifecycle of a token session:
 * - a check on start and every AUTH_HEARTBEAT_MS (10 s) reads the stored token: a token that
 *   another tab stored (login, renewal) is adopted, one that another tab cleared ends this tab's
 *   session, and one past its expiry is cleared (the App then sends protected pages to login);
 * - the token is renewed with `/v2/auth/w/token` RENEW_BEFORE_EXPIRY_MS before its 8-minute expiry;
 *   the new token is handed to the account socket without reconnecting it (`AccountLink.renew`):
 *   a socket stays signed in for its life, and the worker signs in again with the token it holds
 *   on every reconnect, so it must hold the live one — the old one will be dead by then. Only when
 *   no socket is signed in to take it (refused, signed out) is the socket connected afresh;
 * - user info (`/v2/auth/r/info/user`) is fetched at once and every USER_INFO_POLL_MS (120 s);
 * - the keep-alive (`/api/session/keep-alive`, with credentials) fires at most every
 *   KEEP_ALIVE_INTERVAL_MS (420 s), and only while a session cookie exists;
 * - code 10100 or an invalid-token answer from any of these, or from the account socket's auth (the
 *   first one or one on any later reconnect, `onAccountFailure`), is a forced logout: token cleared,
 *   tokenInvalid set, account socket closed, and the injected `onForcedLogout` navigates to
 *   `/login?forced=1&back=<current address>`.
 *
 * API-key sessions: see README.md — the key is "logged in" for this tab only; the secret is passed
 * once to the worker and never kept here.
 */
import type { Challenge } from "altcha-lib";
import {
  AUTH_HEARTBEAT_MS,
  ERROR_CODES,
  errorAction,
  FEEDBACK_SOURCE_DEFAULT,
  KEEP_ALIVE_INTERVAL_MS,
  parseApiError,
  smsSentCodec,
  TOKEN_DELETE_TIMEOUT_MS,
  TOKEN_EXPIRY_MS,
  USER_INFO_POLL_MS,
  userInfoCodec,
  type AccountCredentials,
  type AuthResult,
  type Cancel,
  type Timers,
  type UserInfo,
} from "../../protocol";
import { log } from "../log";

/** Renewal starts this long before expiry: nine heartbeats of retries before the token dies. */
export const RENEW_BEFORE_EXPIRY_MS = 90_000;
/** The API-key sign-in gives up when the account socket has not answered by then. */
export const API_KEY_AUTH_TIMEOUT_MS = 15_000;
export const FEEDBACK_TIMEOUT_MS = 5000;
/**
 * Capabilities a web session's token asks for on renewal (write-enabled o, f, s, w:
 * docs/product-rules.md#token-capabilities).
 */
const TOKEN_CAPS = ["o", "f", "s", "w"] as const;

export interface HttpRequest {
  readonly method: "GET" | "POST";
  /** An API path; the transport picks the host (`/v2/auth/` goes to the authenticated one). */
  readonly path: string;
  readonly body?: unknown;
  /** Sent as the `bfx-token` header. */
  readonly token?: string;
  readonly timeoutMs?: number;
  /** Send cookies (the keep-alive call). */
  readonly withCredentials?: boolean;
}

export interface HttpReply {
  readonly status: number;
  /** The parsed JSON body, or null. */
  readonly body: unknown;
}

/** Rejects when the server cannot be reached or the timeout passes. */
export type Http = (request: HttpRequest) => Promise<HttpReply>;

export interface StoredToken {
  readonly token: string;
  /** Epoch ms; null when unknown (a token stored by an older build). */
  readonly expiresAt: number | null;
}

/** Where the token lives (shared by the tabs); `save(null)` clears it. */
export interface TokenStorage {
  load(): StoredToken;
  save(token: StoredToken | null): void;
}

/**
 * The worker's account socket (src/ui/desk/account-store.ts in the app). A refusal on a later
 * reconnect is reported back through `SessionCore.onAccountFailure`.
 */
export interface AccountLink {
  connect(credentials: AccountCredentials): Promise<AuthResult>;
  /**
   * Gives the signed-in socket new credentials for its next (re)auth without reconnecting; false
   * when no sign-in can take them (connect instead).
   */
  renew(credentials: AccountCredentials): Promise<boolean>;
  disconnect(): Promise<void>;
}

/**
 * The auth-state flags (docs/product-rules.md#auth-state) that the core sets (the token itself goes
 * through storage).
 */
export interface AuthFlags {
  fetching: boolean;
  tokenInvalid: boolean;
  /** The signed-in API key's public id; "" when the session is not an API-key one. */
  apiKey: string;
}

export type TokenStatus = "none" | "fetch" | "valid" | "invalid";
export type SessionMode = "none" | "token" | "apiKey";
export type AccountLinkState = "off" | "connecting" | "live" | "failed";

export interface SessionState {
  mode: SessionMode;
  tokenStatus: TokenStatus;
  /**
   * The token-loaded flag (docs/product-rules.md#auth-state): false until the first user-info check
   * of a token finishes.
   */
  tokenLoaded: boolean;
  /** Reset clears it; null for API-key sessions (their user info would need a signed REST call). */
  user: UserInfo | null;
  userId: number | null;
  expiresAt: number | null;
  account: AccountLinkState;
}

export function initialSessionState(): SessionState {
  return {
    mode: "none",
    tokenStatus: "none",
    tokenLoaded: false,
    user: null,
    userId: null,
    expiresAt: null,
    account: "off",
  };
}

export interface SessionDeps {
  readonly timers: Timers;
  readonly http: Http;
  readonly storage: TokenStorage;
  readonly auth: AuthFlags;
  readonly state: SessionState;
  readonly account: AccountLink;
  /** The keep-alive runs only while a session cookie exists (docs/product-rules.md#session-and-token). */
  readonly hasSessionCookie: () => boolean;
  /** Sends the user to the login page with `forced=1` and the current address as `back`. */
  readonly onForcedLogout: () => void;
}

export type LoginError =
  | "credentials"
  | "unverified"
  | "locked"
  | "rate-limited"
  | "server"
  | "unreachable"
  | "captcha"
  | "captcha-unavailable"
  | "otp"
  | "expired"
  | "nonce"
  /** The account's address lock (ip_lock) leaves this address out (server/security-settings.ts). */
  | "address"
  /** The security key did not sign, or its signature was refused. */
  | "key"
  /** The texted sign-in code is wrong, expired or spent (server/sms.ts). */
  | "sms"
  /** A text was sent a moment ago, or too many this hour: wait before asking again. */
  | "sms-wait";

/** The captcha provider this app can pass: ALTCHA's proof of work (server/captcha.ts). */
const CAPTCHA_PROVIDER = "altcha";

/** A captcha to pass before the login: the exchange's signed ALTCHA challenge, as served. */
export interface CaptchaChallenge {
  readonly provider: typeof CAPTCHA_PROVIDER;
  readonly challenge: Challenge & { readonly signature: string };
}

/** A passed captcha: what the login sends as `captchaProvider` and `captchaToken`. */
export interface CaptchaSolution {
  readonly provider: string;
  readonly token: string;
}

export interface LoginInput {
  readonly login: string;
  readonly password: string;
  readonly captcha?: CaptchaSolution;
}

export type LoginOutcome =
  | { readonly kind: "signed-in" }
  /**
   * The sign-in is held: the address is new for an account with lock_on_new_ip on, and the
   * exchange mailed a link that confirms it (server/security-settings.ts); sign in again after.
   */
  | { readonly kind: "confirm-mail" }
  /** A captcha must be passed first; `error` is "captcha" when the exchange refused the last one. */
  | { readonly kind: "captcha"; readonly challenge: CaptchaChallenge; readonly error: LoginError | null }
  | {
      readonly kind: "two-factor";
      readonly tempToken: string;
      /** The factor offered first (`otp`, `u2f`) and every one the account has. */
      readonly method: string;
      readonly methods: readonly string[];
    }
  | { readonly kind: "error"; readonly error: LoginError };

export interface Feedback {
  /** 1–5, or null when not given. */
  readonly rating: number | null;
  readonly description: string;
}

/** The token is the first element of the response array (docs/product-rules.md#calls), or a `token` field. */
export function tokenFrom(body: unknown): string | null {
  if (Array.isArray(body) && typeof body[0] === "string" && body[0] !== "") return body[0];
  if (typeof body === "object" && body !== null) {
    const token = (body as Record<string, unknown>)["token"];
    if (typeof token === "string" && token !== "") return token;
  }
  return null;
}

/** Whether a sign-in answer holds the sign-in for a mailed confirmation (`{confirmLogin: "email"}`). */
function heldForMail(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as Record<string, unknown>)["confirmLogin"] === "email";
}

/** Maps a refused login or verification to what the person is told. */
export function loginErrorFrom(reply: HttpReply): LoginError {
  if (reply.status === 429) return "rate-limited";
  const err = parseApiError(reply.body);
  const msg = err?.message ?? "";
  if (msg.startsWith("sms:")) return /wait|messages/.test(msg) ? "sms-wait" : "sms";
  if (msg.startsWith("ip:")) return "address";
  if (/lock|frozen|suspend|disabled/i.test(msg)) return "locked";
  if (/not verified|unverified/i.test(msg)) return "unverified";
  if (/captcha/i.test(msg)) return "captcha";
  if (/otp|2fa|tfa/i.test(msg)) return "otp";
  if (/token/i.test(msg) && err?.code === ERROR_CODES.AUTH_FAILED) return "expired";
  if (err?.code === ERROR_CODES.AUTH_FAILED || err?.code === ERROR_CODES.PARAMS) return "credentials";
  if (/invalid|password|login/i.test(msg)) return "credentials";
  return "server";
}

/** Maps a failed API-key authentication of the account socket. */
export function apiKeyErrorFrom(result: AuthResult): LoginError {
  if (result.code === ERROR_CODES.AUTH_NONCE) return "nonce";
  // The auth family: from AUTH_FAILED up to the un-authentication codes (key, payload, signature, …).
  if (result.code !== null && result.code >= ERROR_CODES.AUTH_FAILED && result.code < ERROR_CODES.UNAUTH_FAILED)
    return "credentials";
  return "server";
}

/** Whether a served challenge has what the solver reads (altcha-lib's v2 challenge, signed). */
function isAltchaChallenge(body: unknown): body is CaptchaChallenge["challenge"] {
  if (typeof body !== "object" || body === null) return false;
  const { parameters, signature } = body as Record<string, unknown>;
  if (typeof signature !== "string" || typeof parameters !== "object" || parameters === null) return false;
  const p = parameters as Record<string, unknown>;
  return (
    typeof p["algorithm"] === "string" &&
    typeof p["nonce"] === "string" &&
    typeof p["salt"] === "string" &&
    typeof p["keyPrefix"] === "string" &&
    typeof p["cost"] === "number" &&
    typeof p["keyLength"] === "number"
  );
}

function sessionInvalid(reply: HttpReply): boolean {
  return reply.status >= 400 && errorAction(reply.status, reply.body).kind === "session-invalid";
}

export class SessionCore {
  readonly #d: SessionDeps;
  /** The token this tab's session runs on ("" when none). */
  #token = "";
  #renewing = false;
  #keepAliveBusy = false;
  #userBusy = false;
  #lastKeepAlive = Number.NEGATIVE_INFINITY;
  #cancels: Cancel[] = [];
  #started = false;

  constructor(deps: SessionDeps) {
    this.#d = deps;
  }

  get token(): string {
    return this.#token;
  }

  /** Starts the lifecycle: a check now, then the heartbeat and the user-info poll. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#cancels.push(this.#d.timers.every(AUTH_HEARTBEAT_MS, () => this.check()));
    this.#cancels.push(this.#d.timers.every(USER_INFO_POLL_MS, () => void this.#refreshUser()));
    this.check();
  }

  /** Stops the timers (the session itself stays as stored). */
  stop(): void {
    for (const cancel of this.#cancels) cancel();
    this.#cancels = [];
    this.#started = false;
  }

  /**
   * The heartbeat (also run at once when the stored token changes, e.g. from another tab): adopts,
   * ends, expires, renews and keeps alive. Never throws; the network work runs in the background.
   */
  check(): void {
    const d = this.#d;
    if (d.state.mode === "apiKey") return;
    const stored = d.storage.load();
    const now = d.timers.now();
    if (stored.token === "") {
      // Signed out elsewhere (another tab's logout clears the shared storage).
      if (this.#token !== "") this.#endLocal();
      return;
    }
    if (stored.expiresAt !== null && stored.expiresAt <= now) {
      this.#expire();
      return;
    }
    if (stored.token !== this.#token) {
      this.#begin(stored);
      return;
    }
    d.state.expiresAt = stored.expiresAt;
    if (stored.expiresAt === null || stored.expiresAt - now <= RENEW_BEFORE_EXPIRY_MS) void this.#renew();
    if (now - this.#lastKeepAlive >= KEEP_ALIVE_INTERVAL_MS && d.hasSessionCookie()) void this.#keepAlive();
    // A user-info check that could not reach the server is retried on the heartbeat.
    if (d.state.user === null) void this.#refreshUser();
  }

  /**
   * A signed-in page's call (API keys, security, …) with this session's token: the reply, or status
   * 0 when there is no token session or the exchange cannot be reached. A session-invalid answer
   * ends the session as the session's own calls do (forced logout).
   */
  async call(path: string, body: unknown = {}): Promise<HttpReply> {
    const token = this.#token;
    if (token === "") return { status: 0, body: null };
    let reply: HttpReply;
    try {
      reply = await this.#d.http({ method: "POST", path, body, token });
    } catch {
      return { status: 0, body: null };
    }
    // Only if the session still runs on that token: a renewal meanwhile made the answer moot.
    if (sessionInvalid(reply) && this.#token === token) this.#forced();
    return reply;
  }

  // -------------------------------------------------------------------------------------------
  // Login

  /** The captcha a login needs, when the exchange offers one this app can pass (ALTCHA). */
  async captchaChallenge(): Promise<CaptchaChallenge | "unavailable" | "unreachable"> {
    try {
      const providers = await this.#d.http({ method: "POST", path: "/v2/int/captcha/providers", body: {} });
      const list = Array.isArray(providers.body) ? providers.body : [];
      if (!list.includes(CAPTCHA_PROVIDER)) return "unavailable";
      const r = await this.#d.http({ method: "GET", path: `/v2/int/captcha/${CAPTCHA_PROVIDER}/challenge` });
      if (r.status !== 200 || !isAltchaChallenge(r.body)) return "unavailable";
      return { provider: CAPTCHA_PROVIDER, challenge: r.body };
    } catch (err) {
      log.warn("captcha challenge failed", err);
      return "unreachable";
    }
  }

  async #captchaStep(error: LoginError | null): Promise<LoginOutcome> {
    const challenge = await this.captchaChallenge();
    if (challenge === "unavailable") return { kind: "error", error: "captcha-unavailable" };
    if (challenge === "unreachable") return { kind: "error", error: "unreachable" };
    return { kind: "captcha", challenge, error };
  }

  /** Password login (`/v2/login`), with the captcha when the server asks for one. */
  async login(input: LoginInput): Promise<LoginOutcome> {
    const d = this.#d;
    try {
      if (!input.captcha) {
        // Asking first spares a refused attempt (and the person retyping) when a captcha is due.
        const required = await d
          .http({ method: "POST", path: "/v2/int/captcha/required", body: { login: input.login, method: "login" } })
          .catch(() => null);
        if (required?.status === 200 && Array.isArray(required.body) && required.body[0] === true)
          return this.#captchaStep(null);
      }
      const captcha = input.captcha;
      const reply = await d.http({
        method: "POST",
        path: "/v2/login",
        body: {
          login: input.login,
          password: input.password,
          captchaToken: captcha?.token ?? "",
          captchaProvider: captcha?.provider ?? "",
          appid: "web",
        },
      });
      if (reply.status === 200) {
        const b = reply.body as Record<string, unknown> | null;
        if (b && !Array.isArray(b) && typeof b["tempToken"] === "string") {
          const method = typeof b["tfa"] === "string" ? b["tfa"] : "otp";
          const listed = Array.isArray(b["tfaTypes"])
            ? b["tfaTypes"].filter((m): m is string => typeof m === "string")
            : [];
          return {
            kind: "two-factor",
            tempToken: b["tempToken"],
            method,
            methods: listed.length > 0 ? listed : [method],
          };
        }
        if (heldForMail(reply.body)) return { kind: "confirm-mail" };
        const token = tokenFrom(reply.body);
        if (token) {
          this.#adopt(token);
          return { kind: "signed-in" };
        }
        return { kind: "error", error: "server" };
      }
      const error = loginErrorFrom(reply);
      if (error === "captcha") return this.#captchaStep(captcha ? "captcha" : null);
      // The exchange spent the solution and the captcha is still due (one failure more): the next
      // try needs a new check, started now while the person retypes the password.
      if (captcha && error === "credentials") return this.#captchaStep(error);
      if (reply.status >= 500 && error === "credentials" && parseApiError(reply.body) === null)
        return { kind: "error", error: "server" };
      return { kind: "error", error };
    } catch (err) {
      log.warn("login request failed", err);
      return { kind: "error", error: "unreachable" };
    }
  }

  /**
   * The two-factor step (`/v2/login/verify`) with a code: from the authenticator app (`otp`), or
   * the one texted to the account's phone (`sms`, after `requestSmsCode`).
   */
  async verifyTwoFactor(tempToken: string, otp: string, method: "otp" | "sms" = "otp"): Promise<LoginOutcome> {
    try {
      const reply = await this.#d.http({
        method: "POST",
        path: "/v2/login/verify",
        body: { tempToken, otp: otp.replace(/\s+/g, ""), method },
      });
      const token = reply.status === 200 ? tokenFrom(reply.body) : null;
      if (token) {
        this.#adopt(token);
        return { kind: "signed-in" };
      }
      if (reply.status === 200 && heldForMail(reply.body)) return { kind: "confirm-mail" };
      return { kind: "error", error: reply.status === 200 ? "server" : loginErrorFrom(reply) };
    } catch (err) {
      log.warn("two-factor request failed", err);
      return { kind: "error", error: "unreachable" };
    }
  }

  /**
   * Asks the exchange to text a sign-in code to the account's phone (`/v2/login/sms`): the masked
   * number it went to and when another may be asked for.
   */
  async requestSmsCode(
    tempToken: string,
  ): Promise<
    | { readonly kind: "sent"; readonly phone: string; readonly resendAt: number }
    | { readonly kind: "error"; readonly error: LoginError }
  > {
    try {
      const reply = await this.#d.http({ method: "POST", path: "/v2/login/sms", body: { tempToken, method: "sms" } });
      if (reply.status !== 200) return { kind: "error", error: loginErrorFrom(reply) };
      const sent = smsSentCodec.decode(reply.body);
      return sent.ok
        ? { kind: "sent", phone: sent.value.phone, resendAt: sent.value.resendAt }
        : { kind: "error", error: "server" };
    } catch (err) {
      log.warn("sms code request failed", err);
      return { kind: "error", error: "unreachable" };
    }
  }

  /**
   * The two-factor step with a hardware key (WebAuthn): the exchange's challenge for the temporary
   * token (`/v2/login/key/options`), signed by `sign` (the browser's ceremony, which rejects when
   * the person cancels or no key answers), then `/v2/login/verify` with `method: "u2f"`.
   */
  async verifyWithKey(tempToken: string, sign: (options: unknown) => Promise<unknown>): Promise<LoginOutcome> {
    const d = this.#d;
    let options: HttpReply;
    try {
      options = await d.http({ method: "POST", path: "/v2/login/key/options", body: { tempToken } });
    } catch (err) {
      log.warn("key challenge failed", err);
      return { kind: "error", error: "unreachable" };
    }
    if (options.status !== 200)
      return { kind: "error", error: loginErrorFrom(options) === "expired" ? "expired" : "key" };
    let assertion: unknown;
    try {
      assertion = await sign(options.body);
    } catch (err) {
      log.warn("security key did not sign", err);
      return { kind: "error", error: "key" };
    }
    try {
      const reply = await d.http({
        method: "POST",
        path: "/v2/login/verify",
        body: { tempToken, method: "u2f", assertion },
      });
      const token = reply.status === 200 ? tokenFrom(reply.body) : null;
      if (token) {
        this.#adopt(token);
        return { kind: "signed-in" };
      }
      if (reply.status === 200 && heldForMail(reply.body)) return { kind: "confirm-mail" };
      if (reply.status === 200) return { kind: "error", error: "server" };
      return { kind: "error", error: loginErrorFrom(reply) === "expired" ? "expired" : "key" };
    } catch (err) {
      log.warn("key sign-in request failed", err);
      return { kind: "error", error: "unreachable" };
    }
  }

  /**
   * Signs the worker's account socket in with an API key. The secret goes to the worker in this one
   * call and is not kept anywhere on this thread.
   */
  async loginWithApiKey(key: string, secret: string): Promise<LoginOutcome> {
    const d = this.#d;
    if (this.#token !== "") this.#endLocal();
    d.state.account = "connecting";
    let cancel: Cancel = () => {};
    const timeout = new Promise<"timeout">((resolve) => {
      cancel = d.timers.after(API_KEY_AUTH_TIMEOUT_MS, () => resolve("timeout"));
    });
    try {
      const result = await Promise.race([d.account.connect({ kind: "apiKey", key, secret }), timeout]);
      if (result === "timeout") {
        d.state.account = "failed";
        void d.account.disconnect();
        return { kind: "error", error: "unreachable" };
      }
      if (!result.ok) {
        d.state.account = "failed";
        return { kind: "error", error: apiKeyErrorFrom(result) };
      }
      d.auth.apiKey = key;
      d.auth.tokenInvalid = false;
      Object.assign(d.state, initialSessionState(), { mode: "apiKey", userId: result.userId, account: "live" });
      return { kind: "signed-in" };
    } catch (err) {
      log.warn("API-key sign-in failed", err);
      d.state.account = "failed";
      return { kind: "error", error: "unreachable" };
    } finally {
      cancel();
    }
  }

  // -------------------------------------------------------------------------------------------
  // Logout

  /**
   * Logout: the optional feedback (`/v2/int/contact/feedback`, source fe-web-logout), the token's
   * deletion (`/v2/auth/w/token/del`, 2000 ms at most), then the local session ends (and, through
   * the shared storage, every other tab's).
   */
  async logout(feedback: Feedback | null = null): Promise<void> {
    const d = this.#d;
    const token = this.#token || d.storage.load().token;
    if (feedback && (feedback.rating !== null || feedback.description.trim() !== "")) {
      try {
        await d.http({
          method: "POST",
          path: "/v2/int/contact/feedback",
          body: {
            token,
            rating: feedback.rating,
            description: feedback.description.trim(),
            source: FEEDBACK_SOURCE_DEFAULT,
          },
          timeoutMs: FEEDBACK_TIMEOUT_MS,
        });
      } catch (err) {
        log.warn("logout feedback not sent", err);
      }
    }
    if (token !== "") {
      try {
        await d.http({
          method: "POST",
          path: "/v2/auth/w/token/del",
          token,
          body: { token },
          timeoutMs: TOKEN_DELETE_TIMEOUT_MS,
        });
      } catch (err) {
        // The token dies by its own expiry; the local logout must not wait for the network.
        log.warn("token deletion failed", err);
      }
    }
    this.#endLocal();
  }

  /**
   * The account socket refused its credentials — the first sign-in or, after a drop, a later one
   * (e.g. 10100: the token died while the network was gone): forced logout. Other refusals leave
   * the session and mark the socket failed; the next renewal connects it afresh.
   */
  onAccountFailure(code: number | null): void {
    const d = this.#d;
    if (d.state.mode === "none") return;
    if (code === ERROR_CODES.AUTH_FAILED) {
      this.#forced();
      return;
    }
    d.state.account = "failed";
    log.warn("account socket refused its credentials", code);
  }

  // -------------------------------------------------------------------------------------------
  // Internals

  #adopt(token: string): void {
    const stored = { token, expiresAt: this.#d.timers.now() + TOKEN_EXPIRY_MS };
    if (this.#d.state.mode === "apiKey") this.#endLocal();
    this.#begin(stored);
    this.#d.storage.save(stored);
  }

  #begin(stored: StoredToken): void {
    const d = this.#d;
    // A token replacing a live one (another tab's renewal) keeps the user shown meanwhile; the
    // user-info call below confirms or replaces it.
    const continuing = this.#token !== "" && d.state.mode === "token";
    this.#token = stored.token;
    this.#lastKeepAlive = Number.NEGATIVE_INFINITY;
    d.auth.tokenInvalid = false;
    d.auth.apiKey = "";
    if (continuing) d.state.expiresAt = stored.expiresAt;
    else
      Object.assign(d.state, initialSessionState(), {
        mode: "token",
        tokenStatus: "fetch",
        expiresAt: stored.expiresAt,
      });
    // Another tab's renewal is this session's too: the socket takes the token without reconnecting.
    void (continuing ? this.#renewAccount(stored.token) : this.#connectAccount(stored.token));
    void this.#refreshUser(true);
  }

  /** The renewed token goes to the live socket for its next (re)auth; a new sign-in only if none takes it. */
  async #renewAccount(token: string): Promise<void> {
    let swapped = false;
    try {
      swapped = await this.#d.account.renew({ kind: "token", token });
    } catch (err) {
      log.warn("account socket renewal failed", err);
    }
    if (token !== this.#token || swapped) return;
    await this.#connectAccount(token);
  }

  async #connectAccount(token: string): Promise<void> {
    const d = this.#d;
    d.state.account = "connecting";
    let result: AuthResult;
    try {
      result = await d.account.connect({ kind: "token", token });
    } catch (err) {
      log.warn("account socket sign-in failed", err);
      if (token === this.#token) d.state.account = "failed";
      return;
    }
    if (token !== this.#token) return; // renewed or signed out meanwhile
    if (result.ok) {
      d.state.account = "live";
      d.state.userId ??= result.userId;
      return;
    }
    d.state.account = "failed";
    if (result.code === ERROR_CODES.AUTH_FAILED) this.#forced();
    else log.warn("account socket refused the token", result.code, result.msg);
  }

  async #refreshUser(force = false): Promise<void> {
    const d = this.#d;
    const token = this.#token;
    // A call for an older token is still out: a forced refresh (new token) must not be skipped.
    if (token === "" || (this.#userBusy && !force)) return;
    this.#userBusy = true;
    d.auth.fetching = true;
    try {
      const reply = await d.http({ method: "POST", path: "/v2/auth/r/info/user", token, body: {} });
      if (token !== this.#token) return;
      if (sessionInvalid(reply)) {
        this.#forced();
        return;
      }
      if (reply.status !== 200) {
        log.warn("user info refused", reply.status, reply.body);
        return;
      }
      const decoded = userInfoCodec.decode(reply.body);
      if (!decoded.ok) {
        log.warn("user info undecodable", decoded.error);
        return;
      }
      // A token of another user (another tab signed in anew): the socket must not stay theirs.
      const otherUser = d.state.userId !== null && d.state.userId !== decoded.value.id;
      d.state.user = decoded.value;
      d.state.userId = decoded.value.id;
      if (otherUser && d.state.account !== "off") void this.#connectAccount(token);
      d.state.tokenStatus = "valid";
    } catch (err) {
      log.warn("user info unavailable", err);
    } finally {
      this.#userBusy = false;
      d.auth.fetching = false;
      if (token === this.#token) d.state.tokenLoaded = true;
    }
  }

  async #renew(): Promise<void> {
    const d = this.#d;
    const old = this.#token;
    if (this.#renewing || old === "") return;
    this.#renewing = true;
    try {
      const reply = await d.http({
        method: "POST",
        path: "/v2/auth/w/token",
        token: old,
        body: { scope: "api", writePermission: true, caps: TOKEN_CAPS },
      });
      if (old !== this.#token) return;
      if (sessionInvalid(reply)) {
        this.#forced();
        return;
      }
      const token = reply.status === 200 ? tokenFrom(reply.body) : null;
      if (!token) {
        log.warn("token renewal refused", reply.status, reply.body);
        return;
      }
      const stored = { token, expiresAt: d.timers.now() + TOKEN_EXPIRY_MS };
      this.#token = token;
      d.state.expiresAt = stored.expiresAt;
      d.state.tokenStatus = "valid";
      d.storage.save(stored);
      void this.#renewAccount(token);
    } catch (err) {
      // Retried on the next heartbeat until the token expires.
      log.warn("token renewal failed", err);
    } finally {
      this.#renewing = false;
    }
  }

  async #keepAlive(): Promise<void> {
    const d = this.#d;
    const token = this.#token;
    if (this.#keepAliveBusy || token === "") return;
    this.#keepAliveBusy = true;
    this.#lastKeepAlive = d.timers.now();
    try {
      const reply = await d.http({ method: "GET", path: "/api/session/keep-alive", token, withCredentials: true });
      if (token !== this.#token) return;
      if (sessionInvalid(reply)) {
        this.#forced();
        return;
      }
      const expires = (reply.body as Record<string, unknown> | null)?.["expires"];
      if (reply.status === 200 && typeof expires === "number") {
        d.state.expiresAt = expires;
        d.storage.save({ token, expiresAt: expires });
      }
    } catch (err) {
      log.warn("session keep-alive failed", err);
    } finally {
      this.#keepAliveBusy = false;
    }
  }

  /** The stored token is past its expiry: cleared; the App sends protected pages to login. */
  #expire(): void {
    this.#endLocal();
    this.#d.auth.tokenInvalid = true;
  }

  #forced(): void {
    const d = this.#d;
    if (d.state.mode === "none" && this.#token === "") return;
    this.#endLocal();
    d.auth.tokenInvalid = true;
    d.state.tokenStatus = "invalid";
    d.onForcedLogout();
  }

  #endLocal(): void {
    const d = this.#d;
    const hadAccount = d.state.account !== "off";
    this.#token = "";
    if (d.storage.load().token !== "") d.storage.save(null);
    d.auth.apiKey = "";
    d.auth.fetching = false;
    Object.assign(d.state, initialSessionState());
    if (hadAccount) void d.account.disconnect().catch((err: unknown) => log.warn("account sign-out failed", err));
  }
}
