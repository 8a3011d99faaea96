/**
 * One side of a core A/B run: our FeedCore, as `ours` in peers.ts, built as a bundle of its own from
 * one tree's `src/` (`--compare REF` copies this file into the ref's worktree and bundles it there,
 * so the ref's side is the ref's product code, and the harness around it, core-ab.ts, is this
 * checkout's for both sides). It imports only what old trees export too.
 *
 * `extraWork`: the test-only slowdown (BENCH_SLOWDOWN, given to the working tree's side only): that
 * many rounds of integer mixing after every frame, a cost a known size beside the core's (~1 ns a
 * round), which an A/B run must report.
 */
import { CONF_FLAGS } from "../src/protocol/index.ts";
import { FeedCore } from "../src/workers/core/index.ts";

export interface VariantRun {
  run(frames: readonly string[]): { ok: number; failed: number };
}

let sink = 0;

export function createOurs(
  stream: { chanId: number; len: number; snapshot: string },
  options: { extraWork?: number } = {},
): VariantRun {
  const extra = options.extraWork ?? 0;
  const core = new FeedCore({ send: () => {}, now: () => 0, flags: CONF_FLAGS.OB_CHECKSUM });
  core.onOpen();
  core.onMessage(JSON.stringify({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM }));
  core.onMessage(
    JSON.stringify({
      event: "subscribed",
      channel: "book",
      chanId: stream.chanId,
      symbol: "tBTCUSD",
      prec: "P0",
      freq: "F0",
      len: String(stream.len),
    }),
  );
  core.onMessage(stream.snapshot);
  return {
    run(frames) {
      const before = { ok: core.stats.checksumsOk, failed: core.stats.checksumsFailed };
      let x = sink | 1;
      for (let i = 0; i < frames.length; i++) {
        core.onMessage(frames[i] as string);
        for (let k = 0; k < extra; k++) x = Math.imul(x ^ (x >>> 13), 0x5bd1e995) + k;
      }
      sink = x;
      return { ok: core.stats.checksumsOk - before.ok, failed: core.stats.checksumsFailed - before.failed };
    },
  };
}
