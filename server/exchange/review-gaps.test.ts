/**
 * Behaviour a review found untested, over real HTTP and WebSocket on the demo account: a STOP LIMIT
 * that triggers and rests at its limit; EXCHANGE IOC, FOK, hidden and post-only orders through
 * account trading with their reservations released; the spot maker fee to the unit; the channel
 * limit (10305); bulk book frames decoded by src/protocol's book; CORS for another origin;
 * passwords stored as scrypt; API secrets never listed; withdrawals need verification level 2,
 * which the development endpoint sets.
 */
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  authTradeCodec,
  classifyFrame,
  CONF_FLAGS,
  newFrameInfo,
  notificationCodec,
  orderCodec,
  OrderBook,
  walletCodec,
  type Order,
} from "../../src/protocol/index.ts";
import { DEV_HEADER } from "../api-server.ts";
import { verifyPassword } from "../store/accounts.ts";
import { DEMO } from "../store/seed.ts";
import { demoSession, wait } from "./test-session.ts";
import { MAKER_FEE } from "./trading.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 21, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const demo = venue.seeded as number;
const s = demoSession({
  exchange: venue.exchange,
  account: venue.gateway,
  limits: { public: 1000, auth: 1000, login: 50 },
});
const engine = () => venue.exchange.markets.get(SYMBOL)?.engine;
const p5 = (x: number): number => Number(x.toPrecision(5));

async function wallet(ccy: string): Promise<{ balance: number; available: number }> {
  const { body } = await s.rest("/v2/auth/r/wallets");
  const list = walletCodec.decodeList(body);
  const w = list.ok ? list.value.find((x) => x.type === "exchange" && x.currency === ccy) : undefined;
  return { balance: w?.balance ?? Number.NaN, available: w?.available ?? Number.NaN };
}

/** Submits over REST; the first order of the on-req notification, decoded. */
async function submit(order: Record<string, unknown>): Promise<Order> {
  const r = await s.rest("/v2/auth/w/order/submit", { symbol: SYMBOL, ...order });
  expect(r.status).toBe(200);
  const n = notificationCodec.decode(r.body);
  const o = orderCodec.decode(n.ok ? (n.value.data as unknown[])[0] : null);
  if (!o.ok) throw new Error(`no order in ${JSON.stringify(r.body)}`);
  return o.value;
}

async function closedStatus(id: number): Promise<string> {
  const { body } = await s.rest("/v2/auth/r/orders/hist", { limit: 100 });
  const row = (body as unknown[][]).find((o) => o[0] === id);
  return String(row?.[13]);
}

describe("account orders through the wire", () => {
  it("a STOP LIMIT triggers on the last price and rests at its limit", async () => {
    const before = await wallet("USD");
    const bid = engine()?.bestBid() as number;
    const limit = p5(bid * 0.8);
    // A buy stop triggers when the last price is at or above its trigger: 1000 is crossed at once.
    const stop = await submit({ type: "EXCHANGE STOP LIMIT", amount: "0.01", price: "1000", price_aux_limit: limit });
    expect(stop).toMatchObject({ status: "ACTIVE", price: 1000, price_aux_limit: limit });
    expect(engine()?.get(stop.id)).toBeUndefined();
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.001);
    await wait(50);
    const resting = engine()?.get(stop.id);
    expect(resting).toMatchObject({ price: limit, remaining: 0.01, type: "LIMIT" });
    // It holds exactly its limit's worth, and cancelling gives it back.
    expect((await wallet("USD")).available).toBeCloseTo(before.available - 0.01 * limit, 8);
    expect((await s.rest("/v2/auth/w/order/cancel", { id: stop.id })).status).toBe(200);
    expect(await wallet("USD")).toEqual(before);
  });

  it("EXCHANGE IOC, FOK and post-only that cannot do what they ask close at once and release everything", async () => {
    const usd = await wallet("USD");
    const btc = await wallet("BTC");
    const ask = engine()?.bestAsk() as number;
    const bid = engine()?.bestBid() as number;
    // IOC below the asks: nothing to take now, cancelled.
    const ioc = await submit({ type: "EXCHANGE IOC", amount: "0.01", price: p5(bid * 0.99) });
    expect(ioc.status).toBe("CANCELED");
    // FOK at the bid, where no ask is: nothing to fill it whole, killed.
    const fok = await submit({ type: "EXCHANGE FOK", amount: "2", price: bid });
    expect(fok.status).toBe("FILLORKILL CANCELED");
    // A post-only sell at the bid would take: cancelled.
    const post = await submit({ type: "EXCHANGE LIMIT", amount: "-0.01", price: bid, flags: 4096 });
    expect(post.status).toBe("POSTONLY CANCELED");
    for (const o of [ioc, fok, post]) expect(await closedStatus(o.id)).toBe(o.status);
    expect((await s.rest("/v2/auth/r/orders")).body).toEqual([]);
    expect(await wallet("USD")).toEqual(usd);
    expect(await wallet("BTC")).toEqual(btc);
    // An IOC that can fill does, and keeps nothing reserved.
    const taken = await submit({ type: "EXCHANGE IOC", amount: "0.001", price: p5(ask * 1.01) });
    expect(taken.status).toMatch(/^EXECUTED @/);
    const after = await wallet("USD");
    expect(after.available).toBe(after.balance);
  });

  it("a hidden order rests off the public book, reserved, and its cancel releases it", async () => {
    const usd = await wallet("USD");
    const price = p5((engine()?.bestBid() as number) * 0.7);
    const hidden = await submit({ type: "EXCHANGE LIMIT", amount: "0.02", price, flags: 64 });
    expect(hidden).toMatchObject({ status: "ACTIVE", hidden: true });
    expect(engine()?.get(hidden.id)?.hidden).toBe(true);
    const book = (await (await fetch(`http://${s.host}/v2/book/${SYMBOL}/P0?len=100`)).json()) as number[][];
    expect(book.some((e) => e[0] === price)).toBe(false);
    const raw = (await (await fetch(`http://${s.host}/v2/book/${SYMBOL}/R0?len=100`)).json()) as number[][];
    expect(raw.some((e) => e[0] === hidden.id)).toBe(false);
    expect((await wallet("USD")).available).toBeCloseTo(usd.available - 0.02 * price, 8);
    await s.rest("/v2/auth/w/order/cancel", { id: hidden.id });
    expect(await wallet("USD")).toEqual(usd);
  });

  it("charges the spot maker fee exactly (0.1 % of what the maker receives)", async () => {
    const usd = await wallet("USD");
    const btc = await wallet("BTC");
    const bid = engine()?.bestBid() as number;
    const ask = engine()?.bestAsk() as number;
    // A sell between the bid and the ask rests as the best ask; a taker then buys exactly it.
    const price = p5(bid + (ask - bid) / 2) > bid ? p5(bid + (ask - bid) / 2) : ask;
    const sell = await submit({ type: "EXCHANGE LIMIT", amount: "-0.05", price });
    expect(engine()?.bestAsk()).toBe(price);
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 0.05);
    await wait(50);
    const { body } = await s.rest("/v2/auth/r/trades/hist", { limit: 5 });
    const mine = (body as unknown[])
      .map((t) => authTradeCodec.decode(t))
      .find((t) => t.ok && t.value.order_id === sell.id);
    const fee = Math.round(0.05 * price * 1e8 * MAKER_FEE) / 1e8;
    expect(mine?.ok && mine.value).toMatchObject({
      isMaker: true,
      fee: -fee,
      fee_currency: "USD",
      exec_price: price,
      exec_amount: -0.05,
    });
    const gross = Math.round(0.05 * price * 1e8) / 1e8;
    expect((await wallet("USD")).balance).toBeCloseTo(usd.balance + gross - fee, 8);
    expect((await wallet("BTC")).balance).toBeCloseTo(btc.balance - 0.05, 8);
  });
});

/** A public socket with conf flags; frames collected, the events apart. */
async function socket(flags: number): Promise<{ ws: WebSocket; frames: unknown[]; send: (m: unknown) => void }> {
  const ws = new WebSocket(`ws://${s.host}/ws/2`);
  const frames: unknown[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(String(d))));
  await new Promise((r) => ws.once("open", r));
  const send = (m: unknown): void => ws.send(JSON.stringify(m));
  if (flags) send({ event: "conf", flags });
  return { ws, frames, send };
}

describe("public socket", () => {
  it("refuses the 31st channel with 10305 subscribe: limit", async () => {
    const c = await socket(0);
    const subs: Record<string, unknown>[] = [];
    for (const prec of ["P0", "P1", "P2", "P3", "P4"])
      for (const len of ["1", "25", "100", "250"]) subs.push({ channel: "book", symbol: SYMBOL, prec, len });
    subs.push({ channel: "trades", symbol: SYMBOL }, { channel: "ticker", symbol: SYMBOL });
    for (const tf of ["1m", "5m", "15m", "30m", "1h", "3h", "6h", "12h", "1D", "1W", "14D", "1M"])
      subs.push({ channel: "candles", key: `trade:${tf}:${SYMBOL}` });
    for (const sub of subs) c.send({ event: "subscribe", ...sub });
    await wait(300);
    const events = c.frames.filter((f) => !Array.isArray(f)) as Record<string, unknown>[];
    expect(events.filter((e) => e["event"] === "subscribed")).toHaveLength(30);
    const refused = events.filter((e) => e["event"] === "error");
    expect(refused).toHaveLength(subs.length - 30);
    expect(refused[0]).toMatchObject({ code: 10305, msg: "subscribe: limit" });
    c.ws.close();
  });

  it("with BULK_UPDATES sends several book changes as one frame that src/protocol's book applies", async () => {
    const c = await socket(CONF_FLAGS.BULK_UPDATES | CONF_FLAGS.OB_CHECKSUM);
    c.send({ event: "subscribe", channel: "book", symbol: SYMBOL, prec: "P0", len: "25" });
    await wait(100);
    // One taker through several ask levels: one batch, several level changes.
    venue.exchange.place(SYMBOL, 0, "buy", "MARKET", Number.NaN, 3);
    await wait(100);
    const book = new OrderBook({ kind: "price", len: 25 });
    const info = newFrameInfo();
    let bulkFrames = 0;
    let checked = 0;
    let snapshot = true;
    for (const f of c.frames) {
      const kind = classifyFrame(f, CONF_FLAGS.BULK_UPDATES | CONF_FLAGS.OB_CHECKSUM, info);
      if (kind === "checksum") {
        expect(book.checksum()).toBe(info.checksum);
        checked++;
      } else if (kind === "data") {
        const entries = info.payload as unknown[];
        if (snapshot) {
          expect(book.applySnapshot(entries)).toBe(true);
          snapshot = false;
        } else if (Array.isArray(entries[0])) {
          bulkFrames++;
          expect(entries.length).toBeGreaterThan(1);
          for (const e of entries) expect(book.applyEntry(e)).toBe(true);
        } else expect(book.applyEntry(entries)).toBe(true);
      }
    }
    expect(bulkFrames).toBeGreaterThan(0);
    expect(checked).toBeGreaterThan(1);
    expect(book.malformed).toBe(0);
    expect(book.unknownDeletes).toBe(0);
    c.ws.close();
  });
});

describe("HTTP and storage", () => {
  it("answers CORS for the app's origin only", async () => {
    const from = (origin: string, method = "GET"): Promise<Response> =>
      fetch(`http://${s.host}/v2/platform/status`, {
        method,
        headers: { origin, "access-control-request-method": "POST" },
      });
    const app = "http://127.0.0.1:1";
    expect((await from(app)).headers.get("access-control-allow-origin")).toBe(app);
    expect((await from(app, "OPTIONS")).status).toBe(204);
    const other = await from("https://evil.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect((await from("https://evil.example", "OPTIONS")).status).toBe(403);
  });

  it("stores passwords as scrypt hashes, never the password", () => {
    const row = venue.db.prepare("SELECT password_hash FROM users WHERE id = ?").get(demo) as { password_hash: string };
    expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row.password_hash).not.toContain(DEMO.password);
    expect(verifyPassword(DEMO.password, row.password_hash)).toBe(true);
    expect(verifyPassword(`${DEMO.password}x`, row.password_hash)).toBe(false);
  });

  it("never lists an API key's secret", async () => {
    const { status, body } = await s.rest("/v2/auth/r/api/keys");
    expect(status).toBe(200);
    const text = JSON.stringify(body);
    expect(text).toContain(DEMO.apiKey);
    expect(text).not.toContain(DEMO.apiSecret);
    for (const k of body as unknown[][]) expect(k).toHaveLength(4);
  });
});

describe("verification levels", () => {
  it("withdrawals need level 2; POST /dev/verification sets an account's level", async () => {
    const user = venue.accounts.createUser("kyc@example.com", "kyc", "kyc-password-1", Date.now(), true);
    venue.trading.credit(user, "BTC", 1, "Deposit");
    const login = await fetch(`http://${s.host}/v2/login`, {
      method: "POST",
      body: JSON.stringify({ login: "kyc", password: "kyc-password-1" }),
    });
    const [token] = (await login.json()) as [string];
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
    };
    expect((await setLevel(1)).status).toBe(200);
    expect(await call("/v2/auth/w/withdraw", withdraw)).toEqual([
      500,
      ["error", 10001, "verification: level 2 needed to withdraw (this account has 1)"],
    ]);
    // Nothing moved; the development endpoint refuses what a web page could send.
    expect((await setLevel(2, {})).status).toBe(403);
    expect(venue.trading.available(user, "exchange", "BTC")).toBe(1e8);
    expect((await setLevel(2)).status).toBe(200);
    const [, info] = await call("/v2/auth/r/info/user");
    expect((info as unknown[])[5]).toBe(2);
    expect((await call("/v2/auth/w/withdraw", withdraw))[0]).toBe(200);
    expect(venue.trading.available(user, "exchange", "BTC")).toBe(0.9e8);
    expect((await setLevel(9)).status).toBe(400);
  });
});
