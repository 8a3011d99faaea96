/**
 * The app's session: the core (core.ts) wired to the browser — fetch with timeouts through the
 * owned scheduler, the token in localStorage through src/ui/auth.ts, the worker's account socket
 * (loaded on first use so the shell's initial chunk does not carry the worker bridge), and wouter
 * navigation for the forced logout. `session` is low-rate valtio state for the pages and the desk.
 */
import { proxy, subscribe } from "valtio";
import { subscribeKey } from "valtio/utils";
import { navigate } from "wouter/use-browser-location";
import { TOKEN_EXPIRY_MS, type AccountCredentials, type AuthResult } from "../../protocol";
import { auth, storeToken } from "../auth";
import type * as AccountStore from "../desk/account-store";
import { apiUrl, appConfig, type Endpoints } from "../config";
import { log } from "../log";
import { exchangeFetch } from "../shell/api-notice";
import { LOGIN_PATH, loginRedirect, normalizePath } from "../routing/paths";
import { appScheduler, type Scheduler } from "../scheduler";
import {
  initialSessionState,
  SessionCore,
  type AccountLink,
  type CaptchaChallenge,
  type CaptchaSolution,
  type Feedback,
  type Http,
  type HttpReply,
  type LoginInput,
  type LoginOutcome,
  type SessionState,
  type StoredToken,
  type TokenStorage,
} from "./core";

/** Beside the token (auth.ts's key) so every tab knows when it expires and renews only once. */
export const AUTH_EXPIRES_KEY = "auth_token_expires";
/**
 * The session cookie the exchange's keep-alive reads (server/api-server.ts); the keep-alive runs
 * only while it exists.
 */
const SESSION_COOKIE = /(?:^|;\s*)bfx_token=/;
const REQUEST_TIMEOUT_MS = 15_000;
const SESSION_PAGES = new Set([LOGIN_PATH, "/logout", "/logged-out"]);

export const session: SessionState = proxy(initialSessionState());

let core: SessionCore | null = null;

export function browserHttp(endpoints: Endpoints, timers: Scheduler): Http {
  return async (req) => {
    const headers: Record<string, string> = {};
    if (req.body !== undefined) headers["content-type"] = "application/json";
    if (req.token) headers["bfx-token"] = req.token;
    // Every call of the session (login included) passes through exchangeFetch: 429 and maintenance
    // are told once for the whole app, and a read refused for the rate is sent again after the
    // server's wait (shell/api-notice.ts); the time limit is per attempt, not counting that wait.
    const res = await exchangeFetch(
      apiUrl(endpoints, req.path),
      {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        credentials: req.withCredentials ? "include" : "same-origin",
      },
      { timers, timeoutMs: req.timeoutMs ?? REQUEST_TIMEOUT_MS },
    );
    const text = await res.text();
    let body: unknown;
    try {
      body = text === "" ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: res.status, body };
  };
}

function browserStorage(win: Window): TokenStorage {
  let memoryExpiry: number | null = null;
  return {
    load(): StoredToken {
      let raw: string | null;
      try {
        raw = win.localStorage.getItem(AUTH_EXPIRES_KEY);
      } catch {
        raw = memoryExpiry === null ? null : String(memoryExpiry);
      }
      const n = raw === null ? NaN : Number(raw);
      return { token: auth.authToken, expiresAt: Number.isFinite(n) ? n : null };
    },
    save(t): void {
      memoryExpiry = t?.expiresAt ?? null;
      // The expiry first: the token's storage event makes the other tabs read both.
      try {
        if (t?.expiresAt != null) win.localStorage.setItem(AUTH_EXPIRES_KEY, String(t.expiresAt));
        else win.localStorage.removeItem(AUTH_EXPIRES_KEY);
      } catch {
        // Private mode without storage: kept in memory for this tab.
      }
      storeToken(win, t?.token ?? "");
    },
  };
}

type AccountModule = typeof AccountStore;

/**
 * The worker's account socket, loaded on first sign-in (never just to sign out). `onFailure` hears
 * every refusal: the first sign-in's and one on any later reconnect (the account view's `auth`).
 */
export function lazyAccount(onFailure: (code: number | null) => void): AccountLink {
  let mod: Promise<AccountModule> | null = null;
  const load = (): Promise<AccountModule> => {
    if (!mod) {
      mod = import("../desk/account-store");
      void mod.then(({ accountStore }) =>
        subscribe(accountStore, () => {
          if (accountStore.link === "failed") onFailure(accountStore.failure?.code ?? null);
        }),
      );
    }
    return mod;
  };
  return {
    connect: async (credentials: AccountCredentials): Promise<AuthResult> => (await load()).connectAccount(credentials),
    // Nothing loaded means nothing signed in to take the token: the core then connects.
    renew: async (credentials: AccountCredentials): Promise<boolean> =>
      mod ? (await mod).renewAccount(credentials) : false,
    disconnect: async (): Promise<void> => {
      if (mod) await (await mod).disconnectAccount();
    },
  };
}

/** Starts the session lifecycle (main.tsx, after the config and initAuth); returns its teardown. */
export function startSession(win: Window): () => void {
  if (core) return () => {};
  const timers = appScheduler.child();
  const c: SessionCore = new SessionCore({
    timers,
    http: browserHttp(appConfig().endpoints, timers),
    storage: browserStorage(win),
    auth,
    state: session,
    account: lazyAccount((code) => c.onAccountFailure(code)),
    hasSessionCookie: () => SESSION_COOKIE.test(win.document.cookie),
    onForcedLogout: () => {
      // On the session pages themselves there is nothing to come back to.
      if (SESSION_PAGES.has(normalizePath(win.location.pathname))) return;
      navigate(loginRedirect(win.location.href, win.location.origin));
    },
  });
  core = c;
  c.start();
  // Another tab's login, renewal or logout arrives as a storage event: act on it now, not in 10 s.
  const unsubscribe = subscribeKey(auth, "authToken", () => c.check());
  return () => {
    unsubscribe();
    c.stop();
    timers.dispose();
    core = null;
  };
}

function started(): SessionCore {
  if (!core) throw new Error("startSession() first");
  return core;
}

/**
 * A signed-in page's call to the exchange with the session's token (POST, JSON body): the reply,
 * status 0 when the exchange could not be reached or there is no token session. Goes through the
 * session's transport, so 429 is told app-wide, and a session-invalid answer is the forced logout.
 */
export function authCall(path: string, body: unknown = {}): Promise<HttpReply> {
  return started().call(path, body);
}

/**
 * Acting as another account of the group (src/ui/subaccounts): the token the switch answered is
 * stored for every tab, then the page reloads so that nothing of the previous account stays on
 * screen (docs/product-rules.md#session-and-token: a change of the sub-account selection reloads).
 */
export function switchAccount(win: Window, token: string): void {
  browserStorage(win).save({ token, expiresAt: appScheduler.now() + TOKEN_EXPIRY_MS });
  win.location.reload();
}

/** Password login; the outcome says whether a captcha or the two-factor step comes next. */
export function signIn(input: LoginInput): Promise<LoginOutcome> {
  return started().login(input);
}

export function verifyTwoFactor(tempToken: string, otp: string, method: "otp" | "sms" = "otp"): Promise<LoginOutcome> {
  return started().verifyTwoFactor(tempToken, otp, method);
}

/** Texts a sign-in code to the account's phone (the two-factor step's SMS choice). */
export function requestSmsCode(tempToken: string): ReturnType<SessionCore["requestSmsCode"]> {
  return started().requestSmsCode(tempToken);
}

/**
 * The two-factor step with a hardware key: the browser's WebAuthn ceremony through SimpleWebAuthn
 * (loaded on first use), answering the exchange's challenge.
 */
export function verifyWithKey(tempToken: string): Promise<LoginOutcome> {
  return started().verifyWithKey(tempToken, async (options) => {
    const { startAuthentication } = await import("@simplewebauthn/browser");
    return startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
  });
}

/** API-key login: the secret goes to the worker in this call and is kept nowhere on this thread. */
export function signInWithApiKey(key: string, secret: string): Promise<LoginOutcome> {
  return started().loginWithApiKey(key, secret);
}

/**
 * Does the captcha's work in this tab (captcha.ts, loaded on first need): the solution to sign in
 * with, or null when it was aborted or could not finish.
 */
export async function passCaptcha(
  challenge: CaptchaChallenge,
  controller?: AbortController,
): Promise<CaptchaSolution | null> {
  try {
    const { solveCaptcha } = await import("./captcha");
    return await solveCaptcha(challenge, controller);
  } catch (err) {
    log.warn("captcha check failed", err);
    return null;
  }
}

/** A fresh captcha challenge (the "run the check again" button). */
export async function newCaptcha(): Promise<LoginOutcome> {
  const challenge = await started().captchaChallenge();
  if (challenge === "unavailable") return { kind: "error", error: "captcha-unavailable" };
  if (challenge === "unreachable") return { kind: "error", error: "unreachable" };
  return { kind: "captcha", challenge, error: null };
}

/** Logout with optional feedback; resolves once the session has ended locally (and in every tab). */
export async function signOut(feedback: Feedback | null = null): Promise<void> {
  try {
    await started().logout(feedback);
  } catch (err) {
    log.error("logout failed", err);
    storeToken(window, "");
  }
}
