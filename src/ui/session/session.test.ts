import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { globalScheduler } from "../../../tests/support/timers";
import {
  TOKEN_EXPIRY_MS,
  type AccountAuthState,
  type AccountCredentials,
  type AccountView,
  type AuthResult,
} from "../../protocol";
import type { Endpoints } from "../config";
import { accountStore, disconnectAccount } from "../desk/account-store";
import { RENEW_BEFORE_EXPIRY_MS, SessionCore, initialSessionState, type StoredToken } from "./core";
import { browserHttp, lazyAccount } from "./session";
import { accountView } from "../test-support/account";

/**
 * The worker as the account store reaches it (market()): sign-ins, credential swaps and sign-outs
 * recorded, and account views pushed by the test the way the worker publishes them.
 */
const worker = vi.hoisted(() => {
  const w = {
    authenticate: [] as AccountCredentials[],
    swaps: [] as AccountCredentials[],
    signOuts: 0,
    /** Whether a swap finds credentials to replace (false: nothing signed in, or refused). */
    holds: true,
    onView: null as ((view: AccountView) => void) | null,
    reset(): void {
      w.authenticate = [];
      w.swaps = [];
      w.signOuts = 0;
      w.holds = true;
      w.onView = null;
    },
  };
  return w;
});

vi.mock("../market/market", () => ({
  market: () => ({
    authenticate: (credentials: AccountCredentials): Promise<AuthResult> => {
      worker.authenticate.push(credentials);
      return Promise.resolve({ ok: true, userId: 7, code: null, msg: "" });
    },
    swapCredentials: (credentials: AccountCredentials): Promise<boolean> => {
      worker.swaps.push(credentials);
      return Promise.resolve(worker.holds);
    },
    signOut: (): Promise<void> => {
      worker.signOuts++;
      return Promise.resolve();
    },
    account: (onView: (view: AccountView) => void, signal: AbortSignal): Promise<void> => {
      worker.onView = onView;
      signal.addEventListener("abort", () => (worker.onView = null), { once: true });
      return Promise.resolve();
    },
  }),
}));

let version = 0;
/** An account view as the worker sends it, with the socket's sign-in state. */
function view(auth: AccountAuthState): AccountView {
  return accountView({ auth, version: ++version });
}

const OK_AUTH: AccountAuthState = { status: "ok", code: null, msg: "", replies: 1 };
/** The worker's re-auth after a drop, refused: the token died while the network was gone. */
const REFUSED_LATER: AccountAuthState = { status: "failed", code: 10100, msg: "token: invalid", replies: 2 };

function push(auth: AccountAuthState): void {
  if (!worker.onView) throw new Error("no account view subscribed");
  worker.onView(view(auth));
}

const endpoints: Endpoints = {
  restPublic: "https://pub.test",
  restAuth: "https://auth.test",
  wsPublic: "wss://pub.test/ws/2",
  wsAuth: "wss://auth.test/ws/2",
  staticHost: "https://static.test",
};

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the session's HTTP transport", () => {
  it("sends /v2/auth/ to the authenticated host with the token header and a JSON body", async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify(["tok"]), { status: 200 })));
    vi.stubGlobal("fetch", fetch);
    const http = browserHttp(endpoints, globalScheduler());
    const reply = await http({ method: "POST", path: "/v2/auth/w/token", token: "abc", body: { scope: "api" } });
    expect(reply).toEqual({ status: 200, body: ["tok"] });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://auth.test/v2/auth/w/token");
    expect(init.method).toBe("POST");
    expect(init.headers).toEqual({ "content-type": "application/json", "bfx-token": "abc" });
    expect(init.body).toBe('{"scope":"api"}');
    expect(init.credentials).toBe("same-origin");
  });

  it("sends public calls to the public host, cookies only when asked, and tolerates a non-JSON body", async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response("<html>busy</html>", { status: 503 })));
    vi.stubGlobal("fetch", fetch);
    const http = browserHttp(endpoints, globalScheduler());
    expect(await http({ method: "GET", path: "/api/session/keep-alive", withCredentials: true })).toEqual({
      status: 503,
      body: null,
    });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("https://pub.test/api/session/keep-alive");
    expect(init.credentials).toBe("include");
    expect(init.body).toBeUndefined();
  });

  it("aborts a call that outlives its timeout (the 2000 ms token deletion)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
          }),
      ),
    );
    const timers = globalScheduler();
    const http = browserHttp(endpoints, timers);
    const call = http({ method: "POST", path: "/v2/auth/w/token/del", body: {}, timeoutMs: 2000 });
    const outcome = call.then(
      () => "resolved",
      (e: unknown) => (e instanceof DOMException ? e.name : "other"),
    );
    let settled = false;
    void outcome.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe("AbortError");
    expect(timers.size).toBe(0);
  });
});

describe("the session's account socket (lazyAccount over the account store)", () => {
  afterEach(async () => {
    await disconnectAccount();
    worker.reset();
  });

  it("renews by swapping the worker's credentials: no new sign-in, no sign-out, the view kept", async () => {
    const failures: (number | null)[] = [];
    const link = lazyAccount((code) => failures.push(code));
    expect(await link.connect({ kind: "token", token: "t1" })).toMatchObject({ ok: true });
    push(OK_AUTH);
    const shown = accountStore.view;
    expect(accountStore.link).toBe("live");

    expect(await link.renew({ kind: "token", token: "t2" })).toBe(true);
    expect(worker.swaps).toEqual([{ kind: "token", token: "t2" }]);
    expect(worker.authenticate).toEqual([{ kind: "token", token: "t1" }]);
    expect(worker.signOuts).toBe(0);
    expect(accountStore.link).toBe("live");
    expect(accountStore.view).toBe(shown);
    await vi.advanceTimersByTimeAsync(0);
    expect(failures).toEqual([]);
  });

  it("reports a refusal on a later reconnect from the account view, once the link fails", async () => {
    const failures: (number | null)[] = [];
    const link = lazyAccount((code) => failures.push(code));
    await link.connect({ kind: "token", token: "t1" });
    push(OK_AUTH);
    push({ ...OK_AUTH, status: "pending" }); // dropped, re-authenticating: still live
    await vi.advanceTimersByTimeAsync(0);
    expect(accountStore.link).toBe("live");
    expect(failures).toEqual([]);

    push(REFUSED_LATER);
    await vi.advanceTimersByTimeAsync(0);
    expect(accountStore.link).toBe("failed");
    expect(accountStore.failure).toEqual({ code: 10100, msg: "token: invalid" });
    expect(failures.length).toBeGreaterThan(0);
    expect(new Set(failures)).toEqual(new Set([10100]));
    // A refused socket takes no renewal: the session connects afresh instead.
    expect(await link.renew({ kind: "token", token: "t2" })).toBe(false);
    expect(worker.swaps).toEqual([]);
  });

  it("before any sign-in, a renewal is refused without loading the worker", async () => {
    const link = lazyAccount(() => {});
    expect(await link.renew({ kind: "token", token: "t" })).toBe(false);
    expect(worker.swaps).toEqual([]);
  });
});

describe("a token session over the account store", () => {
  afterEach(async () => {
    await disconnectAccount();
    worker.reset();
  });

  it("renews without reconnecting, then logs out by force when a later re-auth is refused", async () => {
    vi.setSystemTime(1_800_000_000_000);
    const t0 = Date.now();
    let stored: StoredToken = { token: "tok", expiresAt: t0 + TOKEN_EXPIRY_MS };
    const user = new Array<unknown>(55).fill(null);
    user[0] = 7;
    user[2] = "demo";
    user[26] = [];
    let issued = 0;
    const forced = vi.fn();
    const timers = globalScheduler();
    const core: SessionCore = new SessionCore({
      timers,
      http: (req) => {
        if (req.path === "/v2/auth/w/token") return Promise.resolve({ status: 200, body: [`renewed-${++issued}`] });
        if (req.path === "/v2/auth/r/info/user") return Promise.resolve({ status: 200, body: user });
        return Promise.resolve({ status: 404, body: null });
      },
      storage: {
        load: () => stored,
        save: (t) => {
          stored = t ?? { token: "", expiresAt: null };
        },
      },
      auth: { fetching: false, tokenInvalid: false, apiKey: "" },
      state: initialSessionState(),
      account: lazyAccount((code) => core.onAccountFailure(code)),
      hasSessionCookie: () => false,
      onForcedLogout: forced,
    });
    core.start();
    for (let i = 0; i < 50 && !worker.onView; i++) await vi.advanceTimersByTimeAsync(1);
    push(OK_AUTH);
    expect(worker.authenticate).toEqual([{ kind: "token", token: "tok" }]);

    await vi.advanceTimersByTimeAsync(TOKEN_EXPIRY_MS - RENEW_BEFORE_EXPIRY_MS);
    expect(stored.token).toBe("renewed-1");
    expect(worker.swaps).toEqual([{ kind: "token", token: "renewed-1" }]);
    expect(worker.authenticate).toHaveLength(1);
    expect(worker.signOuts).toBe(0);
    expect(accountStore.link).toBe("live");

    push(REFUSED_LATER);
    await vi.advanceTimersByTimeAsync(0);
    expect(forced).toHaveBeenCalledTimes(1);
    expect(stored.token).toBe("");
    expect(worker.signOuts).toBe(1);
    expect(accountStore.link).toBe("signed-out");
    core.stop();
    timers.dispose();
  });
});
