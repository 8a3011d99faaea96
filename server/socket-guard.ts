/**
 * What one address and one socket may cost the exchange, enforced before any channel logic runs:
 * open sockets per address, messages per second per socket, and the bytes queued for a client
 * that does not read. Without these a single unauthenticated client grew the server's memory
 * about one to one with what it sent (pings echoing a large field, never read) and held a
 * thousand idle sockets open. Real venues do the same: refuse the connection, or close a socket
 * that floods or falls behind rather than buffer for it without end.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { ERROR_CODES } from "../src/protocol/index.ts";

export interface SocketLimits {
  /** Sockets open at once from one address; the next upgrade is answered 429. */
  readonly perAddress: number;
  /** Messages a socket may send in one second (a burst of twice this is allowed once). */
  readonly messagesPerSecond: number;
  /** Bytes queued for a client before it is treated as a slow consumer and closed. */
  readonly maxBufferedBytes: number;
  /** The largest message a client may send, in bytes (the longest real input, 75 ops, is ~20 KB). */
  readonly maxPayloadBytes: number;
}

export const DEFAULT_SOCKET_LIMITS: SocketLimits = {
  perAddress: 64,
  messagesPerSecond: 50,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxPayloadBytes: 64 * 1024,
};

/** WebSocket close code 1008, policy violation (RFC 6455): what a flooding socket is closed with. */
export const CLOSE_POLICY = 1008;

/** How often every socket's send queue is looked at, besides on each message it sends. */
const BUFFER_CHECK_MS = 200;

export class SocketGuard {
  readonly #open = new Map<string, number>();
  readonly #sockets = new Set<WebSocket>();
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    readonly limits: SocketLimits,
    readonly now: () => number,
  ) {
    // A client that never reads sends nothing either: its queue is only seen from here.
    this.#timer = setInterval(() => {
      for (const ws of this.#sockets) this.#checkBuffer(ws);
    }, BUFFER_CHECK_MS);
    this.#timer.unref();
  }

  close(): void {
    clearInterval(this.#timer);
  }

  /** Sockets open now from `address` (tests and the soak report read it). */
  openFrom(address: string): number {
    return this.#open.get(address) ?? 0;
  }

  /**
   * Whether an upgrade from this request may go on; when not, the request has been answered (429)
   * and its socket destroyed.
   */
  admit(req: IncomingMessage, socket: Duplex): boolean {
    const address = req.socket.remoteAddress ?? "?";
    if ((this.#open.get(address) ?? 0) < this.limits.perAddress) return true;
    socket.end("HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    socket.destroy();
    return false;
  }

  /**
   * Counts a new socket against its address and watches it. Call before the channel server sees
   * the socket, so this message listener runs first and a flood is closed before it is handled.
   */
  watch(ws: WebSocket, req: IncomingMessage): void {
    const address = req.socket.remoteAddress ?? "?";
    this.#open.set(address, (this.#open.get(address) ?? 0) + 1);
    this.#sockets.add(ws);
    // A token bucket: messagesPerSecond refilled per second, up to a burst of twice that.
    const burst = this.limits.messagesPerSecond * 2;
    let tokens = burst;
    let last = this.now();
    ws.on("message", () => {
      const t = this.now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * this.limits.messagesPerSecond);
      last = t;
      tokens -= 1;
      if (tokens < 0 && ws.readyState === ws.OPEN) {
        ws.send(JSON.stringify({ event: "error", code: ERROR_CODES.RATE_LIMIT, msg: "ratelimit: error" }));
        ws.close(CLOSE_POLICY, "rate limit");
        // A client that keeps sending after the close frame is not waited for.
        setTimeout(() => ws.terminate(), 1000).unref();
        return;
      }
      this.#checkBuffer(ws);
    });
    ws.once("close", () => {
      this.#sockets.delete(ws);
      const n = (this.#open.get(address) ?? 1) - 1;
      if (n <= 0) this.#open.delete(address);
      else this.#open.set(address, n);
    });
  }

  #checkBuffer(ws: WebSocket): void {
    // terminate, not close: a close frame would queue behind what the client is not reading.
    if (ws.bufferedAmount > this.limits.maxBufferedBytes) ws.terminate();
  }
}

/**
 * `WS_LIMITS=perAddress=500,messagesPerSecond=100` overrides some of the socket limits (the soak
 * and the fan-out bench open hundreds of sockets from loopback).
 */
export function socketLimitsFromEnv(text: string | undefined): SocketLimits {
  const limits: Record<string, number> = { ...DEFAULT_SOCKET_LIMITS };
  for (const part of (text ?? "").split(",")) {
    const m = /^\s*(perAddress|messagesPerSecond|maxBufferedBytes|maxPayloadBytes)=(\d+)\s*$/.exec(part);
    if (m) limits[m[1] as string] = Number(m[2]);
  }
  return limits as unknown as SocketLimits;
}
