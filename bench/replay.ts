/**
 * `npm run replay -- FILE [FILE…]`: runs recorded Bitfinex traffic through the same core the worker
 * uses (src/workers/core), verifying every `cs` and sequence number. The whole file is loaded and
 * split first; only the core is timed. Malformed frames are counted, never fatal. The last line is
 * one JSON object: frames, books, updates, checksums {ok, failed}, resyncs, nsPerFrame and more.
 */
import { basename } from "node:path";
import { FeedCore } from "../src/workers/core/index.ts";
import { parseRecording, readRecordingText, type Recording } from "../server/exchange/recordings.ts";

export interface ReplayResult {
  readonly file: string;
  readonly format: Recording["format"];
  readonly frames: number;
  readonly sessions: number;
  readonly books: number;
  readonly snapshots: number;
  readonly updates: number;
  readonly checksums: { readonly ok: number; readonly failed: number };
  readonly resyncs: number;
  readonly seqGaps: number;
  readonly unknownDeletes: number;
  readonly malformed: number;
  readonly unknownChannels: number;
  readonly heartbeats: number;
  readonly skippedLines: number;
  readonly nsPerFrame: number;
}

export function replayRecording(file: string, recording: Recording): ReplayResult {
  const core = new FeedCore({ send: () => {}, now: () => 0 });
  const items = recording.items;
  let sessions = 0;
  core.onOpen();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as Recording["items"][number];
    if (item.kind === "connect") {
      sessions++;
      core.onClose();
      core.onOpen();
    } else core.onMessage(item.text);
  }
  const elapsed = Number(process.hrtime.bigint() - t0);
  const s = core.stats;
  return {
    file: basename(file),
    format: recording.format,
    frames: s.frames,
    sessions: Math.max(sessions, 1),
    books: s.books,
    snapshots: s.snapshots,
    updates: s.updates,
    checksums: { ok: s.checksumsOk, failed: s.checksumsFailed },
    resyncs: s.resyncs,
    seqGaps: s.seqGaps,
    unknownDeletes: s.unknownDeletes,
    malformed: s.malformed,
    unknownChannels: s.unknownChannels,
    heartbeats: s.heartbeats,
    skippedLines: recording.skipped,
    nsPerFrame: s.frames > 0 ? Math.round(elapsed / s.frames) : 0,
  };
}

export function replayFile(file: string): ReplayResult {
  return replayRecording(file, parseRecording(readRecordingText(file)));
}

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(basename(process.argv[1]));
if (isMain) {
  const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  if (files.length === 0) {
    process.stderr.write("usage: npm run replay -- FILE [FILE…]\n");
    process.exit(2);
  }
  const results = files.map(replayFile);
  for (const r of results.slice(0, -1)) process.stdout.write(`${JSON.stringify(r)}\n`);
  if (results.length > 1) {
    const sum = (k: "frames" | "books" | "updates" | "resyncs" | "seqGaps" | "unknownDeletes" | "malformed") =>
      results.reduce((n, r) => n + r[k], 0);
    const frames = sum("frames");
    const total = {
      files: results.length,
      frames,
      books: sum("books"),
      updates: sum("updates"),
      checksums: {
        ok: results.reduce((n, r) => n + r.checksums.ok, 0),
        failed: results.reduce((n, r) => n + r.checksums.failed, 0),
      },
      resyncs: sum("resyncs"),
      seqGaps: sum("seqGaps"),
      unknownDeletes: sum("unknownDeletes"),
      malformed: sum("malformed"),
      nsPerFrame: Math.round(results.reduce((n, r) => n + r.nsPerFrame * r.frames, 0) / Math.max(frames, 1)),
    };
    process.stdout.write(`${JSON.stringify(results.at(-1))}\n${JSON.stringify(total)}\n`);
  } else {
    process.stdout.write(`${JSON.stringify(results[0])}\n`);
  }
}
