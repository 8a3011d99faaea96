import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { globalScheduler } from "../../../tests/support/timers";
import type { Endpoints } from "../config";
import { browserHttp } from "./session";

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
    const fetch = vi.fn(async () => new Response(JSON.stringify(["tok"]), { status: 200 }));
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
    const fetch = vi.fn(async () => new Response("<html>busy</html>", { status: 503 }));
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
