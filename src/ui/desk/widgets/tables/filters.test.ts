import { describe, expect, it } from "vitest";
import { filterWallets } from "./balances";
import { filterOrders, filterPositions, filterTrades, readOrderFilters, withOrderFilter } from "./filters";
import { order, position, trade, wallet } from "../../../test-support/account-records";

const ORDERS = [
  order({ id: 1, symbol: "tBTCUSD", amount: 1, type: "EXCHANGE LIMIT" }),
  order({ id: 2, symbol: "tBTCUSD", amount: -1, type: "LIMIT" }),
  order({ id: 3, symbol: "tETHUSD", amount: 2, type: "EXCHANGE STOP" }),
  order({ id: 4, symbol: "tETHUSD", amount: 0, original: -2, status: "EXECUTED @ 10(-2)" }),
  order({ id: 5, symbol: "tBTCUSD", amount: 0, original: 1, status: "CANCELED" }),
];
const ids = (list: readonly { id: number }[]): number[] => list.map((o) => o.id);

describe("order filters", () => {
  it("defaults to the widget's pair and everything else open", () => {
    expect(readOrderFilters({}, "all")).toEqual({ pair: "CURRENT_PAIR", status: "ALL", context: "ALL", side: "all" });
    expect(readOrderFilters({ pair: "ALL", status: "bogus", type: "margin" }, "sideways")).toEqual({
      pair: "ALL",
      status: "ALL",
      context: "margin",
      side: "all",
    });
  });

  it("filters by pair: CURRENT_PAIR is the widget's pair, ALL every pair, or a named pair", () => {
    const f = readOrderFilters({}, "all");
    expect(ids(filterOrders(ORDERS, f, "tBTCUSD"))).toEqual([1, 2, 5]);
    expect(ids(filterOrders(ORDERS, f, "tETHUSD"))).toEqual([3, 4]);
    expect(ids(filterOrders(ORDERS, { ...f, pair: "ALL" }, "tBTCUSD"))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(filterOrders(ORDERS, { ...f, pair: "ETHUSD" }, "tBTCUSD"))).toEqual([3, 4]);
  });

  it("filters by side (BUY when the amount is positive, closed orders by their original amount)", () => {
    const f = { ...readOrderFilters({ pair: "ALL" }, "buy") };
    expect(ids(filterOrders(ORDERS, f, "tBTCUSD"))).toEqual([1, 3, 5]);
    expect(ids(filterOrders(ORDERS, { ...f, side: "sell" }, "tBTCUSD"))).toEqual([2, 4]);
  });

  it("filters by status kind and by context", () => {
    const f = readOrderFilters({ pair: "ALL", status: "EXECUTED" }, "all");
    expect(ids(filterOrders(ORDERS, f, "tBTCUSD"))).toEqual([4]);
    const margin = readOrderFilters({ pair: "ALL", type: "margin" }, "all");
    expect(ids(filterOrders(ORDERS, margin, "tBTCUSD"))).toEqual([2]);
    const spot = readOrderFilters({ pair: "ALL", type: "exchange" }, "all");
    expect(ids(filterOrders(ORDERS, spot, "tBTCUSD"))).toEqual([1, 3, 4, 5]);
  });

  it("filters own trades by pair, side and context", () => {
    const trades = [
      trade({ id: 1, amount: 1 }),
      trade({ id: 2, amount: -1, type: "LIMIT" }),
      trade({ id: 3, pair: "tETHUSD" }),
    ];
    expect(ids(filterTrades(trades, readOrderFilters({}, "all"), "tBTCUSD"))).toEqual([1, 2]);
    expect(ids(filterTrades(trades, readOrderFilters({}, "sell"), "tBTCUSD"))).toEqual([2]);
    expect(ids(filterTrades(trades, readOrderFilters({ pair: "ALL", type: "exchange" }, "all"), "tBTCUSD"))).toEqual([
      1, 3,
    ]);
  });

  it("filters positions by pair (CURRENT_PAIR is the widget's pair) and side, never by context", () => {
    const positions = [
      position({ id: 1, pair: "tBTCUSD", amount: 1 }),
      position({ id: 2, pair: "tETHUSD", amount: -2 }),
      position({ id: 3, pair: "tBTCF0:USTF0", amount: -1 }),
    ];
    const ids = (f: Parameters<typeof readOrderFilters>[0], side = "all", symbol = "tBTCUSD") =>
      filterPositions(positions, readOrderFilters(f, side), symbol).map((p) => p.id);
    expect(ids(undefined)).toEqual([1]);
    expect(ids(undefined, "all", "tETHUSD")).toEqual([2]);
    expect(ids({ pair: "ALL" })).toEqual([1, 2, 3]);
    expect(ids({ pair: "BTCF0:USTF0" })).toEqual([3]);
    expect(ids({ pair: "ALL" }, "sell")).toEqual([2, 3]);
    expect(ids({ pair: "ALL" }, "buy")).toEqual([1]);
    // Positions are margin by nature: the exchange/margin filter of the other tables leaves them be.
    expect(ids({ pair: "ALL", type: "exchange" })).toEqual([1, 2, 3]);
  });

  it("writes one filter key and keeps the others", () => {
    expect(withOrderFilter({ pair: "ALL", status: "ACTIVE" }, "pair", "CURRENT_PAIR")).toEqual({
      pair: "CURRENT_PAIR",
      status: "ACTIVE",
    });
  });
});

describe("balances", () => {
  const wallets = [
    wallet("exchange", "BTC", 1.5, 1),
    wallet("exchange", "ETH", 0.000001),
    wallet("margin", "USD", 100),
    wallet("funding", "USD", 50),
  ];
  it("shows one wallet type per tab and every wallet under both", () => {
    expect(filterWallets(wallets, "both", false, 0.00001)).toHaveLength(4);
    expect(filterWallets(wallets, "margin", false, 0.00001).map((w) => w.currency)).toEqual(["USD"]);
    expect(filterWallets(wallets, "funding", false, 0.00001).map((w) => w.type)).toEqual(["funding"]);
  });
  it("hides balances below the threshold only when asked", () => {
    expect(filterWallets(wallets, "exchange", true, 0.00001).map((w) => w.currency)).toEqual(["BTC"]);
    expect(filterWallets(wallets, "exchange", false, 0.00001).map((w) => w.currency)).toEqual(["BTC", "ETH"]);
    expect(filterWallets(wallets, "exchange", true, 2).map((w) => w.currency)).toEqual([]);
  });
});

describe("cell formatting", () => {
  it("formats amounts, prices, times and pairs", async () => {
    const { displayPair, formatAmount, formatPrice, formatTime } = await import("./format");
    expect(formatAmount(1.5)).toBe("1.5");
    expect(formatAmount(-0.0000001)).toBe("-0.0000001");
    expect(formatAmount(2)).toBe("2");
    expect(formatAmount(-0.000000001)).toBe("0");
    expect(formatPrice(12345.678)).toBe("12346");
    expect(formatPrice(null)).toBe("–");
    expect(formatTime(Date.UTC(2024, 0, 2, 3, 4, 5), "YY-MM-DD HH:mm:ss", 0)).toBe("24-01-02 03:04:05");
    expect(formatTime(Date.UTC(2024, 0, 2, 23, 0, 0), "YYYY-MM-DD HH:mm", 2)).toBe("2024-01-03 01:00");
    expect(displayPair("tBTCUSD")).toBe("BTC/USD");
    expect(displayPair("tTESTBTC:TESTUSD")).toBe("TESTBTC/TESTUSD");
  });
});
