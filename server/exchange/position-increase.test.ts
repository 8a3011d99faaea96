/**
 * Increasing a margin position from the margin wallet's own funds, over real HTTP and sockets on
 * SQLite: `r/position/increase/info` reports the room, `w/position/increase` opens or grows the
 * position at the mark (a `pmi-req` notification, `pn`/`pu` and `miu` on the socket), and a refused
 * increase (too large, against the position, not a number) writes nothing.
 */
import { describe, expect, it } from "vitest";
import {
  decodePositionIncreaseInfo,
  ERROR_CODES,
  notificationCodec,
  positionCodec,
  type PositionIncreaseInfo,
} from "../../src/protocol/index.ts";
import { demoSession, wait } from "../test-support/session.ts";
import { INITIAL_MARGIN } from "./positions.ts";
import { TAKER } from "./simulator.ts";
import { openVenue } from "./venue.ts";

const SYM = "tBTCUSD";

describe("position increase", () => {
  const { exchange, gateway } = openVenue({ dbPath: ":memory:", seed: 47, markets: [{ symbol: SYM, start: 30_000 }] });
  const demo = demoSession({ exchange, account: gateway });
  const rest = demo.rest;
  const of = (frames: readonly unknown[][], type: string) => frames.filter((f) => f[1] === type).map((f) => f[2]);
  const wallets = async () => (await rest("/v2/auth/r/wallets")).body as unknown[][];
  const margin = (all: unknown[][], ccy: string) => all.find((w) => w[0] === "margin" && w[1] === ccy)?.[2] ?? 0;
  const info = async (amount: string): Promise<PositionIncreaseInfo> => {
    const r = await rest("/v2/auth/r/position/increase/info", { symbol: SYM, amount });
    expect(r.status).toBe(200);
    const d = decodePositionIncreaseInfo(r.body);
    if (!d.ok) throw new Error(JSON.stringify(d.error));
    return d.value;
  };

  it("reports the room, grows a long from the wallet's bitcoin, and refuses what it cannot take", async () => {
    const socket = await demo.socket({});
    for (const [currency, amount] of [
      ["BTC", "0.5"],
      ["USD", "5000"],
    ] as const)
      expect((await rest("/v2/auth/w/transfer", { from: "exchange", to: "margin", currency, amount })).status).toBe(
        200,
      );
    const mark = exchange.markets.get(SYM)?.lastPrice() as number;

    // A long may take the free bitcoin; a short what the dollars pay for with the initial margin.
    const long = await info("0.1");
    expect([long.maxPos, long.currentPos, long.baseBalance, long.tradableBase]).toEqual([0.5, 0, 0.5, 0.5]);
    expect(long.tradableQuote).toBe(5000);
    const short = await info("-0.1");
    expect(short.maxPos).toBeCloseTo(5000 / (mark * (1 + INITIAL_MARGIN)), 6);

    // Bad requests: nothing is written.
    const before = await wallets();
    for (const [body, pattern] of [
      [{ symbol: SYM, amount: "0.6" }, /at most 0.5 BTC/],
      [{ symbol: SYM, amount: "0" }, /amount: invalid/],
      [{ symbol: SYM, amount: "abc" }, /amount: invalid/],
      [{ symbol: SYM, amount: "0.000000001" }, /amount: invalid/],
      [{ symbol: "tNOPE", amount: "0.1" }, /symbol: invalid/],
    ] as const) {
      const r = await rest("/v2/auth/w/position/increase", body);
      expect(r.status).toBe(500);
      expect((r.body as unknown[])[1]).toBe(ERROR_CODES.PARAMS);
      expect(String((r.body as unknown[])[2])).toMatch(pattern);
    }
    expect(await wallets()).toEqual(before);
    expect((await rest("/v2/auth/r/positions")).body).toEqual([]);

    socket.frames.length = 0;
    const grown = await rest("/v2/auth/w/position/increase", { symbol: SYM, amount: "0.2" });
    expect(grown.status).toBe(200);
    const n = notificationCodec.decode(grown.body);
    expect(n.ok && [n.value.type, n.value.status]).toEqual(["pmi-req", "SUCCESS"]);
    const pos = positionCodec.decode((grown.body as unknown[])[4]);
    expect(pos.ok && [pos.value.pair, pos.value.amount, pos.value.basePrice]).toEqual([SYM, 0.2, mark]);
    expect(pos.ok && typeof pos.value.liqPrice).toBe("number");
    // The bitcoin went into the position; its value came to the dollars, less the initial margin held.
    const after = await wallets();
    expect(margin(after, "BTC")).toBeCloseTo(0.3, 8);
    expect(margin(after, "USD")).toBeCloseTo(5000 + 0.2 * mark, 6);
    expect((await info("0.1")).currentPos).toBe(0.2);
    await wait(150);
    expect(of(socket.frames, "pn").length).toBe(1);
    expect(of(socket.frames, "miu").length).toBeGreaterThan(0);

    // A short cannot come out of an increase of a long.
    const against = await rest("/v2/auth/w/position/increase", { symbol: SYM, amount: "-0.1" });
    expect(String((against.body as unknown[])[2])).toMatch(/cannot reduce/);
    const again = await rest("/v2/auth/w/position/increase", { symbol: SYM, amount: 0.1 });
    expect(again.status).toBe(200);
    const [row] = (await rest("/v2/auth/r/positions")).body as unknown[][];
    const p = positionCodec.decode(row);
    expect(p.ok && p.value.amount).toBeCloseTo(0.3, 8);

    // Closing it with the close flag trades it away: the position is gone.
    exchange.place(SYM, -951, "buy", "LIMIT", Math.floor(mark * 0.99), 5);
    const closed = await rest("/v2/auth/w/order/submit", {
      type: "MARKET",
      symbol: SYM,
      amount: "-0.3",
      flags: 512,
    });
    expect(closed.status).toBe(200);
    await wait(200);
    expect((await rest("/v2/auth/r/positions")).body).toEqual([]);
    socket.ws.close();
  });

  it("prices an increase at the book's guarded mid: a print far from it refuses the increase", async () => {
    const book = exchange.markets.get(SYM)?.engine;
    const mid = ((book?.bestBid() as number) + (book?.bestAsk() as number)) / 2;
    // One account's print through a thin book at half again the mid: the last price, not the book's.
    exchange.printTrade(SYM, TAKER, Math.round(mid * 1.5), 0.001);
    const before = await wallets();
    const r = await rest("/v2/auth/w/position/increase", { symbol: SYM, amount: "0.1" });
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).toMatch(/no price to increase at/);
    expect(await wallets()).toEqual(before);
    expect((await rest("/v2/auth/r/position/increase/info", { symbol: SYM, amount: "0.1" })).status).not.toBe(200);
  });
});
