/**
 * One reading of the feed's health for the whole desk: the header's light and every widget's feed
 * badge both come from `feedState`, over the same two inputs the worker provides — the socket's
 * state (`connectionStore`) and each channel's health (the views' `FeedHealth`, kept per widget in a
 * `HealthStore`). So the header can no longer say "Live" while a badge says "Stale": the header
 * shows the worst of the desk's channels, and a badge shows the socket's trouble before its own.
 */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { ConnectionState } from "../../protocol";
import type { HealthLevel, HealthSummary } from "./widgets/book/feed-health";

/**
 * What the light or a badge shows. `online` is live data; `waiting` a channel not yet subscribed or
 * without its first update; `silent` a socket or channel with nothing for too long; `stale` a
 * channel without even heartbeats.
 */
export type FeedState =
  | "offline"
  | "reconnecting"
  | "connecting"
  | "out-of-sync"
  | "error"
  | "stale"
  | "silent"
  | "waiting"
  | "closing"
  | "online";

/** Worst first: the header shows the first of these that any channel is in. */
const SEVERITY: readonly FeedState[] = [
  "offline",
  "reconnecting",
  "connecting",
  "out-of-sync",
  "error",
  "stale",
  "silent",
  "waiting",
  "closing",
  "online",
];

/** A socket silent this long is not live (the worker's watchdog reconnects at the same mark). */
export const SOCKET_SILENCE_MS = 20_000;

/**
 * The socket's part: a state when the socket alone decides it (down, connecting, silent), null when
 * it is online and the channels say the rest, or when its state is not known yet.
 */
function socketState(c: ConnectionState | null): FeedState | null {
  if (c === null) return null;
  switch (c.status) {
    case "online":
      return c.silenceMs > SOCKET_SILENCE_MS ? "silent" : null;
    case "connecting":
      return c.reconnectRetries > 0 ? "reconnecting" : "connecting";
    case "offline":
    case "disconnecting":
    case "unknown":
      return "offline";
    default: {
      const never: never = c.status;
      return never;
    }
  }
}

function channelState(h: HealthSummary): FeedState {
  if (h.status === "OUT_OF_SYNC") return "out-of-sync";
  if (h.status === "ERROR") return "error";
  if (h.stale) return "stale";
  if (h.level === "bad") return "silent";
  if (h.status === "NONE" || h.status === "ASKED" || h.status === "SUBSCRIBING" || h.ageS < 0) return "waiting";
  if (h.status === "UNSUBSCRIBING") return "closing";
  return "online";
}

/** A channel's badge: the socket's trouble first, then the channel's own health. */
export function feedState(c: ConnectionState | null, channel: HealthSummary): FeedState {
  return socketState(c) ?? channelState(channel);
}

/**
 * The header's light: the socket's trouble first, then the worst of the desk's channels; with no
 * channel open, the socket alone ("connecting" until its first state arrives).
 */
export function deskFeedState(c: ConnectionState | null, channels: Iterable<HealthSummary>): FeedState {
  const socket = socketState(c);
  if (socket !== null) return socket;
  let worst: FeedState | null = null;
  for (const h of channels) {
    const s = channelState(h);
    if (worst === null || SEVERITY.indexOf(s) < SEVERITY.indexOf(worst)) worst = s;
  }
  return worst ?? (c === null ? "connecting" : "online");
}

/** The badge's colour for a state. */
export function feedLevel(state: FeedState): HealthLevel {
  switch (state) {
    case "online":
      return "ok";
    case "waiting":
    case "closing":
    case "connecting":
    case "reconnecting":
      return "warn";
    case "offline":
    case "out-of-sync":
    case "error":
    case "stale":
    case "silent":
      return "bad";
    default: {
      const never: never = state;
      return never;
    }
  }
}

/** The one word for a state, the same in the header and on a badge. */
export function feedLabel(state: FeedState): MessageDescriptor {
  switch (state) {
    case "online":
      return msg`Live`;
    case "waiting":
    case "connecting":
      return msg`Connecting…`;
    case "reconnecting":
      return msg`Reconnecting…`;
    case "offline":
      return msg`Offline`;
    case "out-of-sync":
      return msg`Out of sync`;
    case "error":
      return msg`Error`;
    case "stale":
      return msg`Stale`;
    case "silent":
      return msg`Silent`;
    case "closing":
      return msg`Closing`;
    default: {
      const never: never = state;
      return never;
    }
  }
}
