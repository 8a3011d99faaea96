/**
 * Leaderboards (rankings.ts, docs/product-rules.md#leaderboards) and liquidations history paging:
 * boards computed from the accounts' own fills and P/L ledger rows in SQLite, the window's
 * boundaries, the nickname opt-in, and the REST and socket answers over real HTTP/WebSocket.
 */
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { leaderboardRowCodec, NICKNAME_SETTING, RANKING_WINDOWS, type RankingKey } from "../../src/protocol/index.ts";
import { demoSession, until } from "../test-support/session.ts";
import { messageText } from "../ws-text.ts";
import { openVenue } from "./venue.ts";

const T0 = 1_800_000_000_000;
const HOUR = 3_600_000;

describe("boards from account records", () => {
  let now = T0;
  const venue = openVenue({
    dbPath: ":memory:",
    seed: 5,
    now: () => now,
    markets: [{ symbol: "tBTCUSD", start: 30_000 }],
  });
  const { db, accounts } = venue;
  const rankings = venue.exchange.rankings;
  if (!rankings) throw new Error("the venue attaches the rankings");
  const user = (name: string, nickname?: unknown): number => {
    const id = accounts.createUser(`${name}@example.com`, name, "pw-123456", T0 - 100 * HOUR, true);
    if (nickname !== undefined)
      db.prepare("UPDATE users SET settings = ? WHERE id = ?").run(
        JSON.stringify({ [NICKNAME_SETTING]: nickname }),
        id,
      );
    return id;
  };
  const fill = (userId: number, mts: number, amount: number, price: number, symbol = "tBTCUSD"): void => {
    db.prepare(
      `INSERT INTO trades (trade_id, user_id, order_id, symbol, mts, amount, price, order_type, order_price, maker, fee, fee_currency)
       VALUES (1, ?, 1, ?, ?, ?, ?, 'EXCHANGE MARKET', NULL, 0, 0, 'USD')`,
    ).run(userId, symbol, mts, Math.round(amount * 1e8), price);
  };
  const pl = (userId: number, mts: number, usd: number, pair = "BTCUSD"): void => {
    db.prepare(
      "INSERT INTO ledgers (user_id, currency, wallet, mts, amount, balance, description) VALUES (?, 'USD', 'margin', ?, ?, 0, ?)",
    ).run(userId, mts, Math.round(usd * 1e8), `Position #${userId} ${pair} P/L @ 30000`);
  };
  const board = (key: RankingKey, end = now): { username: string; rank: number; value: number }[] =>
    rankings.board(key, end, now).map((r) => {
      const d = leaderboardRowCodec.decode(r);
      if (!d.ok) throw new Error(JSON.stringify(d.error));
      return { username: d.value.username, rank: d.value.rank, value: d.value.value };
    });

  const alice = user("alice", "Alice_1");
  const bob = user("bob", "Бобёр");
  const carol = user("carol"); // no nickname: never on a board
  const mallory = user("mallory", "alice_1"); // Alice's nickname (any case) taken first: not shown
  const eve = user("eve", "eve@example.com"); // an e-mail is no nickname

  it("ranks traded USD volume within the window only, boundaries included as (start, end]", () => {
    const start = now - RANKING_WINDOWS["3h"];
    fill(alice, start, 10, 30_000); // on the boundary: outside
    fill(alice, start + 1, 1, 30_000); // 30 000
    fill(alice, now, -0.5, 32_000); // 16 000 (a sell counts its size)
    fill(bob, now - HOUR, 2, 31_000); // 62 000
    fill(bob, now + 1, 5, 31_000); // after the end: outside
    fill(carol, now - HOUR, 100, 31_000);
    fill(mallory, now - HOUR, 100, 31_000);
    fill(eve, now - HOUR, 100, 31_000);
    expect(board({ kind: "vol", timeframe: "3h", symbol: "tGLOBAL:USD" })).toEqual([
      { username: "Бобёр", rank: 1, value: 62_000 },
      { username: "Alice_1", rank: 2, value: 46_000 },
    ]);
    // A week holds the fill on the 3-hour boundary too; a pair's board counts only its own fills.
    now += 2000;
    expect(board({ kind: "vol", timeframe: "1w", symbol: "tGLOBAL:USD" })[0]).toEqual({
      username: "Alice_1",
      rank: 1,
      value: 346_000,
    });
    expect(board({ kind: "vol", timeframe: "1w", symbol: "tETHUSD" })).toEqual([]);
  });

  it("ranks realized margin P/L, per pair or over all, and answers the board of an earlier end", () => {
    pl(alice, now - 2 * HOUR, -500);
    pl(bob, now - 2 * HOUR, 1200);
    pl(bob, now - 10 * HOUR, 300, "ETHUSD");
    pl(carol, now - HOUR, 9000);
    now += 2000;
    expect(board({ kind: "plu_diff", timeframe: "1w", symbol: "tGLOBAL:USD" })).toEqual([
      { username: "Бобёр", rank: 1, value: 1500 },
      { username: "Alice_1", rank: 2, value: -500 },
    ]);
    expect(board({ kind: "plu_diff", timeframe: "3h", symbol: "tBTCUSD" })).toEqual([
      { username: "Бобёр", rank: 1, value: 1200 },
      { username: "Alice_1", rank: 2, value: -500 },
    ]);
    // The 3-hour window ending three hours ago holds none of these rows.
    expect(board({ kind: "plu_diff", timeframe: "3h", symbol: "tGLOBAL:USD" }, now - 3 * HOUR)).toEqual([]);
  });

  it("never puts an e-mail or a login name on a board", () => {
    const text = JSON.stringify([
      rankings.board({ kind: "vol", timeframe: "1M", symbol: "tGLOBAL:USD" }, now, now),
      rankings.board({ kind: "plu_diff", timeframe: "1M", symbol: "tGLOBAL:USD" }, now, now),
    ]);
    for (const secret of ["@", "carol", "mallory", "eve", 'alice"']) expect(text).not.toContain(secret);
  });

  it("drops a nickname that was cleared (the opt-out)", () => {
    db.prepare("UPDATE users SET settings = ? WHERE id = ?").run(JSON.stringify({ [NICKNAME_SETTING]: "" }), bob);
    now += 2000;
    expect(board({ kind: "vol", timeframe: "3h", symbol: "tGLOBAL:USD" }).map((r) => r.username)).toEqual(["Alice_1"]);
  });
});

describe("over HTTP and the socket", () => {
  const venue = openVenue({ dbPath: ":memory:", seed: 9, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  const s = demoSession({ exchange: venue.exchange, account: venue.gateway });
  const sockets: WebSocket[] = [];
  afterAll(() => sockets.forEach((ws) => ws.close()));
  const get = async (path: string): Promise<{ status: number; body: unknown }> => {
    const r = await fetch(`http://${s.host}${path}`);
    return { status: r.status, body: await r.json() };
  };

  it("refuses a malformed key, and a board lists the demo only once it sets a nickname", async () => {
    expect(await get("/v2/rankings/vol:2d:tGLOBAL:USD/hist")).toEqual({
      status: 400,
      body: ["error", 10020, "key: invalid"],
    });
    const buy = await s.rest("/v2/auth/w/order/submit", { symbol: "tBTCUSD", type: "EXCHANGE MARKET", amount: "0.01" });
    expect(buy.status).toBe(200);
    expect((await get("/v2/rankings/vol:3h:tGLOBAL:USD/hist")).body).toEqual([]);
    expect((await s.rest("/v2/auth/w/settings/set", { settings: { [NICKNAME_SETTING]: "demo_desk" } })).status).toBe(
      200,
    );
    await new Promise((r) => setTimeout(r, 1100)); // past the board's one-second cache
    const trades = (await s.rest("/v2/auth/r/trades/tBTCUSD/hist")).body as unknown[][];
    const notional = trades.reduce((n, t) => n + Math.abs(t[4] as number) * (t[5] as number), 0);
    const rows = (await get("/v2/rankings/vol:3h:tGLOBAL:USD/hist")).body as unknown[][];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveLength(10);
    expect(rows[0]?.[2]).toBe("demo_desk");
    expect(rows[0]?.[3]).toBe(1);
    expect(rows[0]?.[6]).toBeCloseTo(notional, 1);
  });

  it("sends the board on subscribe and again when a trade moves it", async () => {
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    sockets.push(ws);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: "rank:vol:3h:tGLOBAL:USD" }));
    await until(() => frames.some((f) => Array.isArray(f) && Array.isArray(f[1])), "the board's snapshot");
    const boards = (): unknown[][][] =>
      frames.filter((f): f is [number, unknown[][]] => Array.isArray(f) && Array.isArray(f[1])).map((f) => f[1]);
    const before = boards()[0]?.[0]?.[6] as number;
    expect(boards()[0]?.[0]?.[2]).toBe("demo_desk");
    expect(
      (await s.rest("/v2/auth/w/order/submit", { symbol: "tBTCUSD", type: "EXCHANGE MARKET", amount: "-0.01" })).status,
    ).toBe(200);
    await until(() => boards().length > 1, "the board's update");
    expect(boards().at(-1)?.[0]?.[6]).toBeGreaterThan(before);
  });

  it("liquidates a simulated position on the loopback development hook: the row goes out on liq:global", async () => {
    const ws = new WebSocket(`ws://${s.host}/ws/2`);
    sockets.push(ws);
    const frames: unknown[] = [];
    ws.on("message", (d) => frames.push(JSON.parse(messageText(d))));
    await new Promise((r) => ws.once("open", r));
    ws.send(JSON.stringify({ event: "subscribe", channel: "status", key: "liq:global" }));
    await until(() => frames.some((f) => Array.isArray(f) && Array.isArray(f[1])), "the empty snapshot");
    const hook = (body: unknown, headers: Record<string, string> = { "x-orderflow-dev": "1" }) =>
      fetch(`http://${s.host}/dev/liquidation`, { method: "POST", headers, body: JSON.stringify(body) });
    // Without the development header (what a cross-site form sends) nothing is liquidated.
    expect((await hook({ amount: 1 }, {})).status).toBe(403);
    expect((await hook({ symbol: "tNOPE", amount: 1 })).status).toBe(400);
    expect((await hook({ symbol: "tBTCUSD", amount: 0 })).status).toBe(400);
    const r = await hook({ symbol: "tBTCUSD", amount: -0.25 });
    expect(r.status).toBe(200);
    const row = (await r.json()) as unknown[];
    expect(row.slice(0, 1)).toEqual(["pos"]);
    expect(row[5]).toBe(-0.25);
    expect(row[11]).toBe(venue.exchange.markets.get("tBTCUSD")?.lastPrice());
    await until(
      () => frames.some((f) => Array.isArray(f) && JSON.stringify(f[1]) === JSON.stringify([row])),
      "the liquidation on the socket",
    );
    expect(((await get("/v2/liquidations/hist?limit=1")).body as unknown[][])[0]).toEqual([row]);
  });

  it("pages the liquidations history by time, newest first, each row wrapped", async () => {
    const feed = venue.exchange.liquidations;
    for (const mts of [1000, 2000, 2000, 3000]) feed.simulate("tBTCUSD", 0.5, 30_000, mts);
    const page = (await get("/v2/liquidations/hist?end=2000&limit=10")).body as unknown[][][];
    expect(page.map((w) => w[0]?.[2])).toEqual([2000, 2000, 1000]);
    expect(page[0]?.[0]?.[1]).not.toBe(page[1]?.[0]?.[1]);
    expect((await get("/v2/liquidations/hist?start=3000&end=2000")).status).toBe(400);
  });
});
