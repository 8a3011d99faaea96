/**
 * The Bitfinex v2 WebSocket over the exchange (docs/protocol.md): info on connect, `conf` flags
 * (checksum, timestamps, sequence, bulk), ping/pong, subscribe/unsubscribe for the public channels
 * (ws-channels.ts), heartbeats every 15 s on every channel, SEQ_ALL and TIMESTAMP suffixes, the
 * error replies the live server gives (10300 with a reason, 10301 with the existing chanId, 10305,
 * 10400), and the account side of an authenticated socket (ws-account.ts). Frames are built with
 * the same JSON serialization whose text the checksum is defined on.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { WebSocket, WebSocketServer } from "ws";
import { CONF_FLAGS, ERROR_CODES, splitPair } from "../../src/protocol/index.ts";
import { guarded, logError } from "../log.ts";
import { messageText } from "../ws-text.ts";
import type { Exchange } from "./exchange.ts";
import { AccountSocket, type AccountSocketOptions } from "./ws-account.ts";
import { subscription, type Channel } from "./ws-channels.ts";

const MAX_CHANNELS = 30;
const MAX_FRAME_BYTES = 64 * 1024;
const HEARTBEAT_MS = 15_000;
const TICKER_MS = 1000;
const F1_MS = 2000;

interface Client {
  readonly ws: WebSocket;
  flags: number;
  seq: number;
  readonly subs: Map<number, Channel>;
  readonly byKey: Map<string, number>;
  readonly account: AccountSocket;
}

export interface PublicSocketOptions extends AccountSocketOptions {
  readonly exchange: Exchange;
  readonly heartbeatMs?: number;
  /** How often `freq: "F1"` books get their held changes (docs/protocol.md#aggregated-books: every 2 s). */
  readonly bookBatchMs?: number;
}

export class PublicSocketServer {
  readonly #clients = new Set<Client>();
  readonly #o: PublicSocketOptions;
  #nextChan = 1;
  readonly #timers: ReturnType<typeof setInterval>[] = [];

  constructor(wss: WebSocketServer, options: PublicSocketOptions) {
    this.#o = options;
    wss.on("connection", (ws: WebSocket, req: IncomingMessage) => this.#connect(ws, req.socket.remoteAddress ?? null));
    options.exchange.onBatch((b) => this.#channels((ch, c) => ch.onBatch?.(b, c.flags) ?? []));
    options.exchange.funding.onBatch((b) => this.#channels((ch, c) => ch.onBatch?.(b, c.flags) ?? []));
    options.exchange.liquidations.on((row) => this.#channels((ch) => ch.liquidation?.(row) ?? []));
    options.account?.events.onEvent((userId, type, payload) => {
      for (const c of this.#clients) if (c.account.userId === userId) c.account.send(type, payload);
    });
    // A revoked or narrowed API key, or a deleted token, reaches the sockets signed in with it —
    // a master's change (its address lock, its sessions) the sockets of its sub-account contexts too.
    options.account?.accounts.onCredentialsChanged((userId) => {
      for (const c of this.#clients) if (c.account.concerns(userId)) c.account.recheck();
    });
    const every = (where: string, fn: () => void, ms: number): void => {
      this.#timers.push(setInterval(guarded(where, fn), ms));
    };
    every("heartbeats", () => this.#heartbeat(), options.heartbeatMs ?? HEARTBEAT_MS);
    every("tickers", () => this.#channels((ch) => ch.tick?.(this.#o.now()) ?? []), TICKER_MS);
    every("F1 books", () => this.#channels((ch, c) => ch.flush?.(c.flags) ?? []), options.bookBatchMs ?? F1_MS);
  }

  close(): void {
    for (const t of this.#timers) clearInterval(t);
    for (const c of this.#clients) c.ws.terminate();
  }

  /** Tells every client the server is about to restart (info 20051), or maintenance (20060/20061). */
  info(code: number, msg: string): void {
    for (const c of this.#clients) this.#event(c, { event: "info", code, msg });
  }

  /** Sends, on every subscribed channel of every client, the frames `fn` makes of it. */
  #channels(fn: (ch: Channel, c: Client) => unknown[][]): void {
    for (const c of this.#clients)
      for (const [chanId, ch] of c.subs) for (const parts of fn(ch, c)) this.#frame(c, [chanId, ...parts]);
  }

  #connect(ws: WebSocket, address: string | null): void {
    const link = { ws, flags: 0, seq: 0, subs: new Map<number, Channel>(), byKey: new Map<string, number>() };
    const account = new AccountSocket(link, this.#o, (ev) => this.#event(client, ev), address);
    const client: Client = Object.assign(link, { account });
    this.#clients.add(client);
    ws.on("close", () => this.#gone(client));
    ws.on("error", () => this.#gone(client));
    ws.on("message", (data, isBinary) => {
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as ArrayBuffer).byteLength;
      if (size > MAX_FRAME_BYTES) {
        ws.close(1009, "frame too large");
        return;
      }
      if (isBinary) return;
      let msg: unknown;
      try {
        msg = JSON.parse(messageText(data));
      } catch {
        return; // the live server ignores non-JSON input
      }
      try {
        this.#onMessage(client, msg);
      } catch (e) {
        // Never let one message take the process down: log it and answer in the shape the
        // request expects (an error notification for an account input, an error event otherwise).
        logError("socket message", e);
        if (Array.isArray(msg) && msg[0] === 0 && typeof msg[1] === "string" && account.userId !== null)
          account.refuse(msg[1], "internal error");
        else this.#event(client, { event: "error", code: ERROR_CODES.GENERIC, msg: "internal error" });
      }
    });
    this.#event(client, {
      event: "info",
      version: 2,
      serverId: randomUUID(),
      platform: { status: this.#o.platformStatus() },
    });
  }

  /**
   * A socket closed (by the client, a dropped connection or the server). With the dead-man switch
   * armed, every open order of the user is cancelled — all of them, as the real API does, not only
   * those placed on this socket — and the `oc-req`/`oc` events reach the user's other sockets.
   */
  #gone(c: Client): void {
    if (!this.#clients.delete(c)) return;
    const user = c.account.dmsUser;
    c.account.dmsUser = null;
    if (user !== null) guarded("dead-man switch", () => this.#o.account?.orders.cancelAll(user))();
  }

  #event(c: Client, ev: Record<string, unknown> | unknown[]): void {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(ev));
  }

  /** An array frame on a channel, with the suffixes the client's flags ask for. */
  #frame(c: Client, parts: unknown[]): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if ((c.flags & CONF_FLAGS.SEQ_ALL) !== 0) parts.push(++c.seq);
    if ((c.flags & CONF_FLAGS.TIMESTAMP) !== 0) parts.push(this.#o.now());
    c.ws.send(JSON.stringify(parts));
  }

  #onMessage(c: Client, msg: unknown): void {
    // Account inputs: [0, TYPE, null, PAYLOAD] on an authenticated socket.
    if (Array.isArray(msg)) return c.account.input(msg);
    if (typeof msg !== "object" || msg === null) return;
    const m = msg as Record<string, unknown>;
    switch (m["event"]) {
      case "ping":
        // Only a number is echoed: an echoed field of any size let a client that never reads make
        // the server queue as much as it sent (socket-guard.ts bounds the queue as well).
        this.#event(c, { event: "pong", ts: this.#o.now(), ...(Number.isFinite(m["cid"]) ? { cid: m["cid"] } : {}) });
        return;
      case "conf": {
        const flags = m["flags"];
        if (typeof flags !== "number" || !Number.isInteger(flags) || flags < 0) {
          this.#event(c, { event: "error", code: ERROR_CODES.CONF_FAILED, msg: "conf: invalid" });
          return;
        }
        c.flags = flags;
        this.#event(c, { event: "conf", status: "OK", flags });
        return;
      }
      case "subscribe":
        this.#subscribe(c, m);
        return;
      case "auth":
        c.account.auth(m);
        return;
      case "unsubscribe": {
        const chanId = m["chanId"];
        const sub = typeof chanId === "number" ? c.subs.get(chanId) : undefined;
        if (!sub || typeof chanId !== "number") {
          this.#event(c, { event: "error", code: ERROR_CODES.UNSUB_FAILED, msg: "unsubscribe: invalid", chanId });
          return;
        }
        c.subs.delete(chanId);
        c.byKey.delete(sub.key);
        this.#event(c, { event: "unsubscribed", status: "OK", chanId });
        return;
      }
      default:
        this.#event(c, { event: "error", code: ERROR_CODES.UNKNOWN, msg: `event: invalid (${String(m["event"])})` });
    }
  }

  #subscribe(c: Client, m: Record<string, unknown>): void {
    const echo: Record<string, unknown> = {};
    for (const k of ["channel", "symbol", "prec", "freq", "len", "key", "subId"])
      if (m[k] !== undefined) echo[k] = m[k];
    // The live server names the pair in a refusal of a trading symbol, as it does in `subscribed`.
    const asked = typeof m["symbol"] === "string" ? m["symbol"] : "";
    const named = asked.startsWith("t") ? { pair: asked.slice(1) } : {};
    const fail = (code: number, msg: string, extra: Record<string, unknown> = {}): void =>
      this.#event(c, { event: "error", code, msg, ...echo, ...extra, ...named });
    // The account channel of an authenticated socket takes one of the slots (docs/protocol.md#limits).
    if (c.subs.size + (c.account.userId !== null ? 1 : 0) >= MAX_CHANNELS)
      return fail(ERROR_CODES.SUB_LIMIT, "subscribe: limit");
    let symbol = typeof m["symbol"] === "string" ? m["symbol"] : typeof m["pair"] === "string" ? `t${m["pair"]}` : "";
    if (symbol !== "" && !symbol.startsWith("t") && !symbol.startsWith("f")) symbol = `t${symbol}`;
    const sub = subscription(this.#o.exchange, m, symbol);
    if (sub === null) return;
    if ("error" in sub) return fail(...sub.error);
    const ch = sub.channel;
    const existing = c.byKey.get(ch.key);
    if (existing !== undefined) return fail(ERROR_CODES.SUB_DUPLICATE, "subscribe: dup", { chanId: existing });
    const chanId = this.#nextChan++;
    c.subs.set(chanId, ch);
    c.byKey.set(ch.key, chanId);
    const pair = symbol.startsWith("t") ? symbol.slice(1) : undefined;
    const naming = pair && splitPair(pair) ? { pair } : symbol.startsWith("f") ? { currency: symbol.slice(1) } : {};
    this.#event(c, {
      event: "subscribed",
      channel: m["channel"],
      chanId,
      ...ch.fields,
      ...naming,
      ...(echo["subId"] !== undefined ? { subId: echo["subId"] } : {}),
    });
    for (const parts of ch.snapshot(c.flags, this.#o.now())) this.#frame(c, [chanId, ...parts]);
  }

  #heartbeat(): void {
    for (const c of this.#clients) {
      if (c.account.userId !== null) this.#event(c, [0, "hb"]);
      for (const chanId of c.subs.keys()) this.#frame(c, [chanId, "hb"]);
    }
  }
}
