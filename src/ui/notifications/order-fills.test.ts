import { describe, expect, it } from "vitest";
import { authTradeCodec, orderCodec, type AuthTrade, type Order } from "../../protocol";
import { FillTracker, type FillsSource } from "./order-fills";

function trade(id: number, orderId: number, amount: number, price: number): AuthTrade {
  const d = authTradeCodec.decode([
    id,
    "tBTCUSD",
    1_700_000_000_000 + id,
    orderId,
    amount,
    price,
    "EXCHANGE MARKET",
    null,
    -1,
    null,
    null,
    null,
  ]);
  if (!d.ok) throw new Error("bad trade");
  return d.value;
}

function order(id: number, amount: number, original: number): Order {
  const row: unknown[] = new Array(32).fill(null);
  row[0] = id;
  row[3] = "tBTCUSD";
  row[4] = 1_700_000_000_000;
  row[5] = 1_700_000_000_000;
  row[6] = amount;
  row[7] = original;
  row[8] = "EXCHANGE LIMIT";
  row[13] = "ACTIVE";
  row[16] = 100;
  row[23] = 0;
  row[24] = 0;
  const d = orderCodec.decode(row);
  if (!d.ok) throw new Error("bad order");
  return d.value;
}

const view = (trades: AuthTrade[], orders: Order[] = []): FillsSource => ({ trades, orders, history: {} });

describe("one notice per order", () => {
  it("folds eight fills of one market order into one summary with the average price", () => {
    const tracker = new FillTracker();
    const old = trade(1, 7, 0.5, 99);
    expect(tracker.update(view([old]))).toEqual([]);
    const fills = Array.from({ length: 8 }, (_, i) => trade(10 + i, 42, 0.1, 100 + i));
    const out = tracker.update(view([...fills].reverse().concat(old)));
    expect(out).toHaveLength(1);
    const s = out[0];
    expect(s?.orderId).toBe(42);
    expect(s?.side).toBe("buy");
    expect(s?.filled).toBeCloseTo(0.8, 12);
    expect(s?.averagePrice).toBeCloseTo(103.5, 9);
    expect(s?.fills).toBe(8);
    expect(s?.settled).toBe(true);
    // The same view again tells nothing new.
    expect(tracker.update(view([...fills].reverse().concat(old)))).toEqual([]);
  });

  it("follows an open order's partial fills and tells once more when it closes", () => {
    const tracker = new FillTracker();
    tracker.update(view([]));
    const first = [trade(1, 5, -0.25, 200)];
    let out = tracker.update(view(first, [order(5, -0.75, -1)]));
    expect(out.map((s) => [s.side, s.filled, s.amount, s.settled])).toEqual([["sell", 0.25, 1, false]]);
    const both = [trade(2, 5, -0.75, 202), ...first];
    out = tracker.update(view(both, [order(5, 0, -1)]));
    expect(out.map((s) => [s.filled, s.averagePrice, s.settled])).toEqual([[1, 201.5, false]]);
    out = tracker.update(view(both, []));
    expect(out.map((s) => [s.fills, s.settled])).toEqual([[2, true]]);
    expect(tracker.update(view(both, []))).toEqual([]);
  });
});
