/**
 * A revoked or narrowed API key reaches everything made with it (over real HTTP and WebSocket):
 * the tokens it minted die or narrow with it, the sockets signed in with the key or those tokens
 * are closed (or narrowed), and the keep-alive renews session tokens only — a key-minted token
 * lives its ttl and no longer.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DEMO } from "../store/seed.ts";
import { demoSession, wait, keyAuth, signedPost, tokenPost } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 21, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

const signed = (key: { key: string; secret: string }, path: string, body: unknown = {}) =>
  signedPost(s.host, key, path, body);
const withToken = (token: string, path: string, body: unknown = {}) => tokenPost(s.host, token, path, body);

async function keepAlive(token: string): Promise<number> {
  return (await fetch(`http://${s.host}/api/session/keep-alive`, { headers: { "bfx-token": token } })).status;
}

/** An account socket signed in with `auth`; its frames (all of them) and whether it was closed. */
async function socket(
  auth: Record<string, unknown>,
): Promise<{ ws: WebSocket; frames: unknown[]; closed: () => boolean }> {
  const ws = new WebSocket(`ws://${s.host}/ws/2`);
  const frames: unknown[] = [];
  let closed = false;
  ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
  ws.on("close", () => (closed = true));
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", ...auth }));
  await wait(150);
  return { ws, frames, closed: () => closed };
}

const ORDER = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1000" };
const authOk = (frames: unknown[]): boolean =>
  frames.some(
    (f) => (f as Record<string, unknown>)["event"] === "auth" && (f as Record<string, unknown>)["status"] === "OK",
  );

describe("revoking an API key", () => {
  it("kills the tokens it minted and closes the sockets signed in with the key or those tokens", async () => {
    const key = venue.accounts.createApiKey(demo, "bot", ["a", "o", "w"], Date.now(), { key: "k-r1", secret: "s-r1" });
    const [, b] = await signed(key, "/v2/auth/w/token", { ttl: 3600 });
    const minted = (b as string[])[0] as string;
    // A token minted with the key's token is the key's too.
    const [, b2] = await withToken(minted, "/v2/auth/w/token", {});
    const grandchild = (b2 as string[])[0] as string;
    expect((await withToken(minted, "/v2/auth/r/wallets"))[0]).toBe(200);
    expect((await withToken(grandchild, "/v2/auth/r/wallets"))[0]).toBe(200);
    const byKey = await socket(keyAuth(key));
    const byToken = await socket({ token: minted });
    const bySession = await socket({ token: s.token });
    expect(authOk(byKey.frames) && authOk(byToken.frames) && authOk(bySession.frames)).toBe(true);

    expect(await s.rest("/v2/auth/w/api/key/revoke", { key: key.key })).toEqual({ status: 200, body: [1] });
    expect(await withToken(minted, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "token: invalid"]]);
    expect(await withToken(grandchild, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "token: invalid"]]);
    await wait(100);
    expect(byKey.closed()).toBe(true);
    expect(byToken.closed()).toBe(true);
    expect(byKey.frames).toContainEqual({ event: "error", code: 10100, msg: "apikey: revoked" });
    // The session's own socket is not the key's: it stays.
    expect(bySession.closed()).toBe(false);
    bySession.ws.close();
  });

  it("`all` reaches every key's tokens", async () => {
    const k1 = venue.accounts.createApiKey(demo, "one", ["a"], Date.now(), { key: "k-r2", secret: "s-r2" });
    const k2 = venue.accounts.createApiKey(demo, "two", ["a"], Date.now(), { key: "k-r3", secret: "s-r3" });
    const t1 = ((await signed(k1, "/v2/auth/w/token", {}))[1] as string[])[0] as string;
    const t2 = ((await signed(k2, "/v2/auth/w/token", {}))[1] as string[])[0] as string;
    expect((await s.rest("/v2/auth/w/api/key/revoke", { all: 1 })).status).toBe(200);
    expect((await withToken(t1, "/v2/auth/r/info/user"))[0]).toBe(500);
    expect((await withToken(t2, "/v2/auth/r/info/user"))[0]).toBe(500);
    // The session goes on.
    expect((await s.rest("/v2/auth/r/info/user")).status).toBe(200);
  });
});

describe("narrowing an API key", () => {
  it("narrows its tokens and its sockets: no order placed after the key lost orders", async () => {
    const key = venue.accounts.createApiKey(demo, "trader", ["a", "o", "w"], Date.now(), {
      key: "k-n1",
      secret: "s-n1",
    });
    const token = ((await signed(key, "/v2/auth/w/token", { ttl: 3600 }))[1] as string[])[0] as string;
    const sock = await socket({ token });
    expect(
      await s.rest("/v2/auth/w/api/key/update", {
        key: key.key,
        permissions: { account: { read: 1, write: 1 }, orders: { read: 1, write: 0 } },
      }),
    ).toMatchObject({ status: 200 });
    expect(await withToken(token, "/v2/auth/r/wallets")).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    expect((await withToken(token, "/v2/auth/r/orders"))[0]).toBe(200);
    expect(await withToken(token, "/v2/auth/w/order/submit", ORDER)).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
    sock.ws.send(JSON.stringify([0, "on", null, ORDER]));
    await wait(150);
    const n = sock.frames.find((f) => Array.isArray(f) && f[1] === "n") as unknown[] | undefined;
    expect((n?.[2] as unknown[] | undefined)?.[6]).toBe("ERROR");
    expect(venue.orders.openOrdersWire(demo)).toEqual([]);
    // Widening the key again does not widen a token minted before.
    await s.rest("/v2/auth/w/api/key/update", {
      key: key.key,
      permissions: { account: { read: 1, write: 1 }, orders: { read: 1, write: 1 }, wallets: { read: 1, write: 1 } },
    });
    expect((await withToken(token, "/v2/auth/r/wallets"))[0]).toBe(500);
    sock.ws.close();
  });
});

describe("keep-alive", () => {
  it("renews the session's own token, never one minted with a key", async () => {
    const key = venue.accounts.createApiKey(demo, "ka", ["a"], Date.now(), { key: "k-ka", secret: "s-ka" });
    const minted = ((await signed(key, "/v2/auth/w/token", { ttl: 60 }))[1] as string[])[0] as string;
    expect(await keepAlive(minted)).toBe(401);
    expect(await keepAlive(s.token)).toBe(200);
  });
});

describe("deleting a token", () => {
  const closedWith = (sock: { frames: unknown[]; closed: () => boolean }) => ({
    closed: sock.closed(),
    error: sock.frames.find((f) => (f as Record<string, unknown>)["event"] === "error"),
  });
  const REVOKED = { closed: true, error: { event: "error", code: 10100, msg: "token: revoked" } };

  it("closes the sockets signed in with it: a limited token, a key's token, a logged-out session", async () => {
    const limited = ((await s.rest("/v2/auth/w/token", { caps: ["o"], writePermission: true })).body as string[])[0];
    const key = venue.accounts.createApiKey(demo, "del", ["a", "o"], Date.now(), { key: "k-del", secret: "s-del" });
    const minted = ((await signed(key, "/v2/auth/w/token", { ttl: 600 }))[1] as string[])[0] as string;
    const login = await fetch(`http://${s.host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const session = ((await login.json()) as string[])[0] as string;
    const socks = await Promise.all([limited, minted, session].map((token) => socket({ token })));
    const bySession = await socket({ token: s.token });
    expect(socks.concat(bySession).every((x) => authOk(x.frames))).toBe(true);

    expect(await withToken(s.token, "/v2/auth/w/token/del", { token: limited })).toEqual([200, [1]]);
    expect(await withToken(minted, "/v2/auth/w/token/del", { token: minted })).toEqual([200, [1]]);
    // Logging out: the session deletes its own token.
    expect(await withToken(session, "/v2/auth/w/token/del", { token: session })).toEqual([200, [1]]);
    await wait(100);
    for (const sock of socks) expect(closedWith(sock)).toEqual(REVOKED);
    // The session's other sockets stay.
    expect(bySession.closed()).toBe(false);
    bySession.ws.close();
  });

  it("closes them when the server revokes it too", async () => {
    const spare = ((await s.rest("/v2/auth/w/token", {})).body as string[])[0] as string;
    const sock = await socket({ token: spare });
    expect(authOk(sock.frames)).toBe(true);
    venue.accounts.revokeToken(spare);
    await wait(100);
    expect(closedWith(sock)).toEqual(REVOKED);
  });
});
