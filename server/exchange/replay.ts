/**
 * Replay mode: drives one market's book from a recorded real Bitfinex stream
 * (../shared/bitfinex/recordings). The recorded P0 levels become resting orders of a replay agent —
 * `count` orders sharing the level's amount — so the book a client sees has the recorded prices,
 * counts and amounts, and account orders trade against it like against any book. The recorded
 * public trades of that symbol (the trades channel's snapshot and `te` updates) are printed on the
 * market where they fall between the book steps (`Exchange.printTrade`: tape, candles, ticker, the
 * trades channel; no book level consumed, no account settled). The simulator's agents leave that
 * market while the replay runs; at the end of the recording it starts over.
 */
import type { Exchange } from "./exchange.ts";
import { parseRecording, readRecordingText } from "./recordings.ts";

/** The replay agent's owner id (simulated agents are negative; accounts are positive). */
export const REPLAY_OWNER = -20;

/** A P0 book level as the wire carries it: [price, count, amount]; count 0 removes the level. */
export type BookEntry = readonly [price: number, count: number, amount: number];

function isEntry(v: unknown): v is BookEntry {
  return Array.isArray(v) && v.length === 3 && v.every((x) => typeof x === "number" && Number.isFinite(x));
}

/** A recorded book as steps: a snapshot (start over) or one level change [price, count, amount]. */
export type ReplayStep = { readonly kind: "snapshot"; readonly levels: readonly BookEntry[] } | BookEntry;

/**
 * A recorded public trade: [ID, MTS, AMOUNT, PRICE] as the trades channel carries it (AMOUNT signed
 * by the taker's side), and `at`, where it fell in the recording: the number of book steps before it.
 */
export interface ReplayTrade {
  readonly at: number;
  readonly id: number;
  readonly mts: number;
  readonly amount: number;
  readonly price: number;
}

function isTrade(v: unknown): v is [number, number, number, number] {
  return Array.isArray(v) && v.length === 4 && v.every((x) => typeof x === "number" && Number.isFinite(x));
}

function parseFrame(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isBookSubscribed(e: Record<string, unknown>): boolean {
  return (
    e["event"] === "subscribed" &&
    e["channel"] === "book" &&
    (e["prec"] ?? "P0") === "P0" &&
    typeof e["symbol"] === "string"
  );
}

/**
 * The P0 book steps of `symbol` in a recording (the first book channel on that symbol in each
 * connection) and its public trades (the first trades channel on it in each connection), in
 * recorded order; the symbol defaults to the first P0 book the recording subscribed to. A trade a
 * reconnection's snapshot repeats (same recorded id) is kept once.
 */
export function bookSteps(
  text: string,
  symbol?: string,
): { symbol: string; steps: ReplayStep[]; trades: ReplayTrade[] } {
  const rec = parseRecording(text);
  const steps: ReplayStep[] = [];
  const trades: ReplayTrade[] = [];
  const seen = new Set<number>();
  // A recording may subscribe to the trades before the book: the symbol is settled first.
  let target = symbol;
  for (const item of rec.items) {
    if (target !== undefined) break;
    if (item.kind !== "frame") continue;
    const v = parseFrame(item.text);
    if (v !== null && typeof v === "object" && !Array.isArray(v) && isBookSubscribed(v as Record<string, unknown>))
      target = (v as Record<string, unknown>)["symbol"] as string;
  }
  let chanId: number | null = null;
  let tradesId: number | null = null;
  // The first list after `subscribed` is the snapshot; later lists are bulk updates.
  let snapshotSeen = false;
  const trade = (t: [number, number, number, number]): void => {
    if (seen.has(t[0])) return;
    seen.add(t[0]);
    trades.push({ at: steps.length, id: t[0], mts: t[1], amount: t[2], price: t[3] });
  };
  for (const item of rec.items) {
    if (item.kind === "connect") {
      chanId = null;
      tradesId = null;
      continue;
    }
    const value = parseFrame(item.text);
    if (value === null || typeof value !== "object") continue;
    if (!Array.isArray(value)) {
      const e = value as Record<string, unknown>;
      if (e["event"] === "info" && e["version"] !== undefined) {
        chanId = null;
        tradesId = null;
      }
      if (isBookSubscribed(e) && chanId === null && e["symbol"] === target) {
        chanId = typeof e["chanId"] === "number" ? e["chanId"] : null;
        snapshotSeen = false;
      }
      if (e["event"] === "subscribed" && e["channel"] === "trades" && tradesId === null && e["symbol"] === target)
        tradesId = typeof e["chanId"] === "number" ? e["chanId"] : null;
      continue;
    }
    const body: unknown = value[1];
    if (tradesId !== null && value[0] === tradesId) {
      // The snapshot lists the newest first; `tu` repeats a `te` (with its fee), so only `te` counts.
      if (body === "te" && isTrade(value[2])) trade(value[2]);
      else if (Array.isArray(body) && body.every(isTrade)) [...body].reverse().forEach(trade);
      continue;
    }
    if (chanId === null || value[0] !== chanId) continue;
    if (isEntry(body)) steps.push(body);
    else if (Array.isArray(body) && body.every(isEntry)) {
      if (snapshotSeen) steps.push(...body);
      else steps.push({ kind: "snapshot", levels: body });
      snapshotSeen = true;
    }
    // Heartbeats, `cs` checksums and anything malformed carry no level.
  }
  return { symbol: target ?? "", steps, trades };
}

export class BookReplay {
  readonly #levels = new Map<string, number[]>();
  #at = 0;
  /** The next recorded trade to print. */
  #trade = 0;

  constructor(
    readonly exchange: Exchange,
    readonly symbol: string,
    readonly steps: readonly ReplayStep[],
    /** Recorded trades in recorded order, each printed before the book step at its `at`. */
    readonly trades: readonly ReplayTrade[] = [],
  ) {
    if (!exchange.markets.has(symbol)) throw new Error(`replay: ${symbol} is not listed on this exchange`);
    if (!steps.some((s) => "kind" in s)) throw new Error(`replay: no ${symbol} book snapshot in the recording`);
    exchange.simulator.pause(symbol);
  }

  /**
   * Applies the next `n` recorded book steps, printing the recorded trades that fall before each;
   * wraps to the first snapshot at the end (after the trades recorded behind the last step).
   */
  advance(n: number): void {
    for (let i = 0; i < n; i++) {
      if (this.#at >= this.steps.length) {
        this.#printUpTo(this.steps.length);
        this.#at = 0;
        this.#trade = 0;
      }
      this.#printUpTo(this.#at);
      const step = this.steps[this.#at++] as ReplayStep;
      if ("kind" in step) {
        for (const key of [...this.#levels.keys()]) this.#set(key, 0, 0, 0);
        for (const level of step.levels) this.#apply(level);
      } else this.#apply(step);
    }
  }

  /** One batch per recorded trade, as each was its own print on the recorded tape. */
  #printUpTo(at: number): void {
    for (let t = this.trades[this.#trade]; t !== undefined && t.at <= at; t = this.trades[++this.#trade])
      this.exchange.printTrade(this.symbol, REPLAY_OWNER, t.price, t.amount);
  }

  #apply(e: BookEntry): void {
    const [price, count, amount] = e;
    if (count === 0) {
      this.#set(`${amount > 0 ? "b" : "a"}${price}`, price, 0, 0);
      return;
    }
    const side = amount > 0 ? "b" : "a";
    // A recorded level never crosses the other side; a stale replay level that would is dropped first.
    for (const [key, ids] of this.#levels) {
      const p = Number(key.slice(1));
      if (ids.length > 0 && key[0] !== side && (side === "b" ? p <= price : p >= price)) this.#set(key, p, 0, 0);
    }
    this.#set(`${side}${price}`, price, count, amount);
  }

  #set(key: string, price: number, count: number, amount: number): void {
    for (const id of this.#levels.get(key) ?? []) this.exchange.cancel(this.symbol, id);
    this.#levels.delete(key);
    if (count <= 0) return;
    const total = Math.abs(amount);
    const ids: number[] = [];
    let left = total;
    for (let k = count; k > 0; k--) {
      const size = k === 1 ? left : Math.round((total / count) * 1e8) / 1e8;
      left = Math.round((left - size) * 1e8) / 1e8;
      const batch = this.exchange.place(this.symbol, REPLAY_OWNER, amount > 0 ? "buy" : "sell", "LIMIT", price, size);
      if (batch?.result.rested) ids.push(batch.result.order.id);
    }
    this.#levels.set(key, ids);
  }
}

/** Loads a recording file and starts replaying it into `exchange`. */
export function replayFromFile(exchange: Exchange, path: string, symbol?: string): BookReplay {
  const { symbol: found, steps, trades } = bookSteps(readRecordingText(path), symbol);
  if (found === "") throw new Error(`replay: no P0 book channel in ${path}`);
  return new BookReplay(exchange, found, steps, trades);
}
