/**
 * The security settings over HTTP and SQLite (server/security-settings.ts): what each setting
 * enforces — the address lock on sign-in, calls and sockets, a mailed confirmation for a new
 * address, single login, the sign-in mail, the session cap, the two-factor fallback, the
 * withdrawal check's flag — and the pending-change lifecycle (a loosening waits for its mailed
 * link; confirm, cancel, expiry, reuse, replacement). Other addresses are real: requests leave
 * from 127.0.0.2 and 127.0.0.3, which Linux routes to the loopback host like 127.0.0.1.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  LOGIN_CONFIRM_TTL_MS,
  SECURITY_CHANGE_TTL_MS,
  SESSION_MAX_MS,
  TOKEN_EXPIRY_MS,
} from "../src/protocol/index.ts";
import type { ApiServer } from "./api-server.ts";
import { openVenue } from "./exchange/venue.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { withdrawalCheckEnforced } from "./store/security-settings.ts";
import { newTotpSecret } from "./store/totp.ts";
import { listenApi, mailsTo } from "./test-support/api.ts";
import { until, wait } from "./test-support/session.ts";
import { messageText } from "./ws-text.ts";

let clock = Date.now();
const venue = openVenue({
  dbPath: ":memory:",
  seed: 11,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
let api: ApiServer;
let host = "";
let base = "";

beforeAll(async () => {
  const started = await listenApi({
    exchange: venue.exchange,
    account: venue.gateway,
    now: () => clock,
    limits: { ...DEFAULT_LIMITS, login: 1000, auth: 5000, public: 5000 },
  });
  api = started.api;
  host = started.host;
  base = `http://${host}`;
});
afterAll(() => api.close());

/** A POST from the local address `from` (default 127.0.0.1): status and JSON body. */
function post(path: string, body: unknown, o: { token?: string; from?: string } = {}): Promise<[number, unknown]> {
  const [hostname = "", port = ""] = host.split(":");
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname,
        port: Number(port),
        path,
        method: "POST",
        localAddress: o.from ?? "127.0.0.1",
        headers: {
          "content-type": "application/json",
          "user-agent": "TestBrowser/1",
          ...(o.token ? { "bfx-token": o.token } : {}),
        },
      },
      (res) => {
        let data = "";
        res.on("data", (c: Buffer) => (data += c.toString("utf8")));
        res.on("end", () => resolve([res.statusCode ?? 0, JSON.parse(data) as unknown]));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

let n = 0;
function account(): { login: string; email: string; id: number } {
  n += 1;
  const email = `set${n}@example.com`;
  const id = venue.accounts.createUser(email, `set${n}`, "long-enough-pw", clock, true);
  return { login: `set${n}`, email, id };
}

async function signIn(login: string, from = "127.0.0.1"): Promise<[number, unknown]> {
  return post("/v2/login", { login, password: "long-enough-pw" }, { from });
}

async function tokenOf(login: string, from = "127.0.0.1"): Promise<string> {
  const [status, body] = await signIn(login, from);
  expect(status).toBe(200);
  expect(Array.isArray(body)).toBe(true);
  return (body as string[])[0] as string;
}

interface Settings {
  settings: Record<string, string>;
  pendingChanges: Record<string, { val: string; expires: number }>;
  address: string | null;
}

async function read(token: string, from?: string): Promise<Settings> {
  const [status, body] = await post("/v2/auth/r/int/security/settings", {}, { token, ...(from ? { from } : {}) });
  expect(status).toBe(200);
  return body as Settings;
}

const set = (token: string, setting: string, val: unknown, from?: string): Promise<[number, unknown]> =>
  post("/v2/auth/w/int/security/settings", { setting, val }, { token, ...(from ? { from } : {}) });

/** The token of the newest mailed link to `email` under `subject`, and whether it was a cancel link. */
async function mailedToken(email: string, subject: string): Promise<string> {
  const mail = (await mailsTo(base, email)).find((m) => m.subject === subject);
  return /token=([0-9a-f]{64})/.exec(mail?.body ?? "")?.[1] ?? "";
}
const CHANGE_MAIL = "Confirm a change to your security settings";
const LOGIN_MAIL = "Confirm a sign-in from a new address";

/** A socket from `from` signed in with `token`: its auth answer and whether it closed. */
async function socket(
  token: string,
  from: string,
): Promise<{ ws: WebSocket; auth: () => unknown; closed: () => boolean }> {
  const ws = new WebSocket(`ws://${host}/ws/2`, { localAddress: from });
  let auth: unknown = null;
  let closed = false;
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as Record<string, unknown>;
    if (f["event"] === "auth") auth = f;
  });
  ws.on("close", () => (closed = true));
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", token }));
  await until(() => auth !== null, "auth answer");
  return { ws, auth: () => auth, closed: () => closed };
}

describe("reading and validating", () => {
  it("answers the defaults, and refuses a bad setting or value without writing anything", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    const first = await read(token);
    expect(first.settings).toEqual({
      keep_session_alive: "0",
      email_on_login: "0",
      nosinglelogin: "1",
      ip_lock: "0",
      no_enforce_withdrawal_check: "0",
      lock_on_new_ip: "0",
      two_fa_fallback: "1",
    });
    expect(first.pendingChanges).toEqual({});
    expect(first.address).toBe("127.0.0.1");
    const bad: [string, unknown, string][] = [
      ["nosuch", "1", "setting: invalid"],
      ["email_on_login", "yes", "val: invalid"],
      ["email_on_login", 1, "val: invalid"],
      ["ip_lock", "127.0.0.1, 300.1.1.1", "ip_lock: invalid address 300.1.1.1"],
      ["ip_lock", "fe80::1%eth0", "ip_lock: invalid address fe80::1%eth0"],
      ["ip_lock", "10.0.0.0/8", "ip_lock: invalid address 10.0.0.0/8"],
      ["ip_lock", " , ", "ip_lock: empty"],
      ["ip_lock", Array.from({ length: 21 }, (_, i) => `10.0.0.${i + 1}`).join(","), "ip_lock: too many addresses"],
      ["ip_lock", "10.0.0.1", "ip_lock: your current address must be on the list"],
    ];
    for (const [setting, val, msg] of bad) {
      const [status, body] = await set(token, setting, val);
      expect(status, setting).toBe(400);
      expect(body).toEqual(["error", 10020, msg]);
    }
    expect(await read(token)).toEqual(first);
    expect(await mailsTo(base, a.email)).toEqual([]);
  });

  it("needs a session's own token", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    const [, minted] = await post("/v2/auth/w/token", { scope: "api", caps: ["o"] }, { token });
    const limited = (minted as string[])[0] as string;
    const [status] = await post("/v2/auth/r/int/security/settings", {}, { token: limited });
    expect(status).toBe(500);
  });
});

describe("pending changes", () => {
  it("applies a tightening at once and holds a loosening until its mailed link confirms it, once", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    expect(await set(token, "lock_on_new_ip", "1")).toEqual([200, { applied: { val: "1" } }]);
    expect(await set(token, "nosinglelogin", "0")).toEqual([200, { applied: { val: "0" } }]);
    expect((await read(token)).settings["lock_on_new_ip"]).toBe("1");
    expect(await mailsTo(base, a.email)).toEqual([]);

    const [status, body] = await set(token, "lock_on_new_ip", "0");
    expect(status).toBe(200);
    expect(body).toEqual({ pending: { val: "0", expires: clock + SECURITY_CHANGE_TTL_MS } });
    const waiting = await read(token);
    expect(waiting.settings["lock_on_new_ip"]).toBe("1");
    expect(waiting.pendingChanges["lock_on_new_ip"]?.val).toBe("0");
    const link = await mailedToken(a.email, CHANGE_MAIL);
    expect(link).toMatch(/^[0-9a-f]{64}$/);
    // Only a hash is stored: the mailed token is nowhere in the database.
    expect(venue.accounts.db.prepare("SELECT 1 FROM security_changes WHERE token_hash = ?").get(link)).toBeUndefined();

    expect(await post("/v2/int/security/change/check", { token: link })).toEqual([
      200,
      expect.objectContaining({ setting: "lock_on_new_ip", val: "0" }),
    ]);
    expect(await post("/v2/int/security/change/confirm", { token: link })).toEqual([200, [1]]);
    const after = await read(token);
    expect(after.settings["lock_on_new_ip"]).toBe("0");
    expect(after.pendingChanges).toEqual({});
    // Single use: a second confirm, and a cancel after it, find nothing.
    expect(await post("/v2/int/security/change/confirm", { token: link })).toEqual([
      400,
      ["error", 10020, "token: invalid"],
    ]);
    expect((await post("/v2/int/security/change/cancel", { token: link }))[0]).toBe(400);
  });

  it("drops a change by its cancel link, after which its confirm link does nothing", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    await set(token, "no_enforce_withdrawal_check", "1");
    const link = await mailedToken(a.email, CHANGE_MAIL);
    expect(await post("/v2/int/security/change/cancel", { token: link })).toEqual([200, [1]]);
    expect(await post("/v2/int/security/change/confirm", { token: link })).toEqual([
      400,
      ["error", 10020, "token: invalid"],
    ]);
    const now = await read(token);
    expect(now.settings["no_enforce_withdrawal_check"]).toBe("0");
    expect(now.pendingChanges).toEqual({});
    expect(withdrawalCheckEnforced(venue.accounts.db, a.id)).toBe(true);
  });

  it("lets a link expire, replaces a pending change by a newer one, and cancels from the page", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    await set(token, "no_enforce_withdrawal_check", "1");
    const old = await mailedToken(a.email, CHANGE_MAIL);
    clock += SECURITY_CHANGE_TTL_MS;
    // The session itself is renewed meanwhile, as the app does.
    const fresh = await tokenOf(a.login);
    expect(await post("/v2/int/security/change/check", { token: old })).toEqual([
      400,
      ["error", 10020, "token: invalid"],
    ]);
    expect((await post("/v2/int/security/change/confirm", { token: old }))[0]).toBe(400);
    expect((await read(fresh)).pendingChanges).toEqual({});
    expect(withdrawalCheckEnforced(venue.accounts.db, a.id)).toBe(true);

    await set(fresh, "no_enforce_withdrawal_check", "1");
    const first = await mailedToken(a.email, CHANGE_MAIL);
    await set(fresh, "no_enforce_withdrawal_check", "1");
    const second = await mailedToken(a.email, CHANGE_MAIL);
    expect(second).not.toBe(first);
    expect((await post("/v2/int/security/change/confirm", { token: first }))[0]).toBe(400);
    expect(
      await post(
        "/v2/auth/w/int/security/pending/cancel",
        { setting: "no_enforce_withdrawal_check" },
        { token: fresh },
      ),
    ).toEqual([200, [1]]);
    expect((await post("/v2/int/security/change/confirm", { token: second }))[0]).toBe(400);
    expect(
      await post(
        "/v2/auth/w/int/security/pending/cancel",
        { setting: "no_enforce_withdrawal_check" },
        { token: fresh },
      ),
    ).toEqual([400, ["error", 10020, "pending: none"]]);

    // Confirmed at last: the flag other server code reads turns.
    await set(fresh, "no_enforce_withdrawal_check", "1");
    await post("/v2/int/security/change/confirm", { token: await mailedToken(a.email, CHANGE_MAIL) });
    expect(withdrawalCheckEnforced(venue.accounts.db, a.id)).toBe(false);
    // Turning the check back on is a tightening: at once.
    expect(await set(fresh, "no_enforce_withdrawal_check", "0")).toEqual([200, { applied: { val: "0" } }]);
    expect(withdrawalCheckEnforced(venue.accounts.db, a.id)).toBe(true);
  });
});

describe("what each setting enforces", () => {
  it("single login: a new sign-in ends the other sessions and closes their sockets", async () => {
    const a = account();
    const first = await tokenOf(a.login);
    const second = await tokenOf(a.login);
    await set(second, "nosinglelogin", "0");
    const s = await socket(first, "127.0.0.1");
    expect(s.auth(), JSON.stringify(s.auth())).toMatchObject({ status: "OK" });
    const third = await tokenOf(a.login);
    await until(s.closed, "first session's socket closed");
    expect((await post("/v2/auth/r/info/user", {}, { token: first }))[0]).toBe(500);
    expect((await post("/v2/auth/r/info/user", {}, { token: second }))[0]).toBe(500);
    expect((await post("/v2/auth/r/info/user", {}, { token: third }))[0]).toBe(200);
  });

  it("email_on_login: mails every sign-in with its address, browser and time", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    await set(token, "email_on_login", "1");
    await tokenOf(a.login, "127.0.0.2");
    const mail = (await mailsTo(base, a.email)).find((m) => m.subject === "New sign-in to your account");
    expect(mail?.body).toContain("127.0.0.2");
    expect(mail?.body).toContain("TestBrowser/1");
    expect(mail?.body).toContain(new Date(clock).toISOString());
  });

  it("ip_lock: refuses sign-in, calls and sockets from other addresses, and closes sockets it leaves out", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    const elsewhere = await tokenOf(a.login, "127.0.0.2");
    const away = await socket(elsewhere, "127.0.0.2");
    expect(away.auth()).toMatchObject({ status: "OK" });
    // Turning the lock on names addresses: it waits for the mailed link like adding one.
    expect((await set(token, "ip_lock", "127.0.0.1 ::1"))[1]).toMatchObject({ pending: { val: "127.0.0.1,::1" } });
    expect((await read(token)).settings["ip_lock"]).toBe("0");
    expect(away.closed()).toBe(false);
    await post("/v2/int/security/change/confirm", { token: await mailedToken(a.email, CHANGE_MAIL) });
    expect((await read(token)).settings["ip_lock"]).toBe("127.0.0.1,::1");
    await until(away.closed, "socket from an address off the list closed");
    const refusal = ["error", 10100, "ip: address not allowed"];
    expect(await post("/v2/auth/r/info/user", {}, { token: elsewhere, from: "127.0.0.2" })).toEqual([500, refusal]);
    expect(await post("/v2/auth/r/int/security/settings", {}, { token: elsewhere, from: "127.0.0.2" })).toEqual([
      500,
      refusal,
    ]);
    expect(await signIn(a.login, "127.0.0.2")).toEqual([400, refusal]);
    const again = await socket(token, "127.0.0.2");
    expect(again.auth()).toMatchObject({ status: "FAILED", msg: "ip: address not allowed" });
    again.ws.close();
    // From a listed address everything works; adding an address loosens, so it waits for the mail.
    expect((await post("/v2/auth/r/info/user", {}, { token }))[0]).toBe(200);
    expect((await set(token, "ip_lock", "127.0.0.1,::1,127.0.0.2"))[1]).toMatchObject({ pending: {} });
    expect(await signIn(a.login, "127.0.0.2")).toEqual([400, refusal]);
    await post("/v2/int/security/change/confirm", { token: await mailedToken(a.email, CHANGE_MAIL) });
    expect((await signIn(a.login, "127.0.0.2"))[0]).toBe(200);
    // Narrowing applies at once; lifting the lock waits.
    expect(await set(token, "ip_lock", "127.0.0.1")).toEqual([200, { applied: { val: "127.0.0.1" } }]);
    expect((await set(token, "ip_lock", "0"))[1]).toMatchObject({ pending: { val: "0" } });
    expect((await read(token)).settings["ip_lock"]).toBe("127.0.0.1");
  });

  it("ip_lock: a session elsewhere cannot lock the owner out without the owner's mailbox", async () => {
    const a = account();
    const owner = await tokenOf(a.login);
    const thief = await tokenOf(a.login, "127.0.0.2");
    const [status, body] = await set(thief, "ip_lock", "127.0.0.2", "127.0.0.2");
    expect(status).toBe(200);
    expect(body).toMatchObject({ pending: { val: "127.0.0.2" } });
    // Nothing changed: the owner goes on from their own address and drops the request.
    expect((await read(owner)).settings["ip_lock"]).toBe("0");
    expect((await signIn(a.login))[0]).toBe(200);
    expect(await post("/v2/auth/w/int/security/pending/cancel", { setting: "ip_lock" }, { token: owner })).toEqual([
      200,
      [1],
    ]);
    expect((await read(owner)).pendingChanges).toEqual({});
  });

  it("lock_on_new_ip: holds a sign-in from a new address until its mailed link confirms it", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    await set(token, "lock_on_new_ip", "1");
    // A known address signs in as before.
    expect((await signIn(a.login))[0]).toBe(200);
    const held = await signIn(a.login, "127.0.0.2");
    expect(held).toEqual([200, { confirmLogin: "email" }]);
    const link = await mailedToken(a.email, LOGIN_MAIL);
    expect(await post("/v2/int/login/confirm/check", { token: link })).toEqual([
      200,
      expect.objectContaining({ address: "127.0.0.2", agent: "TestBrowser/1" }),
    ]);
    // Still held until confirmed.
    expect(await signIn(a.login, "127.0.0.2")).toEqual([200, { confirmLogin: "email" }]);
    const latest = await mailedToken(a.email, LOGIN_MAIL);
    // The earlier link was replaced by the newer mail's.
    expect((await post("/v2/int/login/confirm", { token: link }))[0]).toBe(400);
    expect(await post("/v2/int/login/confirm", { token: latest })).toEqual([200, [1]]);
    expect((await post("/v2/int/login/confirm", { token: latest }))[0]).toBe(400);
    expect((await signIn(a.login, "127.0.0.2"))[0]).toBe(200);
    expect(Array.isArray((await signIn(a.login, "127.0.0.2"))[1])).toBe(true);

    // Cancelled, or expired: the address stays out.
    await signIn(a.login, "127.0.0.3");
    const cancelled = await mailedToken(a.email, LOGIN_MAIL);
    expect(await post("/v2/int/login/confirm/cancel", { token: cancelled })).toEqual([200, [1]]);
    expect((await post("/v2/int/login/confirm", { token: cancelled }))[0]).toBe(400);
    expect(await signIn(a.login, "127.0.0.3")).toEqual([200, { confirmLogin: "email" }]);
    const late = await mailedToken(a.email, LOGIN_MAIL);
    clock += LOGIN_CONFIRM_TTL_MS;
    expect(await post("/v2/int/login/confirm", { token: late })).toEqual([400, ["error", 10020, "token: invalid"]]);
  });

  it("keep_session_alive: off, a session ends SESSION_MAX_MS after sign-in whatever its renewals; on, renewals keep it", async () => {
    const a = account();
    let token = await tokenOf(a.login);
    const start = clock;
    // Renew as the app does until the cap.
    while (clock - start < SESSION_MAX_MS) {
      clock += TOKEN_EXPIRY_MS / 2;
      const [status, body] = await post("/v2/auth/w/token", { scope: "api", writePermission: true }, { token });
      if (clock - start >= SESSION_MAX_MS) {
        expect(status).toBe(500);
        expect(body).toEqual(["error", 10100, "token: session expired"]);
        break;
      }
      expect(status).toBe(200);
      token = (body as string[])[0] as string;
    }

    const b = account();
    let kept = await tokenOf(b.login);
    await set(kept, "keep_session_alive", "1");
    await post("/v2/int/security/change/confirm", { token: await mailedToken(b.email, CHANGE_MAIL) });
    const from = clock;
    while (clock - from < SESSION_MAX_MS + TOKEN_EXPIRY_MS) {
      clock += TOKEN_EXPIRY_MS / 2;
      const [status, body] = await post("/v2/auth/w/token", { scope: "api", writePermission: true }, { token: kept });
      expect(status).toBe(200);
      kept = (body as string[])[0] as string;
    }
    // Turning it off again applies at once, and the long session ends with it.
    expect(await set(kept, "keep_session_alive", "0")).toEqual([200, { applied: { val: "0" } }]);
    expect((await post("/v2/auth/r/info/user", {}, { token: kept }))[0]).toBe(500);
  });

  it("two_fa_fallback: off, only the first factor signs in, and the change waits for the mail", async () => {
    const a = account();
    const token = await tokenOf(a.login);
    // Two factors: an authenticator and a hardware key (the key's row is enough to be refused).
    venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(newTotpSecret(), a.id);
    venue.accounts.db
      .prepare(
        "INSERT INTO webauthn_keys (id, user_id, name, public_key, counter, transports, rp_id, created_at) VALUES (?, ?, ?, ?, 0, '[]', 'localhost', ?)",
      )
      .run(`key-${a.id}`, a.id, "Key", Buffer.from([1]), clock);
    const [, both] = await signIn(a.login);
    expect(both).toMatchObject({ tfa: "otp", tfaTypes: ["otp", "u2f"] });

    expect((await set(token, "two_fa_fallback", "0"))[1]).toMatchObject({ pending: { val: "0" } });
    const [, still] = await signIn(a.login);
    expect(still).toMatchObject({ tfaTypes: ["otp", "u2f"] });
    await post("/v2/int/security/change/confirm", { token: await mailedToken(a.email, CHANGE_MAIL) });

    const [, only] = await signIn(a.login);
    expect(only).toMatchObject({ tfa: "otp", tfaTypes: ["otp"] });
    const tempToken = (only as { tempToken: string }).tempToken;
    expect(await post("/v2/login/key/options", { tempToken })).toEqual([
      400,
      ["error", 10100, "2fa: fallback off, use the first factor"],
    ]);
    expect((await post("/v2/login/verify", { tempToken, method: "u2f", assertion: {} }))[1]).toEqual([
      "error",
      10100,
      "2fa: fallback off, use the first factor",
    ]);
    // SMS as a third factor: with the fallback off no code is even texted.
    venue.accounts.db
      .prepare("INSERT INTO sms_factors (user_id, phone, country_code, enabled_at) VALUES (?, ?, '44', ?)")
      .run(a.id, "+447911123499", clock);
    const [, three] = await signIn(a.login);
    const smsTemp = (three as { tempToken: string }).tempToken;
    expect(await post("/v2/login/sms", { tempToken: smsTemp })).toEqual([
      400,
      ["error", 10100, "2fa: fallback off, use the first factor"],
    ]);
    expect(venue.accounts.db.prepare("SELECT COUNT(*) AS n FROM sms_outbox WHERE user_id = ?").get(a.id)).toEqual({
      n: 0,
    });
    // Turning it back on waits too.
    expect((await set(token, "two_fa_fallback", "1"))[1]).toMatchObject({ pending: { val: "1" } });
    await wait(0);
  });
});
