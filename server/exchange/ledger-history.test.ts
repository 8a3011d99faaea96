/**
 * Ledger history over real HTTP and SQLite (docs/protocol.md#ledger-history): newest-first pages
 * whose `(end, end_id)` cursor covers rows sharing a millisecond exactly once, the `start`/`end`/
 * `category`/`wallet` filters, 10020 for bad parameters, and the streamed CSV export — RFC 4180
 * quoting, exact decimal amounts that sum to the balance change, and a 20 000-row range read a
 * page at a time.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  LEDGER_CATEGORY,
  ledgerCategoryOf,
  ledgerCodec,
  ledgerReconciliationCodec,
  unitsToDecimal,
} from "../../src/protocol/index.ts";
import { historyApi, parseCsv } from "../test-support/history.ts";
import { toUnits } from "../store/db.ts";
import { ledgerCsv } from "./ledger-history.ts";

let clock = 1_700_000_000_000;
const venue = historyApi({
  seed: 7,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const { accounts, gateway } = venue;
const user = accounts.createUser("ledger@example.com", "ledgeruser", "a-long-password-1", clock, true);
const token = accounts.issueToken(user, Date.now());

const post = (path: string, body: unknown): Promise<[number, unknown]> => venue.post(path, body, token);

async function page(path: string, body: Record<string, unknown>): Promise<unknown[][]> {
  const [status, rows] = await post(path, body);
  expect(status, JSON.stringify(rows)).toBe(200);
  expect(ledgerCodec.decodeList(rows).ok).toBe(true);
  return rows as unknown[][];
}

const exportCsv = (body: Record<string, unknown>, path = "/v2/auth/r/ledgers/export"): Promise<Response> =>
  venue.exportCsv(path, body, token);

/** Exact decimal text to integer units of 1e-8 (no float rounding in the sums). */
function units(text: string): bigint {
  const [whole = "0", frac = ""] = text.replace("-", "").split(".");
  const v = BigInt(whole) * 100_000_000n + BigInt(frac.padEnd(8, "0"));
  return text.startsWith("-") ? -v : v;
}

describe("ledger history", () => {
  // Three milliseconds, several rows each: deposits, transfers both ways, a withdrawal-like debit.
  const written: number[] = [];
  beforeAll(() => {
    const at = (mts: number, fn: () => void): void => {
      clock = mts;
      fn();
    };
    at(1_000_000, () => {
      for (let i = 0; i < 6; i++) gateway.funds.deposit(user, "USD", 100 + i, `Paper-trading deposit ${i}`);
      gateway.funds.deposit(user, "BTC", 1.5, 'Deposit "cold", wallet 1\nsecond line');
    });
    at(2_000_000, () => {
      gateway.balances.funds((move) => {
        for (let i = 0; i < 3; i++) {
          const text = `Transfer of 10 USD from wallet exchange to margin`;
          move(user, "exchange", "USD", -toUnits(10), text);
          move(user, "margin", "USD", toUnits(10), text);
        }
      });
    });
    at(3_000_000, () => {
      gateway.balances.funds((move) => {
        move(user, "exchange", "USD", -toUnits(0.12345678), "Bitcoin withdrawal to 1abc");
        move(user, "margin", "USD", -toUnits(1), "Margin Funding Charge on wallet margin");
      });
    });
    const ids = gateway.balances.db
      .prepare("SELECT id FROM ledgers WHERE user_id = ? ORDER BY mts DESC, id DESC")
      .all(user) as { id: number }[];
    written.push(...ids.map((r) => r.id));
  });

  it("pages newest first with (end, end_id), every row exactly once though many share a millisecond", async () => {
    expect(written.length).toBe(15);
    const seen: number[] = [];
    let cursor: Record<string, unknown> = {};
    for (let guard = 0; guard < 10; guard++) {
      const rows = await page("/v2/auth/r/ledgers/hist", { limit: 4, ...cursor });
      seen.push(...rows.map((r) => r[0] as number));
      if (rows.length < 4) break;
      const last = rows[rows.length - 1] as unknown[];
      cursor = { end: last[3], end_id: last[0] };
    }
    expect(seen).toEqual(written);
    // Bitfinex's own `end` alone is inclusive: the oldest millisecond's rows come again.
    const again = await page("/v2/auth/r/ledgers/hist", { limit: 4, end: 2_000_000 });
    expect(again.map((r) => r[3])).toEqual([2_000_000, 2_000_000, 2_000_000, 2_000_000]);
  });

  it("filters by currency, start and end, category and wallet", async () => {
    const btc = await page("/v2/auth/r/ledgers/BTC/hist", {});
    expect(btc.map((r) => r[1])).toEqual(["BTC"]);
    const mid = await page("/v2/auth/r/ledgers/hist", { start: 1_500_000, end: 2_500_000, limit: 2500 });
    expect(mid.length).toBe(6);
    expect(mid.every((r) => r[3] === 2_000_000)).toBe(true);
    const transfers = await page("/v2/auth/r/ledgers/USD/hist", { category: LEDGER_CATEGORY.TRANSFER });
    expect(transfers.length).toBe(6);
    expect(transfers.every((r) => String(r[8]).startsWith("Transfer of"))).toBe(true);
    const deposits = await page("/v2/auth/r/ledgers/hist", { category: "101" });
    expect(deposits.length).toBe(7);
    const withdrawals = await page("/v2/auth/r/ledgers/hist", { category: LEDGER_CATEGORY.WITHDRAWAL });
    expect(withdrawals.map((r) => r[5])).toEqual([-0.12345678]);
    const margin = await page("/v2/auth/r/ledgers/hist", { wallet: "margin" });
    expect(margin.length).toBe(4);
    expect(await page("/v2/auth/r/ledgers/hist", { category: LEDGER_CATEGORY.TRADING_FEE })).toEqual([]);
  });

  it("answers bad parameters with a 10020 error naming the parameter", async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ start: "abc" }, "start: invalid"],
      [{ end: -5 }, "end: invalid"],
      [{ start: 10, end: 5 }, "start: must not be after end"],
      [{ limit: 0 }, "limit: must be 1 to 2500"],
      [{ limit: 2501 }, "limit: must be 1 to 2500"],
      [{ limit: "1e3" }, "limit: must be 1 to 2500"],
      [{ category: 7 }, "category: invalid"],
      [{ wallet: "piggy" }, "wallet: invalid"],
      [{ end_id: 3 }, "end_id: needs end"],
    ];
    for (const [body, message] of bad)
      expect(await post("/v2/auth/r/ledgers/hist", body), JSON.stringify(body)).toEqual([
        400,
        ["error", 10020, message],
      ]);
    expect((await exportCsv({ start: 9, end: 1 })).status).toBe(400);
    expect((await fetch(venue.url("/v2/auth/r/ledgers/export"), { method: "POST", body: "{}" })).status).toBe(500);
  });

  it("exports CSV with a header, RFC 4180 quoting and amounts that sum to the balance change", async () => {
    const res = await exportCsv({});
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="ledgers-all-\d{4}-\d\d-\d\d\.csv"$/);
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual(["id", "date", "currency", "wallet", "category", "amount", "balance", "description"]);
    expect(rows.map((r) => Number(r[0]))).toEqual(written);
    const quoted = rows.find((r) => r[2] === "BTC");
    expect(quoted?.[7]).toBe('Deposit "cold", wallet 1\nsecond line');
    expect(quoted?.[1]).toBe(new Date(1_000_000).toISOString());
    expect(rows.find((r) => r[4] === "withdrawal")?.[5]).toBe("-0.12345678");
    // Over a range: the amounts of a wallet's rows sum to its balance after the range less before it.
    const ranged = parseCsv(
      await (await exportCsv({ start: 2_000_000, end: 3_000_000 }, "/v2/auth/r/ledgers/USD/export")).text(),
    ).slice(1);
    for (const wallet of ["exchange", "margin"]) {
      const inRange = ranged.filter((r) => r[3] === wallet);
      const sum = inRange.reduce((s, r) => s + units(r[5] as string), 0n);
      const after = units((inRange[0] as string[])[6] as string);
      const before = rows.find(
        (r) => r[2] === "USD" && r[3] === wallet && Number(r[0]) < Number((inRange.at(-1) as string[])[0]),
      );
      expect(sum, wallet).toBe(after - (before ? units(before[6] as string) : 0n));
    }
    const transfersOnly = parseCsv(await (await exportCsv({ category: LEDGER_CATEGORY.TRANSFER })).text());
    expect(transfersOnly.length).toBe(7);
  });

  it("streams a 20 000-row range a page at a time, every row once, summing to the balance", async () => {
    const big = accounts.createUser("bulk@example.com", "bulkuser", "a-long-password-1", clock, true);
    const bigToken = accounts.issueToken(big, Date.now());
    const insert = gateway.balances.db.prepare(
      "INSERT INTO ledgers (user_id, currency, wallet, mts, amount, balance, description, category) VALUES (?, 'USD', 'exchange', ?, ?, ?, 'Paper-trading deposit', 101)",
    );
    let balance = 0;
    gateway.balances.db.transaction(() => {
      // 20 rows per millisecond: page boundaries fall inside shared milliseconds.
      for (let i = 0; i < 20_000; i++) {
        const amount = (i % 7) * 12_345_679 + 1;
        balance += amount;
        insert.run(big, 5_000_000 + Math.floor(i / 20), amount, balance);
      }
    })();
    const chunks = [...iterate(ledgerCsv(gateway.balances.db, big, null, query(), clock).chunks())];
    const perChunk = chunks.slice(1).map((c) => c.split("\r\n").length - 1);
    expect(perChunk.length).toBe(40);
    expect(Math.max(...perChunk)).toBe(500);

    const res = await fetch(venue.url("/v2/auth/r/ledgers/export"), {
      method: "POST",
      headers: { "bfx-token": bigToken },
      body: "{}",
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    let reads = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      text += decoder.decode(value, { stream: true });
    }
    expect(reads).toBeGreaterThan(1);
    const rows = parseCsv(text).slice(1);
    expect(rows.length).toBe(20_000);
    expect(new Set(rows.map((r) => r[0])).size).toBe(20_000);
    expect(rows.reduce((s, r) => s + units(r[5] as string), 0n)).toBe(BigInt(balance));
    expect(rows[0]?.[6]).toBe(unitsToDecimal(balance));
  }, 60_000);
});

describe("ledger reconciliation", () => {
  it("tells each wallet whose rows chain to its balance, and the first row that breaks", async () => {
    const read = async () => {
      const [status, body] = await post("/v2/auth/r/ledgers/reconcile", {});
      expect(status).toBe(200);
      const d = ledgerReconciliationCodec.decodeList(body);
      expect(d.ok).toBe(true);
      return d.ok ? d.value : [];
    };
    const before = await read();
    expect(before.map((r) => `${r.currency}/${r.wallet}`)).toEqual(["BTC/exchange", "USD/exchange", "USD/margin"]);
    expect(before.every((r) => r.chained && r.breakId === null)).toBe(true);
    expect(before.find((r) => r.wallet === "margin")).toMatchObject({ rows: 4, balance: 29 });

    // A row whose balance is off: the break is that row, with what it should have said.
    const db = gateway.balances.db;
    const victim = db
      .prepare("SELECT id, balance FROM ledgers WHERE user_id = ? AND wallet = 'margin' ORDER BY id LIMIT 1 OFFSET 1")
      .get(user) as { id: number; balance: number };
    db.prepare("UPDATE ledgers SET balance = balance + 1 WHERE id = ?").run(victim.id);
    const broken = (await read()).find((r) => r.wallet === "margin");
    expect(broken).toMatchObject({ chained: false, breakId: victim.id, expected: 20, found: 20.00000001 });
    db.prepare("UPDATE ledgers SET balance = balance - 1 WHERE id = ?").run(victim.id);

    // Every row chains but the wallet holds something else: not chained, no row to blame.
    db.prepare(
      "UPDATE wallets SET balance = balance + 5 WHERE user_id = ? AND type = 'exchange' AND currency = 'BTC'",
    ).run(user);
    expect((await read()).find((r) => r.currency === "BTC")).toMatchObject({ chained: false, breakId: null, rows: 1 });
    db.prepare(
      "UPDATE wallets SET balance = balance - 5 WHERE user_id = ? AND type = 'exchange' AND currency = 'BTC'",
    ).run(user);
    expect((await read()).every((r) => r.chained)).toBe(true);
  });
});

describe("ledger categories", () => {
  it("reads the category from the exchange's own wording", () => {
    expect(ledgerCategoryOf("Exchange 0.1 BTC for USD @ 30000")).toBe(LEDGER_CATEGORY.EXCHANGE);
    expect(ledgerCategoryOf("Trading fees for 0.1 BTC (BTCUSD) @ 30000 on wallet exchange")).toBe(
      LEDGER_CATEGORY.TRADING_FEE,
    );
    expect(ledgerCategoryOf("Trading fees for 0.1 BTCUSD (margin) @ 30000")).toBe(LEDGER_CATEGORY.TRADING_FEE);
    expect(ledgerCategoryOf("Position #4 BTCUSD P/L @ 31000")).toBe(LEDGER_CATEGORY.POSITION);
    expect(ledgerCategoryOf("Position #4 claimed @ 30000")).toBe(LEDGER_CATEGORY.POSITION_CLAIM);
    expect(ledgerCategoryOf("Margin Funding Payment on wallet funding")).toBe(LEDGER_CATEGORY.MARGIN_FUNDING);
    expect(ledgerCategoryOf("Demo account deposit")).toBe(LEDGER_CATEGORY.DEPOSIT);
    expect(ledgerCategoryOf("Deposit (Bitcoin) #12")).toBe(LEDGER_CATEGORY.DEPOSIT);
    expect(ledgerCategoryOf("Bitcoin withdrawal to bc1q")).toBe(LEDGER_CATEGORY.WITHDRAWAL);
    expect(ledgerCategoryOf("Something else")).toBe(LEDGER_CATEGORY.ADJUSTMENT);
  });

  it("writes exact decimals", () => {
    expect(unitsToDecimal(0)).toBe("0");
    expect(unitsToDecimal(-12_345)).toBe("-0.00012345");
    expect(unitsToDecimal(150_000_000)).toBe("1.5");
    expect(unitsToDecimal(900_719_925_474_099)).toBe("9007199.25474099");
  });
});

function query() {
  return { start: null, end: null, endId: null, limit: 25, category: null, wallet: null } as const;
}

function* iterate(it: Iterator<string>): Generator<string> {
  for (let n = it.next(); !n.done; n = it.next()) yield n.value;
}
