/**
 * Seeded, deterministic Bitfinex book streams for the bench: a snapshot of `len` levels per side,
 * then updates (changes, deletes and inserts that keep each side near `len`, like the server's
 * top-N window), with a `cs` frame carrying the correct checksum every `csEvery` updates. The
 * expected checksums come from a naive reference model, never from the code under test.
 */
import { crc32, seededRandom } from "../src/protocol/index.ts";

function flat(s: string): string {
  return Buffer.from(s, "utf8").toString("utf8");
}

export interface GeneratedStream {
  readonly chanId: number;
  readonly len: number;
  /** The snapshot frame text. */
  readonly snapshot: string;
  /** Update and checksum frame texts, in order. */
  readonly frames: string[];
  readonly updates: number;
  readonly checksums: number;
}

/** P0 books carry prices of 5 significant digits: at 30 000 the tick is 1. */
const TICK = 1;

function amountOf(r: () => number): number {
  // 8 decimals like real amounts; now and then a tiny one that prints in exponent form.
  if (r() < 0.03) return Number((Math.ceil(r() * 9) * 1e-7).toPrecision(1));
  return Math.round((0.0001 + r() * 25) * 1e8) / 1e8;
}

function referenceChecksum(bids: Map<number, number>, asks: Map<number, number>): number {
  const b = [...bids].sort((x, y) => y[0] - x[0]).slice(0, 25);
  const a = [...asks].sort((x, y) => x[0] - y[0]).slice(0, 25);
  const t: string[] = [];
  for (let i = 0; i < 25; i++) {
    const bi = b[i];
    const ai = a[i];
    if (bi) t.push(String(bi[0]), String(bi[1]));
    if (ai) t.push(String(ai[0]), String(ai[1]));
  }
  return crc32(t.join(":"));
}

export function generateStream(options: {
  seed: number;
  len: number;
  updates: number;
  csEvery: number;
  chanId?: number;
}): GeneratedStream {
  const r = seededRandom(options.seed);
  const chanId = options.chanId ?? 1;
  const len = options.len;
  const mid = 30000;
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  const counts = new Map<number, number>();
  const snap: number[][] = [];
  for (let i = 0; i < len; i++) {
    const bp = mid - (i + 1) * TICK * 3;
    const ap = mid + (i + 1) * TICK * 3;
    const ba = amountOf(r);
    const aa = -amountOf(r);
    bids.set(bp, ba);
    asks.set(ap, aa);
    counts.set(bp, 1 + Math.floor(r() * 9));
    counts.set(ap, 1 + Math.floor(r() * 9));
    snap.push([bp, counts.get(bp) as number, ba]);
  }
  for (const [p, a] of asks) snap.push([p, counts.get(p) as number, a]);
  const frames: string[] = [];
  let checksums = 0;
  const spread = len * TICK * 3;
  for (let u = 1; u <= options.updates; u++) {
    const bid = r() < 0.5;
    const side = bid ? bids : asks;
    const roll = r();
    let price: number;
    if (roll < 0.6 && side.size > 0) {
      // Change an existing level, biased to the top of the book like real traffic.
      const keys = [...side.keys()];
      const sorted = bid ? keys.sort((x, y) => y - x) : keys.sort((x, y) => x - y);
      price = sorted[Math.floor(r() * r() * sorted.length)] as number;
      const amount = bid ? amountOf(r) : -amountOf(r);
      const count = 1 + Math.floor(r() * 9);
      side.set(price, amount);
      frames.push(`[${chanId},[${price},${count},${amount}]]`);
    } else if (roll < 0.8 && side.size > len / 2) {
      const keys = [...side.keys()];
      price = keys[Math.floor(r() * keys.length)] as number;
      side.delete(price);
      frames.push(`[${chanId},[${price},0,${bid ? 1 : -1}]]`);
    } else {
      // Insert a new level inside the window; drop the worst one when the side is full.
      const offset = Math.round(r() * spread) * TICK + TICK;
      price = bid ? mid - offset : mid + offset;
      if (side.has(price) || (bid ? asks : bids).has(price)) continue;
      const amount = bid ? amountOf(r) : -amountOf(r);
      side.set(price, amount);
      frames.push(`[${chanId},[${price},${1 + Math.floor(r() * 9)},${amount}]]`);
      if (side.size > len) {
        const keys = [...side.keys()];
        const worst = bid ? Math.min(...keys) : Math.max(...keys);
        side.delete(worst);
        frames.push(`[${chanId},[${worst},0,${bid ? 1 : -1}]]`);
      }
    }
    if (u % options.csEvery === 0) {
      frames.push(`[${chanId},"cs",${referenceChecksum(bids, asks)}]`);
      checksums++;
    }
  }
  return {
    chanId,
    len,
    snapshot: flat(`[${chanId},${JSON.stringify(snap)}]`),
    // Frames as a socket delivers them: flat strings decoded from bytes (template literals build
    // rope strings, on which per-character reads are several times slower than on wire text).
    frames: frames.map(flat),
    updates: frames.length - checksums,
    checksums,
  };
}
