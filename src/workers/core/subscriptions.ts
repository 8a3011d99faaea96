/**
 * Channel subscriptions and their status (docs/product-rules.md#channel-status): ASKED → SUBSCRIBING → SUBSCRIBED, and
 * UNSUBSCRIBING, ERROR, OUT_OF_SYNC. A subscription is identified by a key built from its request
 * with the server's defaults applied, so the `subscribed` echo finds the request it answers.
 */

import type { ChannelStatus } from "../../protocol";

export type { ChannelStatus };
export type ChannelName = "book" | "trades" | "ticker" | "candles" | "status";

export interface SubscribeRequest {
  readonly channel: ChannelName;
  readonly symbol?: string;
  readonly prec?: string;
  readonly freq?: string;
  readonly len?: string;
  readonly key?: string;
}

export interface SubscriptionError {
  readonly code: number;
  readonly msg: string;
}

export interface Subscription {
  readonly key: string;
  readonly request: SubscribeRequest;
  status: ChannelStatus;
  chanId: number;
  error: SubscriptionError | null;
  /** Times this subscription was resubscribed to recover from a checksum mismatch or a gap. */
  resyncs: number;
  /** Set while an out-of-sync channel is being unsubscribed, to subscribe again on the ack. */
  resubscribe: boolean;
  /** Unsubscribed while its subscribe was in flight: unsubscribe as soon as the server acks. */
  unsubscribeOnAck: boolean;
  /** Created from a `subscribed` event nobody asked for (recordings, or another client's socket). */
  passive: boolean;
  /**
   * Checksums verified and failed over the subscription's life: a mismatch resubscribes, which
   * replaces the channel, so counts kept on the channel would read 0 right after every failure.
   */
  checksumsOk: number;
  checksumsFailed: number;
  /** When the pending subscribe was sent (feed clock), and how many times it has been sent. */
  subscribeSentAt: number;
  subscribeAttempts: number;
}

/**
 * How long a subscribe may wait for its `subscribed` reply before it is sent again: 3 s, doubling
 * per attempt up to 30 s. A reply can be lost (a proxy, a server restarting its channel layer);
 * without a retry the channel would show "connecting" for ever on a live socket.
 */
export function subscribeRetryDelay(attempts: number): number {
  return Math.min(30_000, 3_000 * 2 ** Math.max(0, attempts - 1));
}

const CHANNELS: ReadonlySet<string> = new Set(["book", "trades", "ticker", "candles", "status"]);

function str(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  return undefined;
}

/** Normalizes a request or a `subscribed` echo; null when it is not a known channel. */
export function normalizeRequest(raw: Record<string, unknown>): SubscribeRequest | null {
  const channel = raw["channel"];
  if (typeof channel !== "string" || !CHANNELS.has(channel)) return null;
  const symbol = str(raw["symbol"]) ?? (str(raw["pair"]) ? `t${str(raw["pair"])}` : undefined);
  switch (channel) {
    case "book": {
      if (!symbol) return null;
      const prec = str(raw["prec"]) ?? "P0";
      const len = str(raw["len"]) ?? "25";
      // Raw books have no frequency; the server still echoes F0.
      const freq = prec === "R0" ? "F0" : (str(raw["freq"]) ?? "F0");
      return { channel, symbol, prec, freq, len };
    }
    case "trades":
    case "ticker":
      return symbol ? { channel, symbol } : null;
    case "candles":
    case "status": {
      const key = str(raw["key"]);
      return key ? { channel, key } : null;
    }
    default:
      return null;
  }
}

export function subscriptionKey(req: SubscribeRequest): string {
  switch (req.channel) {
    case "book":
      return `book|${req.symbol}|${req.prec}|${req.freq}|${req.len}`;
    case "trades":
    case "ticker":
      return `${req.channel}|${req.symbol}`;
    default:
      return `${req.channel}|${req.key}`;
  }
}

export function newSubscription(request: SubscribeRequest, passive = false): Subscription {
  return {
    key: subscriptionKey(request),
    request,
    status: "ASKED",
    chanId: -1,
    error: null,
    resyncs: 0,
    resubscribe: false,
    unsubscribeOnAck: false,
    passive,
    checksumsOk: 0,
    checksumsFailed: 0,
    subscribeSentAt: 0,
    subscribeAttempts: 0,
  };
}

/** The wire form of a subscribe request. */
export function subscribeMessage(req: SubscribeRequest): Record<string, string> {
  const msg: Record<string, string> = { event: "subscribe", channel: req.channel };
  for (const k of ["symbol", "prec", "freq", "len", "key"] as const) {
    const v = req[k];
    if (v !== undefined) msg[k] = v;
  }
  return msg;
}
