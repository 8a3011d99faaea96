/**
 * Fault injection between the socket and the feed (a developer flag): incoming frames are dropped,
 * delayed, duplicated, reordered or corrupted at chosen rates, `subscribed` replies are lost, or
 * the feed is frozen — so anyone can watch the desk detect each fault (checksums, sequence gaps,
 * the watchdog, the subscribe retry) and recover, and tests can drive the same paths on purpose.
 *
 * It wraps a SocketLike: the connection never knows. Randomness is the project's seeded generator,
 * so a seed reproduces a run; the timers are the worker's owned scheduler.
 */
import { NO_FAULTS, seededRandom, type FaultSettings, type Timers } from "../../protocol";
import type { SocketLike } from "./connection";

export interface FaultStats {
  dropped: number;
  delayed: number;
  duplicated: number;
  reordered: number;
  corrupted: number;
  lostSubscribed: number;
  frozen: number;
}

/** Whether the settings inject anything at all (a socket with none is passed through untouched). */
export function injectsFaults(s: FaultSettings): boolean {
  return s.drop + s.delay + s.duplicate + s.reorder + s.corrupt + s.loseSubscribed > 0 || s.freeze;
}

export class FaultInjector {
  readonly stats: FaultStats = {
    dropped: 0,
    delayed: 0,
    duplicated: 0,
    reordered: 0,
    corrupted: 0,
    lostSubscribed: 0,
    frozen: 0,
  };
  #settings: FaultSettings = NO_FAULTS;
  #random: () => number = seededRandom(NO_FAULTS.seed);
  /** A frame held back to be delivered after the next one (reordering). */
  #held: string | null = null;

  constructor(readonly timers: Timers) {}

  get settings(): FaultSettings {
    return this.#settings;
  }

  set(settings: FaultSettings | null): void {
    this.#settings = settings ?? NO_FAULTS;
    this.#random = seededRandom(this.#settings.seed);
  }

  /**
   * Passes one incoming frame through the faults: `deliver` is called zero, one or two times, now
   * or later. Each fault draws once per frame, in a fixed order, so a seed gives the same run.
   */
  frame(text: string, deliver: (text: string) => void): void {
    const s = this.#settings;
    if (s.freeze) {
      this.stats.frozen++;
      return;
    }
    if (s.loseSubscribed > 0 && text.startsWith('{"event":"subscribed"') && this.#random() < s.loseSubscribed) {
      this.stats.lostSubscribed++;
      return;
    }
    if (s.drop > 0 && this.#random() < s.drop) {
      this.stats.dropped++;
      return;
    }
    let out = text;
    if (s.corrupt > 0 && this.#random() < s.corrupt) {
      const corrupted = corruptFrame(out);
      if (corrupted !== out) {
        this.stats.corrupted++;
        out = corrupted;
      }
    }
    if (s.reorder > 0 && this.#held === null && this.#random() < s.reorder) {
      this.stats.reordered++;
      this.#held = out;
      return;
    }
    const send = (t: string): void => {
      deliver(t);
      if (this.#held !== null) {
        const held = this.#held;
        this.#held = null;
        deliver(held);
      }
    };
    if (s.delay > 0 && s.delayMs > 0 && this.#random() < s.delay) {
      this.stats.delayed++;
      this.timers.after(s.delayMs, () => send(out));
    } else {
      send(out);
    }
    if (s.duplicate > 0 && this.#random() < s.duplicate) {
      this.stats.duplicated++;
      deliver(out);
    }
  }
}

/**
 * A data frame with one digit of its last number changed (a price or amount arriving wrong, which
 * the book's checksum must catch); event frames and heartbeats are left alone.
 */
export function corruptFrame(text: string): string {
  if (!text.startsWith("[") || text.includes('"hb"')) return text;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      // A digit that is not a lone zero's leading place: 0..8 → +1, 9 → 8.
      const next = c === 57 ? "8" : String.fromCharCode(c + 1);
      return text.slice(0, i) + next + text.slice(i + 1);
    }
  }
  return text;
}

/** A socket whose incoming frames pass through `faults` (outgoing ones are untouched). */
export function faultySocket(socket: SocketLike, faults: FaultInjector): SocketLike {
  let onmessage: SocketLike["onmessage"] = null;
  socket.onmessage = (ev) => {
    const handler = onmessage;
    if (!handler) return;
    if (typeof ev.data !== "string") {
      handler(ev);
      return;
    }
    faults.frame(ev.data, (data) => {
      // The socket may have been closed or replaced while a delayed frame waited.
      if (onmessage === handler) handler({ data });
    });
  };
  return {
    get readyState() {
      return socket.readyState;
    },
    send: (data) => socket.send(data),
    close: (code, reason) => socket.close(code, reason),
    get onopen() {
      return socket.onopen;
    },
    set onopen(f) {
      socket.onopen = f;
    },
    get onmessage() {
      return onmessage;
    },
    set onmessage(f) {
      onmessage = f;
    },
    get onclose() {
      return socket.onclose;
    },
    set onclose(f) {
      socket.onclose = f;
    },
    get onerror() {
      return socket.onerror;
    },
    set onerror(f) {
      socket.onerror = f;
    },
  };
}
