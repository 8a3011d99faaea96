/**
 * Paper trading over real HTTP, WebSocket and SQLite (server/paper.ts,
 * docs/product-rules.md#paper-trading): one paper account per user, opened once and funded with
 * TEST currencies only; entered as a context of the owner's session and left for live with the
 * sub-accounts' switch; TEST pairs only for it and never for a live account; margin without the
 * verification gate; the live-only calls refused; and all of it kept across a restart.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  ERROR_CODES,
  PAPER_ACCOUNT_TYPE,
  PAPER_CONTEXT_PATH,
  PAPER_LIVE_ONLY_MESSAGE,
  PAPER_NOT_ALLOWED_MESSAGE,
  PAPER_OPEN_PATH,
  paperAccountCodec,
  positionCodec,
  userInfoCodec,
  walletCodec,
} from "../src/protocol/index.ts";
import { openVenue } from "./exchange/venue.ts";
import { DEFAULT_LIMITS } from "./rate-limit.ts";
import { DEMO } from "./store/seed.ts";
import { startExchangeProcess } from "./test-support/exchange-process.ts";
import { testApi, wait } from "./test-support/session.ts";
import { messageText } from "./ws-text.ts";

const TEST_SYMBOL = "tTESTBTC:TESTUSD";
const venue = openVenue({
  dbPath: ":memory:",
  seed: 41,
  markets: [
    { symbol: "tBTCUSD", start: 30_000 },
    { symbol: TEST_SYMBOL, start: 30_000 },
  ],
});
const api = testApi({
  exchange: venue.exchange,
  account: venue.gateway,
  limits: { ...DEFAULT_LIMITS, login: 1000, auth: 100_000 },
});
const { post } = api;

let n = 0;
/** A new user at verification level 0 (no margin on live pairs), with live USD, signed in. */
async function owner(): Promise<{ id: number; token: string }> {
  n += 1;
  const login = `trader${n}`;
  const id = venue.accounts.createUser(`${login}@example.com`, login, "long-enough-pw", Date.now(), true);
  venue.db.prepare("UPDATE users SET verification_level = 0 WHERE id = ?").run(id);
  venue.funds.deposit(id, "USD", 1000, "Deposit");
  const [status, body] = await post("/v2/login", { login, password: "long-enough-pw" });
  expect(status).toBe(200);
  return { id, token: (body as string[])[0] as string };
}

async function openPaper(token: string) {
  const [status, body] = await post(PAPER_OPEN_PATH, {}, token);
  expect(status, JSON.stringify(body)).toBe(200);
  const row = paperAccountCodec.decode(body);
  if (!row.ok) throw new Error("paper account undecodable");
  return row.value;
}

async function enterPaper(token: string): Promise<string> {
  const [status, body] = await post(PAPER_CONTEXT_PATH, {}, token);
  expect(status, JSON.stringify(body)).toBe(200);
  return (body as string[])[0] as string;
}

async function wallets(token: string): Promise<Map<string, number>> {
  const [status, body] = await post("/v2/auth/r/wallets", {}, token);
  expect(status).toBe(200);
  const out = new Map<string, number>();
  for (const raw of body as unknown[]) {
    const w = walletCodec.decode(raw);
    if (w.ok) out.set(`${w.value.type}:${w.value.currency}`, w.value.balance);
  }
  return out;
}

async function userInfo(token: string) {
  const [status, body] = await post("/v2/auth/r/info/user", {}, token);
  expect(status).toBe(200);
  const u = userInfoCodec.decode(body);
  if (!u.ok) throw new Error("user info undecodable");
  return u.value;
}

const refusal = (msg: string) => ["error", ERROR_CODES.GENERIC, msg];

describe("opening the paper account", () => {
  it("opens one per user, funded with TEST currencies only, whatever the number of calls", async () => {
    const o = await owner();
    const [first, second] = await Promise.all([openPaper(o.token), openPaper(o.token)]);
    expect(second).toEqual(first);
    expect(await openPaper(o.token)).toEqual(first);
    expect(first.ownerId).toBe(o.id);
    expect(first.id).not.toBe(o.id);
    const rows = venue.db.prepare("SELECT COUNT(*) AS n FROM paper_accounts WHERE owner_id = ?").get(o.id) as {
      n: number;
    };
    expect(rows.n).toBe(1);
    const paper = await enterPaper(o.token);
    expect(Object.fromEntries(await wallets(paper))).toEqual({
      "exchange:TESTUSD": 50_000,
      "exchange:TESTBTC": 1,
      "margin:TESTUSD": 50_000,
    });
    // The owner's live wallets are untouched.
    expect(Object.fromEntries(await wallets(o.token))).toEqual({ "exchange:USD": 1000 });
    const info = await userInfo(paper);
    expect(info).toMatchObject({ id: first.id, subaccountType: PAPER_ACCOUNT_TYPE, groupId: o.id });
    expect((await userInfo(o.token)).subaccountType).toBeNull();
  });

  it("is entered only with the owner's session, and never opened from a context or a bad token", async () => {
    const o = await owner();
    // Nothing to enter before it is opened.
    expect(await post(PAPER_CONTEXT_PATH, {}, o.token)).toEqual([500, refusal(PAPER_NOT_ALLOWED_MESSAGE)]);
    await openPaper(o.token);
    const paper = await enterPaper(o.token);
    // The paper account opens none of its own.
    expect(await post(PAPER_OPEN_PATH, {}, paper)).toEqual([500, refusal(PAPER_LIVE_ONLY_MESSAGE)]);
    const [status] = await post(PAPER_OPEN_PATH, {}, "not-a-token");
    expect(status).toBe(500);
  });
});

describe("trading in paper", () => {
  it("refuses the live pairs to a paper account and the TEST pairs to a live one", async () => {
    const o = await owner();
    await openPaper(o.token);
    const paper = await enterPaper(o.token);
    const live = { type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.001", price: "1000" };
    const test = { type: "EXCHANGE LIMIT", symbol: TEST_SYMBOL, amount: "0.001", price: "1000" };
    expect(await post("/v2/auth/w/order/submit", live, paper)).toEqual([500, refusal("Invalid order: symbol")]);
    expect(await post("/v2/auth/w/order/submit", test, o.token)).toEqual([500, refusal("Invalid order: symbol")]);
    // And on the account socket, with the on-req ERROR notification.
    const ws = new WebSocket(`ws://${api.host}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (Array.isArray(f) && f[0] === 0) frames.push(f);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token: paper }));
    await wait(100);
    ws.send(JSON.stringify([0, "on", null, live]));
    await wait(150);
    ws.close();
    expect(JSON.stringify(frames.filter((f) => f[1] === "n"))).toContain("Invalid order: symbol");
    expect(frames.some((f) => f[1] === "on")).toBe(false);
    // The paper account's own TEST pair works.
    const [placed] = await post("/v2/auth/w/order/submit", test, paper);
    expect(placed).toBe(200);
  });

  it("trades a TEST pair on margin without the verification level a live account needs", async () => {
    const o = await owner();
    const live = { type: "LIMIT", symbol: "tBTCUSD", amount: "0.01", price: "1000" };
    await post("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency: "USD", amount: "500" }, o.token);
    const [, refused] = await post("/v2/auth/w/order/submit", live, o.token);
    expect(JSON.stringify(refused)).toContain("needed to trade on margin");
    await openPaper(o.token);
    const paper = await enterPaper(o.token);
    const ask = venue.exchange.markets.get(TEST_SYMBOL)?.engine.bestAsk() as number;
    const buy = { type: "LIMIT", symbol: TEST_SYMBOL, amount: "0.05", price: String(Math.ceil(ask * 1.01)) };
    const [status, body] = await post("/v2/auth/w/order/submit", buy, paper);
    expect(status, JSON.stringify(body)).toBe(200);
    const [, positions] = await post("/v2/auth/r/positions", {}, paper);
    const held = (positions as unknown[]).map((p) => positionCodec.decode(p));
    expect(held.some((p) => p.ok && p.value.pair === TEST_SYMBOL && p.value.amount > 0)).toBe(true);
  });
});

describe("live-only calls", () => {
  it("refuses deposits, withdrawals, API keys and transfers out, and keeps its own transfers", async () => {
    const o = await owner();
    const { id: paperId } = await openPaper(o.token);
    const paper = await enterPaper(o.token);
    const calls: [string, Record<string, unknown>][] = [
      ["/v2/auth/w/deposit/address", { wallet: "exchange", method: "bitcoin" }],
      ["/v2/auth/w/withdraw", { wallet: "exchange", method: "bitcoin", amount: "0.1", address: "x" }],
      ["/v2/auth/w/api/key/generate", { label: "bot", permissions: "orders-read" }],
      [
        "/v2/auth/w/transfer",
        { from: "exchange", to: "exchange", currency: "TESTUSD", amount: "1", user_id_dst: o.id },
      ],
      ["/v2/auth/w/subaccounts/create", { username: "helper", type: "trading", readOnly: 0 }],
      // The funding markets lend and borrow live accounts' money: never with test funds.
      [
        "/v2/auth/w/funding/offer/submit",
        { type: "LIMIT", symbol: "fUSD", amount: "-1000", rate: "0.07", period: 120 },
      ],
      ["/v2/auth/w/funding/close", { id: 1 }],
    ];
    for (const [path, body] of calls)
      expect(await post(path, body, paper), path).toEqual([500, refusal(PAPER_LIVE_ONLY_MESSAGE)]);
    // And a funding offer on the account socket: an ERROR notification, no offer.
    const ws = new WebSocket(`ws://${api.host}/ws/2`);
    const frames: unknown[][] = [];
    ws.on("message", (d) => {
      const f = JSON.parse(messageText(d)) as unknown;
      if (Array.isArray(f) && f[0] === 0) frames.push(f);
    });
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "auth", token: paper }));
    await wait(100);
    ws.send(
      JSON.stringify([0, "fon", null, { type: "LIMIT", symbol: "fUSD", amount: "1000", rate: "0.07", period: 2 }]),
    );
    await wait(150);
    ws.close();
    expect(JSON.stringify(frames.filter((f) => f[1] === "n"))).toContain(PAPER_LIVE_ONLY_MESSAGE);
    expect(frames.some((f) => f[1] === "fon")).toBe(false);
    // Nothing moved, and nothing reached the owner.
    expect((await wallets(paper)).get("exchange:TESTUSD")).toBe(50_000);
    expect(Object.fromEntries(await wallets(o.token))).toEqual({ "exchange:USD": 1000 });
    // The owner cannot send live money into it either: it is not an account of the group.
    const [, intoPaper] = await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "exchange", currency: "USD", amount: "1", user_id_dst: paperId },
      o.token,
    );
    expect(JSON.stringify(intoPaper)).toContain("account: not-allowed");
    // Between its own wallets it moves TEST money as any account does.
    const [status] = await post(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "margin", currency: "TESTUSD", amount: "100" },
      paper,
    );
    expect(status).toBe(200);
    expect((await wallets(paper)).get("margin:TESTUSD")).toBe(50_100);
  });
});

describe("back to live", () => {
  it("switches back with the sub-accounts' context call, ending the paper token", async () => {
    const o = await owner();
    await openPaper(o.token);
    const paper = await enterPaper(o.token);
    const [status, body] = await post("/v2/auth/w/subaccounts/context", { id: o.id }, paper);
    expect(status).toBe(200);
    const live = (body as string[])[0] as string;
    expect((await userInfo(live)).id).toBe(o.id);
    const [gone] = await post("/v2/auth/r/wallets", {}, paper);
    expect(gone).toBe(500);
  });

  it("ends with the owner's session", async () => {
    const o = await owner();
    await openPaper(o.token);
    const paper = await enterPaper(o.token);
    expect(await post("/v2/auth/w/token/del", { token: o.token }, o.token)).toEqual([200, [1]]);
    const [status] = await post("/v2/auth/r/wallets", {}, paper);
    expect(status).toBe(500);
  });
});

describe("a restart", () => {
  it("keeps the paper account, its balances and its one-per-user rule", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "paper-")), "exchange.db");
    const env = { RATE_LIMITS: "auth=100000,login=1000,public=100000" };
    const first = await startExchangeProcess(db, env);
    const base = () => `http://127.0.0.1:${first.port + 1}`;
    const call = async (path: string, body: unknown, token?: string): Promise<[number, unknown]> => {
      const res = await fetch(base() + path, {
        method: "POST",
        headers: token ? { "bfx-token": token } : {},
        body: JSON.stringify(body),
      });
      return [res.status, await res.json()];
    };
    const login = async (): Promise<string> => {
      const [, body] = await call("/v2/login", { login: DEMO.username, password: DEMO.password });
      return (body as string[])[0] as string;
    };
    const token = await login();
    const [, opened] = await call(PAPER_OPEN_PATH, {}, token);
    const [, ctx] = await call(PAPER_CONTEXT_PATH, {}, token);
    const paper = (ctx as string[])[0] as string;
    const [moved] = await call(
      "/v2/auth/w/transfer",
      { from: "exchange", to: "margin", currency: "TESTUSD", amount: "250" },
      paper,
    );
    expect(moved).toBe(200);
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    await startExchangeProcess(db, env, first.port);
    const again = await login();
    const [, reopened] = await call(PAPER_OPEN_PATH, {}, again);
    expect(reopened).toEqual(opened);
    const [, ctx2] = await call(PAPER_CONTEXT_PATH, {}, again);
    const [, raw] = await call("/v2/auth/r/wallets", {}, (ctx2 as string[])[0]);
    const balances = (raw as unknown[]).flatMap((w) => {
      const d = walletCodec.decode(w);
      return d.ok ? [[`${d.value.type}:${d.value.currency}`, d.value.balance] as const] : [];
    });
    expect(Object.fromEntries(balances)).toEqual({
      "exchange:TESTUSD": 49_750,
      "exchange:TESTBTC": 1,
      "margin:TESTUSD": 50_250,
    });
  }, 60_000);
});
