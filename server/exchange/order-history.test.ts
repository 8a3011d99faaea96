/**
 * Closed orders and own trades over real HTTP and SQLite (docs/protocol.md#history-paging and
 * #history-exports): newest-first pages whose `(end, end_id)` cursor covers rows sharing a
 * millisecond exactly once, the `start`/`end`/symbol filters, 10020 for bad parameters, and the
 * streamed CSV exports — header, RFC 4180 quoting, a range longer than one SQLite page, and the
 * credentials they refuse.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { authTradeCodec, orderCodec } from "../../src/protocol/index.ts";
import { historyApi, parseCsv } from "../test-support/history.ts";
import { EXPORT_PAGE } from "./history-pages.ts";

const clock = 1_700_000_000_000;
const venue = historyApi({
  seed: 11,
  now: () => clock,
  markets: [
    { symbol: "tBTCUSD", start: 30_000 },
    { symbol: "tETHUSD", start: 2_000 },
  ],
});
const { accounts, gateway } = venue;
const user = accounts.createUser("archive@example.com", "archiveuser", "a-long-password-1", clock, true);
const other = accounts.createUser("other@example.com", "otheruser", "a-long-password-1", clock, true);
const token = accounts.issueToken(user, Date.now());
/** A credential limited to wallets: neither orders nor trades. */
const walletsOnly = accounts.issueToken(user, Date.now(), 60_000, ["w"], null, null);

const db = gateway.balances.db;
const post = (path: string, body: unknown, as = token): Promise<[number, unknown]> => venue.post(path, body, as);

async function page(path: string, body: Record<string, unknown>): Promise<unknown[][]> {
  const [status, rows] = await post(path, body);
  expect(status, JSON.stringify(rows)).toBe(200);
  return rows as unknown[][];
}

/** Every row of a history call, walked with the cursor: `time` and `id` are the record's fields. */
async function walk(path: string, limit: number, time: number, extra: Record<string, unknown> = {}): Promise<number[]> {
  const seen: number[] = [];
  let cursor: Record<string, unknown> = {};
  for (let guard = 0; guard < 50; guard++) {
    const rows = await page(path, { ...extra, limit, ...cursor });
    seen.push(...rows.map((r) => r[0] as number));
    if (rows.length < limit) return seen;
    const last = rows[rows.length - 1] as unknown[];
    cursor = { end: last[time], end_id: last[0] };
  }
  throw new Error("the walk did not end");
}

const exportCsv = (path: string, body: Record<string, unknown>, as = token): Promise<Response> =>
  venue.exportCsv(path, body, as);

const insertOrder = db.prepare(
  `INSERT INTO orders (id, user_id, symbol, type, side, price, amount_orig, remaining, avg_price, status, mts_create, mts_update, open)
   VALUES (?, ?, ?, 'EXCHANGE LIMIT', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
const insertTrade = db.prepare(
  `INSERT INTO trades (trade_id, user_id, order_id, symbol, mts, amount, price, order_type, order_price, maker, fee, fee_currency)
   VALUES (?, ?, ?, ?, ?, ?, ?, 'EXCHANGE LIMIT', ?, ?, ?, ?)`,
);

/** Ids newest first as the walk orders them: time descending, then id descending. */
const newestFirst = (rows: { id: number; mts: number }[]): number[] =>
  [...rows].sort((a, b) => b.mts - a.mts || b.id - a.id).map((r) => r.id);

describe("order and trade history", () => {
  const orders: { id: number; mts: number }[] = [];
  const trades: { id: number; mts: number }[] = [];
  beforeAll(() => {
    db.transaction(() => {
      // Three milliseconds with five closed orders and five trades each, ids not in time order.
      let id = 9_000;
      for (const mts of [2_000_000, 1_000_000, 3_000_000])
        for (let i = 0; i < 5; i++) {
          id += 7;
          const symbol = i % 2 === 0 ? "tBTCUSD" : "tETHUSD";
          const side = i % 3 === 0 ? "sell" : "buy";
          const status = i === 4 ? 'EXECUTED @ 30000(0.1): was PARTIALLY FILLED @ 29999(0.05), "first"' : "CANCELED";
          insertOrder.run(id, user, symbol, side, 30_000, 10_000_000, 0, 30_000, status, mts - 500, mts, 0);
          orders.push({ id, mts });
          const amount = side === "buy" ? 5_000_000 : -5_000_000;
          insertTrade.run(id + 1, user, id, symbol, mts, amount, 30_000.5, 30_000, i % 2, -10_000, "USD");
          trades.push({ id: id + 1, mts });
        }
      // Not history: an open order, and another account's rows.
      insertOrder.run(99_001, user, "tBTCUSD", "buy", 1, 10_000_000, 10_000_000, 0, "ACTIVE", 2_500_000, 2_500_000, 1);
      insertOrder.run(99_002, other, "tBTCUSD", "buy", 1, 10_000_000, 0, 1, "CANCELED", 2_500_000, 2_500_000, 0);
      insertTrade.run(99_003, other, 99_002, "tBTCUSD", 2_500_000, 1, 1, 1, 0, 0, "USD");
    })();
  });

  it("pages closed orders newest first with (end, end_id), every row exactly once", async () => {
    expect(await walk("/v2/auth/r/orders/hist", 4, 5)).toEqual(newestFirst(orders));
    const first = await page("/v2/auth/r/orders/hist", { limit: 3 });
    expect(orderCodec.decodeList(first).ok).toBe(true);
    // Without `end_id`, `end` is inclusive as on Bitfinex: the millisecond's rows come again.
    const again = await page("/v2/auth/r/orders/hist", { limit: 5, end: 2_000_000 });
    expect(again.map((r) => r[5])).toEqual(Array(5).fill(2_000_000));
  });

  it("pages own trades newest first with (end, end_id), every row exactly once", async () => {
    expect(await walk("/v2/auth/r/trades/hist", 4, 2)).toEqual(newestFirst(trades));
    const decoded = authTradeCodec.decodeList(await page("/v2/auth/r/trades/hist", { limit: 1 }));
    expect(decoded.ok && decoded.value[0]).toMatchObject({ fee: -0.0001, fee_currency: "USD", exec_price: 30_000.5 });
  });

  it("filters by start, end and symbol", async () => {
    const mid = await page("/v2/auth/r/trades/hist", { start: 1_500_000, end: 2_500_000, limit: 100 });
    expect(mid.map((r) => r[2])).toEqual(Array(5).fill(2_000_000));
    const eth = await walk("/v2/auth/r/orders/tETHUSD/hist", 2, 5);
    expect(eth).toEqual(newestFirst(orders.filter((_, i) => i % 5 === 1 || i % 5 === 3)));
    expect(await page("/v2/auth/r/trades/tBTCUSD/hist", { start: 3_000_001 })).toEqual([]);
    // The default page is 25 rows.
    expect((await page("/v2/auth/r/trades/hist", {})).length).toBe(15);
  });

  it("answers bad parameters with a 10020 error naming the parameter", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ start: "yesterday" }, "start: invalid"],
      [{ end: -1 }, "end: invalid"],
      [{ start: 10, end: 5 }, "start: must not be after end"],
      [{ limit: 0 }, "limit: must be 1 to 2500"],
      [{ limit: 2501 }, "limit: must be 1 to 2500"],
      [{ end_id: 3 }, "end_id: needs end"],
      [{ end: 5, end_id: 0 }, "end_id: invalid"],
    ];
    for (const path of ["/v2/auth/r/orders/hist", "/v2/auth/r/trades/tBTCUSD/hist"])
      for (const [body, message] of bad)
        expect(await post(path, body), `${path} ${JSON.stringify(body)}`).toEqual([400, ["error", 10020, message]]);
    expect((await exportCsv("/v2/auth/r/trades/export", { start: 9, end: 1 })).status).toBe(400);
  });

  it("exports trades as CSV: header, rows newest first, exact decimals", async () => {
    const res = await exportCsv("/v2/auth/r/trades/export", { start: 1_000_000, end: 2_000_000 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="trades-all-\d{4}-\d\d-\d\d\.csv"$/);
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual([
      "id",
      "date",
      "pair",
      "order id",
      "side",
      "amount",
      "price",
      "fee",
      "fee currency",
      "liquidity",
    ]);
    expect(rows.map((r) => Number(r[0]))).toEqual(newestFirst(trades.filter((t) => t.mts <= 2_000_000)));
    const sell = rows.find((r) => r[4] === "sell" && r[2] === "tBTCUSD");
    expect(sell?.slice(1)).toEqual([
      new Date(2_000_000).toISOString(),
      "tBTCUSD",
      String(Number(sell?.[0]) - 1),
      "sell",
      "-0.05",
      "30000.5",
      "-0.0001",
      "USD",
      "taker",
    ]);
    const btc = parseCsv(await (await exportCsv("/v2/auth/r/trades/tBTCUSD/export", {})).text()).slice(1);
    expect(btc.length).toBe(9);
    expect(btc.every((r) => r[2] === "tBTCUSD")).toBe(true);
  });

  it("exports closed orders as CSV with RFC 4180 quoting", async () => {
    const res = await exportCsv("/v2/auth/r/orders/export", {});
    expect(res.headers.get("content-disposition")).toMatch(/filename="orders-all-/);
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual([
      "id",
      "created",
      "updated",
      "pair",
      "type",
      "side",
      "amount",
      "filled",
      "price",
      "average price",
      "status",
    ]);
    expect(rows.map((r) => Number(r[0]))).toEqual(newestFirst(orders));
    const executed = rows.find((r) => r[10]?.startsWith("EXECUTED"));
    expect(executed?.[10]).toBe('EXECUTED @ 30000(0.1): was PARTIALLY FILLED @ 29999(0.05), "first"');
    const sold = rows.find((r) => r[5] === "sell");
    expect(sold?.slice(6, 10)).toEqual(["-0.1", "-0.1", "30000", "30000"]);
  });

  it("refuses an export without credentials, or with one not allowed to read orders", async () => {
    const anonymous = await fetch(venue.url("/v2/auth/r/orders/export"), { method: "POST", body: "{}" });
    expect(anonymous.status).toBe(500);
    expect(await anonymous.json()).toEqual(["error", 10100, expect.any(String)]);
    for (const path of ["/v2/auth/r/orders/export", "/v2/auth/r/trades/export", "/v2/auth/r/trades/hist"]) {
      const res = await exportCsv(path, {}, walletsOnly);
      expect(res.status, path).toBe(500);
      expect(await res.json()).toEqual(["error", 10100, "apikey: permission denied for this call"]);
    }
  });

  it("streams a range longer than one SQLite page, every row once", async () => {
    const bulk = accounts.createUser("bulk-archive@example.com", "bulkarchive", "a-long-password-1", clock, true);
    const bulkToken = accounts.issueToken(bulk, Date.now());
    const count = EXPORT_PAGE * 2 + 137;
    db.transaction(() => {
      // Ten trades a millisecond: page boundaries fall inside shared milliseconds.
      for (let i = 0; i < count; i++)
        insertTrade.run(500_000 + i, bulk, 1, "tBTCUSD", 7_000_000 + Math.floor(i / 10), 1, 1, 1, 1, 0, "USD");
    })();
    const res = await exportCsv("/v2/auth/r/trades/export", {}, bulkToken);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const rows = parseCsv(text).slice(1);
    expect(rows.length).toBe(count);
    expect(new Set(rows.map((r) => r[0])).size).toBe(count);
    expect(rows[0]?.[0]).toBe(String(500_000 + count - 1));
  });
});
