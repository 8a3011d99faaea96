/**
 * The feed-health badge's model (anti-pattern 7: no green light on a silent feed). A pure assessment
 * of the latest view's health, and a tiny external store the badge reads with useSyncExternalStore:
 * it changes at most once a second (the ticking age) or at once when the severity changes, so the
 * badge never re-renders per view.
 */
import type { ChannelStatus, FeedHealth } from "../../../../protocol";

/** No data update for this long turns the badge red (twice the exchange's 15 s heartbeat). */
export const SILENCE_LIMIT_MS = 30_000;

export type HealthLevel = "ok" | "warn" | "bad";

export interface HealthSummary {
  readonly level: HealthLevel;
  readonly status: ChannelStatus | "NONE";
  /** Whole seconds since the last data update; -1 before the first. */
  readonly ageS: number;
  readonly messagesPerSecond: number;
  readonly resyncs: number;
  readonly checksumsOk: number;
  readonly checksumsFailed: number;
  readonly stale: boolean;
}

export const NO_FEED: HealthSummary = {
  level: "warn",
  status: "NONE",
  ageS: -1,
  messagesPerSecond: 0,
  resyncs: 0,
  checksumsOk: 0,
  checksumsFailed: 0,
  stale: false,
};

/** What the badge shows for a channel's status and health at `now`. */
export function assessHealth(status: ChannelStatus | "NONE", health: FeedHealth | null, now: number): HealthSummary {
  if (!health) return { ...NO_FEED, status };
  const age = health.lastUpdateAt > 0 ? now - health.lastUpdateAt : -1;
  let level: HealthLevel;
  if (status === "OUT_OF_SYNC" || status === "ERROR" || health.stale || age > SILENCE_LIMIT_MS) level = "bad";
  else if (status !== "SUBSCRIBED" || health.lastUpdateAt === 0) level = "warn";
  else level = "ok";
  return {
    level,
    status,
    ageS: age < 0 ? -1 : Math.floor(age / 1000),
    messagesPerSecond: Math.round(health.messagesPerSecond * 10) / 10,
    resyncs: health.resyncs,
    checksumsOk: health.checksumsOk,
    checksumsFailed: health.checksumsFailed,
    stale: health.stale,
  };
}

function sameSummary(a: HealthSummary, b: HealthSummary): boolean {
  return (
    a.level === b.level &&
    a.status === b.status &&
    a.ageS === b.ageS &&
    a.messagesPerSecond === b.messagesPerSecond &&
    a.resyncs === b.resyncs &&
    a.checksumsOk === b.checksumsOk &&
    a.checksumsFailed === b.checksumsFailed &&
    a.stale === b.stale
  );
}

/**
 * Holds the newest status/health and publishes a summary: `observe()` is called per view and only
 * notifies when the severity changes; `tick()` (once a second) publishes whatever else moved.
 */
export class HealthStore {
  #status: ChannelStatus | "NONE" = "NONE";
  #health: FeedHealth | null = null;
  #summary: HealthSummary = NO_FEED;
  readonly #listeners = new Set<() => void>();
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** A store with a reader on screen counts in the desk's health (`deskFeeds`) until the last one goes. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    deskFeeds.add(this);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) deskFeeds.delete(this);
    };
  };

  readonly getSnapshot = (): HealthSummary => this.#summary;

  observe(status: ChannelStatus, health: FeedHealth): void {
    this.#status = status;
    this.#health = health;
    const next = assessHealth(status, health, this.#now());
    if (next.level !== this.#summary.level || next.status !== this.#summary.status) this.tick();
  }

  reset(): void {
    this.#status = "NONE";
    this.#health = null;
    this.tick();
  }

  tick(): void {
    const next = assessHealth(this.#status, this.#health, this.#now());
    if (sameSummary(next, this.#summary)) return;
    this.#summary = next;
    for (const l of this.#listeners) l();
    deskFeeds.changed(this);
  }
}

/**
 * The health stores of the channels the desk shows, for the header's light (`feed-status.ts`):
 * it re-reads them when one of them changes, and renders only when the worst state does.
 */
class FeedRegistry {
  readonly #stores = new Set<HealthStore>();
  readonly #listeners = new Set<() => void>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  summaries(): HealthSummary[] {
    return [...this.#stores].map((s) => s.getSnapshot());
  }

  add(store: HealthStore): void {
    if (this.#stores.has(store)) return;
    this.#stores.add(store);
    this.#notify();
  }

  delete(store: HealthStore): void {
    if (this.#stores.delete(store)) this.#notify();
  }

  changed(store: HealthStore): void {
    if (this.#stores.has(store)) this.#notify();
  }

  #notify(): void {
    for (const l of this.#listeners) l();
  }
}

export const deskFeeds = new FeedRegistry();
