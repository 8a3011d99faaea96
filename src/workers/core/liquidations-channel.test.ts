/**
 * A `liq:` status channel keeps every liquidation row it received, newest first and bounded, so the
 * throttled view (one every 250 ms) still shows rows from frames it skipped; other status keys keep
 * only their latest payload.
 */
import { describe, expect, it } from "vitest";
import { Channel, LIQUIDATIONS_HELD } from "./channel";
import { newSubscription } from "./subscriptions";

const row = (id: number): unknown[] => ["pos", id, 1000 + id, null, "tBTCUSD", 0.5, 30_000, null, 0, 1, null, 27_000];

describe("liquidations channel", () => {
  it("keeps every row since the snapshot, newest first, at most LIQUIDATIONS_HELD", () => {
    const ch = new Channel(7, newSubscription({ channel: "status", key: "liq:global" }));
    ch.applyData([]); // the snapshot of a quiet market
    ch.applyData([row(1)]);
    ch.applyData([row(2), row(3)]);
    expect(ch.latest).toEqual([row(2), row(3)]);
    expect(ch.liquidations.map((r) => (r as unknown[])[1])).toEqual([3, 2, 1]);
    for (let i = 4; i < LIQUIDATIONS_HELD + 10; i++) ch.applyData([row(i)]);
    expect(ch.liquidations).toHaveLength(LIQUIDATIONS_HELD);
    expect((ch.liquidations[0] as unknown[])[1]).toBe(LIQUIDATIONS_HELD + 9);
  });

  it("keeps nothing for another status key", () => {
    const ch = new Channel(8, newSubscription({ channel: "status", key: "rank:vol:3h:tGLOBAL:USD" }));
    ch.applyData([[1, null, "a", 1, null, null, 5, null, null, null]]);
    expect(ch.liquidations).toEqual([]);
  });
});
