/**
 * The stress generator behind the developer flag (docs/product-rules.md#developer-flags, the stress
 * intensities of #constants): `count` synthetic book
 * updates every `intervalMs` on a 250-level book, with a correct `cs` every 10 updates computed on
 * a separate model book — so the path under stress is the real one (text frames through the feed
 * core, checksum verification, views), only the source is synthetic.
 */
import { CONF_FLAGS, OrderBook, seededRandom, type Timers, type Cancel } from "../../protocol";
import type { FeedCore } from "./feed";

export const STRESS_SYMBOL = "tSTRESS";
const LEN = 250;

export class StressSource {
  readonly #core: FeedCore;
  readonly #timers: Timers;
  readonly #model = new OrderBook({ kind: "price", len: LEN });
  #cancel: Cancel | null = null;
  /** Seeded, so a stress run is repeatable. */
  readonly #rand = seededRandom(1);
  #updates = 0;
  #chanId = 1;

  constructor(core: FeedCore, timers: Timers) {
    this.#core = core;
    this.#timers = timers;
  }

  /** Opens the synthetic channel (as if subscribed) and starts emitting. */
  start(intervalMs: number, count: number): void {
    this.stop();
    const core = this.#core;
    core.onOpen();
    core.onMessage(JSON.stringify({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM }));
    this.#chanId++;
    core.onMessage(
      JSON.stringify({
        event: "subscribed",
        channel: "book",
        chanId: this.#chanId,
        symbol: STRESS_SYMBOL,
        prec: "P0",
        freq: "F0",
        len: String(LEN),
      }),
    );
    const snap: number[][] = [];
    this.#model.clear();
    for (let i = 1; i <= LEN; i++) {
      snap.push([30000 - i, 1 + (i % 7), Number((0.5 + this.#rand() * 3).toFixed(4))]);
      snap.push([30000 + i, 1 + (i % 5), -Number((0.5 + this.#rand() * 3).toFixed(4))]);
    }
    this.#model.applySnapshot(snap);
    core.onMessage(JSON.stringify([this.#chanId, snap]));
    this.#cancel = this.#timers.every(Math.max(1, intervalMs), () => {
      for (let k = 0; k < count; k++) this.#emit();
    });
  }

  #emit(): void {
    const bid = this.#rand() < 0.5;
    const offset = 1 + Math.floor(this.#rand() * this.#rand() * LEN);
    const price = bid ? 30000 - offset : 30000 + offset;
    const amount = Number((0.01 + this.#rand() * 4).toFixed(4));
    // Count 0 deletes the level; its amount then only says the side.
    const count = this.#rand() < 0.2 ? 0 : 1 + Math.floor(this.#rand() * 9);
    const signed = count === 0 ? 1 : amount;
    const entry = [price, count, bid ? signed : -signed];
    // The model must hold the level before a delete, or the client would count an unknown delete.
    const side = bid ? this.#model.bids : this.#model.asks;
    if (count === 0 && side.find(price, 0) < 0) return;
    this.#model.applyEntry(entry);
    this.#core.onMessage(`[${this.#chanId},[${entry.join(",")}]]`);
    if (++this.#updates % 10 === 0) this.#core.onMessage(`[${this.#chanId},"cs",${this.#model.checksum()}]`);
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = null;
  }

  get running(): boolean {
    return this.#cancel !== null;
  }
}
