/**
 * The order-book engine for every book the protocol has (docs/protocol.md#books and #checksum,
 * docs/product-rules.md#book-updates): aggregated price books (P0–P4), raw books (R0), funding
 * books and raw funding books.
 *
 * Update rules (docs/product-rules.md#book-updates):
 * - a snapshot replaces the whole book;
 * - aggregated books: count > 0 adds or replaces the level on its side (amount > 0 bid for trading,
 *   amount < 0 bid for funding) and removes that price from the opposite side; count ≤ 0 removes it
 *   (the top-of-book variant, len 1, keeps a lone level and filters count ≤ 0 only when the side
 *   holds more than one entry);
 * - raw books: price (rate) 0 removes the order (offer) id, anything else adds or replaces it.
 *
 * The checksum (docs/protocol.md#checksum) is computed lazily from cached per-level token text, so a `cs` frame
 * costs a walk over at most 50 cached strings and the CRC of their bytes.
 */
import { CRC_COLON_TERM, CRC_INIT, crcFinish, crcShift, crcUpdate, crcUpdateByte } from "../crc32";
import { scanEntry, type ScannedUpdate } from "../scan";
import { BookSide, TOKEN_CACHE } from "./side";

export type BookKind = "price" | "funding" | "raw" | "funding-raw";

/** Arity of one wire entry per book kind. */
export const ENTRY_LENGTH: Record<BookKind, number> = { price: 3, funding: 4, raw: 3, "funding-raw": 4 };

const COLON = 58;

export interface OrderBookOptions {
  readonly kind: BookKind;
  /** The subscribed length (levels per side, or orders for raw books). */
  readonly len?: number;
  /**
   * Apply the product's top-of-book rule (docs/product-rules.md#book-updates) to len-1 books
   * (default true, as the product's client does). The exchange's own mirror turns it off: it holds
   * what a standard client holds.
   */
  readonly topOfBookRule?: boolean;
}

export class OrderBook {
  readonly kind: BookKind;
  /** ENTRY_LENGTH[kind], kept as a field: a keyed lookup per update showed in the profile. */
  readonly entryLength: number;
  readonly len: number;
  readonly topOfBook: boolean;
  readonly bids: BookSide;
  readonly asks: BookSide;
  /** Raw books: order/offer id → its side (true = bid), to find an order being removed. */
  readonly #rawSide = new Map<number, boolean>();
  readonly #rawKey = new Map<number, number>();
  /** True while a snapshot is applied: levels come best-first and each price once. */
  #bulk = false;
  /** Deletes of levels or orders the book did not hold: a sign the book has drifted. */
  unknownDeletes = 0;
  /** Entries refused as malformed (wrong arity, non-numbers). */
  malformed = 0;
  /**
   * CRC state after each interleaved checksum slot (slot 2r: bid rank r, 2r+1: ask rank r) and the
   * tokens emitted so far, so a checksum resumes from the first level that changed: a `cs` frame
   * after changes deep in the top 25 re-hashes only the tail, an unchanged book costs nothing.
   */
  readonly #crcAt = new Int32Array(2 * TOKEN_CACHE + 1);
  readonly #emittedAt = new Uint8Array(2 * TOKEN_CACHE + 1);

  constructor(options: OrderBookOptions) {
    this.kind = options.kind;
    this.entryLength = ENTRY_LENGTH[options.kind];
    this.len = options.len ?? 25;
    this.topOfBook =
      (options.topOfBookRule ?? true) && this.len === 1 && (this.kind === "price" || this.kind === "funding");
    const cap = Math.max(8, Math.min(this.len, 256));
    // Aggregated price books key levels by price alone: k2 stays 0 and is never shifted.
    const keyed = this.kind !== "price";
    this.bids = new BookSide(-1, cap, keyed);
    this.asks = new BookSide(1, cap, keyed);
  }

  clear(): void {
    this.bids.clear();
    this.asks.clear();
    this.#rawSide.clear();
    this.#rawKey.clear();
  }

  /** Replaces the book with a snapshot (an array of wire entries). False if the shape is wrong. */
  applySnapshot(entries: unknown): boolean {
    if (!Array.isArray(entries)) {
      this.malformed++;
      return false;
    }
    this.beginSnapshot();
    let ok = true;
    for (let i = 0; i < entries.length; i++) ok = this.applyEntry(entries[i]) && ok;
    this.endSnapshot();
    return ok;
  }

  /**
   * Applies a snapshot payload `[[…],[…],…]` read straight from frame text at `i` (src/protocol/
   * scan.ts), keeping each top level's checksum text from the wire. Returns the index after the
   * payload, or -1 when the text is not one the scanner reads (the book is then left cleared).
   */
  applySnapshotText(src: string, i: number, u: ScannedUpdate): number {
    if (src.charCodeAt(i) !== 91) return -1;
    i++;
    this.beginSnapshot();
    let end = -1;
    if (src.charCodeAt(i) === 93) end = i + 1;
    else {
      for (;;) {
        const next = scanEntry(src, i, u);
        if (next < 0 || !this.applyScanned(u, src)) break;
        const c = src.charCodeAt(next);
        if (c === 44) i = next + 1;
        else {
          if (c === 93) end = next + 1;
          break;
        }
      }
    }
    this.endSnapshot();
    if (end < 0) this.clear();
    return end;
  }

  /** Clears the book and enters snapshot mode (append fast path, no cross-side removal). */
  beginSnapshot(): void {
    this.clear();
    this.#bulk = true;
  }

  endSnapshot(): void {
    this.#bulk = false;
  }

  /** Applies one wire entry. False (and counted) if it is malformed. */
  applyEntry(e: unknown): boolean {
    const n = this.entryLength;
    if (!Array.isArray(e) || e.length < n) {
      this.malformed++;
      return false;
    }
    const a = e[0] as number;
    const b = e[1] as number;
    const c = e[2] as number;
    // JSON never yields NaN or Infinity, but a decoded frame from elsewhere might: refuse them, as
    // one NaN key would break the sort order of the whole side.
    if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) {
      this.malformed++;
      return false;
    }
    if (n === 3) {
      if (this.kind === "price") this.applyPrice(a, b, c);
      else this.applyRaw(a, b, c);
      return true;
    }
    const d = e[3] as number;
    if (!Number.isFinite(d)) {
      this.malformed++;
      return false;
    }
    if (this.kind === "funding") this.applyFunding(a, b, c, d);
    else this.applyRawFunding(a, b, c, d);
    return true;
  }

  /**
   * Applies a scanned update (src/protocol/scan.ts), taking the checksum text of the level straight
   * from the frame. False when the entry's arity does not fit this book.
   */
  applyScanned(u: ScannedUpdate, src: string): boolean {
    const n = this.entryLength;
    if (u.arity !== n) return false;
    const v = u.values;
    const f0 = u.starts[0]!;
    const f1 = u.ends[0]!;
    const a0 = u.starts[n - 1]!;
    const a1 = u.ends[n - 1]!;
    switch (this.kind) {
      case "price":
        this.applyPrice(v[0]!, v[1]!, v[2]!, src, f0, f1, a0, a1);
        return true;
      case "funding":
        this.applyFunding(v[0]!, v[1]!, v[2]!, v[3]!, src, f0, f1, a0, a1);
        return true;
      case "raw":
        this.#applyRawOrder(v[0]!, v[1]!, 0, v[2]!, v[2]! > 0, src, f0, f1, a0, a1);
        return true;
      case "funding-raw":
        this.#applyRawOrder(v[0]!, v[2]!, v[1]!, v[3]!, v[3]! < 0, src, f0, f1, a0, a1);
        return true;
      default:
        return false;
    }
  }

  /** Aggregated trading level `[PRICE, COUNT, AMOUNT]`; `src` and the offsets give its wire text. */
  applyPrice(price: number, count: number, amount: number, src?: string, f0 = 0, f1 = 0, a0 = 0, a1 = 0): void {
    const bid = amount > 0;
    const side = bid ? this.bids : this.asks;
    if (count > 0) {
      if (this.#bulk) {
        const i = side.appendOrUpsert(price, 0, count, amount);
        if (src !== undefined && i >= 0) side.setTokenFromText(i, src, f0, f1, a0, a1);
        return;
      }
      const i = side.upsert(price, 0, count, amount);
      if (src !== undefined && i >= 0) side.setTokenFromText(i, src, f0, f1, a0, a1);
      if (this.topOfBook) this.#filterEmpty(side);
      // The price can sit on the other side only if it reaches that side's best level: one
      // comparison saves a binary search on nearly every update.
      const other = bid ? this.asks : this.bids;
      if (other.size > 0 && (bid ? price >= other.k1[0]! : price <= other.k1[0]!)) other.remove(price, 0);
    } else if (this.topOfBook) {
      this.#topOfBookDelete(side, price, 0, count, amount);
    } else if (!side.remove(price, 0)) {
      this.unknownDeletes++;
    }
  }

  /** Aggregated funding level `[RATE, PERIOD, COUNT, AMOUNT]`; a negative amount is a bid. */
  applyFunding(
    rate: number,
    period: number,
    count: number,
    amount: number,
    src?: string,
    f0 = 0,
    f1 = 0,
    a0 = 0,
    a1 = 0,
  ): void {
    const bid = amount < 0;
    const side = bid ? this.bids : this.asks;
    if (count > 0) {
      const i = this.#bulk
        ? side.appendOrUpsert(rate, period, count, amount)
        : side.upsert(rate, period, count, amount);
      if (src !== undefined && i >= 0) side.setTokenFromText(i, src, f0, f1, a0, a1);
      if (this.topOfBook) this.#filterEmpty(side);
      (bid ? this.asks : this.bids).remove(rate, period);
    } else if (this.topOfBook) {
      this.#topOfBookDelete(side, rate, period, count, amount);
    } else if (!side.remove(rate, period)) {
      this.unknownDeletes++;
    }
  }

  /** Raw trading order `[ORDER_ID, PRICE, AMOUNT]`; price 0 removes the order. */
  applyRaw(id: number, price: number, amount: number): void {
    this.#applyRawOrder(id, price, 0, amount, amount > 0);
  }

  /** Raw funding offer `[OFFER_ID, PERIOD, RATE, AMOUNT]`; rate 0 removes the offer. */
  applyRawFunding(id: number, period: number, rate: number, amount: number): void {
    this.#applyRawOrder(id, rate, period, amount, amount < 0);
  }

  #applyRawOrder(
    id: number,
    key: number,
    aux: number,
    amount: number,
    bid: boolean,
    src?: string,
    f0 = 0,
    f1 = 0,
    a0 = 0,
    a1 = 0,
  ): void {
    const wasBid = this.#rawSide.get(id);
    if (wasBid !== undefined) {
      const oldKey = this.#rawKey.get(id) as number;
      if (key === 0 || wasBid !== bid || oldKey !== key) (wasBid ? this.bids : this.asks).remove(oldKey, id);
    }
    if (key === 0) {
      if (wasBid === undefined) this.unknownDeletes++;
      this.#rawSide.delete(id);
      this.#rawKey.delete(id);
      return;
    }
    const side = bid ? this.bids : this.asks;
    const i = this.#bulk ? side.appendOrUpsert(key, id, aux, amount) : side.upsert(key, id, aux, amount);
    if (src !== undefined && i >= 0) side.setTokenFromText(i, src, f0, f1, a0, a1);
    this.#rawSide.set(id, bid);
    this.#rawKey.set(id, key);
  }

  #topOfBookDelete(side: BookSide, x1: number, x2: number, count: number, amount: number): void {
    // Top-of-book variant (docs/product-rules.md#book-updates): keep the entry, then filter count ≤
    // 0 when the side holds more.
    side.upsert(x1, x2, count, amount);
    this.#filterEmpty(side);
  }

  /** Top-of-book variant: a side holding more than one entry keeps only those with count above 0. */
  #filterEmpty(side: BookSide): void {
    if (side.size <= 1) return;
    for (let i = side.size - 1; i >= 0; i--) if (side.aux[i]! <= 0) side.removeAt(i);
  }

  /**
   * The book's checksum as the server computes it: the best 25 bids and asks interleaved
   * (bid_i then ask_i, skipping a missing side), each level as `first:amount` in wire text, joined by
   * ':', CRC-32, signed. `first` is the price or rate, or the order/offer id for raw books.
   */
  checksum(): number {
    const bids = this.bids;
    const asks = this.asks;
    const raw = this.kind === "raw" || this.kind === "funding-raw";
    const tob = this.topOfBook;
    const crcAt = this.#crcAt;
    const emittedAt = this.#emittedAt;
    // Slot 2r is bid rank r, 2r+1 ask rank r; a resume starts at a bid slot, so each pass of the
    // loop takes one rank's bid then ask with the side known (measured faster than one slot a pass).
    let r = Math.min(bids.dirtyFrom, asks.dirtyFrom);
    let crc = r === 0 ? CRC_INIT : crcAt[2 * r]!;
    let emitted = r === 0 ? 0 : emittedAt[2 * r]!;
    for (; r < TOKEN_CACHE; r++) {
      // A level kept with count 0 by the top-of-book rule is not on the exchange: not in the sum.
      if (r < bids.size && !(tob && bids.aux[r]! <= 0)) {
        crc = this.#fold(bids, r, crc, emitted, raw);
        emitted++;
      }
      crcAt[2 * r + 1] = crc;
      emittedAt[2 * r + 1] = emitted;
      if (r < asks.size && !(tob && asks.aux[r]! <= 0)) {
        crc = this.#fold(asks, r, crc, emitted, raw);
        emitted++;
      }
      crcAt[2 * r + 2] = crc;
      emittedAt[2 * r + 2] = emitted;
    }
    bids.dirtyFrom = TOKEN_CACHE;
    asks.dirtyFrom = TOKEN_CACHE;
    return crcFinish(crc);
  }

  /** The CRC register after level r's token (preceded by ':' unless it is the first emitted). */
  #fold(side: BookSide, r: number, crc: number, emitted: number, raw: boolean): number {
    const slot = side.tokSlot[r]!;
    let len = side.tokLen[slot]!;
    if (len === 0) {
      const first = raw ? side.k2[r]! : side.k1[r]!;
      if (!side.buildToken(r, first)) {
        // Text longer than a slot (never seen on the wire): hash it directly.
        if (emitted > 0) crc = crcUpdateByte(crc, COLON);
        return crcUpdate(crc, `${String(first)}:${String(side.amount[r]!)}`);
      }
      len = side.tokLen[slot]!;
    }
    // F(crc, ":" + token) = Z_(len+1)(crc) ^ F(0, ":" + token), by linearity (crc32.ts); the first
    // token has no colon, whose term Z_len(F(0, ":")) comes back out.
    const c = side.colonTokenCrc(slot);
    return emitted > 0 ? crcShift(crc, len + 1) ^ c : crcShift(crc, len) ^ c ^ CRC_COLON_TERM[len]!;
  }

  /** Bytes retained by the book's arrays (for the memory budget). */
  get retainedBytes(): number {
    return this.bids.retainedBytes + this.asks.retainedBytes;
  }
}
