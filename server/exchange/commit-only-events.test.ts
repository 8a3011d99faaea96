/**
 * Account events go out only once their transaction has committed: an operation that fails half
 * way (and so rolls back) sends nothing, then or with the next operation that succeeds. The
 * failure is forced inside a transfer's transaction by a trigger that refuses the second wallet's
 * ledger row, after the first wallet has already moved (and queued its `wu`).
 */
import { describe, expect, it } from "vitest";
import { demoSession, until, wait } from "../test-support/session.ts";
import { openDb } from "../store/db.ts";
import { AccountEvents } from "./events.ts";
import { LiquidationFeed } from "./liquidations.ts";
import { openVenue } from "./venue.ts";

const venue = openVenue({ dbPath: ":memory:", seed: 5, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

const walletUpdates = (frames: unknown[][], type: string, currency: string): number[] =>
  frames
    .filter((f) => f[1] === "wu" && Array.isArray(f[2]) && f[2][0] === type && f[2][1] === currency)
    .map((f) => (f[2] as number[])[2] as number);

describe("commit-only account events", () => {
  it("sends no event of a rolled-back transfer, neither then nor with the next operation", async () => {
    const balance = (): number =>
      (
        venue.db
          .prepare("SELECT balance FROM wallets WHERE type = 'exchange' AND currency = 'USD' AND user_id = 1")
          .get() as { balance: number }
      ).balance / 1e8;
    const before = balance();
    const { ws, frames } = await s.socket();
    venue.db.exec(
      "CREATE TRIGGER refuse_margin_credit BEFORE INSERT ON ledgers WHEN NEW.wallet = 'margin' BEGIN SELECT RAISE(ABORT, 'test: refused'); END",
    );
    try {
      const failed = await s.rest("/v2/auth/w/transfer", {
        from: "exchange",
        to: "margin",
        currency: "USD",
        amount: "123",
      });
      expect(failed.status).toBe(500);
    } finally {
      venue.db.exec("DROP TRIGGER refuse_margin_credit");
    }
    expect(balance()).toBe(before);
    await wait(100);
    expect(walletUpdates(frames, "exchange", "USD")).toEqual([]);
    // The next change that commits brings its own events, and only those.
    const done = await s.rest("/v2/auth/w/transfer", { from: "exchange", to: "funding", currency: "USD", amount: "7" });
    expect(done.status).toBe(200);
    await until(() => walletUpdates(frames, "funding", "USD").length > 0, "the funding wallet's update");
    expect(walletUpdates(frames, "exchange", "USD")).toEqual([before - 7]);
    expect(walletUpdates(frames, "margin", "USD")).toEqual([]);
    ws.close();
  });
});

describe("the public liquidation feed", () => {
  it("shows a liquidation only once its transaction has committed, never one rolled back", async () => {
    const db = openDb(":memory:");
    const events = new AccountEvents(db);
    const feed = new LiquidationFeed();
    feed.persist(db);
    const seen: unknown[][] = [];
    feed.on((row) => seen.push(row));
    const row = (posId: number) =>
      ({
        kind: "pos",
        posId,
        mts: 1_800_000_000_000,
        symbol: "tBTCUSD",
        amount: 1,
        basePrice: 30_000,
        isMatch: false,
        isMarketSold: true,
        liquidationPrice: 27_000,
      }) as const;
    expect(() =>
      events.atomically(() => {
        feed.publish(row(1), (fn) => events.afterCommit(fn));
        throw new Error("the liquidating transaction fails after the row");
      }),
    ).toThrow();
    events.atomically(() => feed.publish(row(2), (fn) => events.afterCommit(fn)));
    await wait(0);
    expect(seen.map((r) => r[1])).toEqual([2]);
    expect(feed.recent.map((r) => r[1])).toEqual([2]);
    expect(feed.page(0, Number.MAX_SAFE_INTEGER, 10).map((r) => r[1])).toEqual([2]);
    db.close();
  });
});
