/**
 * Closed positions over real HTTP and SQLite (docs/protocol.md#history-paging and
 * #history-exports): a position opened, grown and closed through the margin model reports its
 * largest size and the P/L that settled; pages walk ties at one millisecond exactly once; bad
 * parameters are refused; the CSV export streams the range and needs the positions capability.
 */
import { describe, expect, it } from "vitest";
import { positionCodec } from "../../src/protocol/index.ts";
import { historyApi } from "../test-support/history.ts";
import { toUnits } from "../store/db.ts";

let clock = 1_700_000_000_000;
const venue = historyApi({
  seed: 5,
  now: () => clock,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});
const { accounts, gateway } = venue;
const user = accounts.createUser("positions@example.com", "positionsuser", "a-long-password-1", clock, true);
const token = accounts.issueToken(user, Date.now());
const ordersOnly = accounts.issueToken(user, Date.now(), 60_000, ["o"], null, null);

const db = gateway.balances.db;
const post = (path: string, body: unknown, as = token): Promise<[number, unknown]> => venue.post(path, body, as);

async function page(body: Record<string, unknown>, path = "/v2/auth/r/positions/hist"): Promise<unknown[][]> {
  const [status, rows] = await post(path, body);
  expect(status, JSON.stringify(rows)).toBe(200);
  expect(positionCodec.decodeList(rows).ok).toBe(true);
  return rows as unknown[][];
}

describe("closed positions", () => {
  it("reports a position's largest size and the P/L that settled, once it has closed", async () => {
    gateway.balances.funds((move) => move(user, "margin", "USD", toUnits(20_000), "Paper-trading deposit"));
    const fill = (amount: number, price: number): void =>
      db.transaction(() => gateway.positions.fill(user, "tBTCUSD", toUnits(amount), price, 0, 0))();
    clock = 10_000_000;
    fill(0.2, 30_000);
    fill(0.1, 31_000);
    expect(await page({})).toEqual([]);
    clock = 10_500_000;
    fill(-0.3, 32_000);
    const [closed] = await page({});
    const p = positionCodec.decode(closed);
    expect(p.ok && p.value).toMatchObject({
      pair: "tBTCUSD",
      status: "CLOSED",
      amount: 0.3,
      mtsCreate: 10_000_000,
      mtsUpdate: 10_500_000,
    });
    // Bought 0.2 at 30 000 and 0.1 at 31 000, sold 0.3 at 32 000: 400 + 100.
    expect(p.ok && p.value.pl).toBeCloseTo(500, 6);
    expect(p.ok && p.value.basePrice).toBeCloseTo(30_333.333, 2);
    const ledger = db
      .prepare("SELECT SUM(amount) AS pl FROM ledgers WHERE user_id = ? AND description LIKE 'Position #% P/L%'")
      .get(user) as { pl: number };
    expect(p.ok && toUnits(p.value.pl ?? 0)).toBe(ledger.pl);
  });

  it("pages newest first by the time each closed, ties at one millisecond exactly once", async () => {
    const insert = db.prepare(
      `INSERT INTO positions (id, user_id, symbol, status, amount, base_price, collateral, swap, peak, pl_realized, mts_create, mts_update, open)
       VALUES (?, ?, 'tBTCUSD', ?, 0, 30000, 0, 0, ?, ?, 1000, ?, 0)`,
    );
    db.transaction(() => {
      for (let i = 0; i < 9; i++)
        insert.run(
          500 + i * 3,
          user,
          i === 4 ? "LIQUIDATED" : "CLOSED",
          -toUnits(0.01 * (i + 1)),
          -toUnits(i),
          2_000 + (i % 3),
        );
    })();
    const seen: number[] = [];
    let cursor: Record<string, unknown> = {};
    for (let guard = 0; guard < 10; guard++) {
      const rows = await page({ limit: 2, start: 1_500, end: 3_000, ...cursor });
      seen.push(...rows.map((r) => r[11] as number));
      if (rows.length < 2) break;
      const last = rows[rows.length - 1] as unknown[];
      cursor = { end: last[13], end_id: last[11] };
    }
    const expected = Array.from({ length: 9 }, (_, i) => ({ id: 500 + i * 3, mts: 2_000 + (i % 3) }))
      .sort((a, b) => b.mts - a.mts || b.id - a.id)
      .map((r) => r.id);
    expect(seen).toEqual(expected);
    expect((await page({}, "/v2/auth/r/positions/tETHUSD/hist")).length).toBe(0);
    expect((await page({ limit: 100 }, "/v2/auth/r/positions/tBTCUSD/hist")).length).toBe(10);
  });

  it("refuses bad parameters with 10020, and callers without the positions capability", async () => {
    expect(await post("/v2/auth/r/positions/hist", { limit: 2501 })).toEqual([
      400,
      ["error", 10020, "limit: must be 1 to 2500"],
    ]);
    expect(await post("/v2/auth/r/positions/hist", { start: 5, end: 4 })).toEqual([
      400,
      ["error", 10020, "start: must not be after end"],
    ]);
    expect(await post("/v2/auth/r/positions/export", {}, ordersOnly)).toEqual([
      500,
      ["error", 10100, "apikey: permission denied for this call"],
    ]);
  });

  it("exports closed positions as CSV", async () => {
    const res = await fetch(venue.url("/v2/auth/r/positions/export"), {
      method: "POST",
      headers: { "bfx-token": token },
      body: JSON.stringify({ end: 3_000 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/filename="positions-all-\d{4}-\d\d-\d\d\.csv"/);
    const [header, ...rows] = (await res.text()).split("\r\n").filter((l) => l !== "");
    expect(header).toBe("id,opened,closed,pair,side,amount,base price,profit/loss,currency,status");
    expect(rows.length).toBe(9);
    const liquidated = rows.find((r) => r.endsWith(",LIQUIDATED"));
    expect(liquidated?.split(",").slice(3)).toEqual(["tBTCUSD", "short", "-0.05", "30000", "-4", "USD", "LIQUIDATED"]);
  });
});
