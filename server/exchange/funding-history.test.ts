/**
 * Funding history over real HTTP and SQLite (docs/protocol.md#history-paging and
 * #history-exports): closed offers, credits and loans and funding trades walked newest first with
 * the `(end, end_id)` cursor through ties at one millisecond, filtered by symbol before the limit,
 * bad parameters refused, and the CSV exports with their capability.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  fundingCreditCodec,
  fundingLoanCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  type DecodeResult,
} from "../../src/protocol/index.ts";
import { historyApi } from "../test-support/history.ts";

const clock = 1_700_000_000_000;
const venue = historyApi({
  seed: 3,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const { accounts, gateway } = venue;
const user = accounts.createUser("funding-hist@example.com", "fundinghist", "a-long-password-1", clock, true);
const token = accounts.issueToken(user, Date.now());
const walletsOnly = accounts.issueToken(user, Date.now(), 60_000, ["w"], null, null);

const db = gateway.balances.db;
const post = (path: string, body: unknown, as = token): Promise<[number, unknown]> => venue.post(path, body, as);

const KINDS = {
  offers: { decode: (r: unknown): DecodeResult<unknown[]> => fundingOfferCodec.decodeList(r), time: 3 },
  credits: { decode: (r: unknown): DecodeResult<unknown[]> => fundingCreditCodec.decodeList(r), time: 4 },
  loans: { decode: (r: unknown): DecodeResult<unknown[]> => fundingLoanCodec.decodeList(r), time: 4 },
  trades: { decode: (r: unknown): DecodeResult<unknown[]> => fundingTradeCodec.decodeList(r), time: 2 },
} as const;
type Kind = keyof typeof KINDS;

async function walk(kind: Kind, symbol: string | null, limit: number): Promise<number[]> {
  const path = `/v2/auth/r/funding/${kind}${symbol ? `/${symbol}` : ""}/hist`;
  const seen: number[] = [];
  let cursor: Record<string, unknown> = {};
  for (let guard = 0; guard < 50; guard++) {
    const [status, rows] = await post(path, { limit, ...cursor });
    expect(status, JSON.stringify(rows)).toBe(200);
    expect(KINDS[kind].decode(rows).ok, kind).toBe(true);
    const list = rows as unknown[][];
    seen.push(...list.map((r) => r[0] as number));
    if (list.length < limit) return seen;
    const last = list[list.length - 1] as unknown[];
    cursor = { end: last[KINDS[kind].time], end_id: last[0] };
  }
  throw new Error("the walk did not end");
}

/** Ids newest first: time descending, then id descending. */
const newestFirst = (rows: readonly { id: number; mts: number }[]): number[] =>
  [...rows].sort((a, b) => b.mts - a.mts || b.id - a.id).map((r) => r.id);

describe("funding history", () => {
  const written: Record<Kind, { id: number; mts: number; symbol: string }[]> = {
    offers: [],
    credits: [],
    loans: [],
    trades: [],
  };
  beforeAll(() => {
    const offer = db.prepare(
      `INSERT INTO funding_offers (id, user_id, symbol, type, amount_orig, remaining, rate, rate_real, period, flags, status, mts_create, mts_update, open)
       VALUES (?, ?, ?, 'LIMIT', ?, 0, 0.0002, 0.0002, 2, 0, ?, 100, ?, 0)`,
    );
    const credit = db.prepare(
      `INSERT INTO funding_credits (id, user_id, symbol, offer_id, amount, rate, period, status, position_pair, mts_create, mts_update, open)
       VALUES (?, ?, ?, 1, 5000000000, 0.0003, 7, 'CLOSED (expired)', NULL, 100, ?, 0)`,
    );
    const loan = db.prepare(
      `INSERT INTO funding_loans (id, user_id, symbol, offer_id, credit_id, amount, rate, rate_type, period, status, position_pair, auto, mts_create, mts_update, mts_last_payout, open)
       VALUES (?, ?, ?, NULL, NULL, 2500000000, 0.0004, 'FIXED', 2, 'CLOSED (used)', 'tBTCUSD', 0, 100, ?, 100, 0)`,
    );
    const trade = db.prepare(
      `INSERT INTO funding_trades (trade_id, user_id, symbol, offer_id, mts, amount, rate, period, maker)
       VALUES (?, ?, ?, 1, ?, 5000000000, 0.0002, 2, ?)`,
    );
    db.transaction(() => {
      // Four millisecond, three rows each, ids out of time order; the newest are all fBTC, so a
      // symbol filter applied after the limit would come back short.
      let id = 70_000;
      for (const mts of [2_000, 4_000, 1_000, 3_000])
        for (let i = 0; i < 3; i++) {
          id += 5;
          const symbol = mts === 4_000 ? "fBTC" : "fUSD";
          offer.run(id, user, symbol, 10_000_000_000, i === 1 ? 'CANCELED, "early"' : "EXECUTED", mts);
          credit.run(id + 1, user, symbol, mts);
          loan.run(id + 2, user, symbol, mts);
          trade.run(id + 3, user, symbol, mts, i % 2);
          written.offers.push({ id, mts, symbol });
          written.credits.push({ id: id + 1, mts, symbol });
          written.loans.push({ id: id + 2, mts, symbol });
          written.trades.push({ id: id + 3, mts, symbol });
        }
      // Open records are not history.
      offer.run(99_000, user, "fUSD", 10_000_000_000, "ACTIVE", 5_000);
      db.prepare("UPDATE funding_offers SET open = 1 WHERE id = 99000").run();
    })();
  });

  it("walks each history newest first with (end, end_id), every row exactly once", async () => {
    for (const kind of Object.keys(KINDS) as Kind[])
      expect(await walk(kind, null, 5), kind).toEqual(newestFirst(written[kind]));
  });

  it("filters by symbol before the limit, and by start and end", async () => {
    for (const kind of Object.keys(KINDS) as Kind[])
      expect(await walk(kind, "fUSD", 2), kind).toEqual(newestFirst(written[kind].filter((r) => r.symbol === "fUSD")));
    const [status, mid] = await post("/v2/auth/r/funding/trades/hist", { start: 1_500, end: 2_500 });
    expect(status).toBe(200);
    expect((mid as unknown[][]).map((r) => r[2])).toEqual([2_000, 2_000, 2_000]);
  });

  it("refuses bad parameters with 10020, and credentials without the funding capability", async () => {
    expect(await post("/v2/auth/r/funding/offers/hist", { limit: 0 })).toEqual([
      400,
      ["error", 10020, "limit: must be 1 to 2500"],
    ]);
    expect(await post("/v2/auth/r/funding/loans/fUSD/hist", { end_id: 4 })).toEqual([
      400,
      ["error", 10020, "end_id: needs end"],
    ]);
    expect(await post("/v2/auth/r/funding/credits/export", {}, walletsOnly)).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
  });

  it("exports each history as CSV", async () => {
    const csv = async (path: string): Promise<[string | null, string[]]> => {
      const res = await venue.exportCsv(path, {}, token);
      expect(res.status, path).toBe(200);
      return [res.headers.get("content-disposition"), (await res.text()).split("\r\n").filter((l) => l !== "")];
    };
    const [name, [header, ...offers]] = await csv("/v2/auth/r/funding/offers/export");
    expect(name).toMatch(/filename="funding-offers-all-\d{4}-\d\d-\d\d\.csv"/);
    expect(header).toBe("id,opened,closed,currency,amount,rate,period,status");
    expect(offers.map((l) => Number(l.split(",")[0]))).toEqual(newestFirst(written.offers));
    expect(offers.find((l) => l.includes("CANCELED"))).toMatch(/,BTC,100,0\.0002,2,"CANCELED, ""early"""$/);
    const [, [tradeHeader, ...trades]] = await csv("/v2/auth/r/funding/trades/fBTC/export");
    expect(tradeHeader).toBe("id,date,currency,offer id,amount,rate,period,liquidity");
    expect(trades.length).toBe(3);
    expect(trades.every((l) => l.includes(",BTC,1,50,0.0002,2,"))).toBe(true);
  });
});
