import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { globalScheduler } from "../../../tests/support/timers";
import {
  AUTH_HEARTBEAT_MS,
  KEEP_ALIVE_INTERVAL_MS,
  TOKEN_DELETE_TIMEOUT_MS,
  TOKEN_EXPIRY_MS,
  USER_INFO_POLL_MS,
  type AccountCredentials,
  type AuthResult,
} from "../../protocol";
import {
  RENEW_BEFORE_EXPIRY_MS,
  SessionCore,
  initialSessionState,
  loginErrorFrom,
  type AuthFlags,
  type HttpReply,
  type HttpRequest,
  type StoredToken,
} from "./core";

const T0 = 1_800_000_000_000;

/** A user-info row as the exchange sends it (55 positions). */
function userInfoRow(id: number, username: string): unknown[] {
  const row: unknown[] = new Array(55).fill(null);
  row[0] = id;
  row[1] = `${username}@example.test`;
  row[2] = username;
  row[4] = 1;
  row[10] = 1;
  row[26] = [];
  return row;
}

type Handler = (req: HttpRequest) => HttpReply | Promise<HttpReply>;

/** A challenge as the exchange serves it (server/captcha.ts); the core only checks its shape. */
function altchaChallenge(nonce: string) {
  return {
    parameters: {
      algorithm: "PBKDF2/SHA-256",
      cost: 1000,
      expiresAt: 1_800_000_300,
      keyLength: 32,
      keyPrefix: "ab".repeat(16),
      keySignature: "cd".repeat(32),
      nonce,
      salt: "ef".repeat(16),
    },
    signature: "01".repeat(32),
  };
}

function harness(opts: { stored?: StoredToken; cookie?: boolean; routes?: Record<string, Handler> } = {}) {
  const calls: HttpRequest[] = [];
  let stored: StoredToken = opts.stored ?? { token: "", expiresAt: null };
  let issued = 0;
  let challenges = 0;
  const routes: Record<string, Handler> = {
    "/v2/auth/r/info/user": () => ({ status: 200, body: userInfoRow(7, "demo") }),
    "/v2/auth/w/token": () => ({ status: 200, body: [`renewed-${++issued}`] }),
    "/v2/auth/w/token/del": () => ({ status: 200, body: [1] }),
    "/v2/int/contact/feedback": () => ({ status: 200, body: [1] }),
    "/api/session/keep-alive": () => ({ status: 200, body: { ok: true, expires: Date.now() + TOKEN_EXPIRY_MS } }),
    "/v2/int/captcha/required": () => ({ status: 200, body: [false] }),
    "/v2/int/captcha/providers": () => ({ status: 200, body: ["altcha"] }),
    "/v2/int/captcha/altcha/challenge": () => ({ status: 200, body: altchaChallenge(`n${++challenges}`) }),
    "/v2/login": () => ({ status: 200, body: ["login-token"] }),
    ...opts.routes,
  };
  const connects: AccountCredentials[] = [];
  let connectResult: (c: AccountCredentials) => AuthResult | Promise<AuthResult> = () => ({
    ok: true,
    userId: 7,
    code: null,
    msg: "",
  });
  const renewals: AccountCredentials[] = [];
  /** Whether the socket takes a renewed token (the worker holds credentials of that kind). */
  let renewTaken = true;
  const account = {
    connect: vi.fn(async (c: AccountCredentials) => {
      connects.push(c);
      return connectResult(c);
    }),
    renew: vi.fn((c: AccountCredentials) => {
      renewals.push(c);
      return Promise.resolve(renewTaken);
    }),
    disconnect: vi.fn(async () => {}),
  };
  const auth: AuthFlags = { fetching: false, tokenInvalid: false, apiKey: "" };
  const state = initialSessionState();
  const forced = vi.fn();
  const core = new SessionCore({
    timers: globalScheduler(),
    http: async (req) => {
      calls.push(req);
      const h = routes[req.path];
      if (!h) return { status: 404, body: ["error", 10020, "not found"] };
      return h(req);
    },
    storage: {
      load: () => stored,
      save: (t) => {
        stored = t ?? { token: "", expiresAt: null };
      },
    },
    auth,
    state,
    account,
    hasSessionCookie: () => opts.cookie ?? false,
    onForcedLogout: forced,
  });
  return {
    core,
    calls,
    paths: () => calls.map((c) => c.path),
    count: (path: string) => calls.filter((c) => c.path === path).length,
    stored: () => stored,
    setStored: (t: StoredToken) => {
      stored = t;
    },
    routes,
    account,
    connects,
    renewals,
    onConnect: (f: typeof connectResult) => {
      connectResult = f;
    },
    setRenewTaken: (taken: boolean) => {
      renewTaken = taken;
    },
    auth,
    state,
    forced,
  };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => vi.useRealTimers());

describe("token lifecycle", () => {
  it("checks a stored token on start: user info, account socket, token-loaded flag", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    expect(h.state.mode).toBe("token");
    expect(h.state.tokenLoaded).toBe(false);
    await flush();
    expect(h.calls.find((c) => c.path === "/v2/auth/r/info/user")?.token).toBe("tok");
    expect(h.connects).toEqual([{ kind: "token", token: "tok" }]);
    expect(h.state).toMatchObject({ tokenStatus: "valid", tokenLoaded: true, userId: 7, account: "live" });
    expect(h.state.user?.username).toBe("demo");
    h.core.stop();
  });

  it("renews the token before its 8-minute expiry and hands it to the account socket without reconnecting", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    const renewAt = TOKEN_EXPIRY_MS - RENEW_BEFORE_EXPIRY_MS;
    await vi.advanceTimersByTimeAsync(renewAt - AUTH_HEARTBEAT_MS);
    expect(h.count("/v2/auth/w/token")).toBe(0);
    await vi.advanceTimersByTimeAsync(AUTH_HEARTBEAT_MS);
    expect(h.count("/v2/auth/w/token")).toBe(1);
    const renewal = h.calls.find((c) => c.path === "/v2/auth/w/token");
    expect(renewal?.token).toBe("tok");
    expect(h.stored()).toEqual({ token: "renewed-1", expiresAt: T0 + renewAt + TOKEN_EXPIRY_MS });
    expect(h.core.token).toBe("renewed-1");
    expect(h.renewals).toEqual([{ kind: "token", token: "renewed-1" }]);
    // No second sign-in and no sign-out: the desk's account stays as it is.
    expect(h.connects).toEqual([{ kind: "token", token: "tok" }]);
    expect(h.account.disconnect).not.toHaveBeenCalled();
    expect(h.state.account).toBe("live");
    // The next renewal uses the new token, one expiry window later.
    await vi.advanceTimersByTimeAsync(renewAt);
    expect(h.count("/v2/auth/w/token")).toBe(2);
    expect(h.calls.filter((c) => c.path === "/v2/auth/w/token").at(-1)?.token).toBe("renewed-1");
    expect(h.renewals.at(-1)).toEqual({ kind: "token", token: "renewed-2" });
    expect(h.connects).toHaveLength(1);
    h.core.stop();
  });

  it("connects the account socket afresh when no sign-in takes the renewed token", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + RENEW_BEFORE_EXPIRY_MS + AUTH_HEARTBEAT_MS } });
    h.core.start();
    await flush();
    // The socket's last sign-in was refused (not 10100), so the worker holds nothing to swap.
    h.core.onAccountFailure(10114);
    expect(h.state.account).toBe("failed");
    expect(h.forced).not.toHaveBeenCalled();
    h.setRenewTaken(false);
    await vi.advanceTimersByTimeAsync(AUTH_HEARTBEAT_MS);
    expect(h.renewals).toEqual([{ kind: "token", token: "renewed-1" }]);
    expect(h.connects).toEqual([
      { kind: "token", token: "tok" },
      { kind: "token", token: "renewed-1" },
    ]);
    expect(h.state.account).toBe("live");
    h.core.stop();
  });

  it("forces a logout when the account socket refuses the token on a later reconnect", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    expect(h.state.account).toBe("live");
    // Reported by the account store when the worker's re-auth after a drop is refused.
    h.core.onAccountFailure(10100);
    expect(h.forced).toHaveBeenCalledTimes(1);
    expect(h.stored().token).toBe("");
    expect(h.auth.tokenInvalid).toBe(true);
    expect(h.state).toMatchObject({ mode: "none", tokenStatus: "invalid" });
    expect(h.account.disconnect).toHaveBeenCalledTimes(1);
    // A late echo of the same refusal changes nothing.
    h.core.onAccountFailure(10100);
    expect(h.forced).toHaveBeenCalledTimes(1);
    h.core.stop();
  });

  it("retries a renewal that could not reach the server on the next heartbeat", async () => {
    let fail = true;
    const h = harness({
      stored: { token: "tok", expiresAt: T0 + RENEW_BEFORE_EXPIRY_MS },
      routes: {
        "/v2/auth/w/token": () => {
          if (fail) return Promise.reject(new TypeError("Failed to fetch"));
          return { status: 200, body: ["fresh"] };
        },
      },
    });
    h.core.start();
    await vi.advanceTimersByTimeAsync(AUTH_HEARTBEAT_MS);
    expect(h.count("/v2/auth/w/token")).toBe(1);
    expect(h.stored().token).toBe("tok");
    fail = false;
    await vi.advanceTimersByTimeAsync(AUTH_HEARTBEAT_MS);
    expect(h.stored().token).toBe("fresh");
    h.core.stop();
  });

  it("refetches user info every 120 s", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + 60 * TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    expect(h.count("/v2/auth/r/info/user")).toBe(1);
    await vi.advanceTimersByTimeAsync(USER_INFO_POLL_MS - 1);
    expect(h.count("/v2/auth/r/info/user")).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.count("/v2/auth/r/info/user")).toBe(2);
    await vi.advanceTimersByTimeAsync(USER_INFO_POLL_MS);
    expect(h.count("/v2/auth/r/info/user")).toBe(3);
    h.core.stop();
  });

  it("keeps the session alive at most every 420 s, and only while a session cookie exists", async () => {
    const without = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    without.core.start();
    await vi.advanceTimersByTimeAsync(3 * KEEP_ALIVE_INTERVAL_MS);
    expect(without.count("/api/session/keep-alive")).toBe(0);
    without.core.stop();

    vi.setSystemTime(T0);
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS }, cookie: true });
    h.core.start();
    await vi.advanceTimersByTimeAsync(AUTH_HEARTBEAT_MS);
    expect(h.count("/api/session/keep-alive")).toBe(1);
    const call = h.calls.find((c) => c.path === "/api/session/keep-alive");
    expect(call).toMatchObject({ method: "GET", withCredentials: true, token: "tok" });
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_INTERVAL_MS - 2 * AUTH_HEARTBEAT_MS);
    expect(h.count("/api/session/keep-alive")).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * AUTH_HEARTBEAT_MS);
    expect(h.count("/api/session/keep-alive")).toBe(2);
    // The keep-alive's new expiry is stored for the token the session runs on.
    expect(h.stored().expiresAt).toBeGreaterThan(Date.now() + TOKEN_EXPIRY_MS - AUTH_HEARTBEAT_MS);
    h.core.stop();
  });

  it("forces a logout when the exchange answers 10100 (token invalid)", async () => {
    const h = harness({
      stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS },
      routes: { "/v2/auth/r/info/user": () => ({ status: 500, body: ["error", 10100, "token: invalid"] }) },
    });
    h.core.start();
    await flush();
    expect(h.forced).toHaveBeenCalledTimes(1);
    expect(h.stored().token).toBe("");
    expect(h.auth.tokenInvalid).toBe(true);
    expect(h.state.mode).toBe("none");
    expect(h.state.tokenStatus).toBe("invalid");
    expect(h.account.disconnect).toHaveBeenCalled();
    h.core.stop();
  });

  it("forces a logout when the account socket refuses the token with 10100", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.onConnect(() => ({ ok: false, userId: null, code: 10100, msg: "token: invalid" }));
    h.core.start();
    await flush();
    expect(h.forced).toHaveBeenCalledTimes(1);
    expect(h.stored().token).toBe("");
    h.core.stop();
  });

  it("does not force a logout for a server error or an unreachable server", async () => {
    const h = harness({
      stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS },
      routes: { "/v2/auth/r/info/user": () => Promise.reject(new TypeError("Failed to fetch")) },
    });
    h.core.start();
    await flush();
    expect(h.forced).not.toHaveBeenCalled();
    expect(h.stored().token).toBe("tok");
    expect(h.state.tokenLoaded).toBe(true);
    // Retried on the heartbeat while the user is unknown.
    h.routes["/v2/auth/r/info/user"] = () => ({ status: 200, body: userInfoRow(7, "demo") });
    await vi.advanceTimersByTimeAsync(AUTH_HEARTBEAT_MS);
    expect(h.state.user?.id).toBe(7);
    h.core.stop();
  });

  it("ends this tab's session when another tab logs out, without a forced redirect", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    h.setStored({ token: "", expiresAt: null });
    h.core.check();
    expect(h.state.mode).toBe("none");
    expect(h.state.user).toBeNull();
    expect(h.account.disconnect).toHaveBeenCalledTimes(1);
    expect(h.forced).not.toHaveBeenCalled();
    h.core.stop();
  });

  it("adopts a token another tab stored (its renewal) instead of renewing again", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    h.setStored({ token: "other-tab", expiresAt: T0 + 2 * TOKEN_EXPIRY_MS });
    h.core.check();
    // The user stays shown while the new token's user info is fetched.
    expect(h.state.user?.username).toBe("demo");
    expect(h.state.mode).toBe("token");
    await flush();
    expect(h.calls.filter((c) => c.path === "/v2/auth/r/info/user").at(-1)?.token).toBe("other-tab");
    expect(h.core.token).toBe("other-tab");
    // Another tab's renewal reaches this tab's socket without a reconnect too.
    expect(h.renewals).toEqual([{ kind: "token", token: "other-tab" }]);
    expect(h.connects).toEqual([{ kind: "token", token: "tok" }]);
    await vi.advanceTimersByTimeAsync(TOKEN_EXPIRY_MS - RENEW_BEFORE_EXPIRY_MS - AUTH_HEARTBEAT_MS);
    expect(h.count("/v2/auth/w/token")).toBe(0);
    h.core.stop();
  });

  it("signs the account socket in afresh when another tab's token belongs to another user", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    h.routes["/v2/auth/r/info/user"] = () => ({ status: 200, body: userInfoRow(8, "other") });
    h.setStored({ token: "other-user", expiresAt: T0 + 2 * TOKEN_EXPIRY_MS });
    h.core.check();
    await flush();
    expect(h.state.user?.username).toBe("other");
    expect(h.connects.at(-1)).toEqual({ kind: "token", token: "other-user" });
    expect(h.connects).toHaveLength(2);
    h.core.stop();
  });

  it("clears an expired stored token on start without calling the exchange", async () => {
    const h = harness({ stored: { token: "old", expiresAt: T0 - 1 } });
    h.core.start();
    await flush();
    expect(h.calls).toEqual([]);
    expect(h.stored().token).toBe("");
    expect(h.auth.tokenInvalid).toBe(true);
    expect(h.forced).not.toHaveBeenCalled();
    h.core.stop();
  });

  it("disposes its timers on stop", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    h.core.stop();
    const before = h.calls.length;
    await vi.advanceTimersByTimeAsync(10 * USER_INFO_POLL_MS);
    expect(h.calls.length).toBe(before);
  });
});

describe("login", () => {
  it("signs in with a password and starts the session on the new token", async () => {
    const h = harness();
    h.core.start();
    const out = await h.core.login({ login: "demo", password: "demo-password" });
    expect(out).toEqual({ kind: "signed-in" });
    const req = h.calls.find((c) => c.path === "/v2/login");
    expect(req?.body).toEqual({
      login: "demo",
      password: "demo-password",
      captchaToken: "",
      captchaProvider: "",
      appid: "web",
    });
    expect(h.stored()).toEqual({ token: "login-token", expiresAt: T0 + TOKEN_EXPIRY_MS });
    await flush();
    expect(h.state).toMatchObject({ mode: "token", tokenStatus: "valid", account: "live" });
    expect(h.connects).toEqual([{ kind: "token", token: "login-token" }]);
    h.core.stop();
  });

  it("maps refusals to what the person is told", () => {
    const e = (status: number, body: unknown) => loginErrorFrom({ status, body });
    expect(e(400, ["error", 10100, "login: invalid"])).toBe("credentials");
    expect(e(500, ["error", 10100, "login: invalid"])).toBe("credentials");
    expect(e(429, { error: "ERR_RATE_LIMIT" })).toBe("rate-limited");
    expect(e(400, ["error", 10100, "account: locked"])).toBe("locked");
    expect(e(400, ["error", 10100, "email: not verified"])).toBe("unverified");
    expect(e(400, ["error", 10100, "otp: invalid"])).toBe("otp");
    expect(e(400, ["error", 10100, "token: invalid"])).toBe("expired");
    expect(e(400, ["error", 10020, "captcha: required"])).toBe("captcha");
    expect(e(502, null)).toBe("server");
  });

  it("tells a server error and an unreachable server apart", async () => {
    const h = harness({ routes: { "/v2/login": () => ({ status: 503, body: null }) } });
    expect(await h.core.login({ login: "a", password: "b" })).toEqual({ kind: "error", error: "server" });
    h.routes["/v2/login"] = () => Promise.reject(new TypeError("Failed to fetch"));
    expect(await h.core.login({ login: "a", password: "b" })).toEqual({ kind: "error", error: "unreachable" });
    h.routes["/v2/login"] = () => ({ status: 400, body: ["error", 10100, "login: invalid"] });
    expect(await h.core.login({ login: "a", password: "b" })).toEqual({ kind: "error", error: "credentials" });
    expect(h.stored().token).toBe("");
  });

  it("asks for the ALTCHA captcha when required and sends its solution, a new check after each refusal", async () => {
    const h = harness({
      routes: {
        "/v2/int/captcha/required": () => ({ status: 200, body: [true] }),
        "/v2/login": (req) => {
          const b = req.body as Record<string, string>;
          if (b["captchaToken"] === "spent") return { status: 400, body: ["error", 10020, "captcha: invalid"] };
          if (b["password"] !== "pw") return { status: 400, body: ["error", 10100, "login: invalid"] };
          return { status: 200, body: ["after-captcha"] };
        },
      },
    });
    const first = await h.core.login({ login: "someone", password: "pw" });
    expect(first).toEqual({
      kind: "captcha",
      challenge: { provider: "altcha", challenge: altchaChallenge("n1") },
      error: null,
    });
    expect(h.calls.find((c) => c.path === "/v2/int/captcha/altcha/challenge")?.method).toBe("GET");
    expect(h.count("/v2/login")).toBe(0);

    // A solution the exchange refuses (spent, expired): a new challenge and the "captcha" error.
    const refused = await h.core.login({
      login: "someone",
      password: "pw",
      captcha: { provider: "altcha", token: "spent" },
    });
    expect(refused).toMatchObject({
      kind: "captcha",
      error: "captcha",
      challenge: { challenge: { parameters: { nonce: "n2" } } },
    });
    // An accepted solution with a wrong password: it is spent, so a new check comes with the error.
    const wrong = await h.core.login({
      login: "someone",
      password: "wrong",
      captcha: { provider: "altcha", token: "good-1" },
    });
    expect(wrong).toMatchObject({
      kind: "captcha",
      error: "credentials",
      challenge: { challenge: { parameters: { nonce: "n3" } } },
    });
    const right = await h.core.login({
      login: "someone",
      password: "pw",
      captcha: { provider: "altcha", token: "good-2" },
    });
    expect(right).toEqual({ kind: "signed-in" });
    expect(h.calls.filter((c) => c.path === "/v2/login").at(-1)?.body).toMatchObject({
      captchaToken: "good-2",
      captchaProvider: "altcha",
    });
  });

  it("takes no challenge it could not solve", async () => {
    const h = harness({
      routes: {
        "/v2/int/captcha/required": () => ({ status: 200, body: [true] }),
        "/v2/int/captcha/altcha/challenge": () => ({ status: 200, body: { id: "c1", question: "2 + 3" } }),
      },
    });
    expect(await h.core.login({ login: "x", password: "y" })).toEqual({ kind: "error", error: "captcha-unavailable" });
    h.routes["/v2/int/captcha/altcha/challenge"] = () => ({
      status: 200,
      body: { parameters: altchaChallenge("n").parameters },
    });
    expect(await h.core.login({ login: "x", password: "y" })).toEqual({ kind: "error", error: "captcha-unavailable" });
    expect(h.count("/v2/login")).toBe(0);
  });

  it("reports a captcha this app cannot show", async () => {
    const h = harness({
      routes: {
        "/v2/int/captcha/required": () => ({ status: 200, body: [true] }),
        "/v2/int/captcha/providers": () => ({ status: 200, body: ["recaptcha"] }),
      },
    });
    expect(await h.core.login({ login: "x", password: "y" })).toEqual({ kind: "error", error: "captcha-unavailable" });
  });

  it("passes the two-factor step with a security key: the exchange's challenge, signed, then verified", async () => {
    const h = harness({
      routes: {
        "/v2/login": () => ({ status: 200, body: { tfa: "u2f", tfaTypes: ["u2f", "otp"], tempToken: "temp-k" } }),
        "/v2/login/key/options": () => ({ status: 200, body: { challenge: "c-1", rpId: "localhost" } }),
        "/v2/login/verify": (req) => {
          const b = req.body as { method: string; assertion: { signed: string } };
          return b.method === "u2f" && b.assertion.signed === "c-1"
            ? { status: 200, body: ["key-token"] }
            : { status: 400, body: ["error", 10100, "key: not accepted"] };
        },
      },
    });
    expect(await h.core.login({ login: "key-user", password: "pw" })).toEqual({
      kind: "two-factor",
      tempToken: "temp-k",
      method: "u2f",
      methods: ["u2f", "otp"],
    });
    // The person cancels the browser's prompt: nothing is sent, the step can be tried again.
    expect(await h.core.verifyWithKey("temp-k", () => Promise.reject(new Error("NotAllowedError")))).toEqual({
      kind: "error",
      error: "key",
    });
    expect(await h.core.verifyWithKey("temp-k", () => Promise.resolve({ signed: "other" }))).toEqual({
      kind: "error",
      error: "key",
    });
    const signed = await h.core.verifyWithKey("temp-k", (o) =>
      Promise.resolve({ signed: (o as { challenge: string }).challenge }),
    );
    expect(signed).toEqual({ kind: "signed-in" });
    expect(h.stored().token).toBe("key-token");
  });

  it("passes the two-factor step with the TOTP code", async () => {
    const h = harness({
      routes: {
        "/v2/login": () => ({ status: 200, body: { tfa: "otp", tempToken: "temp-1" } }),
        "/v2/login/verify": (req) => {
          const b = req.body as Record<string, string>;
          if (b["tempToken"] !== "temp-1") return { status: 400, body: ["error", 10100, "token: invalid"] };
          return b["otp"] === "123456"
            ? { status: 200, body: ["tfa-token"] }
            : { status: 400, body: ["error", 10100, "otp: invalid"] };
        },
      },
    });
    const first = await h.core.login({ login: "tfa-user", password: "pw" });
    expect(first).toEqual({ kind: "two-factor", tempToken: "temp-1", method: "otp", methods: ["otp"] });
    expect(h.stored().token).toBe("");
    expect(await h.core.verifyTwoFactor("temp-1", "000000")).toEqual({ kind: "error", error: "otp" });
    expect(await h.core.verifyTwoFactor("temp-2", "123456")).toEqual({ kind: "error", error: "expired" });
    expect(await h.core.verifyTwoFactor("temp-1", "123 456")).toEqual({ kind: "signed-in" });
    expect(h.stored().token).toBe("tfa-token");
  });

  it("passes the two-factor step with a texted code: asked for, waited for, then verified", async () => {
    let texts = 0;
    const h = harness({
      routes: {
        "/v2/login": () => ({ status: 200, body: { tfa: "sms", tfaTypes: ["sms"], tempToken: "temp-s" } }),
        "/v2/login/sms": (req) => {
          expect(req.body).toEqual({ tempToken: "temp-s", method: "sms" });
          texts += 1;
          return texts === 1
            ? { status: 200, body: ["+44 ••• 3456", 1_300_000, 1_060_000] }
            : { status: 400, body: ["error", 10020, "sms: wait before asking for another code"] };
        },
        "/v2/login/verify": (req) => {
          const b = req.body as Record<string, string>;
          if (b["method"] !== "sms") return { status: 400, body: ["error", 10100, "otp: not enabled"] };
          return b["otp"] === "654321"
            ? { status: 200, body: ["sms-token"] }
            : { status: 400, body: ["error", 10100, "sms: code invalid"] };
        },
      },
    });
    expect(await h.core.login({ login: "sms-user", password: "pw" })).toMatchObject({ methods: ["sms"] });
    expect(await h.core.requestSmsCode("temp-s")).toEqual({ kind: "sent", phone: "+44 ••• 3456", resendAt: 1_060_000 });
    expect(await h.core.requestSmsCode("temp-s")).toEqual({ kind: "error", error: "sms-wait" });
    expect(await h.core.verifyTwoFactor("temp-s", "123456", "sms")).toEqual({ kind: "error", error: "sms" });
    expect(await h.core.verifyTwoFactor("temp-s", "654 321", "sms")).toEqual({ kind: "signed-in" });
    expect(h.stored().token).toBe("sms-token");
  });
});

describe("API-key sessions", () => {
  it("hands the key and secret to the account socket once and keeps only the key", async () => {
    const h = harness();
    h.core.start();
    const out = await h.core.loginWithApiKey("demo-api-key", "demo-api-secret");
    expect(out).toEqual({ kind: "signed-in" });
    expect(h.connects).toEqual([{ kind: "apiKey", key: "demo-api-key", secret: "demo-api-secret" }]);
    expect(h.auth.apiKey).toBe("demo-api-key");
    expect(h.state).toMatchObject({ mode: "apiKey", userId: 7, account: "live" });
    const kept = JSON.stringify([h.state, h.auth, h.stored()]);
    expect(kept).not.toContain("demo-api-secret");
    // No token: no renewal, no user-info poll, no keep-alive.
    await vi.advanceTimersByTimeAsync(2 * TOKEN_EXPIRY_MS);
    expect(h.calls).toEqual([]);
    await h.core.logout(null);
    expect(h.auth.apiKey).toBe("");
    expect(h.state.mode).toBe("none");
    expect(h.account.disconnect).toHaveBeenCalledTimes(1);
    h.core.stop();
  });

  it("reports a refused key, a small nonce and a socket that never answers", async () => {
    const h = harness();
    h.onConnect(() => ({ ok: false, userId: null, code: 10100, msg: "apikey: invalid" }));
    expect(await h.core.loginWithApiKey("k", "s")).toEqual({ kind: "error", error: "credentials" });
    h.onConnect(() => ({ ok: false, userId: null, code: 10114, msg: "nonce: small" }));
    expect(await h.core.loginWithApiKey("k", "s")).toEqual({ kind: "error", error: "nonce" });
    h.onConnect(() => new Promise<AuthResult>(() => {}));
    const pending = h.core.loginWithApiKey("k", "s");
    await vi.advanceTimersByTimeAsync(15_000);
    expect(await pending).toEqual({ kind: "error", error: "unreachable" });
    expect(h.auth.apiKey).toBe("");
  });

  it("forces a logout when the account socket later refuses the key", async () => {
    const h = harness();
    await h.core.loginWithApiKey("k", "s");
    h.core.onAccountFailure(10100);
    expect(h.forced).toHaveBeenCalledTimes(1);
    expect(h.auth.apiKey).toBe("");
    expect(h.auth.tokenInvalid).toBe(true);
  });
});

describe("logout", () => {
  it("sends the feedback, deletes the token with the 2000 ms timeout, then ends the session", async () => {
    const h = harness({ stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS } });
    h.core.start();
    await flush();
    await h.core.logout({ rating: 4, description: "  smooth  " });
    const tail = h.paths().slice(-2);
    expect(tail).toEqual(["/v2/int/contact/feedback", "/v2/auth/w/token/del"]);
    expect(h.calls.at(-2)?.body).toEqual({ token: "tok", rating: 4, description: "smooth", source: "fe-web-logout" });
    expect(h.calls.at(-1)).toMatchObject({ token: "tok", body: { token: "tok" }, timeoutMs: TOKEN_DELETE_TIMEOUT_MS });
    expect(h.stored().token).toBe("");
    expect(h.state.mode).toBe("none");
    expect(h.account.disconnect).toHaveBeenCalledTimes(1);
    expect(h.forced).not.toHaveBeenCalled();
    h.core.stop();
  });

  it("sends no feedback when none was given, and logs out even when the exchange is unreachable", async () => {
    const h = harness({
      stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS },
      routes: { "/v2/auth/w/token/del": () => Promise.reject(new Error("timeout")) },
    });
    h.core.start();
    await flush();
    await h.core.logout({ rating: null, description: " " });
    expect(h.count("/v2/int/contact/feedback")).toBe(0);
    expect(h.count("/v2/auth/w/token/del")).toBe(1);
    expect(h.stored().token).toBe("");
    h.core.stop();
  });
});

describe("a signed-in page's call (call)", () => {
  it("sends the session's token, answers status 0 without a session, and forces a logout on 10100", async () => {
    const none = harness();
    expect(await none.core.call("/v2/auth/r/api/keys")).toEqual({ status: 0, body: null });
    expect(none.count("/v2/auth/r/api/keys")).toBe(0);

    const h = harness({
      stored: { token: "tok", expiresAt: T0 + TOKEN_EXPIRY_MS },
      routes: {
        "/v2/auth/r/api/keys": () => ({ status: 200, body: [] }),
        "/v2/auth/w/api/key/revoke": () => ({ status: 500, body: ["error", 10100, "token: invalid"] }),
        "/v2/auth/w/api/key/update": () => ({ status: 500, body: ["error", 10001, "key: invalid"] }),
      },
    });
    h.core.start();
    await flush();
    expect(await h.core.call("/v2/auth/r/api/keys")).toEqual({ status: 200, body: [] });
    expect(h.calls.find((c) => c.path === "/v2/auth/r/api/keys")).toMatchObject({ method: "POST", token: "tok" });
    // A form's own refusal is the form's to show: no logout.
    expect((await h.core.call("/v2/auth/w/api/key/update", { key: "x" })).status).toBe(500);
    expect(h.forced).not.toHaveBeenCalled();
    await h.core.call("/v2/auth/w/api/key/revoke", { all: 1 });
    expect(h.forced).toHaveBeenCalledTimes(1);
    expect(h.stored().token).toBe("");
    h.core.stop();
  });
});
