/**
 * The market-data core of one socket: frames in, channel state and counters out. It has no
 * transport and no timers of its own — the worker feeds it socket messages, `npm run replay` feeds it
 * recordings, the bench feeds it generated frames — so all three run exactly this code.
 *
 * It verifies every `cs` against the local book (lazy CRC) and, with SEQ_ALL on, every sequence
 * number. A mismatch or a gap is never just logged: the channel goes OUT_OF_SYNC, its resync counter
 * rises and it is unsubscribed and subscribed again for a fresh snapshot: a book known to be wrong
 * is never kept on screen.
 */
import {
  classifyFrame,
  CONF_FLAGS,
  ERROR_CODES,
  INFO_CODES,
  newFrameInfo,
  newScannedUpdate,
  scanBookUpdate,
  scanChecksum,
  scanChannelPrefix,
  scanTrailer,
  type FrameInfo,
  type ScannedUpdate,
} from "../../protocol";
import { Channel } from "./channel";
import {
  newSubscription,
  subscribeRetryDelay,
  normalizeRequest,
  subscribeMessage,
  subscriptionKey,
  type SubscribeRequest,
  type Subscription,
} from "./subscriptions";

export interface FeedStats {
  frames: number;
  events: number;
  heartbeats: number;
  malformed: number;
  /** Book channels subscribed over the feed's life. */
  books: number;
  snapshots: number;
  /** Book entries applied after the snapshots. */
  updates: number;
  checksumsOk: number;
  checksumsFailed: number;
  /** Checksum frames for a book that was already out of sync (not verifiable). */
  checksumsSkipped: number;
  resyncs: number;
  seqGaps: number;
  /** Gaps in channel 0's account sequence (SEQ_ALL). */
  authSeqGaps: number;
  /** Frames for channel ids this feed does not know. */
  unknownChannels: number;
  /** Deletes of book levels (or raw orders) the local book did not hold. */
  unknownDeletes: number;
  /** Subscribes sent again because their `subscribed` reply was overdue. */
  subscribeRetries: number;
}

export interface FeedCoreOptions {
  /** Sends a message on the socket (subscribe, unsubscribe, conf). */
  readonly send: (msg: Record<string, unknown>) => void;
  readonly now: () => number;
  /** conf flags asked for on every (re)connect. */
  readonly flags?: number;
  /** Called when a channel's data changed (for coalesced publishing). */
  readonly onData?: (channel: Channel) => void;
  /** Called when a subscription's status changes. */
  readonly onStatus?: (sub: Subscription) => void;
  /** Info codes: 20051 reconnect, 20060 maintenance start, 20061 maintenance end. */
  readonly onInfo?: (code: number, msg: string) => void;
  /** Platform status from the welcome info: 1 operative, 0 maintenance. */
  readonly onPlatform?: (status: number) => void;
  /** Account (channel 0) messages: type and payload (docs/protocol.md#account-channel). */
  readonly onAccount?: (type: string, payload: unknown) => void;
  /** A gap in channel 0's account sequence: account events were lost. */
  readonly onAccountGap?: () => void;
  /** The `auth` event reply. */
  readonly onAuth?: (event: Record<string, unknown>) => void;
}

export function newFeedStats(): FeedStats {
  return {
    frames: 0,
    events: 0,
    heartbeats: 0,
    malformed: 0,
    books: 0,
    snapshots: 0,
    updates: 0,
    checksumsOk: 0,
    checksumsFailed: 0,
    checksumsSkipped: 0,
    resyncs: 0,
    seqGaps: 0,
    authSeqGaps: 0,
    unknownChannels: 0,
    unknownDeletes: 0,
    subscribeRetries: 0,
  };
}

export class FeedCore {
  readonly stats: FeedStats = newFeedStats();
  readonly subs = new Map<string, Subscription>();
  readonly channels = new Map<number, Channel>();
  /** Flags the server acknowledged (a conf replaces the whole set). */
  flags = 0;
  readonly #opts: FeedCoreOptions;
  readonly #frame: FrameInfo = newFrameInfo();
  readonly #scan: ScannedUpdate = newScannedUpdate();
  #lastChannel: Channel | undefined = undefined;
  #open = false;
  #expectedSeq = -1;
  #expectedAuthSeq = -1;

  constructor(options: FeedCoreOptions) {
    this.#opts = options;
  }

  get open(): boolean {
    return this.#open;
  }

  /** Asks for a channel. Sent now when the socket is open, otherwise on the next open. */
  subscribe(request: SubscribeRequest): Subscription {
    const normalized = normalizeRequest({ ...request }) ?? request;
    const key = subscriptionKey(normalized);
    let sub = this.subs.get(key);
    if (!sub) {
      sub = newSubscription(normalized);
      this.subs.set(key, sub);
    }
    sub.passive = false;
    sub.unsubscribeOnAck = false;
    // Asked for again while its unsubscribe is in flight: subscribe again when the ack arrives.
    if (sub.status === "UNSUBSCRIBING") sub.resubscribe = true;
    else if (sub.status === "ASKED" || sub.status === "ERROR") this.#sendSubscribe(sub);
    return sub;
  }

  unsubscribe(key: string): void {
    const sub = this.subs.get(key);
    if (!sub) return;
    sub.resubscribe = false;
    if (this.#open && sub.chanId >= 0 && (sub.status === "SUBSCRIBED" || sub.status === "OUT_OF_SYNC")) {
      this.#setStatus(sub, "UNSUBSCRIBING");
      this.#opts.send({ event: "unsubscribe", chanId: sub.chanId });
    } else if (this.#open && sub.status === "SUBSCRIBING") {
      // The server will still answer the subscribe: unsubscribe as soon as it does, or the channel
      // would hold one of the socket's ~30 slots until the next reconnect.
      sub.unsubscribeOnAck = true;
      this.#setStatus(sub, "UNSUBSCRIBING");
    } else if (sub.status !== "UNSUBSCRIBING") {
      this.subs.delete(key);
    }
  }

  /** The socket opened: ask for the flags (again) and every subscription. */
  onOpen(): void {
    this.#open = true;
    this.#expectedSeq = -1;
    this.#expectedAuthSeq = -1;
    if (this.#opts.flags) this.#opts.send({ event: "conf", flags: this.#opts.flags });
    for (const sub of this.subs.values()) if (!sub.passive) this.#sendSubscribe(sub);
  }

  /** The socket closed: channel ids die with it; every subscription goes back to ASKED. */
  onClose(): void {
    this.#open = false;
    this.#reset();
  }

  #reset(): void {
    this.channels.clear();
    this.#lastChannel = undefined;
    this.#expectedSeq = -1;
    this.#expectedAuthSeq = -1;
    this.flags = 0;
    for (const [key, sub] of this.subs) {
      if (sub.passive || sub.status === "UNSUBSCRIBING") {
        this.subs.delete(key);
        continue;
      }
      sub.chanId = -1;
      sub.resubscribe = false;
      this.#setStatus(sub, "ASKED");
    }
  }

  /** One message text from the socket. Never throws. */
  onMessage(text: string): void {
    this.stats.frames++;
    // Fast path for the dominant frame, a single book update: no JSON.parse, and the level's
    // checksum text is copied from the frame. Anything it does not fully handle takes the full path.
    if (scanBookUpdate(text, this.#scan) && this.#onScannedUpdate(text)) return;
    if (scanChecksum(text, this.#scan) && this.#onScannedChecksum()) return;
    // Book snapshots: parsed straight into the book's arrays, top-25 checksum text from the wire.
    if (text.charCodeAt(text.indexOf(",") + 1) === 91 && this.#onScannedSnapshot(text)) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      this.stats.malformed++;
      return;
    }
    this.onParsed(msg);
  }

  /** A message already parsed (the bench measures parsing separately). */
  onParsed(msg: unknown): void {
    const f = this.#frame;
    const kind = classifyFrame(msg, this.flags, f);
    if (kind === "malformed") {
      this.stats.malformed++;
      return;
    }
    if (kind === "event") {
      this.stats.events++;
      this.#onEvent(f.type, f.payload as Record<string, unknown>);
      return;
    }
    if (f.chanId === 0) {
      // The public counter runs through channel 0 as well; the account's own counter is checked
      // apart, except on `*-req` notifications, which carry it without advancing it.
      if (f.seq >= 0) this.#checkSeq(f.seq);
      if (kind === "account" && f.authSeq >= 0 && f.seq >= 0) this.#checkAuthSeq(f.authSeq);
      if (kind === "account") this.#opts.onAccount?.(f.type, f.payload);
      return;
    }
    if (f.seq >= 0 && !this.#checkSeq(f.seq)) return;
    const ch = this.channels.get(f.chanId);
    if (!ch) {
      this.stats.unknownChannels++;
      return;
    }
    ch.messages++;
    ch.lastMessageAt = this.#opts.now();
    switch (kind) {
      case "heartbeat":
        this.stats.heartbeats++;
        return;
      case "checksum":
        this.#onChecksum(ch, f.checksum);
        return;
      case "trade":
        if (ch.sub.status === "OUT_OF_SYNC") return;
        if (ch.trades?.add(f.payload)) {
          ch.version++;
          ch.lastDataAt = ch.lastMessageAt;
          this.#opts.onData?.(ch);
        } else this.stats.malformed++;
        return;
      case "data":
        this.#onData(ch, f.payload as unknown[]);
        return;
      default:
        return;
    }
  }

  /** Applies a scanned book update; false when the full path must handle the frame instead. */
  #onScannedUpdate(text: string): boolean {
    const u = this.#scan;
    // Consecutive updates mostly hit the same channel: skip the map lookup then.
    // (The cache is dropped whenever the channel map changes.)
    let ch = this.#lastChannel;
    if (ch === undefined || ch.chanId !== u.chanId) {
      ch = this.channels.get(u.chanId);
      this.#lastChannel = ch;
    }
    const book = ch?.book;
    if (!ch || !book || !ch.gotSnapshot) return false;
    if (u.arity !== book.entryLength) return false; // the full path reads extra trailing fields
    if ((this.flags & CONF_FLAGS.SEQ_ALL) !== 0 && u.trailing > 0) this.#checkSeq(u.trailers[0] as number);
    ch.messages++;
    ch.lastMessageAt = this.#opts.now();
    if (ch.sub.status === "OUT_OF_SYNC") return true;
    const deletesBefore = book.unknownDeletes;
    if (!book.applyScanned(u, text)) {
      this.stats.malformed++;
      return true;
    }
    this.stats.unknownDeletes += book.unknownDeletes - deletesBefore;
    this.stats.updates++;
    ch.updates++;
    ch.version++;
    ch.lastDataAt = ch.lastMessageAt;
    this.#opts.onData?.(ch);
    return true;
  }

  /** A scanned `cs` frame, handled as onParsed handles a checksum; false to take the full path. */
  #onScannedChecksum(): boolean {
    const u = this.#scan;
    let ch = this.#lastChannel;
    if (ch === undefined || ch.chanId !== u.chanId) {
      ch = this.channels.get(u.chanId);
      this.#lastChannel = ch;
    }
    if (!ch) return false; // the full path counts the unknown channel
    if ((this.flags & CONF_FLAGS.SEQ_ALL) !== 0 && u.trailing > 0) this.#checkSeq(u.trailers[0] as number);
    ch.messages++;
    ch.lastMessageAt = this.#opts.now();
    this.#onChecksum(ch, u.values[0] as number);
    return true;
  }

  /** Applies a book snapshot frame without JSON.parse; false when the full path must handle it. */
  #onScannedSnapshot(text: string): boolean {
    const u = this.#scan;
    const i = scanChannelPrefix(text, u);
    if (i < 0 || text.charCodeAt(i) !== 91) return false;
    const ch = this.channels.get(u.chanId);
    const book = ch?.book;
    if (!ch || !book || ch.gotSnapshot || ch.sub.status === "OUT_OF_SYNC") return false;
    const end = book.applySnapshotText(text, i, u);
    if (end < 0 || !scanTrailer(text, end, u)) {
      book.clear(); // the full path parses the frame again from scratch
      return false;
    }
    if ((this.flags & CONF_FLAGS.SEQ_ALL) !== 0 && u.trailing > 0) this.#checkSeq(u.trailers[0] as number);
    ch.messages++;
    ch.lastMessageAt = this.#opts.now();
    ch.gotSnapshot = true;
    ch.version++;
    ch.lastDataAt = ch.lastMessageAt;
    this.stats.snapshots++;
    this.#opts.onData?.(ch);
    return true;
  }

  #onData(ch: Channel, payload: unknown[]): void {
    // An out-of-sync book waits for the fresh snapshot of its resubscription.
    if (ch.sub.status === "OUT_OF_SYNC") return;
    const wasSnapshot = !ch.gotSnapshot;
    const deletesBefore = ch.book?.unknownDeletes ?? 0;
    const n = ch.applyData(payload);
    if (n < 0) this.stats.malformed++;
    if (ch.book) {
      this.stats.unknownDeletes += ch.book.unknownDeletes - deletesBefore;
      if (wasSnapshot) this.stats.snapshots++;
      else if (n > 0) this.stats.updates += n;
    }
    ch.lastDataAt = ch.lastMessageAt;
    this.#opts.onData?.(ch);
  }

  #onChecksum(ch: Channel, expected: number): void {
    const book = ch.book;
    if (!book || !ch.gotSnapshot || ch.sub.status === "OUT_OF_SYNC") {
      this.stats.checksumsSkipped++;
      return;
    }
    if (book.checksum() === expected) {
      this.stats.checksumsOk++;
      ch.sub.checksumsOk++;
      return;
    }
    this.stats.checksumsFailed++;
    ch.sub.checksumsFailed++;
    this.resync(ch.sub);
  }

  /**
   * SEQ_ALL: one counter per socket, +1 on every public array frame. A gap means frames were lost
   * somewhere on the socket, so every book on it is resynchronized.
   */
  #checkSeq(seq: number): boolean {
    const expected = this.#expectedSeq;
    this.#expectedSeq = seq + 1;
    if (expected < 0 || seq === expected) return true;
    this.stats.seqGaps++;
    for (const ch of this.channels.values()) if (ch.kind === "book") this.resync(ch.sub);
    return true;
  }

  /**
   * SEQ_ALL on channel 0: the account's frames are numbered on their own. A gap means account
   * events were lost: counted, and reported so the account can be re-read from its snapshots.
   */
  #checkAuthSeq(seq: number): void {
    const expected = this.#expectedAuthSeq;
    this.#expectedAuthSeq = seq + 1;
    if (expected < 0 || seq === expected) return;
    this.stats.authSeqGaps++;
    this.#opts.onAccountGap?.();
  }

  /** Marks a subscription OUT_OF_SYNC and resubscribes it for a fresh snapshot. */
  resync(sub: Subscription): void {
    if (sub.status === "OUT_OF_SYNC" || sub.status === "UNSUBSCRIBING" || sub.resubscribe) return;
    sub.resyncs++;
    this.stats.resyncs++;
    this.#setStatus(sub, "OUT_OF_SYNC");
    if (this.#open && sub.chanId >= 0) {
      sub.resubscribe = true;
      this.#opts.send({ event: "unsubscribe", chanId: sub.chanId });
    }
  }

  #onEvent(type: string, ev: Record<string, unknown>): void {
    switch (type) {
      case "info": {
        if (typeof ev["version"] === "number") {
          // A welcome: a new connection (recordings hold several sessions back to back).
          this.#reset();
          const platform = ev["platform"] as { status?: unknown } | undefined;
          if (typeof platform?.status === "number") this.#opts.onPlatform?.(platform.status);
        }
        const code = ev["code"];
        if (typeof code === "number") this.#opts.onInfo?.(code, typeof ev["msg"] === "string" ? ev["msg"] : "");
        if (code === INFO_CODES.MAINTENANCE_END) this.resubscribeAll();
        return;
      }
      case "conf":
        if (ev["status"] === "OK" && typeof ev["flags"] === "number") this.flags = ev["flags"];
        return;
      case "subscribed":
        this.#onSubscribed(ev);
        return;
      case "unsubscribed":
        this.#onUnsubscribed(ev);
        return;
      case "error":
        this.#onError(ev);
        return;
      case "auth":
        this.#opts.onAuth?.(ev);
        return;
      default:
        return;
    }
  }

  #onSubscribed(ev: Record<string, unknown>): void {
    const chanId = ev["chanId"];
    const req = normalizeRequest(ev);
    if (typeof chanId !== "number" || !req) {
      this.stats.malformed++;
      return;
    }
    const key = subscriptionKey(req);
    let sub = this.subs.get(key);
    if (!sub) {
      sub = newSubscription(req, true);
      this.subs.set(key, sub);
    }
    sub.chanId = chanId;
    sub.error = null;
    if (req.channel === "book") this.stats.books++;
    this.channels.set(chanId, new Channel(chanId, sub));
    this.#lastChannel = undefined;
    if (sub.unsubscribeOnAck) {
      sub.unsubscribeOnAck = false;
      this.#opts.send({ event: "unsubscribe", chanId });
      return;
    }
    sub.resubscribe = false;
    this.#setStatus(sub, "SUBSCRIBED");
  }

  #onUnsubscribed(ev: Record<string, unknown>): void {
    const chanId = ev["chanId"];
    if (typeof chanId !== "number") return;
    const ch = this.channels.get(chanId);
    this.channels.delete(chanId);
    this.#lastChannel = undefined;
    if (!ch) return;
    this.#afterUnsubscribed(ch.sub);
  }

  #afterUnsubscribed(sub: Subscription): void {
    sub.chanId = -1;
    if (sub.resubscribe) {
      sub.resubscribe = false;
      this.#sendSubscribe(sub);
    } else if (this.subs.get(sub.key) === sub) {
      // Only this subscription: a newer one under the same key is not the ack's to delete.
      this.subs.delete(sub.key);
    }
  }

  #onError(ev: Record<string, unknown>): void {
    const code = typeof ev["code"] === "number" ? ev["code"] : 0;
    const msg = typeof ev["msg"] === "string" ? ev["msg"] : "";
    const req = normalizeRequest(ev);
    const sub = req ? this.subs.get(subscriptionKey(req)) : undefined;
    if (code === ERROR_CODES.SUB_DUPLICATE && sub) {
      // Already subscribed: the server names the existing channel; adopt it.
      const chanId = ev["chanId"];
      if (typeof chanId === "number" && !this.channels.has(chanId)) {
        sub.chanId = chanId;
        this.channels.set(chanId, new Channel(chanId, sub));
        this.#lastChannel = undefined;
      }
      this.#setStatus(sub, "SUBSCRIBED");
      return;
    }
    if (code === ERROR_CODES.UNSUB_FAILED || code === ERROR_CODES.UNSUB_NOT_SUBSCRIBED) {
      // The server does not know the channel: treat it as unsubscribed, so a resync still
      // subscribes again and an unsubscribe does not hang in UNSUBSCRIBING.
      const chanId = ev["chanId"];
      const ch = typeof chanId === "number" ? this.channels.get(chanId) : undefined;
      if (typeof chanId === "number") this.channels.delete(chanId);
      this.#lastChannel = undefined;
      const stranded = ch?.sub ?? [...this.subs.values()].find((x) => x.chanId === chanId && chanId !== -1);
      if (stranded) this.#afterUnsubscribed(stranded);
      return;
    }
    if (sub) {
      sub.error = { code, msg };
      this.#setStatus(sub, "ERROR");
    }
  }

  /** Unsubscribes and subscribes every channel again (after maintenance, 20061). */
  resubscribeAll(): void {
    for (const sub of this.subs.values()) {
      if (sub.passive || sub.status === "UNSUBSCRIBING" || sub.resubscribe) continue;
      if (sub.chanId >= 0 && this.#open) {
        sub.resubscribe = true;
        this.#opts.send({ event: "unsubscribe", chanId: sub.chanId });
      } else if (sub.status === "ASKED" || sub.status === "ERROR") {
        this.#sendSubscribe(sub);
      }
    }
  }

  #sendSubscribe(sub: Subscription): void {
    if (!this.#open) {
      this.#setStatus(sub, "ASKED");
      return;
    }
    if (sub.status !== "SUBSCRIBING") sub.subscribeAttempts = 0;
    sub.subscribeAttempts++;
    sub.subscribeSentAt = this.#opts.now();
    this.#setStatus(sub, "SUBSCRIBING");
    this.#opts.send(subscribeMessage(sub.request));
  }

  /**
   * Sends again every subscribe whose reply is overdue (subscribeRetryDelay). Call it on a timer;
   * a reply that was only late answers as a duplicate (10301), which adopts the channel.
   */
  retryOverdue(): void {
    if (!this.#open) return;
    const now = this.#opts.now();
    for (const sub of this.subs.values()) {
      // ASKED on an open socket is stuck too: a welcome (info with a version) arriving after the
      // subscribe was sent resets the channel to ASKED, and only its reply would move it on.
      if ((sub.status !== "SUBSCRIBING" && sub.status !== "ASKED") || sub.passive) continue;
      if (now - sub.subscribeSentAt < subscribeRetryDelay(sub.subscribeAttempts)) continue;
      this.stats.subscribeRetries++;
      this.#sendSubscribe(sub);
    }
  }

  #setStatus(sub: Subscription, status: Subscription["status"]): void {
    if (sub.status === status) return;
    sub.status = status;
    this.#opts.onStatus?.(sub);
  }

  /** Whether checksums are on (the conf ack included OB_CHECKSUM). */
  get checksumsOn(): boolean {
    return (this.flags & CONF_FLAGS.OB_CHECKSUM) !== 0;
  }
}
