/**
 * Every real recording in ../shared/bitfinex/recordings replays through the worker's core with zero
 * unknown-level deletes, zero sequence gaps and zero malformed frames. Skips, saying so, where
 * ../shared is absent.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sharedBitfinexDir } from "../../server/exchange/recordings.ts";
import { replayFile } from "../../bench/replay.ts";

const shared = sharedBitfinexDir();
const recordings = shared ? join(shared, "recordings") : null;
const files = recordings && existsSync(recordings) ? readdirSync(recordings).map((f) => join(recordings, f)) : [];

describe.skipIf(files.length === 0)("replay of real recordings", () => {
  it.each(files.filter((f) => !f.endsWith("BITFINEX.0.txt")))("%s replays cleanly", (file) => {
    const r = replayFile(file);
    expect(r.frames).toBeGreaterThan(1000);
    expect(r.books).toBeGreaterThan(0);
    expect(r.updates).toBeGreaterThan(1000);
    expect(r.unknownDeletes).toBe(0);
    expect(r.seqGaps).toBe(0);
    expect(r.malformed).toBe(0);
    expect(r.resyncs).toBe(0);
    expect(r.checksums.failed).toBe(0);
  });

  it("the REST recording holds no WebSocket frames and is read without error", () => {
    const rest = files.find((f) => f.endsWith("BITFINEX.0.txt"));
    if (!rest) return;
    const r = replayFile(rest);
    expect(r.frames).toBe(0);
    expect(r.skippedLines).toBeGreaterThan(0);
  });
});

if (files.length === 0) {
  describe("replay of real recordings", () => {
    it.skip("skipped: ../shared/bitfinex/recordings is not beside this checkout", () => {});
  });
}
