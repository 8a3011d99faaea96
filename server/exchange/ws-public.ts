/**
 * The Bitfinex v2 public WebSocket protocol over the exchange (PROTOCOL.md 1–3): info on connect,
 * `conf` flags (checksum, timestamps, sequence, bulk), ping/pong, subscribe/unsubscribe for books
 * (P0–P4, len 1/25/100/250; R0 len 1/25/100), trades, tickers and candles, heartbeats every 15 s on every channel,
 * `cs` after each book batch when asked for, SEQ_ALL and TIMESTAMP suffixes, and the error replies
 * the live server gives (10300 with a reason, 10301 with the existing chanId, 10305, 10400).
 * Frames are built with the same JSON serialization whose text the checksum is defined on.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { WebSocket, WebSocketServer } from "ws";
import { CONF_FLAGS, splitPair } from "../../src/protocol/index.ts";
import type { Batch, Exchange } from "./exchange.ts";
import type { AccountGateway } from "./account-gateway.ts";
import { filterAccountFrame, parseAccountFilter, type AccountFilter } from "./account-filter.ts";
import type { Credential } from "../store/accounts.ts";
import type { Feed } from "./feeds.ts";
import { PRECISIONS, TIMEFRAMES, type Prec } from "./market.ts";
import { allows, permissionsWire } from "../api-keys.ts";
import { derivStatusRow } from "./derived.ts";
import { fundingSubscription, type FundingChannel } from "./funding-ws.ts";
import type { FundingBatch } from "./funding-market.ts";
import { guarded, logError } from "../log.ts";

/** The trading ticker as the live socket sends it: the documented 10 fields and a trailing null (PROTOCOL.md 2.4). */
function wsTicker(row: readonly number[]): unknown[] {
  return [...row, null];
}

const MAX_CHANNELS = 30;
const MAX_FRAME_BYTES = 64 * 1024;
/** `calc` inputs one socket may send in a second (PROTOCOL.md 4.3); more are dropped. */
const CALC_PER_SECOND = 8;
const HEARTBEAT_MS = 15_000;
const TICKER_MS = 1000;
const F1_MS = 2000;
const LENGTHS = new Set(["1", "25", "100", "250"]);

type Sub =
  | {
      readonly kind: "funding";
      readonly key: string;
      readonly ch: FundingChannel;
      readonly fields: Record<string, string>;
    }
  | {
      readonly kind: "book";
      readonly key: string;
      readonly feed: Feed;
      readonly fields: Record<string, string>;
      /** `freq: "F1"`: changes held until the next batch tick, the last per side and price (or order id). */
      readonly pending: Map<string, number[]> | null;
    }
  | {
      readonly kind: "trades" | "ticker";
      readonly key: string;
      readonly symbol: string;
      readonly fields: Record<string, string>;
    }
  | {
      readonly kind: "status";
      readonly key: string;
      readonly statusKey: string;
      readonly fields: Record<string, string>;
    }
  | {
      readonly kind: "candles";
      readonly key: string;
      readonly symbol: string;
      readonly tf: string;
      readonly fields: Record<string, string>;
    };

interface Client {
  readonly ws: WebSocket;
  /** The authenticated account, or null. */
  userId: number | null;
  /** An API key's capabilities (null for a session token, which may do everything its user may). */
  keyCaps: readonly string[] | null;
  /** The token or API key the socket authenticated with, checked again on change (null: none). */
  cred: Credential | null;
  /** `auth` with `calc: 1`: calculated values only when asked with `calc` (PROTOCOL.md 4.1). */
  calcOnDemand: boolean;
  /**
   * `auth` with `dms: 4` (dead-man switch): the user whose open orders are cancelled when this
   * socket closes, however it closes (null: no switch).
   */
  dmsUser: number | null;
  /** `auth` with `filter`: the account traffic this socket gets (null: everything). */
  filter: AccountFilter | null;
  /** When this socket's last accepted `calc` inputs came (at most CALC_PER_SECOND in a second). */
  readonly calcTimes: number[];
  flags: number;
  seq: number;
  /** The account's own sequence on channel 0 (SEQ_ALL). */
  authSeq: number;
  readonly subs: Map<number, Sub>;
  readonly byKey: Map<string, number>;
}

export interface PublicSocketOptions {
  readonly exchange: Exchange;
  readonly now: () => number;
  /** 1 operative, 0 maintenance. */
  readonly platformStatus: () => number;
  readonly heartbeatMs?: number;
  /** How often `freq: "F1"` books get their held changes (PROTOCOL.md 2.1: every 2 s). */
  readonly bookBatchMs?: number;
  /** The authenticated side; without it `auth` is refused. */
  readonly account?: AccountGateway;
}

export class PublicSocketServer {
  readonly #clients = new Set<Client>();
  readonly #o: PublicSocketOptions;
  #nextChan = 1;
  readonly #timers: ReturnType<typeof setInterval>[] = [];
  readonly #lastTicker = new Map<string, string>();

  constructor(wss: WebSocketServer, options: PublicSocketOptions) {
    this.#o = options;
    wss.on("connection", (ws: WebSocket, _req: IncomingMessage) => this.#connect(ws));
    options.exchange.onBatch((b) => this.#onBatch(b));
    options.exchange.liquidations.on((row) => this.#liquidation(row));
    options.exchange.funding.onBatch((b) => this.#onFundingBatch(b));
    options.account?.onEvent((userId, type, payload) => {
      for (const c of this.#clients) if (c.userId === userId) this.#account(c, type, payload);
    });
    // A revoked or narrowed API key, or a deleted token, reaches the sockets signed in with it.
    options.account?.accounts.onCredentialsChanged((userId) => {
      for (const c of this.#clients) if (c.userId === userId && c.cred) this.#recheck(c);
    });
    this.#timers.push(
      setInterval(
        guarded("heartbeats", () => this.#heartbeat()),
        options.heartbeatMs ?? HEARTBEAT_MS,
      ),
    );
    this.#timers.push(
      setInterval(
        guarded("tickers", () => this.#tickers()),
        TICKER_MS,
      ),
    );
    this.#timers.push(
      setInterval(
        guarded("F1 books", () => this.#flushBatched()),
        options.bookBatchMs ?? F1_MS,
      ),
    );
  }

  close(): void {
    for (const t of this.#timers) clearInterval(t);
    for (const c of this.#clients) c.ws.terminate();
  }

  /** Tells every client the server is about to restart (info 20051), or maintenance (20060/20061). */
  info(code: number, msg: string): void {
    for (const c of this.#clients) this.#event(c, { event: "info", code, msg });
  }

  #connect(ws: WebSocket): void {
    const client: Client = {
      ws,
      userId: null,
      keyCaps: null,
      cred: null,
      calcOnDemand: false,
      dmsUser: null,
      filter: null,
      calcTimes: [],
      flags: 0,
      seq: 0,
      authSeq: 0,
      subs: new Map(),
      byKey: new Map(),
    };
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
        msg = JSON.parse(String(data));
      } catch {
        return; // the live server ignores non-JSON input
      }
      try {
        this.#onMessage(client, msg);
      } catch (e) {
        // Never let one message take the process down: log it and answer in the shape the
        // request expects (an error notification for an account input, an error event otherwise).
        logError("socket message", e);
        if (Array.isArray(msg) && msg[0] === 0 && typeof msg[1] === "string" && client.userId !== null) {
          const n = [this.#o.now(), `${msg[1]}-req`, null, null, null, null, "ERROR", "internal error"];
          this.#account(client, "n", n, false, true);
        } else this.#event(client, { event: "error", code: 10001, msg: "internal error" });
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
    const user = c.dmsUser;
    c.dmsUser = null;
    if (user !== null) guarded("dead-man switch", () => this.#o.account?.trading.cancelAll(user))();
  }

  /**
   * `calc` inputs are limited to CALC_PER_SECOND per socket in any one-second window (PROTOCOL.md
   * 4.3: ≤ 8 calcs/s/client). The excess is dropped without an answer: `calc` has no `-req`
   * notification a client could match an error to, and the next accepted one brings fresh values.
   */
  #calcAllowed(c: Client): boolean {
    const now = this.#o.now();
    while (c.calcTimes.length > 0 && now - (c.calcTimes[0] as number) >= 1000) c.calcTimes.shift();
    if (c.calcTimes.length >= CALC_PER_SECOND) return false;
    c.calcTimes.push(now);
    return true;
  }

  #event(c: Client, ev: Record<string, unknown> | unknown[]): void {
    if (c.ws.readyState === c.ws.OPEN) c.ws.send(JSON.stringify(ev));
  }

  /**
   * A channel-0 frame. With SEQ_ALL it carries the socket's public sequence and then the account's
   * own (PROTOCOL.md 1.1): `[0, TYPE, PAYLOAD, PUB_SEQ, AUTH_SEQ]`; a `*-req` notification carries
   * only the account sequence as it stands, advancing neither.
   */
  #account(c: Client, type: string, payload: unknown, asked = false, own = false): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    // A key's (or limited token's) socket gets only the records its read permissions cover; a
    // notification carries the record it answers for (the order, the offer), so it needs the same
    // read permission. The refusals this socket's own input caused (`own`) always reach it.
    if (c.keyCaps && !own) {
      const cap = type === "n" ? noticeCap(payload) : READ_CAP[type];
      if (cap === null || (cap !== undefined && !allows(c.keyCaps, { cap, write: false }))) return;
    }
    // The auth filter narrows what is pushed; what this socket asked for (a `calc`) or caused (a
    // refusal of its own input) reaches it whatever the filter.
    const wanted = asked || own ? payload : filterAccountFrame(c.filter, type, payload);
    if (wanted === undefined) return;
    const data = c.calcOnDemand && !asked ? withoutCalc(type, wanted) : wanted;
    if (data === undefined) return;
    const parts: unknown[] = [0, type, data];
    if ((c.flags & CONF_FLAGS.SEQ_ALL) !== 0) {
      const req = type === "n" && Array.isArray(payload) && String(payload[1]).endsWith("-req");
      if (req) parts.push(c.authSeq);
      else parts.push(++c.seq, ++c.authSeq);
    }
    c.ws.send(JSON.stringify(parts));
  }

  /** An array frame on a channel, with the suffixes the client's flags ask for. */
  #frame(c: Client, parts: unknown[]): void {
    if (c.ws.readyState !== c.ws.OPEN) return;
    if ((c.flags & CONF_FLAGS.SEQ_ALL) !== 0) parts.push(++c.seq);
    if ((c.flags & CONF_FLAGS.TIMESTAMP) !== 0) parts.push(this.#o.now());
    c.ws.send(JSON.stringify(parts));
  }

  /**
   * Takes a socket's capabilities from its token or key as they are now; once the token or key is
   * gone (deleted, logged out, revoked) the socket is signed out and closed (false).
   */
  #recheck(c: Client): boolean {
    if (!c.cred) return true;
    const now = this.#o.account?.accounts.recheck(c.cred) ?? null;
    if (now !== null) {
      c.keyCaps = now.caps;
      return true;
    }
    const msg = c.cred.token !== null ? "token: revoked" : "apikey: revoked";
    c.userId = null;
    c.keyCaps = null;
    c.cred = null;
    this.#event(c, { event: "error", code: 10100, msg });
    c.ws.close(1008, msg);
    return false;
  }

  #onMessage(c: Client, msg: unknown): void {
    // Account inputs: [0, TYPE, null, PAYLOAD] on an authenticated socket.
    if (Array.isArray(msg)) {
      if (msg[0] !== 0 || typeof msg[1] !== "string" || c.userId === null) return;
      if (c.cred && !this.#recheck(c)) return;
      if (this.#o.platformStatus() !== 1) {
        const n = [this.#o.now(), `${msg[1]}-req`, null, null, null, null, "ERROR", "platform: maintenance"];
        this.#account(c, "n", n, false, true);
        return;
      }
      const cap = msg[1] === "fon" || msg[1] === "foc" ? "f" : "o";
      // `calc` only reads (margin info, positions, wallets): a read-only key may ask for it, with
      // the orders or the positions permission.
      const calc = msg[1] === "calc";
      const permitted =
        allows(c.keyCaps ?? [], { cap, write: !calc }) || (calc && allows(c.keyCaps ?? [], { cap: "p", write: false }));
      if (c.keyCaps && !permitted) {
        // Refused like a rejected order: an error notification for the request, nothing executed.
        const n = [this.#o.now(), `${msg[1]}-req`, null, null, null, null, "ERROR", "apikey: permission denied"];
        this.#account(c, "n", n, false, true);
        return;
      }
      // A `calc` is answered to the socket that asked, with its values whatever its calc flag.
      if (msg[1] === "calc") {
        if (!this.#calcAllowed(c)) return;
        for (const [type, data] of this.#o.account?.calc(c.userId, msg[3]) ?? []) this.#account(c, type, data, true);
        return;
      }
      this.#o.account?.input(c.userId, msg[1], msg[3]);
      return;
    }
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
          this.#event(c, { event: "error", code: 10050, msg: "conf: invalid" });
          return;
        }
        c.flags = flags;
        this.#event(c, { event: "conf", status: "OK", flags });
        return;
      }
      case "subscribe":
        this.#subscribe(c, m);
        return;
      case "auth": {
        const gate = this.#o.account;
        const check = gate ? gate.authenticate(m) : ({ ok: false, code: 10100, msg: "auth: unavailable" } as const);
        if (!check.ok) {
          this.#event(c, { event: "auth", status: "FAILED", chanId: 0, code: check.code, msg: check.msg });
          return;
        }
        c.userId = check.userId;
        c.keyCaps = check.caps ?? null;
        c.cred =
          check.token !== undefined
            ? { token: check.token, keyId: check.keyId ?? null }
            : check.keyId !== undefined
              ? { token: null, keyId: check.keyId }
              : null;
        c.calcOnDemand = m["calc"] === 1;
        c.filter = parseAccountFilter(m["filter"]);
        // Only a credential that may write orders arms the switch: a read-only key cannot cancel.
        c.dmsUser =
          m["dms"] === 4 && (c.keyCaps === null || allows(c.keyCaps, { cap: "o", write: true })) ? check.userId : null;
        const caps = Object.fromEntries(
          permissionsWire(c.keyCaps).map(([scope, read, write]) => [scope, { read, write }]),
        );
        this.#event(c, {
          event: "auth",
          status: "OK",
          chanId: 0,
          userId: check.userId,
          auth_id: randomUUID(),
          caps,
        });
        for (const [type, payload] of gate?.snapshots(check.userId) ?? []) this.#account(c, type, payload);
        return;
      }
      case "unsubscribe": {
        const chanId = m["chanId"];
        const sub = typeof chanId === "number" ? c.subs.get(chanId) : undefined;
        if (!sub || typeof chanId !== "number") {
          this.#event(c, { event: "error", code: 10400, msg: "unsubscribe: invalid", chanId });
          return;
        }
        c.subs.delete(chanId);
        c.byKey.delete(sub.key);
        this.#event(c, { event: "unsubscribed", status: "OK", chanId });
        return;
      }
      default:
        this.#event(c, { event: "error", code: 10000, msg: `event: invalid (${String(m["event"])})` });
    }
  }

  #subscribe(c: Client, m: Record<string, unknown>): void {
    const channel = m["channel"];
    const echo: Record<string, unknown> = {};
    for (const k of ["channel", "symbol", "prec", "freq", "len", "key", "subId"])
      if (m[k] !== undefined) echo[k] = m[k];
    // The live server names the pair in a refusal of a trading symbol, as it does in `subscribed`.
    const asked = typeof m["symbol"] === "string" ? m["symbol"] : "";
    const named = asked.startsWith("t") ? { pair: asked.slice(1) } : {};
    const fail = (code: number, msg: string, extra: Record<string, unknown> = {}): void =>
      this.#event(c, { event: "error", code, msg, ...echo, ...extra, ...named });
    // The account channel of an authenticated socket takes one of the slots (PROTOCOL.md 1).
    if (c.subs.size + (c.userId !== null ? 1 : 0) >= MAX_CHANNELS) return fail(10305, "subscribe: limit");
    let symbol = typeof m["symbol"] === "string" ? m["symbol"] : typeof m["pair"] === "string" ? `t${m["pair"]}` : "";
    if (symbol !== "" && !symbol.startsWith("t") && !symbol.startsWith("f")) symbol = `t${symbol}`;
    let sub: Sub;
    const fields: Record<string, string> = {};
    const funded = fundingSubscription(this.#o.exchange.funding, m, symbol);
    if (funded && "error" in funded) return fail(...funded.error);
    if (funded) {
      Object.assign(fields, funded.channel.fields);
      sub = { kind: "funding", key: funded.channel.key, ch: funded.channel, fields };
    } else if (channel === "book") {
      const prec = typeof m["prec"] === "string" ? m["prec"] : "P0";
      const len = m["len"] === undefined ? "25" : String(m["len"]);
      const freq = typeof m["freq"] === "string" ? m["freq"] : "F0";
      if (!this.#o.exchange.markets.has(symbol)) return fail(10300, "symbol: invalid");
      if (prec !== "R0" && !(PRECISIONS as readonly string[]).includes(prec)) return fail(10300, "precision: invalid");
      // Raw books come in 1, 25 and 100 orders only (PROTOCOL.md 2.2); aggregated ones also 250.
      if (!LENGTHS.has(len) || (prec === "R0" && len === "250")) return fail(10300, "length: invalid");
      if (freq !== "F0" && freq !== "F1") return fail(10300, "freq: invalid");
      const feed = this.#o.exchange.bookFeed(symbol, prec as Prec | "R0", Number(len));
      if (!feed) return fail(10300, "symbol: invalid");
      Object.assign(fields, { symbol, prec, freq, len });
      sub = {
        kind: "book",
        key: `book|${symbol}|${prec}|${len}`,
        feed,
        fields,
        pending: freq === "F1" ? new Map() : null,
      };
    } else if (channel === "trades" || channel === "ticker") {
      if (!this.#o.exchange.markets.has(symbol)) return fail(10300, "symbol: invalid");
      Object.assign(fields, { symbol });
      sub = { kind: channel, key: `${channel}|${symbol}`, symbol, fields };
    } else if (channel === "candles") {
      const key = typeof m["key"] === "string" ? m["key"] : "";
      const parts = /^trade:([0-9]+[mhDWM]):(t[A-Z0-9:]+)$/.exec(key);
      if (!parts || !((parts[1] as string) in TIMEFRAMES) || !this.#o.exchange.markets.has(parts[2] as string)) {
        return fail(10300, "key: invalid");
      }
      Object.assign(fields, { key });
      sub = { kind: "candles", key: `candles|${key}`, symbol: parts[2] as string, tf: parts[1] as string, fields };
    } else if (channel === "status") {
      const key = typeof m["key"] === "string" ? m["key"] : "";
      const deriv = /^deriv:(t[A-Z0-9:]+)$/.exec(key);
      // An unknown derivatives key gets no reply at all on the live server (PROTOCOL.md 2.6, probed);
      // anything else that is not a status key is refused as usual.
      if (deriv && !this.#o.exchange.markets.has(deriv[1] as string)) return;
      if (!(key === "liq:global" || deriv)) return fail(10300, "key: invalid");
      Object.assign(fields, { key });
      sub = { kind: "status", key: `status|${key}`, statusKey: key, fields };
    } else {
      return fail(10300, "channel: unknown");
    }
    const existing = c.byKey.get(sub.key);
    if (existing !== undefined) return fail(10301, "subscribe: dup", { chanId: existing });
    const chanId = this.#nextChan++;
    c.subs.set(chanId, sub);
    c.byKey.set(sub.key, chanId);
    const pair = symbol.startsWith("t") ? symbol.slice(1) : undefined;
    const naming = pair && splitPair(pair) ? { pair } : symbol.startsWith("f") ? { currency: symbol.slice(1) } : {};
    this.#event(c, {
      event: "subscribed",
      channel,
      chanId,
      ...fields,
      ...naming,
      ...(echo["subId"] !== undefined ? { subId: echo["subId"] } : {}),
    });
    this.#snapshot(c, chanId, sub);
  }

  #snapshot(c: Client, chanId: number, sub: Sub): void {
    const ex = this.#o.exchange;
    switch (sub.kind) {
      case "funding":
        for (const parts of sub.ch.snapshot(c.flags)) this.#frame(c, [chanId, ...parts]);
        return;
      case "book":
        this.#frame(c, [chanId, sub.feed.snapshot()]);
        if ((c.flags & CONF_FLAGS.OB_CHECKSUM) !== 0) this.#frame(c, [chanId, "cs", sub.feed.mirror.checksum()]);
        return;
      case "trades": {
        const market = ex.markets.get(sub.symbol);
        this.#frame(c, [chanId, (market?.trades ?? []).slice(0, 30).map((t) => [t.id, t.mts, t.amount, t.price])]);
        return;
      }
      case "ticker": {
        const market = ex.markets.get(sub.symbol);
        if (market) this.#frame(c, [chanId, wsTicker(market.ticker(this.#o.now()))]);
        return;
      }
      case "status":
        this.#frame(c, [chanId, this.#statusRow(sub.statusKey)]);
        return;
      case "candles": {
        const rows = ex.markets.get(sub.symbol)?.candles.get(sub.tf) ?? [];
        this.#frame(c, [chanId, rows.slice(-120).reverse()]);
        return;
      }
    }
  }

  #onBatch(b: Batch): void {
    const symbol = b.market.symbol;
    // Book feeds: the batch carries each feed's diff, computed once for every server.
    for (const c of this.#clients) {
      for (const [chanId, sub] of c.subs) {
        if (sub.kind === "book" && sub.feed.market.symbol === symbol) {
          const entries = b.bookDiffs.get(sub.feed);
          if (!entries || entries.length === 0) continue;
          // Keyed by side too: a price can leave the bids and reach the asks within one tick, and the
          // client must get both the bid's delete and the ask (the sign of AMOUNT tells the side).
          if (sub.pending) for (const e of entries) sub.pending.set(`${e[0]}|${Math.sign(e[2] as number)}`, e);
          else this.#sendBook(c, chanId, sub.feed, entries);
        } else if (sub.kind === "trades" && sub.symbol === symbol) {
          for (const t of b.trades) this.#frame(c, [chanId, "te", [t.id, t.mts, t.amount, t.price]]);
          for (const t of b.trades) this.#frame(c, [chanId, "tu", [t.id, t.mts, t.amount, t.price]]);
        } else if (sub.kind === "candles" && sub.symbol === symbol && b.trades.length > 0) {
          const rows = b.market.candles.get(sub.tf);
          const last = rows?.[rows.length - 1];
          if (last) this.#frame(c, [chanId, last]);
        }
      }
    }
  }

  /** Book changes as frames (one bulk frame when the client asked for them), then `cs` if asked. */
  #sendBook(c: Client, chanId: number, feed: Feed, entries: number[][]): void {
    if ((c.flags & CONF_FLAGS.BULK_UPDATES) !== 0 && entries.length > 1) this.#frame(c, [chanId, entries]);
    else for (const e of entries) this.#frame(c, [chanId, e]);
    if ((c.flags & CONF_FLAGS.OB_CHECKSUM) !== 0) this.#frame(c, [chanId, "cs", feed.mirror.checksum()]);
  }

  /**
   * F1 books: what changed since the last tick, one entry per side and price (raw: per order id),
   * the last one — entries are absolute, so the client ends where the feed's mirror is and `cs` is its
   * checksum. Deletes go first (a count of 0 for aggregated books, a price of 0 for raw ones:
   * index 1 either way), so a client's len window never overflows.
   */
  #flushBatched(): void {
    for (const c of this.#clients) {
      for (const [chanId, sub] of c.subs) {
        if (sub.kind !== "book" || !sub.pending || sub.pending.size === 0) continue;
        const entries = [...sub.pending.values()];
        sub.pending.clear();
        entries.sort((a, b) => Number(a[1] !== 0) - Number(b[1] !== 0));
        this.#sendBook(c, chanId, sub.feed, entries);
      }
    }
  }

  #onFundingBatch(b: FundingBatch): void {
    for (const c of this.#clients)
      for (const [chanId, sub] of c.subs)
        if (sub.kind === "funding") for (const parts of sub.ch.onBatch(b, c.flags)) this.#frame(c, [chanId, ...parts]);
  }

  /** A liquidated margin position: a one-row update to every `liq:global` subscriber. */
  #liquidation(row: unknown[]): void {
    for (const c of this.#clients)
      for (const [chanId, sub] of c.subs)
        if (sub.kind === "status" && sub.statusKey === "liq:global") this.#frame(c, [chanId, [row]]);
  }

  /**
   * A status channel's row. `liq:global` starts with an empty snapshot, as the real one does in a
   * quiet market; liquidations arrive as updates (#liquidation).
   */
  #statusRow(key: string): unknown[] {
    if (key === "liq:global") return [];
    return derivStatusRow(this.#o.exchange, key.slice("deriv:".length), this.#o.now()) ?? [];
  }

  #tickers(): void {
    const now = this.#o.now();
    const rows = new Map<string, unknown[]>();
    for (const c of this.#clients) {
      for (const [chanId, sub] of c.subs) {
        if (sub.kind === "funding") {
          for (const parts of sub.ch.tick(now)) this.#frame(c, [chanId, ...parts]);
          continue;
        }
        if (sub.kind === "status" && sub.statusKey !== "liq:global") {
          const text = JSON.stringify(this.#statusRow(sub.statusKey));
          if (this.#lastTicker.get(`${chanId}`) === text || text === "[]") continue;
          this.#lastTicker.set(`${chanId}`, text);
          this.#frame(c, [chanId, JSON.parse(text) as unknown]);
          continue;
        }
        if (sub.kind !== "ticker") continue;
        let row = rows.get(sub.symbol);
        if (!row) {
          const market = this.#o.exchange.markets.get(sub.symbol);
          row = market ? wsTicker(market.ticker(now)) : [];
          rows.set(sub.symbol, row);
        }
        const text = JSON.stringify(row);
        if (this.#lastTicker.get(`${chanId}`) === text) continue;
        this.#lastTicker.set(`${chanId}`, text);
        this.#frame(c, [chanId, row]);
      }
    }
  }

  #heartbeat(): void {
    for (const c of this.#clients) {
      if (c.userId !== null) this.#event(c, [0, "hb"]);
      for (const chanId of c.subs.keys()) this.#frame(c, [chanId, "hb"]);
    }
  }
}

/** The capability whose read permission an account record needs (records not listed: none). */
const READ_CAP: Readonly<Record<string, string>> = {
  ...Object.fromEntries(["ps", "pn", "pu", "pc", "miu"].map((t) => [t, "p"])),
  ...Object.fromEntries(["ws", "wu", "bu"].map((t) => [t, "w"])),
  ...Object.fromEntries(["os", "on", "ou", "oc", "te", "tu"].map((t) => [t, "o"])),
  ...Object.fromEntries(
    ["fos", "fon", "fou", "foc", "fcs", "fcn", "fcu", "fcc", "fls", "fln", "flu", "flc", "fiu", "fte", "ftu"].map(
      (t) => [t, "f"],
    ),
  ),
};

/**
 * The capability whose read permission a notification (`n`) needs, by the request it answers
 * (`[MTS, TYPE, …]`): orders `o`, funding `f`, positions `p`, wallets and movements `w`; null for
 * one not known here, which a key's socket does not get (fail closed).
 */
function noticeCap(payload: unknown): string | null {
  const type = Array.isArray(payload) && typeof payload[1] === "string" ? payload[1].replace(/-req$/, "") : "";
  if (/^(on|ou|oc|oc_multi|ox_multi|uca)$/.test(type)) return "o";
  if (/^(fon|foc|foc_all|fclose|fa|fsettle|fs)$/.test(type)) return "f";
  if (/^(pos_\w+|pc|claim|pos)$/.test(type)) return "p";
  if (/^(acc_wd|acc_tf|wd|tf|deposit_new)$/.test(type)) return "w";
  return null;
}

/** Position fields a `calc: 1` socket gets as null until it asks: PL, PL_PERC, PRICE_LIQ, LEVERAGE. */
const POSITION_CALC_FIELDS = [6, 7, 8, 9] as const;
/** The wallet field it gets as null: BALANCE_AVAILABLE. */
const WALLET_CALC_FIELD = 4;

/**
 * An account frame for a socket that authenticated with `calc: 1`: positions and wallets with
 * their calculated fields null, and no margin info, funding info or balance pushed unasked
 * (undefined: not sent).
 */
function withoutCalc(type: string, payload: unknown): unknown {
  const blank = (record: unknown, fields: readonly number[]): unknown => {
    if (!Array.isArray(record)) return record;
    const copy: unknown[] = [...record];
    for (const i of fields) if (i < copy.length) copy[i] = null;
    return copy;
  };
  switch (type) {
    case "miu":
    case "fiu":
    case "bu":
      return undefined;
    case "ps":
      return Array.isArray(payload) ? payload.map((p) => blank(p, POSITION_CALC_FIELDS)) : payload;
    case "pn":
    case "pu":
    case "pc":
      return blank(payload, POSITION_CALC_FIELDS);
    case "ws":
      return Array.isArray(payload) ? payload.map((w) => blank(w, [WALLET_CALC_FIELD])) : payload;
    case "wu":
      return blank(payload, [WALLET_CALC_FIELD]);
    default:
      return payload;
  }
}
