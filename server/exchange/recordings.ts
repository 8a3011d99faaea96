/**
 * Readers for recorded Bitfinex WebSocket traffic (../shared/bitfinex/recordings), gzip or not:
 *  - marfusios: frames separated by `;;`;
 *  - cryptofeed: one frame per line as `<unix seconds>: <json>`, client sends as `<url> <- <ts>: <json>`,
 *    connection opens as `<url> <-> <ts>`, REST responses as `<url> -> <ts>: <json>`;
 *  - plain JSONL: one frame text per line, or objects with a `frame` string (ws-message-examples.jsonl).
 * Each yields the server frames in order, with a marker where a new connection starts.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";

export type RecordedItem = { readonly kind: "frame"; readonly text: string } | { readonly kind: "connect" };

export interface Recording {
  readonly format: "marfusios" | "cryptofeed" | "jsonl";
  readonly items: RecordedItem[];
  /** Lines that are neither server frames nor connection markers (client sends, REST, headers). */
  readonly skipped: number;
}

export function readRecordingText(path: string): string {
  const bytes = readFileSync(path);
  const data = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  return data.toString("utf8");
}

const CF_FRAME = /^\d+(?:\.\d+)?: (.*)$/;

export function parseRecording(text: string): Recording {
  const head = text.slice(0, 4096);
  if (head.includes(";;") && /^\s*[[{]/.test(head)) {
    const items: RecordedItem[] = [];
    for (const part of text.split(";;")) {
      const t = part.trim();
      if (t !== "") items.push({ kind: "frame", text: t });
    }
    return { format: "marfusios", items, skipped: 0 };
  }
  const lines = text.split("\n");
  const cryptofeed = lines.slice(0, 50).some((l) => / <-> \d/.test(l) || CF_FRAME.test(l) || / -> \d/.test(l));
  const items: RecordedItem[] = [];
  let skipped = 0;
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "") continue;
    if (cryptofeed) {
      if (/ <-> \d/.test(line)) {
        items.push({ kind: "connect" });
        continue;
      }
      const m = CF_FRAME.exec(line);
      if (m) items.push({ kind: "frame", text: m[1] as string });
      else skipped++;
      continue;
    }
    // Plain JSONL: a frame text, or an example record carrying one.
    if (line.startsWith("{")) {
      try {
        const obj = JSON.parse(line) as Record<string, unknown>;
        if (typeof obj["frame"] === "string") {
          if (obj["dir"] === "c2s") skipped++;
          else items.push({ kind: "frame", text: obj["frame"] });
          continue;
        }
      } catch {
        // not JSON: replayed as a frame, and counted malformed by the core
      }
    }
    items.push({ kind: "frame", text: line });
  }
  return { format: cryptofeed ? "cryptofeed" : "jsonl", items, skipped };
}

/** ../shared/bitfinex beside the checkout (CI has it there), or null when absent. */
export function sharedBitfinexDir(from: string = process.cwd()): string | null {
  for (let dir = from, i = 0; i < 6; i++, dir = dirname(dir)) {
    const candidate = join(dir, "..", "shared", "bitfinex");
    if (existsSync(join(candidate, "PROTOCOL.md"))) return candidate;
  }
  return null;
}
