/**
 * Frame classification for the Bitfinex v2 WebSocket (docs/protocol.md#connection to
 * #subscribe-and-unsubscribe): events, heartbeats, checksums, channel data, public trade events and
 * account (channel 0) frames, with the SEQ_ALL and TIMESTAMP suffixes peeled off. Whether channel
 * data is a snapshot, an update or a bulk update is NOT decided here by shape: the channel decides,
 * by "first data frame after subscribed".
 *
 * `classifyFrame` writes into a caller-owned FrameInfo, so the hot path allocates nothing.
 */

/** `conf` flags (docs/protocol.md#conf-flags). A new conf replaces the whole set. */
export const CONF_FLAGS = {
  DEC_S: 8,
  TIME_S: 32,
  TIMESTAMP: 32768,
  SEQ_ALL: 65536,
  OB_CHECKSUM: 131072,
  BULK_UPDATES: 536870912,
} as const;

export type FrameKind = "event" | "heartbeat" | "checksum" | "data" | "trade" | "account" | "malformed";

/** Public trade-event types (`te`, `tu` and the funding `fte`, `ftu`). */
export const TRADE_EVENT_TYPES: ReadonlySet<string> = new Set(["te", "tu", "fte", "ftu"]);

export interface FrameInfo {
  kind: FrameKind;
  /** The channel id of array frames; -1 for events and malformed frames. */
  chanId: number;
  /** The event name (events), the message type (trade and account frames: "te", "os", "n", …). */
  type: string;
  /** The event object, the data payload, or the trade/account record(s). */
  payload: unknown;
  /** The `cs` value of checksum frames. */
  checksum: number;
  /** The socket-wide sequence number (SEQ_ALL), or -1. */
  seq: number;
  /** The account sequence number of channel-0 frames (SEQ_ALL), or -1. */
  authSeq: number;
  /** The server timestamp suffix (TIMESTAMP), or -1. */
  mts: number;
  /** Why a frame was malformed. */
  reason: string;
}

export function newFrameInfo(): FrameInfo {
  return {
    kind: "malformed",
    chanId: -1,
    type: "",
    payload: null,
    checksum: 0,
    seq: -1,
    authSeq: -1,
    mts: -1,
    reason: "",
  };
}

function malformed(out: FrameInfo, reason: string): FrameKind {
  out.kind = "malformed";
  out.chanId = -1;
  out.reason = reason;
  out.payload = null;
  return "malformed";
}

/**
 * Reads the numeric suffix of an array frame from index `from`: with SEQ_ALL the first trailing
 * number is the sequence, with TIMESTAMP the last one is the server time (SEQ before MTS).
 */
function readSuffix(frame: unknown[], from: number, flags: number, out: FrameInfo): void {
  out.seq = -1;
  out.mts = -1;
  out.authSeq = -1;
  const n = frame.length - from;
  if (n <= 0) return;
  const seqOn = (flags & CONF_FLAGS.SEQ_ALL) !== 0;
  const tsOn = (flags & CONF_FLAGS.TIMESTAMP) !== 0;
  let i = from;
  if (seqOn) {
    const s = frame[i];
    if (typeof s === "number") out.seq = s;
    i++;
  }
  if (tsOn) {
    const t = frame[frame.length - 1];
    if (typeof t === "number" && frame.length - 1 >= i) out.mts = t;
  }
}

/** `Array.isArray` narrows `unknown` to `any[]`; this keeps the elements unknown, so each is checked. */
function isList(value: unknown): value is unknown[] {
  return Array.isArray(value);
}

/** Classifies a parsed frame (the result of JSON.parse of one message). */
export function classifyFrame(msg: unknown, flags: number, out: FrameInfo): FrameKind {
  if (isList(msg)) {
    const chanId = msg[0];
    if (typeof chanId !== "number" || !Number.isInteger(chanId) || chanId < 0) return malformed(out, "channel id");
    if (msg.length < 2) return malformed(out, "short frame");
    out.chanId = chanId;
    const second = msg[1];
    if (chanId === 0) return classifyAccount(msg, flags, out);
    if (typeof second === "string") {
      if (second === "hb") {
        out.kind = "heartbeat";
        out.type = "hb";
        out.payload = null;
        readSuffix(msg, 2, flags, out);
        return "heartbeat";
      }
      if (second === "cs") {
        const cs = msg[2];
        if (typeof cs !== "number" || !Number.isInteger(cs)) return malformed(out, "checksum value");
        out.kind = "checksum";
        out.type = "cs";
        out.checksum = cs;
        out.payload = null;
        readSuffix(msg, 3, flags, out);
        return "checksum";
      }
      if (TRADE_EVENT_TYPES.has(second)) {
        if (!Array.isArray(msg[2])) return malformed(out, "trade payload");
        out.kind = "trade";
        out.type = second;
        out.payload = msg[2];
        readSuffix(msg, 3, flags, out);
        return "trade";
      }
      return malformed(out, "unknown message type");
    }
    if (!Array.isArray(second)) return malformed(out, "payload");
    out.kind = "data";
    out.type = "";
    out.payload = second;
    readSuffix(msg, 2, flags, out);
    return "data";
  }
  if (typeof msg === "object" && msg !== null) {
    const event = (msg as Record<string, unknown>)["event"];
    if (typeof event !== "string") return malformed(out, "event name");
    out.kind = "event";
    out.chanId = -1;
    out.type = event;
    out.payload = msg;
    out.seq = -1;
    out.mts = -1;
    return "event";
  }
  return malformed(out, "not an array or object");
}

/**
 * Channel 0: `[0, TYPE, PAYLOAD, (PUB_SEQ, AUTH_SEQ)]` or `[0, "hb"]`. With SEQ_ALL the public
 * sequence is second-to-last and the account sequence last; `n` notifications of `*-req` carry only
 * the account sequence (docs/protocol.md#frame-suffixes).
 */
function classifyAccount(msg: unknown[], flags: number, out: FrameInfo): FrameKind {
  const type = msg[1];
  if (typeof type !== "string") return malformed(out, "account type");
  out.type = type;
  out.seq = -1;
  out.authSeq = -1;
  out.mts = -1;
  if (type === "hb") {
    out.kind = "heartbeat";
    out.payload = null;
    return "heartbeat";
  }
  if (msg.length < 3) return malformed(out, "account payload");
  out.kind = "account";
  out.payload = msg[2];
  if ((flags & CONF_FLAGS.SEQ_ALL) !== 0) {
    const trailing = msg.length - 3;
    const last = msg[msg.length - 1];
    if (trailing >= 1 && typeof last === "number") out.authSeq = last;
    const prev = msg[msg.length - 2];
    if (trailing >= 2 && typeof prev === "number") out.seq = prev;
  }
  return "account";
}
