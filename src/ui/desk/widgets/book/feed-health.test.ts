import { describe, expect, it } from "vitest";
import type { FeedHealth } from "../../../../protocol";
import { assessHealth, HealthStore, SILENCE_LIMIT_MS } from "./feed-health";

const NOW = 1_800_000_000_000;
const fresh: FeedHealth = {
  lastUpdateAt: NOW - 1500,
  messagesPerSecond: 8.26,
  resyncs: 1,
  checksumsOk: 10,
  checksumsFailed: 0,
  stale: false,
};

describe("feed health", () => {
  it("is green only for a subscribed channel with recent data", () => {
    const h = assessHealth("SUBSCRIBED", fresh, NOW);
    expect(h).toMatchObject({ level: "ok", ageS: 1, messagesPerSecond: 8.3, resyncs: 1 });
    expect(assessHealth("SUBSCRIBING", fresh, NOW).level).toBe("warn");
    expect(assessHealth("SUBSCRIBED", { ...fresh, lastUpdateAt: 0 }, NOW).level).toBe("warn");
    expect(assessHealth("NONE", null, NOW).level).toBe("warn");
  });

  it("is red when out of sync, in error, stale, or silent too long", () => {
    expect(assessHealth("OUT_OF_SYNC", fresh, NOW).level).toBe("bad");
    expect(assessHealth("ERROR", fresh, NOW).level).toBe("bad");
    expect(assessHealth("SUBSCRIBED", { ...fresh, stale: true }, NOW).level).toBe("bad");
    const silent = { ...fresh, lastUpdateAt: NOW - SILENCE_LIMIT_MS - 1 };
    expect(assessHealth("SUBSCRIBED", silent, NOW).level).toBe("bad");
  });

  it("notifies on a severity change at once and on other changes only when ticked", () => {
    let now = NOW;
    const store = new HealthStore(() => now);
    let notified = 0;
    store.subscribe(() => notified++);
    store.observe("SUBSCRIBED", fresh);
    expect(notified).toBe(1);
    expect(store.getSnapshot().level).toBe("ok");
    store.observe("SUBSCRIBED", { ...fresh, messagesPerSecond: 20 });
    expect(notified).toBe(1);
    store.tick();
    expect(notified).toBe(2);
    expect(store.getSnapshot().messagesPerSecond).toBe(20);
    const before = store.getSnapshot();
    store.tick();
    expect(store.getSnapshot()).toBe(before);
    // Time passes with no data: the tick alone turns it red.
    now += SILENCE_LIMIT_MS + 5000;
    store.tick();
    expect(store.getSnapshot().level).toBe("bad");
    store.observe("OUT_OF_SYNC", { ...fresh, lastUpdateAt: now });
    expect(store.getSnapshot().status).toBe("OUT_OF_SYNC");
  });
});
