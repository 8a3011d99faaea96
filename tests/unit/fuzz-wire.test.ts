/**
 * Property-based fuzzing (fast-check) of both ends of the wire:
 *  - the client: every record decoder and the feed core take generated values and mutated real
 *    frames without throwing, and a decoder either returns a record or says why not;
 *  - the exchange: generated and mutated client messages over a real socket never take the server
 *    down, never leak an internal error to the client, and leave it answering.
 * `FUZZ_RUNS` sets the number of cases per property (`npm run fuzz` runs 100,000; `npm test` a few
 * thousand, enough to keep the harness honest without holding CI up).
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { messageText } from "../../server/ws-text.ts";
import type { ApiServer } from "../../server/api-server.ts";
import { listenApi } from "../../server/test-support/api.ts";
import { sharedBitfinexDir } from "../../server/exchange/recordings.ts";
import { openVenue } from "../../server/exchange/venue.ts";
import * as records from "../../src/protocol/records.ts";
import { FeedCore } from "../../src/workers/core/index.ts";

const RUNS = Number(process.env["FUZZ_RUNS"] ?? 2000);
/** A property's time budget grows with its case count (100,000 codec cases take about a minute). */
const TIMEOUT_MS = Math.max(30_000, RUNS * 2);
const shared = sharedBitfinexDir();

/** JSON-ish values the wire could carry, biased towards the shapes frames have. */
const wireValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -0, 1, -1, 1e21, 2 ** 53, Number.MAX_SAFE_INTEGER, "", "hb", "cs", "te", "n"),
    fc.double(),
    fc.integer(),
    fc.string(),
    fc.array(tie("value"), { maxLength: 40 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie("value"), { maxKeys: 6 }),
  ),
})).value;

interface AnyCodec {
  decode(raw: unknown): unknown;
  decodeList(raw: unknown): unknown;
}
const isCodec = (v: unknown): v is AnyCodec =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as Record<string, unknown>)["decode"] === "function" &&
  typeof (v as Record<string, unknown>)["decodeList"] === "function";

/** Every codec `records.ts` exports (anything with decode and decodeList). */
const codecs: [string, AnyCodec][] = [];
for (const [name, v] of Object.entries(records) as [string, unknown][]) if (isCodec(v)) codecs.push([name, v]);

/** Real frames (example file), or a few of our own when ../shared is absent. */
function sampleFrames(): string[] {
  if (shared) {
    const text = readFileSync(join(shared, "ws-message-examples.jsonl"), "utf8");
    const out: string[] = [];
    for (const line of text.split("\n")) {
      try {
        const row = JSON.parse(line) as Record<string, unknown>;
        const frame = row["frame"] ?? row["message"] ?? row["data"] ?? row;
        out.push(typeof frame === "string" ? frame : JSON.stringify(frame));
      } catch {
        // not a JSON line
      }
    }
    if (out.length > 0) return out;
  }
  return ["[7,[100,1,2]]", '[7,"cs",12345]', "[7,[[100,1,2],[101,1,-1]]]", '{"event":"subscribed","chanId":7}'];
}

/** A frame with a few characters replaced, cut, or duplicated. */
const mutated = (frames: string[]): fc.Arbitrary<string> =>
  fc
    .tuple(fc.constantFrom(...frames), fc.nat(), fc.nat(), fc.constantFrom("cut", "flip", "dup", "insert"), fc.string())
    .map(([f, a, b, how, s]) => {
      const i = a % (f.length + 1);
      const j = b % (f.length + 1);
      switch (how) {
        case "cut":
          return f.slice(0, i);
        case "flip":
          return f.slice(0, i) + (s[0] ?? "]") + f.slice(i + 1);
        case "dup":
          return f.slice(0, Math.max(i, j)) + f.slice(Math.min(i, j));
        default:
          return f.slice(0, i) + s + f.slice(i);
      }
    });

describe("client decoders under generated input", () => {
  it(
    `every codec decodes or explains, never throws (${codecs.length} codecs)`,
    () => {
      expect(codecs.length).toBeGreaterThan(15);
      fc.assert(
        fc.property(wireValue, (raw) => {
          for (const [, codec] of codecs) {
            const r = codec.decode(raw) as { ok: boolean; error?: { record: string } };
            expect(typeof r.ok).toBe("boolean");
            if (!r.ok) expect(typeof r.error?.record).toBe("string");
            codec.decodeList(raw);
          }
        }),
        { numRuns: RUNS, seed: 11 },
      );
    },
    TIMEOUT_MS,
  );

  it(
    "the feed core takes generated and mutated frames without throwing",
    () => {
      const core = new FeedCore({ send: () => {}, now: () => 0, flags: 65536 | 32768 | 131072 });
      core.onOpen();
      core.onMessage(
        '{"event":"subscribed","channel":"book","chanId":7,"symbol":"tBTCUSD","prec":"P0","freq":"F0","len":"25"}',
      );
      const frames = sampleFrames();
      fc.assert(
        fc.property(
          fc.oneof(
            mutated(frames),
            wireValue.map((v) => JSON.stringify(v) ?? "null"),
          ),
          (text) => {
            core.onMessage(text);
          },
        ),
        { numRuns: RUNS, seed: 12 },
      );
      expect(core.stats.frames).toBeGreaterThanOrEqual(RUNS);
    },
    TIMEOUT_MS,
  );
});

describe("the exchange's socket handlers under generated messages", () => {
  const venue = openVenue({ dbPath: ":memory:", seed: 13, markets: [{ symbol: "tBTCUSD", start: 30_000 }] });
  let api: ApiServer;
  let host = "";
  beforeAll(async () => {
    // The fuzzer is one client sending as fast as it can: the message-rate guard is lifted.
    const started = await listenApi({
      exchange: venue.exchange,
      account: venue.gateway,
      socketLimits: { messagesPerSecond: 1e9 },
    });
    api = started.api;
    host = started.host;
  });
  afterAll(() => api.close());

  /** Client messages: the real events with generated fields, account inputs, and plain noise. */
  const message: fc.Arbitrary<string> = fc.oneof(
    fc
      .record(
        {
          event: fc.constantFrom("subscribe", "unsubscribe", "conf", "ping", "auth", "unknown"),
          channel: fc.oneof(fc.constantFrom("book", "trades", "ticker", "candles", "status"), fc.string()),
          symbol: fc.oneof(fc.constantFrom("tBTCUSD", "fUSD", "tFOO", ""), fc.string()),
          prec: fc.oneof(fc.constantFrom("P0", "P4", "R0", "P9"), wireValue),
          len: fc.oneof(fc.constantFrom("25", "100", "250", "1"), wireValue),
          key: fc.oneof(fc.constantFrom("trade:1m:tBTCUSD", "deriv:tBTCF0:USTF0"), fc.string()),
          chanId: wireValue,
          flags: wireValue,
          cid: wireValue,
          apiKey: wireValue,
          authSig: wireValue,
          authNonce: wireValue,
          authPayload: wireValue,
        },
        { requiredKeys: ["event"] },
      )
      .map((m) => JSON.stringify(m)),
    fc
      .tuple(fc.constantFrom("on", "oc", "ou", "oc_multi", "ox_multi", "calc", "fon", "foc"), wireValue)
      .map(([op, body]) => JSON.stringify([0, op, null, body])),
    wireValue.map((v) => JSON.stringify(v) ?? "null"),
    fc.string(),
  );

  it(
    "stays up, never leaks an internal error, and still answers afterwards",
    async () => {
      const ws = new WebSocket(`ws://${host}/ws/2`);
      const replies: string[] = [];
      let closed = false;
      ws.on("message", (d) => replies.push(messageText(d)));
      ws.on("close", () => (closed = true));
      await new Promise((r) => ws.once("open", r));
      const sent: string[] = [];
      fc.assert(
        fc.property(message, (m) => {
          sent.push(m);
        }),
        { numRuns: RUNS, seed: 14 },
      );
      // Sent in bursts so the socket's own queue stays small; the server's answers are read as they come.
      for (let i = 0; i < sent.length; i += 200) {
        if (closed) break;
        for (const m of sent.slice(i, i + 200)) ws.send(m);
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(closed).toBe(false);
      ws.send(JSON.stringify({ event: "ping", cid: 424242 }));
      const t0 = Date.now();
      while (!replies.some((r) => r.includes('"cid":424242')) && Date.now() - t0 < 10_000)
        await new Promise((r) => setTimeout(r, 20));
      expect(replies.some((r) => r.includes('"cid":424242'))).toBe(true);
      expect(replies.some((r) => /internal error|stack|at [A-Za-z]+ \(/.test(r))).toBe(false);
      ws.close();
      // And REST still answers.
      expect((await fetch(`http://${host}/v2/platform/status`)).status).toBe(200);
    },
    TIMEOUT_MS,
  );
});
