import { describe, expect, it } from "vitest";
import {
  authTradeCodec,
  fundingOfferCodec,
  fundingTradeCodec,
  orderCodec,
  positionCodec,
  type Order,
} from "../../protocol";
import type { HttpReply } from "../session";
import { appendPage, archiveCursor, archivePageOf, archiveQuery, NO_ARCHIVE_FILTERS, tradedPairs } from "./archive";
import { HISTORY_PAGE } from "./range";

const order = (id: number, update: number, symbol = "tBTCUSD"): unknown[] => {
  const base: Omit<Order, "isOco" | "type_value"> = {
    id,
    group_id: null,
    client_id: null,
    symbol,
    mts_create: update - 10,
    mts_update: update,
    amount: 0,
    original_amount: 0.5,
    type: "EXCHANGE LIMIT",
    type_prev: null,
    mts_tif: null,
    flags: 0,
    status: "EXECUTED @ 30000(0.5)",
    price: 30_000,
    price_average: 30_000,
    price_trailing: 0,
    price_aux_limit: 0,
    notify: false,
    hidden: false,
    placed_id: null,
    routing: "BFX",
    meta: null,
  };
  return orderCodec.encode(base);
};
const trade = (id: number, mts: number, pair = "tETHUSD"): unknown[] =>
  authTradeCodec.encode({
    id,
    pair,
    mts_create: mts,
    order_id: 1,
    exec_amount: -0.1,
    exec_price: 2_000,
    order_type: "EXCHANGE LIMIT",
    order_price: 2_000,
    maker: 1,
    fee: -0.2,
    fee_currency: "USD",
    cid: null,
  });

describe("archive: the filters as a history call", () => {
  it("asks each tab's history, by pair and dates, and continues after the oldest row", () => {
    expect(archiveQuery("orders", NO_ARCHIVE_FILTERS, "hist")).toEqual({
      ok: true,
      path: "/v2/auth/r/orders/hist",
      body: { limit: HISTORY_PAGE },
    });
    const filters = { ...NO_ARCHIVE_FILTERS, symbol: "tBTCUSD", from: "2024-03-01", to: "2024-03-31" };
    expect(archiveQuery("trades", filters, "hist", { end: 1_709_300_000_000, endId: 7 })).toEqual({
      ok: true,
      path: "/v2/auth/r/trades/tBTCUSD/hist",
      body: { start: new Date(2024, 2, 1).getTime(), end: 1_709_300_000_000, end_id: 7, limit: HISTORY_PAGE },
    });
    expect(archiveQuery("trades", filters, "export")).toEqual({
      ok: true,
      path: "/v2/auth/r/trades/tBTCUSD/export",
      body: { start: new Date(2024, 2, 1).getTime(), end: new Date(2024, 3, 1).getTime() - 1 },
    });
    // Only a trading symbol goes into the address.
    expect(archiveQuery("orders", { ...NO_ARCHIVE_FILTERS, symbol: "../x" }, "hist")).toMatchObject({
      path: "/v2/auth/r/orders/hist",
    });
  });

  it("refuses a reversed range, and a date that is none, without a call", () => {
    expect(
      archiveQuery("trades", { ...NO_ARCHIVE_FILTERS, symbol: "", from: "2024-05-02", to: "2024-05-01" }, "hist"),
    ).toEqual({
      ok: false,
      problem: "range",
    });
    expect(archiveQuery("orders", { ...NO_ARCHIVE_FILTERS, symbol: "", from: "2024-02-30", to: "" }, "export")).toEqual(
      {
        ok: false,
        problem: "from-date",
      },
    );
  });
});

describe("archive: pages", () => {
  const replying =
    (body: unknown, status = 200) =>
    (): Promise<HttpReply> =>
      Promise.resolve({ status, body });

  it("reads orders and trades by their codecs, with the cursor of the oldest row", async () => {
    const full = Array.from({ length: HISTORY_PAGE }, (_, i) => order(100 - i, 5_000 - i));
    const o = await archivePageOf(replying(full), "orders", "/x", { limit: HISTORY_PAGE });
    expect(o.ok && o.more).toBe(true);
    expect(o.ok && archiveCursor(o.page)).toEqual({ end: 5_000 - HISTORY_PAGE + 1, endId: 100 - HISTORY_PAGE + 1 });
    const t = await archivePageOf(replying([trade(9, 700), trade(8, 700)]), "trades", "/x", { limit: HISTORY_PAGE });
    expect(t.ok && t.more).toBe(false);
    expect(t.ok && archiveCursor(t.page)).toEqual({ end: 700, endId: 8 });
    expect(t.ok && t.page.tab === "trades" && t.page.rows[0]).toMatchObject({ isMaker: true, fee: -0.2 });
    // Pages of one tab follow each other; a page of another tab starts over.
    if (!o.ok || !t.ok) throw new Error("pages expected");
    expect(appendPage(t.page, t.page).rows.length).toBe(4);
    expect(appendPage(o.page, t.page)).toBe(t.page);
  });

  it("reads closed positions, continued after the one that closed last", async () => {
    const position = (id: number, closed: number): unknown[] =>
      positionCodec.encode({
        pair: "tBTCUSD",
        status: "CLOSED",
        amount: -0.3,
        basePrice: 30_000,
        swap: 0,
        swapType: 0,
        pl: 12.5,
        plPercent: 0.14,
        liqPrice: null,
        leverage: null,
        id,
        mtsCreate: closed - 100,
        mtsUpdate: closed,
        posType: 0,
        collateral: 0,
        minCollateral: 0,
        maxCollateral: null,
      });
    expect(
      archiveQuery("positions", { ...NO_ARCHIVE_FILTERS, symbol: "tBTCUSD", from: "", to: "" }, "hist"),
    ).toMatchObject({
      path: "/v2/auth/r/positions/tBTCUSD/hist",
    });
    const p = await archivePageOf(replying([position(5, 900), position(4, 900)]), "positions", "/x", {});
    expect(p.ok && archiveCursor(p.page)).toEqual({ end: 900, endId: 4 });
    expect(p.ok && p.page.tab === "positions" && p.page.rows[0]).toMatchObject({ amount: -0.3, pl: 12.5 });
  });

  it("reads each funding history as the rows the table shows", async () => {
    const filters = { ...NO_ARCHIVE_FILTERS, symbol: "fUSD", funding: "trades" as const };
    expect(archiveQuery("funding", filters, "hist")).toMatchObject({ path: "/v2/auth/r/funding/trades/fUSD/hist" });
    // A trading pair is not a funding symbol: every currency is asked for.
    expect(archiveQuery("funding", { ...filters, symbol: "tBTCUSD", funding: "loans" }, "export")).toMatchObject({
      path: "/v2/auth/r/funding/loans/export",
    });
    const trades = [
      fundingTradeCodec.encode({
        id: 9,
        symbol: "fUSD",
        mts_create: 800,
        offer_id: 3,
        amount: 50,
        rate: 0.0002,
        period: 2,
        maker: 1,
      }),
    ];
    const t = await archivePageOf(replying(trades), "funding", "/x", {}, "trades");
    expect(t.ok && t.page.rows[0]).toEqual({
      id: 9,
      time: 800,
      symbol: "fUSD",
      amount: 50,
      rate: 0.0002,
      period: 2,
      status: null,
      maker: true,
    });
    const offer = fundingOfferCodec.encode({
      id: 4,
      symbol: "fBTC",
      mtsCreate: 100,
      mtsUpdate: 900,
      amount: 0,
      amountOrig: -1.5,
      type: "LIMIT",
      flags: 0,
      status: "EXECUTED at 0.02% (1.5)",
      rate: 0.0002,
      period: 7,
      notify: false,
      hidden: false,
      renew: false,
      rateReal: null,
    });
    const o = await archivePageOf(replying([offer]), "funding", "/x", {}, "offers");
    expect(o.ok && o.page.rows[0]).toMatchObject({ id: 4, time: 900, amount: -1.5, status: "EXECUTED at 0.02% (1.5)" });
    expect(o.ok && archiveCursor(o.page)).toEqual({ end: 900, endId: 4 });
  });

  it("tells a refusal from a record it cannot read", async () => {
    expect(await archivePageOf(replying(["error", 10100, "token: invalid"], 500), "orders", "/x", {})).toEqual({
      ok: false,
      error: "session",
    });
    expect(await archivePageOf(replying([["not", "an", "order"]]), "orders", "/x", {})).toEqual({
      ok: false,
      error: "server",
    });
  });

  it("offers the pairs of the account's orders and trades, once each, sorted", async () => {
    const call = (path: string): Promise<HttpReply> =>
      Promise.resolve({
        status: 200,
        body: path.includes("orders") ? [order(1, 5, "tETHUSD"), order(2, 6, "tBTCUSD")] : [trade(3, 7, "tETHUSD")],
      });
    expect(await tradedPairs(call)).toEqual(["tBTCUSD", "tETHUSD"]);
  });
});
