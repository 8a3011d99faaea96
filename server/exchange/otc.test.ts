/**
 * OTC block trades over HTTP and SQLite (docs/product-rules.md#otc-block-trades): a quote walks the
 * exchange's own book for the amount and adds the spread, moving nothing; accepting it moves exactly
 * the quoted figures once, with a ledger row on each currency, a row in the trade history and the
 * account's socket told; an expired, used, foreign or no-longer-covered quote and every bad input
 * are refused with nothing moved; the history says what became of each quote; and a quote survives
 * a restart of the exchange on the same database.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  authTradeCodec,
  LEDGER_CATEGORY,
  ledgerCodec,
  notificationCodec,
  OTC_QUOTE_MS,
  OTC_SPREAD_PPM,
  otcFigures,
  otcHistoryCodec,
  otcQuoteCodec,
  otcTradeCodec,
  walletCodec,
  type OtcQuote,
} from "../../src/protocol/index.ts";
import { listenApi, postJson } from "../test-support/api.ts";
import { demoSession, until, type DemoSession } from "../test-support/session.ts";
import { openVenue, type Venue } from "./venue.ts";

// The venue's clock runs `skew` ms ahead of the wall clock: a test moves it past a quote's expiry.
let skew = 0;
const venue = openVenue({ dbPath: ":memory:", seed: 77, now: () => Date.now() + skew });
for (let i = 0; i < 30; i++) venue.exchange.simulator.step();
const BLOCK = { username: "block_trader", password: "Block-pass-2024!" };
const OTHER = { username: "other_trader", password: "Other-pass-2024!" };
const blockId = venue.accounts.createUser("block@example.test", BLOCK.username, BLOCK.password, Date.now(), true);
const otherId = venue.accounts.createUser("othero@example.test", OTHER.username, OTHER.password, Date.now(), true);
venue.funds.deposit(blockId, "USD", 50_000, "Test deposit");
venue.funds.deposit(blockId, "BTC", 2, "Test deposit");
venue.funds.deposit(otherId, "USD", 50_000, "Test deposit");
const limits = { public: 1000, auth: 1000, login: 20 };
const s = demoSession({ exchange: venue.exchange, account: venue.gateway, login: BLOCK, limits });
const other = demoSession({ exchange: venue.exchange, account: venue.gateway, login: OTHER, limits });

async function balance(currency: string, session: DemoSession = s): Promise<number> {
  const list = walletCodec.decodeList((await session.rest("/v2/auth/r/wallets")).body);
  if (!list.ok) throw new Error(JSON.stringify(list.error));
  return list.value.find((w) => w.type === "exchange" && w.currency === currency)?.balance ?? 0;
}

async function quote(body: Record<string, unknown>, session: DemoSession = s): Promise<OtcQuote> {
  const r = await session.rest("/v2/auth/w/int/otc/quote", body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const q = otcQuoteCodec.decode(r.body);
  if (q === null) throw new Error(`not a quote: ${JSON.stringify(r.body)}`);
  return q;
}

/** A side of BTCUSD's book as the exchange walks it for `owner`: best first, `[price, amount]`. */
function book(ex: Venue["exchange"], side: "buy" | "sell", owner: number): [number, number][] {
  const levels = ex.markets.get("tBTCUSD")?.engine[side === "buy" ? "asks" : "bids"];
  if (!levels) throw new Error("no BTCUSD");
  return levels.prices.map((p) => {
    const level = levels.levels.get(p);
    const orders = level ? level.orders.slice(level.head) : [];
    return [p, orders.filter((o) => o.owner !== owner).reduce((sum, o) => sum + o.remaining, 0)] as [number, number];
  });
}

const refused = (msg: string, status = 500): { status: number; body: unknown } => ({
  status,
  body: ["error", 10001, msg],
});

describe("quote, then accept", () => {
  it("prices a buy from the asks plus the spread and a sell from the bids less it, moving nothing", async () => {
    const usd0 = await balance("USD");
    const expectedBuy = otcFigures(10_000_000, "buy", book(venue.exchange, "buy", blockId));
    const buy = await quote({ pair: "BTCUSD", side: "buy", amount: "0.1" });
    expect(buy).toMatchObject({ pair: "BTCUSD", side: "buy", amount: 0.1, price: expectedBuy?.price });
    expect(buy.total).toBe((expectedBuy?.totalUnits ?? 0) / 1e8);
    expect(buy.expires - buy.mts).toBe(OTC_QUOTE_MS);
    const bestAsk = venue.exchange.markets.get("tBTCUSD")?.engine.bestAsk() ?? Infinity;
    // At least the spread above the best ask: the book's average can only be higher.
    expect(buy.price).toBeGreaterThanOrEqual(bestAsk * (1 + OTC_SPREAD_PPM / 1e6) - 1);
    const sell = await quote({ pair: "BTCUSD", side: "sell", amount: 0.1 });
    const bestBid = venue.exchange.markets.get("tBTCUSD")?.engine.bestBid() ?? 0;
    expect(sell.price).toBeLessThanOrEqual(bestBid * (1 - OTC_SPREAD_PPM / 1e6) + 1);
    expect(sell.price).toBe(otcFigures(10_000_000, "sell", book(venue.exchange, "sell", blockId))?.price);
    expect(await balance("USD")).toBe(usd0);
  });

  it("trades at the quoted figures once: wallets, ledger rows, the trade history, the socket, the history", async () => {
    const usd0 = await balance("USD");
    const btc0 = await balance("BTC");
    const { ws, frames } = await s.socket();
    const q = await quote({ pair: "BTCUSD", side: "buy", amount: "0.25" });
    const r = await s.rest("/v2/auth/w/int/otc/accept", { quote: q.id });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const n = notificationCodec.decode(r.body);
    if (!n.ok) throw new Error("not a notification");
    expect(n.value).toMatchObject({ type: "acc_otc", status: "SUCCESS" });
    const trade = otcTradeCodec.decode(n.value.data);
    expect(trade).toMatchObject({
      id: q.id,
      pair: "BTCUSD",
      side: "buy",
      amount: 0.25,
      price: q.price,
      total: q.total,
    });
    expect(await balance("USD")).toBeCloseTo(usd0 - q.total, 8);
    expect(await balance("BTC")).toBeCloseTo(btc0 + 0.25, 8);

    // A ledger row on each currency, category "exchange", naming the block.
    const rows = ledgerCodec.decodeList(
      (await s.rest("/v2/auth/r/ledgers/hist", { category: LEDGER_CATEGORY.EXCHANGE, limit: 2 })).body,
    );
    if (!rows.ok) throw new Error("not ledger rows");
    expect(rows.value.map((l) => [l.currency, l.amount]).sort()).toEqual([
      ["BTC", 0.25],
      ["USD", -q.total],
    ]);
    for (const l of rows.value)
      expect(l.description).toBe(`Exchange 0.25 BTC for USD @ ${q.price} (OTC block trade #${q.id.slice(0, 8)})`);

    // The block is in the account's trade history, as a spot trade priced over the counter.
    const hist = (await s.rest("/v2/auth/r/trades/hist", { limit: 5 })).body as unknown[][];
    const own = hist.map((row) => authTradeCodec.decode(row)).find((t) => t.ok && t.value.id === trade?.tradeId);
    expect(own?.ok && own.value).toMatchObject({
      pair: "tBTCUSD",
      exec_amount: 0.25,
      exec_price: q.price,
      order_type: "EXCHANGE OTC",
    });

    // The socket heard the notification, the trade and both wallets, after COMMIT.
    await until(() => frames.some((f) => f[1] === "n"), "the block's notification");
    expect(frames.find((f) => f[1] === "n")?.[2]).toEqual(r.body);
    await until(() => frames.some((f) => f[1] === "tu"), "the trade");
    await until(() => frames.filter((f) => f[1] === "wu").length >= 2, "both wallet updates");
    ws.close();

    // The history says it was accepted, and when.
    const history = otcHistoryCodec.decode((await s.rest("/v2/auth/r/int/otc/hist")).body);
    expect(history?.find((e) => e.id === q.id)).toMatchObject({ status: "ACCEPTED", accepted: trade?.mts });
  });

  it("refuses a second accept, however many arrive at once, and moves the money once", async () => {
    const usd0 = await balance("USD");
    const q = await quote({ pair: "BTCUSD", side: "buy", amount: "0.05" });
    const all = await Promise.all([1, 2, 3].map(() => s.rest("/v2/auth/w/int/otc/accept", { quote: q.id })));
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of all.filter((x) => x.status !== 200)) expect(r).toEqual(refused("quote: already accepted"));
    expect(await s.rest("/v2/auth/w/int/otc/accept", { quote: q.id })).toEqual(refused("quote: already accepted"));
    expect(await balance("USD")).toBeCloseTo(usd0 - q.total, 8);
  });

  it("refuses an expired quote, and the history calls it expired", async () => {
    const btc0 = await balance("BTC");
    const q = await quote({ pair: "BTCUSD", side: "sell", amount: "0.05" });
    skew += OTC_QUOTE_MS;
    try {
      expect(await s.rest("/v2/auth/w/int/otc/accept", { quote: q.id })).toEqual(refused("quote: expired"));
    } finally {
      skew -= OTC_QUOTE_MS;
    }
    expect(await balance("BTC")).toBe(btc0);
    skew += OTC_QUOTE_MS;
    try {
      const history = otcHistoryCodec.decode((await s.rest("/v2/auth/r/int/otc/hist")).body);
      expect(history?.find((e) => e.id === q.id)).toMatchObject({ status: "EXPIRED", accepted: null });
    } finally {
      skew -= OTC_QUOTE_MS;
    }
  });

  it("refuses a quote the wallet no longer covers, and takes it once the money is back", async () => {
    const q = await quote({ pair: "BTCUSD", side: "buy", amount: "0.05" });
    const usd = await balance("USD");
    // All but a dollar of what the block costs moves to the margin wallet.
    const away = (Math.round((usd - q.total + 1) * 100) / 100).toFixed(2);
    const moved = await s.rest("/v2/auth/w/transfer", {
      from: "exchange",
      to: "margin",
      currency: "USD",
      amount: away,
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await s.rest("/v2/auth/w/int/otc/accept", { quote: q.id })).toEqual(
      refused("amount: insufficient balance in the wallet"),
    );
    expect(await balance("BTC")).toBeGreaterThan(0);
    const history = otcHistoryCodec.decode((await s.rest("/v2/auth/r/int/otc/hist")).body);
    expect(history?.find((e) => e.id === q.id)?.status).toBe("OPEN");
    await s.rest("/v2/auth/w/transfer", { from: "margin", to: "exchange", currency: "USD", amount: away });
    expect((await s.rest("/v2/auth/w/int/otc/accept", { quote: q.id })).status).toBe(200);
  });

  it("refuses bad input, a block below the minimum, beyond the book, and another account's quote", async () => {
    const cases: [Record<string, unknown>, string, number][] = [
      [{ pair: "BTCUSD", side: "buy", amount: "0.049" }, "amount: below the minimum block", 400],
      [{ pair: "ETHUSD", side: "sell", amount: "0.5" }, "amount: below the minimum block", 400],
      [{ pair: "BTCTRY", side: "buy", amount: "1" }, "pair: not quoted over the counter", 400],
      [{ pair: "tBTCUSD", side: "buy", amount: "1" }, "pair: not quoted over the counter", 400],
      [{ pair: "BTCUSD", side: "long", amount: "1" }, "side: invalid", 400],
      [{ pair: "BTCUSD", side: "buy", amount: "-1" }, "amount: invalid", 400],
      [{ pair: "BTCUSD", side: "buy", amount: "1e3" }, "amount: invalid", 400],
      [
        { pair: "BTCUSD", side: "buy", amount: "0.123456789" },
        "amount: precision (more decimals than the currency has)",
        400,
      ],
      [{ pair: "BTCUSD", side: "buy", amount: "100000" }, "amount: more than the book can price now", 500],
    ];
    const usd0 = await balance("USD");
    for (const [body, msg, status] of cases)
      expect(await s.rest("/v2/auth/w/int/otc/quote", body), JSON.stringify(body)).toEqual(refused(msg, status));
    // The other account holds no bitcoin to sell.
    expect(await other.rest("/v2/auth/w/int/otc/quote", { pair: "BTCUSD", side: "sell", amount: "0.1" })).toEqual(
      refused("amount: insufficient balance in the wallet"),
    );
    expect(await s.rest("/v2/auth/w/int/otc/accept", { quote: "nope" })).toEqual(refused("quote: invalid", 400));
    expect(await s.rest("/v2/auth/w/int/otc/accept", { quote: "0".repeat(32) })).toEqual(refused("quote: not found"));
    const theirs = await quote({ pair: "BTCUSD", side: "buy", amount: "0.05" }, other);
    expect(await s.rest("/v2/auth/w/int/otc/accept", { quote: theirs.id })).toEqual(refused("quote: not found"));
    expect(
      otcHistoryCodec.decode((await s.rest("/v2/auth/r/int/otc/hist")).body)?.some((e) => e.id === theirs.id),
    ).toBe(false);
    expect(await balance("USD")).toBe(usd0);
  });
});

describe("restart", () => {
  // Two venues opened and seeded on one file: a few seconds on a loaded machine.
  it(
    "keeps a quote and its figures across a restart on the same database, and accepts it once",
    { timeout: 30_000 },
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), "otc-")), "exchange.db");
      const login = async (host: string): Promise<string> => {
        const [, body] = await postJson(`http://${host}/v2/login`, { login: BLOCK.username, password: BLOCK.password });
        return (body as string[])[0] as string;
      };
      const first = openVenue({ dbPath: file, seed: 78 });
      for (let i = 0; i < 30; i++) first.exchange.simulator.step();
      const id = first.accounts.createUser("block@example.test", BLOCK.username, BLOCK.password, Date.now(), true);
      first.funds.deposit(id, "USD", 20_000, "Test deposit");
      const a = await listenApi({ exchange: first.exchange, account: first.gateway });
      const [, quoted] = await postJson(
        `http://${a.host}/v2/auth/w/int/otc/quote`,
        { pair: "BTCUSD", side: "buy", amount: "0.05" },
        await login(a.host),
      );
      const q = otcQuoteCodec.decode(quoted);
      if (q === null) throw new Error(JSON.stringify(quoted));
      await a.api.close();
      first.db.close();

      const second = openVenue({ dbPath: file, seed: 78 });
      const b = await listenApi({ exchange: second.exchange, account: second.gateway });
      try {
        const token = await login(b.host);
        const [status, accepted] = await postJson(`http://${b.host}/v2/auth/w/int/otc/accept`, { quote: q.id }, token);
        expect(status, JSON.stringify(accepted)).toBe(200);
        const n = notificationCodec.decode(accepted);
        expect(n.ok && otcTradeCodec.decode(n.value.data)).toMatchObject({ id: q.id, price: q.price, total: q.total });
        const [, wallets] = await postJson(`http://${b.host}/v2/auth/r/wallets`, {}, token);
        const list = walletCodec.decodeList(wallets);
        const usd = list.ok ? list.value.find((w) => w.type === "exchange" && w.currency === "USD")?.balance : null;
        expect(usd).toBeCloseTo(20_000 - q.total, 8);
        const [, again] = await postJson(`http://${b.host}/v2/auth/w/int/otc/accept`, { quote: q.id }, token);
        expect(again).toEqual(["error", 10001, "quote: already accepted"]);
        const [, hist] = await postJson(`http://${b.host}/v2/auth/r/int/otc/hist`, {}, token);
        expect(otcHistoryCodec.decode(hist)?.[0]).toMatchObject({ id: q.id, status: "ACCEPTED" });
      } finally {
        await b.api.close();
        second.db.close();
      }
    },
  );
});
