import { describe, expect, it } from "vitest";
import type { Ticker } from "../../../../protocol";
import { buildRows, fullCustomOrder, moveInFullOrder, rateOf, toggleFavorite, type MarketsQuery } from "./markets-core";

function tk(lastPrice: number, volume: number, dailyChangePerc = 0): Ticker {
  return {
    bid: lastPrice,
    bidSize: 1,
    ask: lastPrice,
    askSize: 1,
    dailyChange: 0,
    dailyChangePerc,
    lastPrice,
    volume,
    high: lastPrice,
    low: lastPrice,
  };
}

const tickers = new Map<string, Ticker>([
  ["BTCUSD", tk(50_000, 10, 0.02)],
  ["ETHUSD", tk(2_500, 100, -0.01)],
  ["ETHBTC", tk(0.05, 300, 0.005)],
  ["BTCEUR", tk(46_000, 2, 0)],
  ["BTCF0:USTF0", tk(50_010, 5, 0.01)],
  ["TESTBTC:TESTUSD", tk(50_000, 1, 0)],
]);

const q: MarketsQuery = {
  type: "exchange",
  search: "",
  favoritesOnly: false,
  favorites: [],
  volumeUnit: "USD",
  sort: "volume",
  descending: true,
  customOrder: [],
};

describe("markets list rules", () => {
  it("converts volume through direct, inverse and USD-crossed rates", () => {
    const last = new Map([...tickers].map(([p, t]) => [p, t.lastPrice]));
    expect(rateOf("BTC", "USD", last)).toBe(50_000);
    expect(rateOf("USD", "BTC", last)).toBeCloseTo(1 / 50_000);
    expect(rateOf("ETH", "EUR", last)).toBeNaN();
    expect(rateOf("ETH", "BTC", last)).toBe(0.05);
    const rows = buildRows(tickers, q);
    // ETHBTC's 300 ETH are worth 750k USD through ETHUSD, more than BTCUSD's 500k.
    expect(rows.map((r) => r.pair)).toEqual(["ETHBTC", "BTCUSD", "ETHUSD", "BTCEUR", "TESTBTC:TESTUSD"]);
    expect(rows[0]?.volume).toBe(750_000);
    // TESTBTC has no USD ticker: unknown volume sinks to the bottom in either direction.
    expect(buildRows(tickers, { ...q, descending: false }).at(-1)?.pair).toBe("TESTBTC:TESTUSD");
  });

  it("separates derivatives, searches with or without separators, and filters favourites", () => {
    expect(buildRows(tickers, { ...q, type: "derivative" }).map((r) => r.pair)).toEqual(["BTCF0:USTF0"]);
    expect(buildRows(tickers, { ...q, search: "eth/b" }).map((r) => r.pair)).toEqual(["ETHBTC"]);
    const favs = buildRows(tickers, { ...q, favoritesOnly: true, favorites: ["BTCEUR"] });
    expect(favs.map((r) => [r.pair, r.favorite])).toEqual([["BTCEUR", true]]);
  });

  it("sorts by change, by name, and by the custom order with unplaced pairs after", () => {
    expect(buildRows(tickers, { ...q, sort: "change" }).map((r) => r.pair)[0]).toBe("BTCUSD");
    expect(buildRows(tickers, { ...q, sort: "pair", descending: false }).map((r) => r.pair)[0]).toBe("BTCEUR");
    const custom = buildRows(tickers, { ...q, sort: "custom", customOrder: ["ETHBTC", "BTCUSD"] });
    expect(custom.map((r) => r.pair)).toEqual(["ETHBTC", "BTCUSD", "BTCEUR", "ETHUSD", "TESTBTC:TESTUSD"]);
  });

  it("moves within the custom order and toggles favourites", () => {
    expect(moveInFullOrder(["A", "B", "C"], ["A", "B", "C"], "C", -1)).toEqual(["A", "C", "B"]);
    expect(moveInFullOrder(["A", "B", "C"], ["A", "B", "C"], "A", -1)).toEqual(["A", "B", "C"]);
    expect(moveInFullOrder(["A", "B", "C"], ["A", "B", "C"], "C", 1)).toEqual(["A", "B", "C"]);
    // A filtered list (B hidden): C passes A, and B keeps its place in the whole order.
    expect(moveInFullOrder(["A", "B", "C", "D"], ["A", "C"], "C", -1)).toEqual(["C", "B", "A", "D"]);
    expect(moveInFullOrder(["A", "B", "C"], ["A", "C"], "X", -1)).toEqual(["A", "B", "C"]);
    // Placed pairs first (a missing ticker keeps its place), then the rest alphabetically.
    expect(fullCustomOrder(["D", "C", "A", "B"], ["C", "GONE", "A", "C"])).toEqual(["C", "GONE", "A", "B", "D"]);
    expect(toggleFavorite(["A"], "B")).toEqual(["A", "B"]);
    expect(toggleFavorite(["A", "B"], "A")).toEqual(["B"]);
  });
});
