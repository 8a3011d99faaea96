/**
 * Fuzzed and truncated frames never throw out of the core: real frames from the recordings cut at
 * random points, with random bytes flipped, and random JSON values, fed to a live FeedCore.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseRecording, readRecordingText, sharedBitfinexDir } from "../../server/exchange/recordings.ts";
import { seededRandom } from "../../src/protocol/index.ts";
import { FeedCore } from "../../src/workers/core/index.ts";

const shared = sharedBitfinexDir();

describe.skipIf(!shared)("fuzzed frames", () => {
  it("truncated and mutated real frames are counted, never thrown", () => {
    const rec = parseRecording(
      readRecordingText(join(shared as string, "recordings", "cryptofeed__BITFINEX.ws.11.0.txt")),
    );
    const frames = rec.items.flatMap((i) => (i.kind === "frame" ? [i.text] : []));
    const core = new FeedCore({ send: () => {}, now: () => 0, flags: 131072 });
    core.onOpen();
    const r = seededRandom(5);
    let n = 0;
    for (let round = 0; round < 3; round++) {
      for (const f of frames) {
        const cut = f.slice(0, Math.floor(r() * f.length));
        const chars = [...f];
        const at = Math.floor(r() * chars.length);
        chars[at] = String.fromCharCode(32 + Math.floor(r() * 95));
        for (const text of [f, cut, chars.join("")]) {
          expect(() => core.onMessage(text)).not.toThrow();
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(3000);
    expect(core.stats.malformed).toBeGreaterThan(0);
  });
});

describe("random JSON values", () => {
  it("never throw out of the core", () => {
    const core = new FeedCore({ send: () => {}, now: () => 0, flags: 65536 | 32768 | 131072 });
    core.onOpen();
    core.onMessage(
      JSON.stringify({
        event: "subscribed",
        channel: "book",
        chanId: 1,
        symbol: "tBTCUSD",
        prec: "P0",
        freq: "F0",
        len: "25",
      }),
    );
    core.onMessage(JSON.stringify({ event: "subscribed", channel: "trades", chanId: 2, symbol: "tBTCUSD" }));
    const r = seededRandom(9);
    const atoms = [null, true, 0, -1, 1.5, 1e300, "", "hb", "cs", "te", {}, [], "x"];
    const value = (depth: number): unknown => {
      const k = r();
      if (depth > 3 || k < 0.5) return atoms[Math.floor(r() * atoms.length)];
      if (k < 0.85) return Array.from({ length: Math.floor(r() * 5) }, () => value(depth + 1));
      return { event: atoms[Math.floor(r() * atoms.length)], chanId: 1, channel: "book" };
    };
    for (let i = 0; i < 20000; i++) {
      const v = r() < 0.5 ? [1 + Math.floor(r() * 2), value(1), value(1)] : value(0);
      expect(() => core.onMessage(JSON.stringify(v) ?? "null")).not.toThrow();
    }
  });
});
