/**
 * The verification gates (docs/product-rules.md#compliance-gates) over real HTTP and WebSocket: a deposit address needs
 * basic-plus (1); margin trading needs intermediate (2) for accounts created from 2022-03-02,
 * basic-plus for accounts created from 2022-01-01, nothing before; the paper TEST pairs are a
 * paper account's, never gated (server/paper.test.ts); the demo account (level 2) keeps both.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DEV_HEADER } from "../api-server.ts";
import { newTotpSecret, totp } from "../store/totp.ts";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const venue = openVenue({
  dbPath: ":memory:",
  seed: 25,
  markets: [
    { symbol: "tBTCUSD", start: 30_000 },
    { symbol: "tTESTBTC:TESTUSD", start: 30_000 },
  ],
});
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

/** A user created at `createdAt` with `level`, margin USD to trade with, and a session token. */
function user(name: string, createdAt: number, level: number): string {
  const id = venue.accounts.createUser(`${name}@example.com`, name, "pw-123456789", createdAt, false);
  venue.accounts.db.prepare("UPDATE users SET verification_level = ? WHERE id = ?").run(level, id);
  venue.balances.credit(id, "USD", 10_000, "Deposit");
  venue.balances.credit(id, "TESTUSD", 10_000, "Deposit");
  for (const ccy of ["USD", "TESTUSD"])
    venue.gateway.funds.handle(
      id,
      "/v2/auth/w/transfer",
      { from: "exchange", to: "margin", currency: ccy, amount: "5000" },
      {},
    );
  return venue.accounts.issueToken(id, Date.now());
}

async function rest(token: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`http://${s.host}${path}`, {
    method: "POST",
    headers: { "bfx-token": token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as unknown };
}

const MARGIN = { type: "LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1000" };
const PAPER_MARGIN = { type: "LIMIT", symbol: "tTESTBTC:TESTUSD", amount: "0.01", price: "1000" };
const DEPOSIT = { wallet: "exchange", method: "bitcoin" };
const ok = (r: { status: number }): boolean => r.status === 200;

describe("margin trading", () => {
  it("needs level 2 for an account created after 2022-03-02", async () => {
    const token = user("newbie", Date.now(), 1);
    expect(await rest(token, "/v2/auth/w/order/submit", MARGIN)).toEqual({
      status: 500,
      body: ["error", 10001, "verification: level 2 needed to trade on margin (this account has 1)"],
    });
    // A stop on margin too, and on the socket, with the on-req ERROR notification.
    const stop = await rest(token, "/v2/auth/w/order/submit", {
      type: "STOP",
      symbol: "tBTCUSD",
      amount: "-0.01",
      price: "1000",
    });
    expect(JSON.stringify(stop.body)).toContain("level 2 needed to trade on margin");
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (Array.isArray(f) && f[0] === 0) frames.push(f);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token }));
    await wait(100);
    ws.send(JSON.stringify([0, "on", null, MARGIN]));
    await wait(100);
    const n = frames.find((f) => f[1] === "n")?.[2] as unknown[];
    expect([n[1], n[6], n[7]]).toEqual([
      "on-req",
      "ERROR",
      "verification: level 2 needed to trade on margin (this account has 1)",
    ]);
    ws.close();
    // Exchange orders are not gated. The TEST pairs are a paper account's only, whose margin is
    // never gated (server/paper.test.ts): to a live account they are no pair at all.
    expect(ok(await rest(token, "/v2/auth/w/order/submit", { ...MARGIN, type: "EXCHANGE LIMIT" }))).toBe(true);
    expect((await rest(token, "/v2/auth/w/order/submit", PAPER_MARGIN)).body).toEqual([
      "error",
      10001,
      "Invalid order: symbol",
    ]);
    // Raised to 2, it trades on margin.
    venue.accounts.db.prepare("UPDATE users SET verification_level = 2 WHERE username = 'newbie'").run();
    expect(ok(await rest(token, "/v2/auth/w/order/submit", MARGIN))).toBe(true);
  });

  it("needs level 1 between 2022-01-01 and 2022-03-02, nothing before", async () => {
    const feb = user("february", Date.UTC(2022, 1, 15), 0);
    expect(JSON.stringify((await rest(feb, "/v2/auth/w/order/submit", MARGIN)).body)).toContain(
      "level 1 needed to trade on margin (this account has 0)",
    );
    venue.accounts.db.prepare("UPDATE users SET verification_level = 1 WHERE username = 'february'").run();
    expect(ok(await rest(feb, "/v2/auth/w/order/submit", MARGIN))).toBe(true);
    const old = user("veteran", Date.UTC(2021, 5, 1), 0);
    expect(ok(await rest(old, "/v2/auth/w/order/submit", MARGIN))).toBe(true);
  });

  it("the demo account (level 2) trades on margin", async () => {
    await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "USD", amount: "1000" });
    const r = await s.rest("/v2/auth/w/order/submit", MARGIN);
    expect(JSON.stringify(r.body)).not.toContain("verification");
    expect(r.status).toBe(200);
  });
  it("never gates closing or reducing a position, only opening or growing one", async () => {
    const token = user("closer", Date.now(), 2);
    const id = (venue.accounts.checkToken(token, Date.now()) as { userId: number }).userId;
    const order = (amount: string, extra: Record<string, unknown> = {}) =>
      rest(token, "/v2/auth/w/order/submit", { type: "MARKET", symbol: "tBTCUSD", amount, ...extra });
    const held = async (): Promise<number> => {
      await wait(150);
      const rows = (await rest(token, "/v2/auth/r/positions", {})).body as unknown[][];
      return Number(rows.find((p) => p[0] === "tBTCUSD")?.[2] ?? 0);
    };
    expect(ok(await order("0.04"))).toBe(true);
    expect(await held()).toBeCloseTo(0.04, 8);
    // The account falls below the level margin trading needs (a policy change, a review).
    venue.accounts.db.prepare("UPDATE users SET verification_level = 1 WHERE id = ?").run(id);
    const refused = { status: 500, body: ["error", 10001, expect.stringMatching(/^verification: level 2 needed/)] };
    expect(await order("0.01")).toEqual(refused);
    expect(await order("-0.09")).toEqual(refused); // through zero to a larger short
    expect(ok(await order("-0.01"))).toBe(true);
    expect(await held()).toBeCloseTo(0.03, 8);
    expect(ok(await order("-0.01", { flags: 1024 }))).toBe(true);
    expect(await held()).toBeCloseTo(0.02, 8);
    const stop = await rest(token, "/v2/auth/w/order/submit", {
      type: "STOP",
      symbol: "tBTCUSD",
      amount: "-0.01",
      price: "1000",
    });
    expect(ok(stop)).toBe(true);
    const stopId = ((stop.body as unknown[])[4] as unknown[][])[0]?.[0];
    expect(ok(await rest(token, "/v2/auth/w/order/cancel", { id: stopId }))).toBe(true);
    expect(ok(await order("-0.5", { flags: 512 }))).toBe(true);
    expect(await held()).toBe(0);
  });
});

describe("deposits", () => {
  it("need level 1 for an address", async () => {
    const token = user("unverified", Date.now(), 0);
    expect(await rest(token, "/v2/auth/w/deposit/address", DEPOSIT)).toEqual({
      status: 500,
      body: ["error", 10001, "verification: level 1 needed to deposit (this account has 0)"],
    });
    venue.accounts.db.prepare("UPDATE users SET verification_level = 1 WHERE username = 'unverified'").run();
    const r = await rest(token, "/v2/auth/w/deposit/address", DEPOSIT);
    expect((r.body as unknown[])[1]).toBe("acc_dep");
    expect((await s.rest("/v2/auth/w/deposit/address", DEPOSIT)).status).toBe(200);
  });
});

describe("withdrawals", () => {
  it("withdrawals need level 2; POST /dev/verification sets an account's level", async () => {
    const user = venue.accounts.createUser("kyc@example.com", "kyc", "kyc-password-1", Date.now(), true);
    venue.balances.credit(user, "BTC", 1, "Deposit");
    const login = await fetch(`http://${s.host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: "kyc", password: "kyc-password-1" }),
    });
    const [token] = (await login.json()) as [string];
    // A session withdraws with the account's second factor (docs/product-rules.md#withdrawals).
    const secret = newTotpSecret();
    venue.accounts.db.prepare("UPDATE users SET tfa_secret = ? WHERE id = ?").run(secret, user);
    const call = async (path: string, body: unknown = {}): Promise<[number, unknown]> => {
      const r = await fetch(`http://${s.host}${path}`, {
        method: "POST",
        headers: { "bfx-token": token, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return [r.status, await r.json()];
    };
    const setLevel = (level: number, headers: Record<string, string> = { [DEV_HEADER]: "1" }): Promise<Response> =>
      fetch(`http://${s.host}/dev/verification`, {
        method: "POST",
        headers,
        body: JSON.stringify({ login: "kyc", level }),
      });
    const withdraw = {
      wallet: "exchange",
      method: "bitcoin",
      amount: "0.1",
      address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      travel_rule: { beneficiary: { type: "self" }, destination: { type: "self_hosted", attested: true } },
    };
    expect((await setLevel(1)).status).toBe(200);
    expect(await call("/v2/auth/w/withdraw", withdraw)).toEqual([
      500,
      ["error", 10001, "verification: level 2 needed to withdraw (this account has 1)"],
    ]);
    // Nothing moved; the development endpoint refuses what a web page could send.
    expect((await setLevel(2, {})).status).toBe(403);
    expect(venue.balances.available(user, "exchange", "BTC")).toBe(1e8);
    expect((await setLevel(2)).status).toBe(200);
    const [, info] = await call("/v2/auth/r/info/user");
    expect((info as unknown[])[5]).toBe(2);
    expect((await call("/v2/auth/w/withdraw", { ...withdraw, code: totp(secret, Date.now()) }))[0]).toBe(200);
    expect(venue.balances.available(user, "exchange", "BTC")).toBe(0.9e8);
    expect((await setLevel(9)).status).toBe(400);
  });
});
