/**
 * What a credential may reach, over real HTTP and WebSocket: `w/token/del` deletes only the
 * caller's own tokens; the development endpoints answer a loopback Host only (DNS rebinding); a
 * key's socket gets only the account records its read permissions cover; the account channel
 * takes one of the 30 channel slots; funding paths need the funding permission; `r/permissions`
 * lists all ten scopes; `/v2/login/verify` takes 5 wrong codes per temporary token and a TOTP
 * code once.
 */
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { createApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { newTotpSecret, totp } from "../store/totp.ts";
import { listenApi } from "../test-support/api.ts";
import { demoSession, wait, keyAuth, signedPost, tokenPost } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 27, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

const signed = (key: { key: string; secret: string }, path: string, body: unknown = {}) =>
  signedPost(s.host, key, path, body);
const withToken = (token: string, path: string, body: unknown = {}) => tokenPost(s.host, token, path, body);

async function post(path: string, body: unknown): Promise<[number, unknown]> {
  const res = await fetch(`http://${s.host}${path}`, { method: "POST", body: JSON.stringify(body) });
  return [res.status, await res.json()];
}

/** A GET with the Host header given (fetch does not let a test set it). */
function getWithHost(path: string, host: string): Promise<number> {
  const [hostname, port] = s.host.split(":");
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port: Number(port), path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

const INVALID = [500, ["error", 10100, "token: invalid"]];

describe("w/token/del", () => {
  it("deletes the caller's own tokens only", async () => {
    const other = venue.accounts.createUser("other@example.com", "other", "other-password-1", Date.now(), true);
    const theirs = venue.accounts.issueToken(other, Date.now());
    expect(await withToken(s.token, "/v2/auth/w/token/del", { token: theirs })).toEqual(INVALID);
    expect((await withToken(theirs, "/v2/auth/r/info/user"))[0]).toBe(200);
    // A key's token may not delete the session's token either.
    const key = venue.accounts.createApiKey(demo, "del", ["a"], Date.now(), { key: "k-del", secret: "s-del" });
    const keyToken = ((await signed(key, "/v2/auth/w/token"))[1] as string[])[0] as string;
    expect(await withToken(keyToken, "/v2/auth/w/token/del", { token: s.token })).toEqual(INVALID);
    expect((await s.rest("/v2/auth/r/info/user")).status).toBe(200);
    // Its own, yes; and the session deletes a token of its user.
    const spare = ((await s.rest("/v2/auth/w/token", {})).body as string[])[0] as string;
    expect(await withToken(s.token, "/v2/auth/w/token/del", { token: spare })).toEqual([200, [1]]);
    expect(await withToken(spare, "/v2/auth/r/info/user")).toEqual(INVALID);
    expect(await withToken(keyToken, "/v2/auth/w/token/del", { token: keyToken })).toEqual([200, [1]]);
  });
});

describe("w/token/del by a limited token", () => {
  it("deletes itself whatever its capabilities, and nothing that is not its own", async () => {
    const mint = async (body: Record<string, unknown>): Promise<string> =>
      ((await s.rest("/v2/auth/w/token", body)).body as string[])[0] as string;
    const readOnly = await mint({ writePermission: false });
    const ordersOnly = await mint({ caps: ["o"], writePermission: true });
    const spare = await mint({});
    // Their capabilities stand for everything else: a read-only token places no order.
    expect(await withToken(readOnly, "/v2/auth/w/order/submit", {})).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    for (const limited of [readOnly, ordersOnly]) {
      expect(await withToken(limited, "/v2/auth/w/token/del", { token: spare })).toEqual(INVALID);
      expect(await withToken(limited, "/v2/auth/w/token/del", { token: s.token })).toEqual(INVALID);
      expect(await withToken(limited, "/v2/auth/w/token/del", { token: limited })).toEqual([200, [1]]);
      expect(await withToken(limited, "/v2/auth/r/info/user")).toEqual(INVALID);
    }
    expect((await withToken(spare, "/v2/auth/r/info/user"))[0]).toBe(200);
    expect((await s.rest("/v2/auth/r/info/user")).status).toBe(200);
  });
});

describe("development endpoints", () => {
  it("answer a loopback Host only", async () => {
    const port = s.host.split(":")[1] as string;
    expect(await getWithHost("/dev/outbox", `evil.example:${port}`)).toBe(403);
    expect(await getWithHost("/dev/outbox", "attacker.test")).toBe(403);
    expect(await getWithHost("/dev/outbox", `localhost:${port}`)).toBe(200);
    expect(await getWithHost("/dev/outbox", `127.0.0.1:${port}`)).toBe(200);
    expect(await getWithHost("/dev/outbox", `[::1]:${port}`)).toBe(200);
  });
});

const TO_FUNDING = { from: "exchange", to: "funding", currency: "USD", amount: "1000" };
const OFFER = { type: "LIMIT", symbol: "fUSD", amount: "200", rate: "0.0002", period: 2 };

/** A socket signed in with an API key; its channel-0 frames. */
const keySocket = (key: { key: string; secret: string }) => s.authSocket(keyAuth(key));

/** This machine's first non-loopback IPv4 address (none: the LAN case cannot be made here). */
const lanAddress = Object.values(networkInterfaces())
  .flat()
  .find((i) => i !== undefined && i.family === "IPv4" && !i.internal)?.address;

describe("development endpoints on a host listening beyond loopback", () => {
  it.skipIf(lanAddress === undefined)("refuse a network client, even one sending Host: localhost", async () => {
    const api = createApiServer({
      exchange: venue.exchange,
      account: venue.gateway,
      appOrigin: "http://127.0.0.1:1",
      now: () => Date.now(),
      platformStatus: () => 1,
      devEndpoints: true,
    });
    await new Promise<void>((r) => api.server.listen(0, "0.0.0.0", r));
    const port = (api.server.address() as AddressInfo).port;
    const get = (hostname: string): Promise<[number, unknown]> =>
      new Promise((resolve, reject) => {
        const req = request({ hostname, port, path: "/dev/outbox", headers: { host: `localhost:${port}` } }, (res) => {
          let text = "";
          res.on("data", (c: Buffer) => (text += String(c)));
          res.on("end", () => resolve([res.statusCode ?? 0, JSON.parse(text) as unknown]));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      expect(await get(lanAddress as string)).toEqual([403, ["error", 10100, "dev: loopback clients only"]]);
      expect((await get("127.0.0.1"))[0]).toBe(200);
    } finally {
      await api.close();
    }
  });
});

describe("a key's socket", () => {
  it("gets only the records its read permissions cover, snapshots and pushes", async () => {
    const key = venue.accounts.createApiKey(demo, "orders", ["o"], Date.now(), { key: "k-o", secret: "s-o" });
    const { ws, frames } = await keySocket(key);
    expect(frames.map((f) => f[1])).toEqual(["os"]);
    // A fill: its order and trade records, not the wallet and balance ones.
    ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE MARKET", symbol: SYMBOL, amount: "0.001" }]));
    venue.balances.credit(demo, "USD", 1, "Deposit");
    await wait(200);
    const types = new Set(frames.map((f) => f[1]));
    expect(types.has("on") || types.has("oc")).toBe(true);
    expect(types.has("te")).toBe(true);
    for (const t of ["ws", "wu", "bu", "ps", "miu", "fos", "fcs", "fls", "fiu"])
      expect([t, types.has(t)]).toEqual([t, false]);
    // Notifications carry the record they answer for: its order's, not a funding offer's.
    expect((await s.rest("/v2/auth/w/transfer", TO_FUNDING)).status).toBe(200);
    expect((await s.rest("/v2/auth/w/funding/offer/submit", OFFER)).status).toBe(200);
    await wait(200);
    const notices = frames.filter((f) => f[1] === "n").map((f) => (f[2] as unknown[])[1]);
    expect(notices).toContain("on-req");
    expect(notices.filter((t) => t !== "on-req" && t !== "oc-req" && t !== "ou-req")).toEqual([]);
    ws.close();
    // A wallets-only key sees no order or funding notification, but its own refusal, yes.
    const wallets = venue.accounts.createApiKey(demo, "wallets", ["w:r"], Date.now(), { key: "k-w", secret: "s-w" });
    const kw = await keySocket(wallets);
    await s.rest("/v2/auth/w/order/submit", { type: "EXCHANGE LIMIT", symbol: SYMBOL, amount: "0.001", price: "1000" });
    expect((await s.rest("/v2/auth/w/funding/offer/submit", OFFER)).status).toBe(200);
    kw.ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE MARKET", symbol: SYMBOL, amount: "0.001" }]));
    await wait(250);
    const seen = kw.frames.filter((f) => f[1] === "n").map((f) => f[2] as unknown[]);
    expect(seen.map((n) => [n[1], n[4], n[6], n[7]])).toEqual([["on-req", null, "ERROR", "apikey: permission denied"]]);
    expect(kw.frames.map((f) => f[1])).toContain("wu");
    kw.ws.close();
    // A session's socket gets them all.
    const full = await s.socket();
    expect(full.frames.map((f) => f[1])).toEqual(expect.arrayContaining(["ps", "ws", "os", "fos", "fcs", "fls"]));
    full.ws.close();
  });
});

describe("channel limit", () => {
  it("counts the account channel of an authenticated socket", async () => {
    const { ws } = await s.socket();
    const events: Record<string, unknown>[] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (!Array.isArray(f)) events.push(f as Record<string, unknown>);
    });
    const subs: Record<string, unknown>[] = [];
    for (const prec of ["P0", "P1", "P2", "P3", "P4"])
      for (const len of ["1", "25", "100", "250"]) subs.push({ channel: "book", symbol: SYMBOL, prec, len });
    subs.push({ channel: "trades", symbol: SYMBOL }, { channel: "ticker", symbol: SYMBOL });
    for (const tf of ["1m", "5m", "15m", "30m", "1h", "3h", "6h", "12h"])
      subs.push({ channel: "candles", key: `trade:${tf}:${SYMBOL}` });
    expect(subs).toHaveLength(30);
    for (const sub of subs) ws.send(JSON.stringify({ event: "subscribe", ...sub }));
    await wait(300);
    expect(events.filter((e) => e["event"] === "subscribed")).toHaveLength(29);
    expect(events.filter((e) => e["event"] === "error")).toEqual([
      expect.objectContaining({ code: 10305, msg: "subscribe: limit" }),
    ]);
    ws.close();
  });
});

describe("key permissions", () => {
  it("funding paths need funding, not account; r/permissions lists all ten scopes", async () => {
    const account = venue.accounts.createApiKey(demo, "acct", ["a"], Date.now(), { key: "k-acct", secret: "s-acct" });
    const funding = venue.accounts.createApiKey(demo, "fund", ["f:r"], Date.now(), { key: "k-fund", secret: "s-fund" });
    expect(await signed(account, "/v2/auth/r/info/funding/fUSD")).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    expect((await signed(funding, "/v2/auth/r/info/funding/fUSD"))[0]).toBe(200);
    const [, perms] = await s.rest("/v2/auth/r/permissions").then((r) => [r.status, r.body] as const);
    expect((perms as unknown[][]).map((p) => p[0])).toEqual([
      "account",
      "history",
      "orders",
      "positions",
      "funding",
      "settings",
      "wallets",
      "withdraw",
      "ui_withdraw",
      "bfxpay",
    ]);
    const [, keyPerms] = await signed(funding, "/v2/auth/r/permissions");
    expect((keyPerms as unknown[][]).find((p) => p[0] === "bfxpay")).toEqual(["bfxpay", 0, 0]);
  });
});

describe("/v2/login/verify", () => {
  const secret = newTotpSecret();
  const id = venue.accounts.createUser("tfa@example.com", "tfa", "tfa-password-1", Date.now(), true);
  venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, id);
  const temp = async (): Promise<string> =>
    ((await post("/v2/login", { login: "tfa", password: "tfa-password-1" }))[1] as { tempToken: string }).tempToken;
  const wrong = (code: string): string => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("drops the temporary token after 5 wrong codes", async () => {
    const t = await temp();
    const code = totp(secret, Date.now());
    for (let i = 0; i < 5; i++)
      expect(await post("/v2/login/verify", { tempToken: t, otp: wrong(code) })).toEqual([
        400,
        ["error", 10100, "otp: invalid"],
      ]);
    expect(await post("/v2/login/verify", { tempToken: t, otp: code })).toEqual([
      400,
      ["error", 10100, "token: invalid"],
    ]);
  });

  it("accepts a code once on either API host", async () => {
    const other = await listenApi({ exchange: venue.exchange, account: venue.gateway });
    try {
      const secret2 = newTotpSecret();
      const id2 = venue.accounts.createUser("tfa2@example.com", "tfa2", "tfa-password-2", Date.now(), true);
      venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret2, id2);
      const code = totp(secret2, Date.now());
      const login = async (host: string): Promise<[number, unknown]> => {
        const start = await fetch(`http://${host}/v2/login`, {
          method: "POST",
          body: JSON.stringify({ login: "tfa2", password: "tfa-password-2" }),
        });
        const { tempToken } = (await start.json()) as { tempToken: string };
        const res = await fetch(`http://${host}/v2/login/verify`, {
          method: "POST",
          body: JSON.stringify({ tempToken, otp: code }),
        });
        return [res.status, await res.json()];
      };
      expect((await login(s.host))[0]).toBe(200);
      expect(await login(other.host)).toEqual([400, ["error", 10100, "otp: invalid"]]);
    } finally {
      await other.api.close();
    }
  });

  it("accepts a code once", async () => {
    const code = totp(secret, Date.now());
    const [status, body] = await post("/v2/login/verify", { tempToken: await temp(), otp: code });
    expect(status).toBe(200);
    expect(typeof (body as string[])[0]).toBe("string");
    expect(await post("/v2/login/verify", { tempToken: await temp(), otp: code })).toEqual([
      400,
      ["error", 10100, "otp: invalid"],
    ]);
  });
});

describe("r/api/keys", () => {
  it("never lists an API key's secret", async () => {
    const { status, body } = await s.rest("/v2/auth/r/api/keys");
    expect(status).toBe(200);
    const text = JSON.stringify(body);
    expect(text).toContain(DEMO.apiKey);
    expect(text).not.toContain(DEMO.apiSecret);
    // KEY, LABEL, PERMISSIONS, MTS_CREATE, IP_ALLOWLIST: nothing else.
    for (const k of body as unknown[][]) expect(k).toHaveLength(5);
  });
});
