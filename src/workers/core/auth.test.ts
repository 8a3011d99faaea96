import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type AccountAuthState, type AuthResult } from "../../protocol";
import { AccountCore } from "./account";
import { AccountAuth, SIGNED_OUT } from "./auth";

const OK = { event: "auth", status: "OK", chanId: 0, userId: 7, caps: {} };
const REFUSED = { event: "auth", status: "FAILED", chanId: 0, code: ERROR_CODES.AUTH_FAILED, msg: "token: invalid" };

/** The socket as AccountAuth sees it: what went out, and how often it was stopped or reconnected. */
function harness() {
  const sent: Record<string, unknown>[] = [];
  const states: AccountAuthState[] = [];
  const calls = { stop: 0, reconnect: 0 };
  const auth = new AccountAuth({
    crypto: webcrypto.subtle,
    now: () => Date.now(),
    send: (msg) => {
      sent.push(msg);
      return true;
    },
    stop: () => calls.stop++,
    reconnect: () => calls.reconnect++,
    onState: (s) => states.push(s),
  });
  /** An open: the `auth` message is built asynchronously (the signature), so wait for it. */
  const open = async (): Promise<Record<string, unknown>> => {
    const before = sent.length;
    auth.opened();
    for (let i = 0; i < 100 && sent.length === before; i++) await new Promise((r) => setTimeout(r, 5));
    expect(sent.length, "one auth per open").toBe(before + 1);
    return sent.at(-1) as Record<string, unknown>;
  };
  return { auth, sent, states, calls, open };
}

describe("the account socket's sign-in (AccountAuth)", () => {
  it("swaps the token without touching the socket; the next reconnect signs in with the new one", async () => {
    const h = harness();
    const first = h.auth.begin({ kind: "token", token: "old" });
    expect(await h.open()).toEqual({ event: "auth", token: "old" });
    h.auth.reply(OK);
    expect(await first).toEqual({ ok: true, userId: 7, code: null, msg: "" });
    expect(h.auth.ready).toBe(true);

    expect(h.auth.swap({ kind: "token", token: "new" })).toBe(true);
    // Nothing goes out on the live socket, and it is neither stopped nor reconnected.
    expect(h.sent).toHaveLength(1);
    expect(h.calls).toEqual({ stop: 0, reconnect: 0 });
    expect(h.auth.state).toEqual({ status: "ok", code: null, msg: "", replies: 1 });

    h.auth.closed();
    expect(h.auth.ready).toBe(false);
    expect(h.auth.state.status).toBe("pending");
    expect(await h.open()).toEqual({ event: "auth", token: "new" });
    h.auth.reply(OK);
    expect(h.auth.state).toEqual({ status: "ok", code: null, msg: "", replies: 2 });
  });

  it("says whether the accepted credentials may trade, from the reply's caps (object or JSON string)", async () => {
    const h = harness();
    void h.auth.begin({ kind: "token", token: "t" });
    await h.open();
    h.auth.reply({ ...OK, caps: { orders: { read: 1, write: 0 }, wallets: { read: 1, write: 0 } } });
    expect(h.auth.state.canTrade).toBe(false);
    h.auth.closed();
    await h.open();
    h.auth.reply({ ...OK, caps: JSON.stringify({ orders: { read: "1", write: "1" } }) });
    expect(h.auth.state.canTrade).toBe(true);
    h.auth.closed();
    await h.open();
    // No capabilities named: unknown, not refused.
    h.auth.reply(OK);
    expect(h.auth.state).toEqual({ status: "ok", code: null, msg: "", replies: 3 });
  });

  it("reports a refusal on a later reconnect, stops the socket and forgets the credentials", async () => {
    const h = harness();
    void h.auth.begin({ kind: "token", token: "tok" });
    await h.open();
    h.auth.reply(OK);
    h.auth.closed();
    await h.open();
    h.auth.reply(REFUSED);
    expect(h.auth.state).toEqual({
      status: "failed",
      code: ERROR_CODES.AUTH_FAILED,
      msg: "token: invalid",
      replies: 2,
    });
    expect(h.states.at(-1)?.status).toBe("failed");
    expect(h.calls).toEqual({ stop: 1, reconnect: 0 });
    expect(h.auth.ready).toBe(false);
    // The refused credentials are gone: no swap, and an open sends nothing.
    expect(h.auth.swap({ kind: "token", token: "newer" })).toBe(false);
    h.auth.opened();
    await new Promise((r) => setTimeout(r, 0));
    expect(h.sent).toHaveLength(2);
    // The close that follows the stop does not hide the failure.
    h.auth.closed();
    expect(h.auth.state.status).toBe("failed");
  });

  it("retries on a fresh socket when the refused token was swapped while its auth was out", async () => {
    const h = harness();
    const first = h.auth.begin({ kind: "token", token: "dying" });
    await h.open();
    expect(h.auth.swap({ kind: "token", token: "renewed" })).toBe(true);
    h.auth.reply(REFUSED);
    expect(h.calls).toEqual({ stop: 0, reconnect: 1 });
    expect(h.auth.state.status).toBe("pending");
    let settled: AuthResult | null = null;
    void first.then((r) => (settled = r));
    await new Promise((r) => setTimeout(r, 0));
    expect(settled, "the sign-in waits for the renewed token's answer").toBeNull();
    h.auth.closed();
    expect(await h.open()).toEqual({ event: "auth", token: "renewed" });
    h.auth.reply(OK);
    expect(await first).toMatchObject({ ok: true });
    expect(h.auth.state).toMatchObject({ status: "ok", replies: 2 });
  });

  it("answers a 10114 (nonce too small) with one fresh nonce on a fresh socket, then refuses", async () => {
    const h = harness();
    const NONCE = { event: "auth", status: "FAILED", chanId: 0, code: ERROR_CODES.AUTH_NONCE, msg: "nonce: small" };
    const signedIn = h.auth.begin({ kind: "apiKey", key: "k", secret: "s" });
    const first = await h.open();
    h.auth.reply(NONCE);
    // Not refused: reconnected once, and the next `auth` carries a nonce past the refused one by
    // more than the clock moved (the reset's lead).
    expect(h.calls).toEqual({ stop: 0, reconnect: 1 });
    expect(h.auth.state.status).toBe("pending");
    h.auth.closed();
    const second = await h.open();
    expect(Number(second["authNonce"]) - Number(first["authNonce"])).toBeGreaterThanOrEqual(1000);
    h.auth.reply(OK);
    expect(await signedIn).toEqual({ ok: true, userId: 7, code: null, msg: "" });

    // Once per accepted sign-in: a 10114 right after the retry is a refusal.
    h.auth.closed();
    await h.open();
    h.auth.reply(NONCE);
    expect(h.calls.reconnect).toBe(2);
    h.auth.closed();
    await h.open();
    h.auth.reply(NONCE);
    expect(h.auth.state).toMatchObject({ status: "failed", code: ERROR_CODES.AUTH_NONCE });
    expect(h.calls.stop).toBe(1);
  });

  it("refuses a swap when signed out or for another kind of credentials", async () => {
    const h = harness();
    expect(h.auth.swap({ kind: "token", token: "t" })).toBe(false);
    void h.auth.begin({ kind: "apiKey", key: "k", secret: "s" });
    expect(h.auth.swap({ kind: "token", token: "t" })).toBe(false);
    expect(h.auth.swap({ kind: "apiKey", key: "k2", secret: "s2" })).toBe(true);
    const msg = await h.open();
    expect(msg).toMatchObject({ event: "auth", apiKey: "k2" });
    expect(String(msg["authPayload"])).toMatch(/^AUTH\d+$/);
  });

  it("settles a superseded or signed-out sign-in and ignores replies after sign-out", async () => {
    const h = harness();
    const a = h.auth.begin({ kind: "token", token: "a" });
    const b = h.auth.begin({ kind: "token", token: "b" });
    expect(await a).toMatchObject({ ok: false, code: null });
    await h.open();
    h.auth.clear();
    expect(await b).toMatchObject({ ok: false, msg: "signed out" });
    expect(h.auth.state).toBe(SIGNED_OUT);
    h.auth.reply(REFUSED);
    expect(h.auth.state).toBe(SIGNED_OUT);
    expect(h.calls).toEqual({ stop: 0, reconnect: 0 });
  });

  it("does not send a signature that resolves after its socket closed", async () => {
    const h = harness();
    void h.auth.begin({ kind: "apiKey", key: "k", secret: "s" });
    h.auth.opened();
    h.auth.closed();
    await new Promise((r) => setTimeout(r, 50));
    expect(h.sent).toEqual([]);
    // The same signature work, not cut short, does go out.
    await h.open();
  });

  it("fails the sign-in when the signature cannot be made", async () => {
    const states: AccountAuthState[] = [];
    let stopped = 0;
    const auth = new AccountAuth({
      crypto: {
        importKey: () => Promise.reject(new Error("not a secure context")),
        sign: () => Promise.reject(new Error("unreachable")),
      },
      now: () => Date.now(),
      send: () => true,
      stop: () => stopped++,
      reconnect: () => {},
      onState: (s) => states.push(s),
    });
    const result = auth.begin({ kind: "apiKey", key: "k", secret: "s" });
    auth.opened();
    expect(await result).toEqual({ ok: false, userId: null, code: null, msg: "not a secure context" });
    expect(auth.state).toMatchObject({ status: "failed", msg: "not a secure context" });
    expect(stopped).toBe(1);
  });
});

describe("the sign-in state in the account view", () => {
  it("travels with the snapshot, bumps the version and survives a reset", () => {
    const acc = new AccountCore();
    expect(acc.snapshot().auth).toBe(SIGNED_OUT);
    const v = acc.version;
    const failed: AccountAuthState = {
      status: "failed",
      code: ERROR_CODES.AUTH_FAILED,
      msg: "token: invalid",
      replies: 2,
    };
    acc.setAuth(failed);
    expect(acc.version).toBe(v + 1);
    acc.setAuth(failed);
    expect(acc.version, "the same state is no change").toBe(v + 1);
    acc.reset();
    expect(acc.snapshot().auth).toEqual(failed);
  });
});
