import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { sharedBitfinexDir } from "../../server/exchange/recordings";
import { classifyFrame, CONF_FLAGS, newFrameInfo } from "./frames";

const SEQ = CONF_FLAGS.SEQ_ALL;
const TS = CONF_FLAGS.TIMESTAMP;

function classify(frame: unknown, flags = 0) {
  const out = newFrameInfo();
  classifyFrame(frame, flags, out);
  return out;
}

describe("frame classification", () => {
  it("reads events by their name", () => {
    const f = classify({ event: "info", version: 2, platform: { status: 1 } });
    expect(f.kind).toBe("event");
    expect(f.type).toBe("info");
    expect(classify({ event: "subscribed", chanId: 1 }).type).toBe("subscribed");
    expect(classify({ noEvent: 1 }).kind).toBe("malformed");
  });

  it("reads heartbeats with and without suffixes", () => {
    expect(classify([81568, "hb"])).toMatchObject({ kind: "heartbeat", chanId: 81568, seq: -1, mts: -1 });
    expect(classify([232962, "hb", 147], SEQ)).toMatchObject({ kind: "heartbeat", seq: 147, mts: -1 });
    expect(classify([127758, "hb", 3603, 1569715249702], SEQ | TS)).toMatchObject({ seq: 3603, mts: 1569715249702 });
  });

  it("reads checksums, with the suffixes after the value", () => {
    expect(classify([759362, "cs", 1330055495])).toMatchObject({ kind: "checksum", checksum: 1330055495 });
    expect(classify([81757, "cs", -1175357890, 12], SEQ)).toMatchObject({ checksum: -1175357890, seq: 12 });
    expect(classify([1, "cs", "x"]).kind).toBe("malformed");
  });

  it("leaves snapshot-or-update to the channel: both are data", () => {
    expect(classify([17082, [[7254.7, 3, 3.3]]])).toMatchObject({ kind: "data", chanId: 17082 });
    expect(classify([17082, [7254.5, 0, 1]])).toMatchObject({ kind: "data" });
    const bulk = classify(
      [
        853691,
        [
          [86717, 0, 1],
          [86816, 0, -1],
        ],
        2,
        1790134414850,
      ],
      SEQ | TS,
    );
    expect(bulk).toMatchObject({ kind: "data", seq: 2, mts: 1790134414850 });
    expect(classify([6959, [219.11, 3, -18.10913638], 45, 1564617601214], SEQ | TS)).toMatchObject({
      seq: 45,
      mts: 1564617601214,
    });
    expect(classify([6959, [219.11, 3, -18.1], 1564617601214], TS)).toMatchObject({ seq: -1, mts: 1564617601214 });
  });

  it("reads public trade events", () => {
    expect(classify([5262, "te", [1, 2, 3, 4]])).toMatchObject({ kind: "trade", type: "te" });
    expect(classify([5262, "tu", [1, 2, 3, 4], 9], SEQ)).toMatchObject({ kind: "trade", type: "tu", seq: 9 });
    expect(classify([5262, "fte", [1, 2, 3, 4, 5]])).toMatchObject({ kind: "trade", type: "fte" });
    expect(classify([5262, "te", 5]).kind).toBe("malformed");
  });

  it("reads account frames with their two sequence numbers", () => {
    expect(classify([0, "hb"])).toMatchObject({ kind: "heartbeat", chanId: 0 });
    expect(classify([0, "os", [], 10, 3], SEQ)).toMatchObject({ kind: "account", type: "os", seq: 10, authSeq: 3 });
    expect(classify([0, "n", [1, "on-req"], 4], SEQ)).toMatchObject({
      kind: "account",
      type: "n",
      seq: -1,
      authSeq: 4,
    });
  });

  it("never throws on junk", () => {
    for (const junk of [null, 1, "x", [], [-1, []], ["a", []], [1.5, []], [1], [1, 2], [1, "zz"], true]) {
      expect(() => classify(junk)).not.toThrow();
      expect(classify(junk).kind).toBe("malformed");
    }
  });
});

const shared = sharedBitfinexDir();
describe.skipIf(!shared)("example frames (../shared/bitfinex/ws-message-examples.jsonl)", () => {
  it("classifies every server frame as something other than malformed", () => {
    const lines = readFileSync(`${shared}/ws-message-examples.jsonl`, "utf8").trim().split("\n");
    let n = 0;
    for (const line of lines) {
      const ex = JSON.parse(line) as { dir: string; frame: string; what: string };
      if (ex.dir !== "s2c") continue;
      const frame: unknown = JSON.parse(ex.frame);
      const what = ex.what.toLowerCase();
      const flags = (what.includes("seq") ? SEQ : 0) | (what.includes("timestamp") ? TS : 0);
      const f = classify(frame, flags);
      expect(f.kind, ex.what).not.toBe("malformed");
      n++;
    }
    expect(n).toBeGreaterThan(50);
  });
});
