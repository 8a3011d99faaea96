import { describe, expect, it } from "vitest";
import type { ConnectionState, FeedHealth } from "../../protocol";
import { deskFeedState, feedLevel, feedState } from "./feed-status";
import { assessHealth, deskFeeds, HealthStore } from "./widgets/book/feed-health";

const NOW = 1_000_000;
const online: ConnectionState = {
  status: "online",
  reconnectRetries: 0,
  platform: 1,
  maintenance: false,
  silenceMs: 500,
};
const health = (over: Partial<FeedHealth> = {}): FeedHealth => ({
  lastUpdateAt: NOW - 1000,
  messagesPerSecond: 3,
  resyncs: 0,
  checksumsOk: 1,
  checksumsFailed: 0,
  stale: false,
  ...over,
});
const live = assessHealth("SUBSCRIBED", health(), NOW);
const stale = assessHealth("SUBSCRIBED", health({ stale: true }), NOW);

describe("feed status: one reading for the header and the badges", () => {
  it("the header is not live while a channel is stale, and says what the badge says", () => {
    expect(feedState(online, stale)).toBe("stale");
    expect(deskFeedState(online, [live, stale, live])).toBe("stale");
    expect(deskFeedState(online, [live, live])).toBe("online");
  });

  it("a badge is not live while the socket is down, whatever its channel last said", () => {
    const down: ConnectionState = { ...online, status: "connecting", reconnectRetries: 2 };
    expect(feedState(down, live)).toBe("reconnecting");
    expect(deskFeedState(down, [live])).toBe("reconnecting");
    expect(feedState({ ...online, status: "offline" }, live)).toBe("offline");
    expect(feedState({ ...online, silenceMs: 25_000 }, live)).toBe("silent");
    expect(feedLevel(feedState(down, live))).toBe("warn");
  });

  it("worst channel first; the socket alone when no channel is open", () => {
    const out = assessHealth("OUT_OF_SYNC", health(), NOW);
    const waiting = assessHealth("SUBSCRIBING", null, NOW);
    expect(deskFeedState(online, [waiting, out, stale])).toBe("out-of-sync");
    expect(deskFeedState(online, [waiting, live])).toBe("waiting");
    expect(deskFeedState(online, [])).toBe("online");
    expect(deskFeedState(null, [])).toBe("connecting");
    // Before the socket's first state a badge trusts its channel (a view proves the socket works).
    expect(feedState(null, live)).toBe("online");
  });

  it("counts a health store while something reads it", () => {
    let now = NOW;
    const store = new HealthStore(() => now);
    const before = deskFeeds.summaries().length;
    let calls = 0;
    const stopHeader = deskFeeds.subscribe(() => calls++);
    const stop = store.subscribe(() => undefined);
    expect(deskFeeds.summaries()).toHaveLength(before + 1);
    store.observe("SUBSCRIBED", health({ lastUpdateAt: now - 100 }));
    expect(deskFeedState(online, deskFeeds.summaries())).toBe("online");
    now += 1000;
    store.observe("SUBSCRIBED", health({ lastUpdateAt: NOW - 100, stale: true }));
    expect(deskFeedState(online, deskFeeds.summaries())).toBe("stale");
    expect(calls).toBeGreaterThan(0);
    stop();
    expect(deskFeeds.summaries()).toHaveLength(before);
    stopHeader();
  });
});
