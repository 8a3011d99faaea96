/**
 * Tokens and sockets held to their sign-in session, over real HTTP, WebSocket and SQLite
 * (store/accounts.ts `mintToken`, `revokeSessions`, `recheck`; ws-account.ts): a token minted
 * from a session (`w/user/token/generate`, `w/token` with caps, and what those mint) belongs to
 * it and ends with it — logout, "sign out everywhere else", "end this session", single login, the
 * 12-hour cap — while an API key's tokens stay; an open account socket is checked again when its
 * token may lapse (expiry, the cap; the session's renewals carry it on) and a master's address
 * lock reaches the sockets of its sub-account contexts. Other addresses are real: requests leave
 * from 127.0.0.2, which Linux routes to the loopback host like 127.0.0.1.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { SESSION_MAX_MS, subaccountRowCodec, TOKEN_EXPIRY_MS } from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { DEFAULT_LIMITS } from "../rate-limit.ts";
import { IP_LOCK_REFUSAL } from "../store/security-settings.ts";
import { listenApi, mailsTo } from "../test-support/api.ts";
import { signedPost, until, wait } from "../test-support/session.ts";
import { messageText } from "../ws-text.ts";
import { openVenue } from "./venue.ts";

let clock = Date.now();
const venue = openVenue({
  dbPath: ":memory:",
  seed: 12,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
let api: ApiServer;
let host = "";

beforeAll(async () => {
  ({ api, host } = await listenApi({
    exchange: venue.exchange,
    account: venue.gateway,
    now: () => clock,
    limits: { ...DEFAULT_LIMITS, login: 1000, auth: 100_000, public: 5000 },
  }));
});
afterAll(() => api.close());

/** A POST from the local address `from` (default 127.0.0.1): status and JSON body. */
function post(path: string, body: unknown, o: { token?: string; from?: string } = {}): Promise<[number, unknown]> {
  const [hostname = "", port = ""] = host.split(":");
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port: Number(port),
        path,
        method: "POST",
        localAddress: o.from ?? "127.0.0.1",
        headers: { "content-type": "application/json", ...(o.token ? { "bfx-token": o.token } : {}) },
      },
      (res) => {
        let data = "";
        res.on("data", (c: Buffer) => (data += c.toString("utf8")));
        res.on("end", () => resolve([res.statusCode ?? 0, JSON.parse(data) as unknown]));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

let n = 0;
function account(): { login: string; email: string; id: number } {
  n += 1;
  const email = `sess${n}@example.com`;
  const id = venue.accounts.createUser(email, `sess${n}`, "long-enough-pw", clock, true);
  return { login: `sess${n}`, email, id };
}

async function tokenOf(login: string, from = "127.0.0.1"): Promise<string> {
  const [status, body] = await post("/v2/login", { login, password: "long-enough-pw" }, { from });
  expect(status, JSON.stringify(body)).toBe(200);
  return (body as string[])[0] as string;
}

/** A token minted with `token` at `path` (`w/token`, `w/user/token/generate`). */
async function mint(token: string, body: Record<string, unknown>, path = "/v2/auth/w/token"): Promise<string> {
  const [status, reply] = await post(path, body, { token });
  expect(status, JSON.stringify(reply)).toBe(200);
  return (reply as string[])[0] as string;
}

/** The status and body of a user-info call: 200 while the token works. */
const info = (token: string): Promise<[number, unknown]> => post("/v2/auth/r/info/user", {}, { token });
const INVALID: [number, unknown] = [500, ["error", 10100, "token: invalid"]];
const LAPSED: [number, unknown] = [500, ["error", 10100, "token: session expired"]];

/** Moves the start of `token`'s sign-in session back so that the session cap comes in `inMs`. */
function capIn(token: string, inMs: number): void {
  // Twelve hours of renewals over HTTP would only move the clock; the session's start is what the
  // cap reads, so the session is made to have begun that long ago.
  venue.accounts.db
    .prepare("UPDATE sessions SET created_at = ? WHERE id = (SELECT session_id FROM tokens WHERE token = ?)")
    .run(clock - SESSION_MAX_MS + inMs, token);
}

/**
 * Sets `setting` to `val` with `token`; a change that waits for the owner's mailed link (a
 * loosening, or a lock set from a session) is confirmed through it.
 */
async function setSetting(token: string, email: string, setting: string, val: string): Promise<void> {
  const [status, body] = await post("/v2/auth/w/int/security/settings", { setting, val }, { token });
  expect(status, JSON.stringify(body)).toBe(200);
  if ("applied" in (body as object)) return;
  const mail = (await mailsTo(`http://${host}`, email)).find(
    (m) => m.subject === "Confirm a change to your security settings",
  );
  const link = /token=([0-9a-f]{64})/.exec(mail?.body ?? "")?.[1] ?? "";
  expect((await post("/v2/int/security/change/confirm", { token: link }))[0]).toBe(200);
}

interface Sock {
  readonly ws: WebSocket;
  readonly auth: () => Record<string, unknown> | null;
  readonly closed: () => boolean;
  /** The `error` events the socket got (the reason it was signed out). */
  readonly errors: () => string[];
}

/** A socket from `from` signed in with `token`, once its auth answer came. */
async function socket(token: string, from = "127.0.0.1"): Promise<Sock> {
  const ws = new WebSocket(`ws://${host}/ws/2`, { localAddress: from });
  let auth: Record<string, unknown> | null = null;
  let closed = false;
  const errors: string[] = [];
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as Record<string, unknown>;
    if (f["event"] === "auth") auth = f;
    if (f["event"] === "error") errors.push(String(f["msg"]));
  });
  ws.on("close", () => (closed = true));
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", token }));
  await until(() => auth !== null, "auth answer");
  expect(auth).toMatchObject({ status: "OK" });
  return { ws, auth: () => auth, closed: () => closed, errors: () => errors };
}

describe("tokens minted from a session", () => {
  it("a full token and a limited one (and what the limited one mints) end with the session's logout", async () => {
    const a = account();
    const session = await tokenOf(a.login);
    const full = await mint(session, { scope: "api" }, "/v2/auth/w/user/token/generate");
    const limited = await mint(session, { scope: "cpl", caps: ["a"], writePermission: true, ttl: 3600 });
    // A token limited to `a` may mint again, and what it mints belongs to the session too.
    const grandchild = await mint(limited, { scope: "cpl", caps: ["a"], writePermission: true, ttl: 3600 });
    // The generated full token is as strong as the session's own: the security page takes it.
    expect((await post("/v2/auth/r/int/security/settings", {}, { token: full }))[0]).toBe(200);
    for (const t of [full, limited, grandchild]) expect((await info(t))[0]).toBe(200);
    const sockets = [await socket(full), await socket(limited)];

    expect(await post("/v2/auth/w/token/del", { token: session }, { token: session })).toEqual([200, [1]]);
    for (const t of [session, full, limited, grandchild]) expect(await info(t)).toEqual(INVALID);
    await until(() => sockets.every((s) => s.closed()), "the minted tokens' sockets closed");
    for (const s of sockets) expect(s.errors()).toEqual(["token: revoked"]);
  });

  it("end with 'sign out everywhere else', 'end this session' and single login; a key's tokens stay", async () => {
    const a = account();
    const key = venue.accounts.createApiKey(a.id, "bot", ["a", "o"], clock);
    const [, minted] = await signedPost(host, key, "/v2/auth/w/token", { ttl: 3600 });
    const keyToken = (minted as string[])[0] as string;

    const first = await tokenOf(a.login);
    const full1 = await mint(first, { scope: "api" }, "/v2/auth/w/user/token/generate");
    const limited1 = await mint(first, { scope: "api", caps: ["a", "o"], writePermission: true });
    const sock = await socket(limited1);
    const second = await tokenOf(a.login);
    expect(await post("/v2/auth/w/int/sessions/revoke-others", {}, { token: second })).toEqual([200, [1]]);
    for (const t of [first, full1, limited1]) expect(await info(t)).toEqual(INVALID);
    await until(() => sock.closed(), "the limited token's socket closed");

    // "End this session" from another one.
    const third = await tokenOf(a.login);
    const limited3 = await mint(third, { scope: "api", caps: ["a"], writePermission: true });
    const [, sessions] = await post("/v2/auth/r/int/sessions", {}, { token: second });
    const other = (sessions as { id: number; current: boolean }[]).filter((s) => !s.current);
    expect(other).toHaveLength(1);
    expect(await post("/v2/auth/w/int/sessions/revoke", { id: other[0]?.id }, { token: second })).toEqual([200, [1]]);
    expect(await info(third)).toEqual(INVALID);
    expect(await info(limited3)).toEqual(INVALID);

    // Single login (a tightening: at once): the next sign-in ends the session and what it minted.
    await setSetting(second, a.email, "nosinglelogin", "0");
    const full2 = await mint(second, { scope: "api" }, "/v2/auth/w/user/token/generate");
    const limited2 = await mint(second, { scope: "api", caps: ["a"], writePermission: true });
    const fourth = await tokenOf(a.login);
    for (const t of [second, full2, limited2]) expect(await info(t)).toEqual(INVALID);
    expect((await info(fourth))[0]).toBe(200);
    // An API key's token is no session's: none of this ended it (the key's revocation does).
    expect((await info(keyToken))[0]).toBe(200);
  });

  it("end at the session cap, and the keep-alive does not carry a minted token past it", async () => {
    const a = account();
    const session = await tokenOf(a.login);
    const full = await mint(session, { scope: "api" }, "/v2/auth/w/user/token/generate");
    const limited = await mint(session, { scope: "cpl", caps: ["a"], writePermission: true, ttl: 3600 });
    capIn(session, 60_000);
    const keepAlive = (t: string) =>
      fetch(`http://${host}/api/session/keep-alive`, { headers: { "bfx-token": t } }).then((r) => r.status);
    expect(await keepAlive(full)).toBe(200);
    clock += 60_000;
    expect(await keepAlive(full)).toBe(401);
    for (const t of [session, full, limited]) expect(await info(t)).toEqual(LAPSED);
    // Nor can a limited token mint its way past it.
    expect(await post("/v2/auth/w/token", { scope: "cpl", caps: ["a"] }, { token: limited })).toEqual(LAPSED);
  });
});

describe("open account sockets, checked again over time", () => {
  it("a limited token's socket closes at the token's expiry", async () => {
    const a = account();
    const session = await tokenOf(a.login);
    const short = await mint(session, { scope: "api", caps: ["o"], writePermission: true, ttl: 1 });
    const [sShort, sSession] = [await socket(short), await socket(session)];
    clock += 1500;
    await until(() => sShort.closed(), "the expired token's socket closed");
    expect(sShort.errors()).toEqual(["token: expired"]);
    // The session's own token has minutes left: its socket stays.
    await wait(100);
    expect(sSession.closed()).toBe(false);
    sSession.ws.close();
  });

  it("a session's socket lives on the session's renewals and closes once they stop", async () => {
    const a = account();
    const session = await tokenOf(a.login);
    const s = await socket(session);
    const calc = (): void => s.ws.send(JSON.stringify([0, "calc", null, [["wallet_exchange_USD"]]]));
    // The app renews with a new token and keeps the socket it signed in with the first one.
    clock += TOKEN_EXPIRY_MS - 1000;
    const renewed = await mint(session, { scope: "api", writePermission: true });
    clock += 2000;
    calc();
    await wait(150);
    expect(s.closed()).toBe(false);
    expect((await info(renewed))[0]).toBe(200);
    // No renewal since: once the last token of the session has expired, the socket ends.
    clock += TOKEN_EXPIRY_MS;
    calc();
    await until(() => s.closed(), "the socket closed after the session's last token expired");
    expect(s.errors()).toEqual(["token: expired"]);
  });

  it("the session cap closes a socket when it comes; with keep_session_alive on, the timer finds it alive", async () => {
    const capped = account();
    const kept = account();
    const cappedToken = await tokenOf(capped.login);
    const keptToken = await tokenOf(kept.login);
    // keep_session_alive on is a loosening: it applies once the mailed link is confirmed.
    await setSetting(keptToken, kept.email, "keep_session_alive", "1");
    capIn(cappedToken, 1000);
    capIn(keptToken, 1000);
    const [a, b] = [await socket(cappedToken), await socket(keptToken)];
    clock += 1500;
    // No input, no credential change: the timer armed at the cap re-reads the session.
    await until(() => a.closed(), "the capped session's socket closed");
    expect(a.errors()).toEqual(["token: session expired"]);
    await wait(300);
    expect(b.closed()).toBe(false);
    expect((await info(keptToken))[0]).toBe(200);
    b.ws.close();
  });

  it("a master's address lock closes the sockets of its sub-account contexts it leaves out", async () => {
    const m = account();
    const token = await tokenOf(m.login);
    const [status, row] = await post(
      "/v2/auth/w/subaccounts/create",
      { username: `sub${m.id}`, type: "trading", readOnly: 0 },
      { token },
    );
    expect(status, JSON.stringify(row)).toBe(200);
    const sub = subaccountRowCodec.decode(row);
    if (!sub.ok) throw new Error("sub-account row undecodable");
    const context = await mint(token, { id: sub.value.id }, "/v2/auth/w/subaccounts/context");
    const away = await socket(context, "127.0.0.2");
    const home = await socket(context, "127.0.0.1");
    await setSetting(token, m.email, "ip_lock", "127.0.0.1");
    await until(() => away.closed(), "the context socket off the master's list closed");
    expect(away.errors()).toEqual([IP_LOCK_REFUSAL]);
    await wait(100);
    expect(home.closed()).toBe(false);
    // The master's logout ends the context's socket too.
    expect(await post("/v2/auth/w/token/del", { token }, { token })).toEqual([200, [1]]);
    await until(() => home.closed(), "the context socket closed with the master's session");
  });
});
