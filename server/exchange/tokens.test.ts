/**
 * Tokens over real HTTP and WebSocket: a token minted with an API key carries at most the key's
 * capabilities (and what `caps`/`writePermission`/`ttl` ask for), every call made with it is
 * checked like the key's; a session token ends after its 8 minutes on the venue's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { TOKEN_EXPIRY_MS } from "../../src/protocol/index.ts";
import type { ApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { listenApi } from "../test-support/api.ts";
import { wait, signedPost, tokenPost } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

let clock = 1_800_000_000_000;
const venue = openVenue({
  dbPath: ":memory:",
  seed: 4,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const demo = venue.seeded as number;
const A_ONLY = venue.accounts.createApiKey(demo, "account only", ["a"], clock, { key: "k-a", secret: "s-a" });
const READ_ORDERS = venue.accounts.createApiKey(demo, "a + read orders", ["a", "o:r"], clock, {
  key: "k-ao",
  secret: "s-ao",
});

let api: ApiServer;
let host = "";
beforeAll(async () => {
  ({ api, host } = await listenApi({ exchange: venue.exchange, account: venue.gateway, now: () => clock }));
});
afterAll(() => api.close());

const signed = (key: { key: string; secret: string }, path: string, body: unknown = {}) =>
  signedPost(host, key, path, body);
const withToken = (token: string, path: string, body: unknown = {}) => tokenPost(host, token, path, body);

async function login(): Promise<string> {
  const res = await fetch(`http://${host}/v2/login`, {
    method: "POST",
    body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
  });
  return ((await res.json()) as [string])[0];
}

/** `auth` with a token on a fresh socket: the reply, and the socket's channel-0 frames after it. */
async function socketAuth(
  token: string,
): Promise<{ ws: WebSocket; reply: Record<string, unknown>; frames: unknown[][] }> {
  const ws = new WebSocket(`ws://${host}/ws/2`);
  const frames: unknown[][] = [];
  let reply: Record<string, unknown> = {};
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as unknown;
    if (Array.isArray(f)) {
      if (f[0] === 0) frames.push(f);
    } else if ((f as Record<string, unknown>)["event"] === "auth") reply = f as Record<string, unknown>;
  });
  await new Promise((r) => ws.once("open", r));
  ws.send(JSON.stringify({ event: "auth", token }));
  await wait(100);
  return { ws, reply, frames };
}

const DENIED = [500, ["error", 10100, "apikey: permission denied for this call"]];
const ORDER = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1000" };

describe("tokens minted with an API key", () => {
  it("carry no more than the key: an account-only key's token is refused on orders, wallets, withdraw", async () => {
    const [status, body] = await signed(A_ONLY, "/v2/auth/w/token", {});
    expect(status).toBe(200);
    const token = (body as string[])[0] as string;
    expect(await withToken(token, "/v2/auth/r/orders")).toEqual(DENIED);
    expect(await withToken(token, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    expect(await withToken(token, "/v2/auth/r/wallets")).toEqual(DENIED);
    expect(
      await withToken(token, "/v2/auth/w/withdraw", {
        wallet: "exchange",
        method: "bitcoin",
        amount: "0.1",
        address: "x",
      }),
    ).toEqual(DENIED);
    // Key management is the signed-in owner's alone.
    expect(await withToken(token, "/v2/auth/r/api/keys")).toEqual(DENIED);
    // What the key may do, the token may: account reads, and its permissions say exactly that.
    expect((await withToken(token, "/v2/auth/r/info/user"))[0]).toBe(200);
    const [, perms] = await withToken(token, "/v2/auth/r/permissions");
    expect((perms as [string, number, number][]).filter(([, r]) => r === 1).map(([s]) => s)).toEqual([
      "account",
      "history",
    ]);
    // Asking for more than the key has gives nothing more.
    const [, more] = await signed(A_ONLY, "/v2/auth/w/token", { caps: ["o", "w", "wd"], writePermission: true });
    const bigger = (more as string[])[0] as string;
    expect(await withToken(bigger, "/v2/auth/r/wallets")).toEqual(DENIED);
    expect(await withToken(bigger, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    // On the socket too: its caps say so, and an order input is refused with nothing placed.
    const s = await socketAuth(token);
    expect(s.reply).toMatchObject({ status: "OK", caps: { orders: { read: 0, write: 0 }, account: { read: 1 } } });
    s.ws.send(JSON.stringify([0, "on", null, ORDER]));
    await wait(100);
    expect(s.frames.some((f) => f[1] === "n" && (f[2] as unknown[])[6] === "ERROR")).toBe(true);
    expect(venue.orders.openOrdersWire(demo)).toEqual([]);
    s.ws.close();
  });

  it("honours caps and writePermission within the key: read-only unless write is asked and held", async () => {
    const [, readBody] = await signed(READ_ORDERS, "/v2/auth/w/token", { scope: "api", caps: ["o"] });
    const read = (readBody as string[])[0] as string;
    expect((await withToken(read, "/v2/auth/r/orders"))[0]).toBe(200);
    expect(await withToken(read, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    // caps leave out what is not asked for: no account calls.
    expect(await withToken(read, "/v2/auth/r/info/user")).toEqual(DENIED);
    const [, writeBody] = await signed(READ_ORDERS, "/v2/auth/w/token", { caps: ["o"], writePermission: true });
    const write = (writeBody as string[])[0] as string;
    expect(await withToken(write, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    expect(await signed(READ_ORDERS, "/v2/auth/w/token", { scope: "nope" })).toEqual([
      400,
      ["error", 10020, "scope: invalid"],
    ]);
  });

  it("end at their ttl; a session's own token keeps the session's calls", async () => {
    const [, b] = await signed(A_ONLY, "/v2/auth/w/token", { ttl: 60 });
    const short = (b as string[])[0] as string;
    expect((await withToken(short, "/v2/auth/r/info/user"))[0]).toBe(200);
    clock += 61_000;
    expect(await withToken(short, "/v2/auth/r/info/user")).toEqual([500, ["error", 10100, "token: invalid"]]);
    expect(await signed(A_ONLY, "/v2/auth/w/token", { ttl: 86_400 })).toEqual([400, ["error", 10020, "ttl: invalid"]]);
  });
});

describe("tokens a session asks for", () => {
  const WITHDRAW = { wallet: "exchange", method: "bitcoin", amount: "100000", address: "x" };

  it("the app's renewal (o f s w, with or without a, write) keeps every call the session makes", async () => {
    const session = await login();
    for (const caps of [
      ["o", "f", "s", "w"],
      ["a", "o", "f", "s", "w"],
    ]) {
      const [, own] = await withToken(session, "/v2/auth/w/token", { scope: "api", writePermission: true, caps });
      const renewed = (own as string[])[0] as string;
      for (const path of [
        "/v2/auth/r/info/user",
        "/v2/auth/r/wallets",
        "/v2/auth/r/orders",
        "/v2/auth/r/positions",
        "/v2/auth/r/info/margin/base",
        "/v2/auth/r/funding/offers",
        "/v2/auth/r/settings",
        "/v2/auth/r/movements/hist",
        "/v2/auth/r/api/keys",
        "/v2/auth/r/summary",
      ])
        expect([path, (await withToken(renewed, path))[0]]).toEqual([path, 200]);
      // A withdrawal reaches its own checks (an amount the wallet lacks), not a permission refusal.
      const [, w] = await withToken(renewed, "/v2/auth/w/withdraw", WITHDRAW);
      expect(JSON.stringify(w)).not.toContain("permission denied");
      // It is a session token: the keep-alive renews it.
      const res = await fetch(`http://${host}/api/session/keep-alive`, { headers: { "bfx-token": renewed } });
      expect(res.status).toBe(200);
    }
  });

  it("narrower caps or writePermission false give exactly that", async () => {
    const session = await login();
    const mint = async (body: unknown): Promise<string> =>
      ((await withToken(session, "/v2/auth/w/token", body))[1] as string[])[0] as string;
    const ordersOnly = await mint({ scope: "api", caps: ["o"], writePermission: true });
    expect((await withToken(ordersOnly, "/v2/auth/r/orders"))[0]).toBe(200);
    expect(await withToken(ordersOnly, "/v2/auth/r/wallets")).toEqual(DENIED);
    expect(await withToken(ordersOnly, "/v2/auth/r/api/keys")).toEqual(DENIED);
    expect(await withToken(ordersOnly, "/v2/auth/w/withdraw", WITHDRAW)).toEqual(DENIED);
    const [, perms] = await withToken(ordersOnly, "/v2/auth/r/permissions");
    expect((perms as [string, number, number][]).filter(([, r]) => r === 1)).toEqual([["orders", 1, 1]]);

    const readOnly = await mint({ scope: "api", writePermission: false });
    expect((await withToken(readOnly, "/v2/auth/r/wallets"))[0]).toBe(200);
    expect((await withToken(readOnly, "/v2/auth/r/info/user"))[0]).toBe(200);
    expect(await withToken(readOnly, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    expect(await withToken(readOnly, "/v2/auth/w/api/key/revoke", { all: 1 })).toEqual(DENIED);
    // Read-only is read-only on the socket too.
    const s = await socketAuth(readOnly);
    expect(s.reply).toMatchObject({ status: "OK", caps: { orders: { read: 1, write: 0 } } });
    s.ws.send(JSON.stringify([0, "on", null, ORDER]));
    await wait(100);
    expect(s.frames.some((f) => f[1] === "n" && (f[2] as unknown[])[6] === "ERROR")).toBe(true);
    s.ws.close();

    // The app's letters without write: read-only, not a session token.
    const readCaps = await mint({ scope: "api", caps: ["o", "f", "s", "w"], writePermission: false });
    expect((await withToken(readCaps, "/v2/auth/r/wallets"))[0]).toBe(200);
    expect(await withToken(readCaps, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    const capsRW = await mint({ scope: "api", capsRW: { w: { read: 1, write: 0 } } });
    expect((await withToken(capsRW, "/v2/auth/r/wallets"))[0]).toBe(200);
    expect(await withToken(capsRW, "/v2/auth/r/orders")).toEqual(DENIED);
    // The cpl variant: capability a, allow_write false gives read-only account.
    const cpl = await mint({ scope: "cpl", caps: ["a"], allow_write: false, ttl: 3600 });
    expect((await withToken(cpl, "/v2/auth/r/info/user"))[0]).toBe(200);
    expect(await withToken(cpl, "/v2/auth/r/wallets")).toEqual(DENIED);
    // w/user/token/generate follows the same rules.
    const [, gen] = await withToken(session, "/v2/auth/w/user/token/generate", {
      scope: "api",
      writePermission: false,
    });
    const generated = (gen as string[])[0] as string;
    expect(await withToken(generated, "/v2/auth/w/order/submit", ORDER)).toEqual(DENIED);
    // A limited token lives its ttl: no keep-alive.
    const res = await fetch(`http://${host}/api/session/keep-alive`, { headers: { "bfx-token": ordersOnly } });
    expect(res.status).toBe(401);
  });
});

describe("session tokens", () => {
  it("are refused once their 8 minutes have run out on the venue's clock", async () => {
    const token = await login();
    expect((await withToken(token, "/v2/auth/r/wallets"))[0]).toBe(200);
    clock += TOKEN_EXPIRY_MS - 1000;
    expect((await withToken(token, "/v2/auth/r/wallets"))[0]).toBe(200);
    clock += 1000;
    expect(await withToken(token, "/v2/auth/r/wallets")).toEqual([500, ["error", 10100, "token: invalid"]]);
    const s = await socketAuth(token);
    expect(s.reply).toMatchObject({ status: "FAILED", code: 10100 });
    s.ws.close();
  });
});
