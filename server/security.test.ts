/**
 * The security page's server side over HTTP and SQLite: sign-in sessions (renewals stay in their
 * session; "sign out everywhere else" ends the others and their tokens), the login history, and
 * hardware keys (WebAuthn through SimpleWebAuthn: registration needs the password, a key signs in
 * as the second factor, a replayed or foreign-site assertion is refused). Only a session's own
 * token may use these calls.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiServer } from "./api-server.ts";
import { openVenue } from "./exchange/venue.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { listenApi, mailsTo } from "./test-support/api.ts";
import { SoftKey } from "./test-support/webauthn.ts";
import { totp } from "./store/totp.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 7, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
let api: ApiServer;
let base = "";
// The test host's app origin is http://127.0.0.1:1; browsers refuse WebAuthn on an IP address, so
// keys are used from its localhost alias, which the API serves as well.
const APP = "http://localhost:1";

beforeAll(async () => {
  // Many sign-ins from one address: more than a person's 10 a minute.
  const started = await listenApi({
    exchange: venue.exchange,
    account: venue.gateway,
    limits: { ...DEFAULT_LIMITS, login: 1000 },
  });
  api = started.api;
  base = `http://${started.host}`;
});
afterAll(() => api.close());

async function post(
  path: string,
  body: unknown,
  o: { token?: string; origin?: string; agent?: string } = {},
): Promise<[number, unknown]> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (o.token) headers["bfx-token"] = o.token;
  if (o.origin) headers["origin"] = o.origin;
  if (o.agent) headers["user-agent"] = o.agent;
  const res = await fetch(base + path, { method: "POST", headers, body: JSON.stringify(body) });
  return [res.status, await res.json()];
}

let n = 0;
function account(): { login: string; email: string; id: number } {
  n += 1;
  const email = `sec${n}@example.com`;
  const id = venue.accounts.createUser(email, `sec${n}`, "long-enough-pw", Date.now(), true);
  return { login: `sec${n}`, email, id };
}

async function signIn(login: string, agent = "TestBrowser/1"): Promise<string> {
  const [status, body] = await post("/v2/login", { login, password: "long-enough-pw" }, { agent });
  expect(status).toBe(200);
  return (body as string[])[0] as string;
}

interface SessionRow {
  id: number;
  current: boolean;
  agent: string;
  address: string | null;
}

describe("sessions", () => {
  it("lists each sign-in once, renewals included, and marks the caller's", async () => {
    const a = account();
    const first = await signIn(a.login, "Firefox/1");
    const second = await signIn(a.login, "Chromium/2");
    // The app's renewal: a write-enabled session token, minted with the current one.
    const [, renewed] = await post(
      "/v2/auth/w/token",
      { scope: "api", writePermission: true, caps: ["o", "f", "s", "w"] },
      { token: second },
    );
    const next = (renewed as string[])[0] as string;
    const [status, list] = await post("/v2/auth/r/int/sessions", {}, { token: next });
    expect(status).toBe(200);
    const rows = list as SessionRow[];
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.agent, r.current])).toEqual([
      ["Chromium/2", true],
      ["Firefox/1", false],
    ]);
    expect(rows[0]?.address).toBe("127.0.0.1");
    // The first session's token still works until ended.
    expect((await post("/v2/auth/r/info/user", {}, { token: first }))[0]).toBe(200);
  });

  it("signs out everywhere else: the other sessions' tokens die, the caller's session and its renewals live", async () => {
    const a = account();
    const other = await signIn(a.login);
    const mine = await signIn(a.login);
    const [, renewed] = await post(
      "/v2/auth/w/token",
      { scope: "api", writePermission: true, caps: ["o", "f", "s", "w"] },
      { token: mine },
    );
    const mineNext = (renewed as string[])[0] as string;
    expect(await post("/v2/auth/w/int/sessions/revoke-others", {}, { token: mineNext })).toEqual([200, [1]]);
    expect(await post("/v2/auth/r/info/user", {}, { token: other })).toEqual([500, ["error", 10100, "token: invalid"]]);
    expect((await post("/v2/auth/r/info/user", {}, { token: mine }))[0]).toBe(200);
    expect((await post("/v2/auth/r/info/user", {}, { token: mineNext }))[0]).toBe(200);
    const [, list] = await post("/v2/auth/r/int/sessions", {}, { token: mine });
    expect((list as SessionRow[]).map((r) => r.current)).toEqual([true]);
  });

  it("ends one other session by id, never the caller's own through this call", async () => {
    const a = account();
    const other = await signIn(a.login);
    const mine = await signIn(a.login);
    const [, list] = await post("/v2/auth/r/int/sessions", {}, { token: mine });
    const rows = list as SessionRow[];
    const own = rows.find((r) => r.current)?.id;
    const theirs = rows.find((r) => !r.current)?.id;
    expect(await post("/v2/auth/w/int/sessions/revoke", { id: own }, { token: mine })).toEqual([
      400,
      ["error", 10020, "session: sign out to end this one"],
    ]);
    expect(await post("/v2/auth/w/int/sessions/revoke", { id: "1" }, { token: mine })).toEqual([
      400,
      ["error", 10020, "id: invalid"],
    ]);
    expect(await post("/v2/auth/w/int/sessions/revoke", { id: theirs }, { token: mine })).toEqual([200, [1]]);
    expect((await post("/v2/auth/r/info/user", {}, { token: other }))[0]).toBe(500);
    expect(await post("/v2/auth/w/int/sessions/revoke", { id: theirs }, { token: mine })).toEqual([
      400,
      ["error", 10020, "session: not found"],
    ]);
  });

  it("is a session token's business only: a token limited to capabilities is refused", async () => {
    const a = account();
    const mine = await signIn(a.login);
    const [, limited] = await post("/v2/auth/w/token", { scope: "api", caps: ["o"] }, { token: mine });
    const narrow = (limited as string[])[0] as string;
    for (const path of ["/v2/auth/r/int/sessions", "/v2/auth/w/int/sessions/revoke-others", "/v2/auth/r/int/security"])
      expect(await post(path, {}, { token: narrow })).toEqual([
        500,
        ["error", 10100, "security: a session token is required"],
      ]);
    expect(await post("/v2/auth/r/int/sessions", {}, {})).toEqual([500, ["error", 10100, "apikey: invalid"]]);
    expect((await post("/v2/auth/r/info/user", {}, { token: mine }))[0]).toBe(200);
  });
});

describe("login history", () => {
  it("records successes and failures against the account, newest first", async () => {
    const a = account();
    expect((await post("/v2/login", { login: a.login, password: "wrong-password" }, { agent: "Bad/1" }))[0]).toBe(400);
    const token = await signIn(a.login, "Good/1");
    const [status, rows] = await post("/v2/auth/r/int/logins/hist", {}, { token });
    expect(status).toBe(200);
    expect((rows as { outcome: string; agent: string; address: string }[]).map((r) => [r.outcome, r.agent])).toEqual([
      ["signed-in", "Good/1"],
      ["password", "Bad/1"],
    ]);
  });

  it("records a wrong authenticator code", async () => {
    const a = account();
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, a.id);
    const [, step] = await post("/v2/login", { login: a.login, password: "long-enough-pw" });
    const tempToken = (step as { tempToken: string }).tempToken;
    const wrong = totp(secret, Date.now()) === "000000" ? "111111" : "000000";
    expect((await post("/v2/login/verify", { tempToken, otp: wrong }))[0]).toBe(400);
    const [, done] = await post("/v2/login/verify", { tempToken, otp: totp(secret, Date.now()) });
    const token = (done as string[])[0] as string;
    const [, rows] = await post("/v2/auth/r/int/logins/hist", {}, { token });
    expect((rows as { outcome: string }[]).map((r) => r.outcome)).toEqual(["signed-in", "otp"]);
  });
});

/** Registers `key` for the account behind `token` from `origin`: the register call's answer. */
async function register(token: string, key: SoftKey, origin = APP, password = "long-enough-pw", name = "Desk key") {
  const [status, options] = await post("/v2/auth/r/int/2fa/key/challenge", {}, { token, origin });
  expect(status).toBe(200);
  const response = key.register(options as { challenge: string; rp: { id: string } }, origin);
  return post("/v2/auth/w/int/2fa/key/register", { name, password, response }, { token, origin });
}

async function keySignIn(login: string, key: SoftKey, origin = APP, counter?: number): Promise<[number, unknown]> {
  const [, step] = await post("/v2/login", { login, password: "long-enough-pw" }, { origin });
  expect(step).toMatchObject({ tfa: "u2f", tfaTypes: ["u2f"] });
  const tempToken = (step as { tempToken: string }).tempToken;
  const [status, options] = await post("/v2/login/key/options", { tempToken }, { origin });
  expect(status).toBe(200);
  const assertion = key.assert(options as { challenge: string; rpId: string }, origin, counter);
  return post("/v2/login/verify", { tempToken, method: "u2f", assertion }, { origin });
}

describe("hardware keys (WebAuthn)", () => {
  it("registers a key with the password, lists it, mails the owner, and signs in with it as the second factor", async () => {
    const a = account();
    const token = await signIn(a.login);
    const key = new SoftKey();
    expect(await register(token, key, APP, "not-the-password")).toEqual([400, ["error", 10020, "password: invalid"]]);
    expect(await register(token, key)).toEqual([200, [key.credentialId]]);
    const [, info] = await post("/v2/auth/r/int/security", {}, { token });
    expect(info).toMatchObject({
      factors: ["u2f"],
      keys: [{ id: key.credentialId, name: "Desk key", site: "localhost" }],
    });
    expect((await mailsTo(base, a.email)).map((m) => m.subject)).toContain("A security key was added");
    const [, user] = await post("/v2/auth/r/info/user", {}, { token });
    expect(JSON.stringify(user)).toContain('["u2f"]');

    const [status, signed] = await keySignIn(a.login, key);
    expect(status).toBe(200);
    const fresh = (signed as string[])[0] as string;
    expect((await post("/v2/auth/r/info/user", {}, { token: fresh }))[0]).toBe(200);
  });

  it("refuses a replayed counter, another key, and an assertion made for another site", async () => {
    const a = account();
    const token = await signIn(a.login);
    const key = new SoftKey();
    expect((await register(token, key))[0]).toBe(200);
    expect((await keySignIn(a.login, key))[0]).toBe(200);
    // A cloned key answers with a counter it has already used.
    expect(await keySignIn(a.login, key, APP, key.counter)).toEqual([400, ["error", 10100, "key: not accepted"]]);
    expect(await keySignIn(a.login, new SoftKey())).toEqual([400, ["error", 10100, "key: not accepted"]]);
    // Signed for the right challenge, but by a page of another origin.
    const [, step] = await post("/v2/login", { login: a.login, password: "long-enough-pw" }, { origin: APP });
    const tempToken = (step as { tempToken: string }).tempToken;
    const [, options] = await post("/v2/login/key/options", { tempToken }, { origin: APP });
    const phished = key.assert(options as { challenge: string }, "http://localhost:2");
    expect(await post("/v2/login/verify", { tempToken, method: "u2f", assertion: phished }, { origin: APP })).toEqual([
      400,
      ["error", 10100, "key: not accepted"],
    ]);
  });

  it("offers no key ceremony to an origin the API does not serve", async () => {
    const a = account();
    const token = await signIn(a.login);
    expect(await post("/v2/auth/r/int/2fa/key/challenge", {}, { token, origin: "http://evil.example" })).toEqual([
      400,
      ["error", 10020, "origin: not allowed"],
    ]);
  });

  it("renames a key; removing one needs the password and the current code when an authenticator is on too", async () => {
    const a = account();
    const token = await signIn(a.login);
    const key = new SoftKey();
    expect((await register(token, key))[0]).toBe(200);
    expect(await post("/v2/auth/w/int/2fa/key/rename", { id: key.credentialId, name: "  " }, { token })).toEqual([
      400,
      ["error", 10020, "name: invalid"],
    ]);
    expect(
      await post("/v2/auth/w/int/2fa/key/rename", { id: key.credentialId, name: "Travel key" }, { token }),
    ).toEqual([200, [1]]);
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, a.id);
    expect(
      await post("/v2/auth/w/int/2fa/key/remove", { id: key.credentialId, password: "long-enough-pw" }, { token }),
    ).toEqual([400, ["error", 10020, "otp: current code required"]]);
    expect(
      await post(
        "/v2/auth/w/int/2fa/key/remove",
        { id: key.credentialId, password: "long-enough-pw", currentToken: totp(secret, Date.now()) },
        { token },
      ),
    ).toEqual([200, [1]]);
    const [, info] = await post("/v2/auth/r/int/security", {}, { token });
    expect(info).toMatchObject({ factors: ["otp"], keys: [] });
    expect((await mailsTo(base, a.email)).map((m) => m.subject)).toContain("A security key was removed");
  });
});
