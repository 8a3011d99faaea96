/**
 * The account channel's balance and funding info feeds: a wallet change is followed, unasked, by
 * the account's `bu` [AUM, AUM_NET] (what `calc` `balance` answers), and a new funding loan by the
 * `fiu` of its currency (what `calc` `funding_sym_fUSD` answers); a socket that authenticated with
 * `calc: 1` gets neither until it asks.
 */
import { describe, expect, it } from "vitest";
import { demoSession, wait } from "../test-support/session.ts";
import { openVenue } from "./venue.ts";

const SYMBOL = "tBTCUSD";
const venue = openVenue({ dbPath: ":memory:", seed: 21, markets: [{ symbol: SYMBOL, start: 30_000 }] });
const s = demoSession({ exchange: venue.exchange, account: venue.gateway });

const types = (frames: unknown[][]): string[] => frames.map((f) => f[1] as string).filter((t) => t !== "hb");

describe("bu pushed on wallet changes", () => {
  it("follows a fill's wallet updates with one balance update, equal to what calc answers", async () => {
    const { ws, frames } = await s.socket();
    const start = frames.length;
    ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE MARKET", symbol: SYMBOL, amount: "0.01" }]));
    await wait(200);
    const after = frames.slice(start);
    const seen = types(after);
    expect(seen).toContain("wu");
    // One `bu`, after the last wallet update of the fill.
    expect(seen.filter((t) => t === "bu")).toHaveLength(1);
    expect(seen.lastIndexOf("bu")).toBeGreaterThan(seen.lastIndexOf("wu"));
    const bu = after.find((f) => f[1] === "bu")?.[2] as number[];
    expect(bu).toHaveLength(2);
    expect(bu[0]).toBeGreaterThan(0);
    // The same figures `calc` gives for `balance`.
    const asked = frames.length;
    ws.send(JSON.stringify([0, "calc", null, [["balance"]]]));
    await wait(100);
    expect(frames.slice(asked).find((f) => f[1] === "bu")?.[2]).toEqual(bu);
    ws.close();
  });

  it("sends nothing to a calc: 1 socket until it asks", async () => {
    const { ws, frames } = await s.socket({ calc: 1 });
    ws.send(JSON.stringify([0, "on", null, { type: "EXCHANGE MARKET", symbol: SYMBOL, amount: "-0.01" }]));
    await wait(200);
    expect(types(frames)).toContain("wu");
    expect(types(frames)).not.toContain("bu");
    ws.send(JSON.stringify([0, "calc", null, [["balance"]]]));
    await wait(100);
    expect(types(frames)).toContain("bu");
    ws.close();
  });
});

describe("fiu pushed on funding changes", () => {
  it("follows a new loan with the funding info of its currency", async () => {
    const { ws, frames } = await s.socket();
    ws.send(
      JSON.stringify([0, "fon", null, { type: "LIMIT", symbol: "fUSD", amount: "-500", rate: "0.01", period: 2 }]),
    );
    await wait(250);
    const seen = types(frames);
    expect(seen).toContain("fln");
    const fiu = frames.filter((f) => f[1] === "fiu").map((f) => f[2] as [string, string, number[]]);
    expect(fiu).toHaveLength(1);
    expect(seen.indexOf("fiu")).toBeGreaterThan(seen.lastIndexOf("fln"));
    const [kind, symbol, info] = fiu[0] as [string, string, number[]];
    expect([kind, symbol]).toEqual(["sym", "fUSD"]);
    // A borrower: a loan yield and duration, nothing lent.
    expect(info[0]).toBeGreaterThan(0);
    expect(info[0]).toBeLessThanOrEqual(0.01);
    expect(info[1]).toBe(0);
    expect(info[2]).toBeGreaterThan(0);
    const asked = frames.length;
    ws.send(JSON.stringify([0, "calc", null, [["funding_sym_fUSD"]]]));
    await wait(100);
    const answered = frames.slice(asked).find((f) => f[1] === "fiu")?.[2] as [string, string, number[]];
    // The same figures, the durations a few milliseconds shorter.
    expect(answered.slice(0, 2)).toEqual(["sym", "fUSD"]);
    expect(answered[2][0]).toBe(info[0]);
    expect(answered[2][1]).toBe(info[1]);
    expect(answered[2][2]).toBeCloseTo(info[2] as number, 4);
    ws.close();
  });
});

describe("one account's failing push", () => {
  it("costs that account its one push, never the others' bu and fiu from then on", async () => {
    const other = venue.accounts.createUser("broken@example.com", "broken", "broken-password-1", Date.now(), true);
    const demo = venue.seeded as number;
    const funding = venue.credits;
    const positions = venue.positions;
    if (!funding) throw new Error("the venue has funding");
    const infoWire = funding.infoWire.bind(funding);
    const balanceRecord = positions.balanceRecord.bind(positions);
    funding.infoWire = (userId, symbol) => {
      if (userId === other) throw new Error("test: funding info fails for this account");
      return infoWire(userId, symbol);
    };
    positions.balanceRecord = (userId, wallets) => {
      if (userId === other) throw new Error("test: balance fails for this account");
      return balanceRecord(userId, wallets);
    };
    try {
      const { ws, frames } = await s.socket();
      const start = frames.length;
      // The failing account's changes come first in the batch, then the demo account's.
      venue.balances.credit(other, "USD", 10, "Deposit");
      venue.events.emit(other, "fcn", [1, "fUSD"]);
      venue.events.emit(demo, "fcn", [2, "fUSD"]);
      await wait(100);
      expect(types(frames.slice(start))).toContain("fiu");
      // Later batches still go out: a wallet change brings its bu, a credit change its fiu.
      const later = frames.length;
      venue.balances.credit(demo, "USD", 10, "Deposit");
      venue.events.emit(other, "fcn", [3, "fUSD"]);
      venue.events.emit(demo, "fcn", [4, "fUSD"]);
      await wait(100);
      const seen = types(frames.slice(later));
      expect(seen).toContain("wu");
      expect(seen).toContain("bu");
      expect(seen).toContain("fiu");
      ws.close();
    } finally {
      funding.infoWire = infoWire;
      positions.balanceRecord = balanceRecord;
    }
  });
});
