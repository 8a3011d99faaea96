/**
 * One websocket and its life: connect, reconnect with exponential back-off and jitter, a heartbeat
 * watchdog (a silent feed is reconnected, never shown as online), the server's reconnect request
 * (info 20051), and the idle disconnect (close 4004, IDLE_DISCONNECTION) when nothing is
 * subscribed. The socket constructor, timers and randomness are injected, so it runs the same in the
 * worker, in Node tests against a local server, and in the bench.
 */
import {
  IDLE_DISCONNECT_CODE,
  IDLE_DISCONNECT_REASON,
  INFO_CODES,
  type SocketStatus,
  type Timers,
} from "../../protocol";
import { FeedCore, type FeedCoreOptions } from "./feed";

/** The parts of the WebSocket API used here (the browser's and the `ws` package's both fit). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface ConnectionOptions extends Omit<FeedCoreOptions, "send" | "now"> {
  readonly url: string;
  readonly createSocket: (url: string) => SocketLike;
  readonly timers: Timers;
  readonly random?: () => number;
  /** First reconnect delay; doubles per attempt up to maxBackoffMs, then ±50% jitter. */
  readonly baseBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** No message for this long ⇒ the feed is dead: reconnect. Heartbeats arrive every 15 s. */
  readonly watchdogMs?: number;
  /** No subscription for this long ⇒ close with 4004 IDLE_DISCONNECTION. */
  readonly idleMs?: number;
  readonly onSocketStatus?: (status: SocketStatus, retries: number) => void;
  /** After each open, once the conf and subscriptions are sent (the place to authenticate). */
  readonly onOpened?: () => void;
}

const OPEN = 1;
const STALE_CLOSE_CODE = 4000;
/**
 * Closing to reconnect (info 20051). A browser's WebSocket.close accepts only 1000 or 3000–4999 and
 * throws on anything else (1012 "service restart" is a server's code), so ours is in the private range.
 */
const RECONNECT_CLOSE_CODE = 4001;
/** A connection that lasted this long counts as healthy: the back-off starts over after it. */
const STABLE_MS = 10_000;

export class Connection {
  readonly core: FeedCore;
  status: SocketStatus = "offline";
  retries = 0;
  lastMessageAt = -1;
  readonly #o: ConnectionOptions;
  #socket: SocketLike | null = null;
  #wanted = false;
  #cancelRetry: (() => void) | null = null;
  #cancelWatch: (() => void) | null = null;
  #idleSince = -1;
  #openedAt = -1;

  constructor(options: ConnectionOptions) {
    this.#o = options;
    this.core = new FeedCore({
      ...options,
      send: (msg) => this.#send(msg),
      now: () => options.timers.now(),
      onInfo: (code, msg) => {
        // 20051: the server is stopping or restarting; reconnect now rather than wait for the close.
        if (code === INFO_CODES.RECONNECT) this.#reconnectNow();
        options.onInfo?.(code, msg);
      },
      onAccountGap: () => {
        // Account events were lost: a new connection re-authenticates and rebuilds the account
        // from fresh snapshots, which is the only way to know what was missed.
        this.#reconnectNow();
        options.onAccountGap?.();
      },
    });
  }

  /** Wants the socket open (idempotent); it stays open and reconnects until stop(). */
  start(): void {
    this.#wanted = true;
    this.#idleSince = -1;
    if (this.#socket === null && this.#cancelRetry === null) this.#connect();
    this.#ensureWatch();
  }

  /** Closes the socket for good. */
  stop(code = 1000, reason = ""): void {
    this.#wanted = false;
    this.#cancelRetry?.();
    this.#cancelRetry = null;
    this.#cancelWatch?.();
    this.#cancelWatch = null;
    const s = this.#socket;
    if (s) {
      this.#setStatus("disconnecting");
      s.close(code, reason);
    } else this.#setStatus("offline");
  }

  /** Sends a message (an event, or a `[0, TYPE, null, PAYLOAD]` input) now if the socket is open; false otherwise. */
  send(msg: Record<string, unknown> | readonly unknown[]): boolean {
    const s = this.#socket;
    if (!s || s.readyState !== OPEN) return false;
    s.send(JSON.stringify(msg));
    return true;
  }

  #send(msg: Record<string, unknown>): void {
    const s = this.#socket;
    if (s && s.readyState === OPEN) s.send(JSON.stringify(msg));
  }

  #connect(): void {
    this.#cancelRetry = null;
    if (!this.#wanted) return;
    this.#setStatus("connecting");
    let socket: SocketLike;
    try {
      socket = this.#o.createSocket(this.#o.url);
    } catch {
      this.#scheduleReconnect();
      return;
    }
    this.#socket = socket;
    socket.onopen = () => {
      if (this.#socket !== socket) return;
      // Retries reset only once a connection has lasted (see #scheduleReconnect): a server that
      // drops or redirects every new socket must still meet the back-off.
      this.#openedAt = this.#o.timers.now();
      this.lastMessageAt = this.#openedAt;
      this.#setStatus("online");
      this.core.onOpen();
      this.#o.onOpened?.();
    };
    socket.onmessage = (ev) => {
      if (this.#socket !== socket) return;
      this.lastMessageAt = this.#o.timers.now();
      if (typeof ev.data === "string") this.core.onMessage(ev.data);
      else this.core.stats.malformed++;
    };
    socket.onerror = () => {
      // A close event always follows; reconnecting happens there.
    };
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      this.core.onClose();
      if (this.#wanted) this.#scheduleReconnect();
      else this.#setStatus("offline");
    };
  }

  #scheduleReconnect(): void {
    this.#setStatus("offline");
    if (this.#openedAt >= 0 && this.#o.timers.now() - this.#openedAt > STABLE_MS) this.retries = 0;
    this.#openedAt = -1;
    const base = this.#o.baseBackoffMs ?? 500;
    const max = this.#o.maxBackoffMs ?? 30_000;
    const random = this.#o.random ?? Math.random;
    const delay = Math.min(max, base * 2 ** this.retries) * (0.5 + random() / 2);
    this.retries++;
    this.#cancelRetry = this.#o.timers.after(delay, () => this.#connect());
    this.#o.onSocketStatus?.(this.status, this.retries);
  }

  #reconnectNow(): void {
    const s = this.#socket;
    if (!s) return;
    this.#socket = null;
    this.core.onClose();
    s.onopen = null;
    s.onmessage = null;
    s.onclose = null;
    s.close(RECONNECT_CLOSE_CODE, "reconnect requested");
    // Through the back-off like any drop: a server repeating 20051 must not cause a connect storm.
    this.#scheduleReconnect();
  }

  #ensureWatch(): void {
    if (this.#cancelWatch) return;
    const watchdog = this.#o.watchdogMs ?? 20_000;
    const idle = this.#o.idleMs ?? 60_000;
    const tick = Math.max(50, Math.min(watchdog, idle) / 4);
    this.#cancelWatch = this.#o.timers.every(tick, () => {
      const now = this.#o.timers.now();
      // A public socket with nothing subscribed is quiet by design (it idles out below); the
      // account socket (idle never) always gets heartbeats, so silence there is a dead feed.
      const expectsTraffic = this.core.subs.size > 0 || !Number.isFinite(idle);
      if (this.status === "online" && expectsTraffic && now - this.lastMessageAt > watchdog) {
        // Never a green light over a dead feed: drop it and reconnect.
        const s = this.#socket;
        this.#socket = null;
        this.core.onClose();
        if (s) {
          s.onclose = null;
          s.onmessage = null;
          s.close(STALE_CLOSE_CODE, "stale feed");
        }
        this.#scheduleReconnect();
        return;
      }
      // A subscribe whose reply was lost is sent again (the worker's frame tick checks sooner).
      this.core.retryOverdue();
      if (this.core.subs.size === 0 && this.#socket) {
        if (this.#idleSince < 0) this.#idleSince = now;
        else if (now - this.#idleSince > idle) this.stop(IDLE_DISCONNECT_CODE, IDLE_DISCONNECT_REASON);
      } else this.#idleSince = -1;
    });
  }

  #setStatus(status: SocketStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.#o.onSocketStatus?.(status, this.retries);
  }
}
