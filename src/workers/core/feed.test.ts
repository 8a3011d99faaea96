import { describe, expect, it } from "vitest";
import { CONF_FLAGS, crc32, ERROR_CODES, INFO_CODES } from "../../protocol";
import { FeedCore } from "./feed";
import { healthOf } from "./views";

function setup(flags = CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL, extra: { onAccountGap?: () => void } = {}) {
  const sent: Record<string, unknown>[] = [];
  const statuses: string[] = [];
  const infos: number[] = [];
  const core = new FeedCore({
    send: (m) => sent.push(m),
    now: () => 1000,
    flags,
    onStatus: (s) => statuses.push(s.status),
    onInfo: (code) => infos.push(code),
    ...extra,
  });
  return { core, sent, statuses, infos, msg: (m: unknown) => core.onMessage(JSON.stringify(m)) };
}

const BOOK_REQ = { channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" } as const;
const SUBSCRIBED = {
  event: "subscribed",
  channel: "book",
  chanId: 7,
  symbol: "tBTCUSD",
  prec: "P0",
  freq: "F0",
  len: "25",
  pair: "BTCUSD",
};

describe("feed core", () => {
  it("asks for flags and subscriptions on open, and follows the channel status", () => {
    const { core, sent, statuses, msg } = setup();
    const sub = core.subscribe(BOOK_REQ);
    expect(sub.status).toBe("ASKED");
    expect(sent).toEqual([]);
    core.onOpen();
    expect(sent[0]).toEqual({ event: "conf", flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL });
    expect(sent[1]).toEqual({ event: "subscribe", ...BOOK_REQ });
    expect(sub.status).toBe("SUBSCRIBING");
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL });
    msg(SUBSCRIBED);
    expect(sub.status).toBe("SUBSCRIBED");
    expect(sub.chanId).toBe(7);
    expect(statuses).toEqual(["SUBSCRIBING", "SUBSCRIBED"]);
  });

  it("treats the first data frame as the snapshot and verifies checksums", () => {
    const { core, msg } = setup();
    core.subscribe(BOOK_REQ);
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM | CONF_FLAGS.SEQ_ALL });
    msg(SUBSCRIBED);
    // A one-level snapshot looks like an update by shape; it is still the snapshot.
    msg([7, [[100, 1, 2]], 1]);
    msg([
      7,
      [
        [101, 1, -1],
        [99, 1, 3],
      ],
      2,
    ]); // bulk update
    msg([7, [100, 2, 2.5], 3]);
    const book = core.channels.get(7)?.book;
    expect(book?.bids.size).toBe(2);
    expect(book?.asks.size).toBe(1);
    msg([7, "cs", crc32("100:2.5:101:-1:99:3"), 4]);
    expect(core.stats).toMatchObject({ snapshots: 1, updates: 3, checksumsOk: 1, checksumsFailed: 0, seqGaps: 0 });
  });

  it("resubscribes a book whose checksum does not match, and recovers on the fresh snapshot", () => {
    const { core, sent, msg } = setup(CONF_FLAGS.OB_CHECKSUM);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM });
    msg(SUBSCRIBED);
    msg([7, [[100, 1, 2]]]);
    msg([7, "cs", 12345]);
    expect(sub.status).toBe("OUT_OF_SYNC");
    expect(sub.resyncs).toBe(1);
    expect(core.stats.resyncs).toBe(1);
    expect(sent.at(-1)).toEqual({ event: "unsubscribe", chanId: 7 });
    // Updates for an out-of-sync book are not applied; checksums are not verifiable.
    msg([7, [100, 5, 5]]);
    msg([7, "cs", 1]);
    expect(core.stats.checksumsFailed).toBe(1);
    msg({ event: "unsubscribed", status: "OK", chanId: 7 });
    expect(sent.at(-1)).toEqual({ event: "subscribe", ...BOOK_REQ });
    expect(sub.status).toBe("SUBSCRIBING");
    msg({ ...SUBSCRIBED, chanId: 8 });
    msg([8, [[100, 1, 2]]]);
    msg([8, "cs", crc32("100:2")]);
    expect(sub.status).toBe("SUBSCRIBED");
    expect(core.stats.checksumsOk).toBe(1);
    expect(core.channels.has(7)).toBe(false);
    // The badge's counts survive the channel being replaced: the failure stays visible.
    expect(sub.checksumsFailed).toBe(1);
    expect(sub.checksumsOk).toBe(1);
  });

  it("sends a subscribe again when its reply is lost, backing off, until the reply comes", () => {
    let now = 1000;
    const sent: Record<string, unknown>[] = [];
    const core = new FeedCore({ send: (m) => sent.push(m), now: () => now });
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    const subscribes = () => sent.filter((m) => m["event"] === "subscribe").length;
    expect(subscribes()).toBe(1);
    now += 2_900;
    core.retryOverdue();
    expect(subscribes()).toBe(1);
    now += 200; // 3 s without a reply: sent again
    core.retryOverdue();
    expect(subscribes()).toBe(2);
    now += 5_000; // the next wait is 6 s
    core.retryOverdue();
    expect(subscribes()).toBe(2);
    now += 1_100;
    core.retryOverdue();
    expect(subscribes()).toBe(3);
    expect(core.stats.subscribeRetries).toBe(2);
    expect(sub.status).toBe("SUBSCRIBING");
    core.onMessage(JSON.stringify(SUBSCRIBED));
    expect(sub.status).toBe("SUBSCRIBED");
    now += 60_000;
    core.retryOverdue();
    expect(subscribes()).toBe(3);
    // A late duplicate answer names the channel the server already has: adopted, not an error.
    core.onMessage(
      JSON.stringify({
        ...SUBSCRIBED,
        event: "error",
        code: ERROR_CODES.SUB_DUPLICATE,
        msg: "subscribe: dup",
        chanId: 7,
      }),
    );
    expect(sub.status).toBe("SUBSCRIBED");
  });

  it("counts channel 0 in the public sequence and checks the account's own, except on *-req notifications", () => {
    let gaps = 0;
    const { core, msg } = setup(CONF_FLAGS.SEQ_ALL, { onAccountGap: () => gaps++ });
    core.subscribe(BOOK_REQ);
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.SEQ_ALL });
    msg(SUBSCRIBED);
    msg([7, [[100, 1, 2]], 1]);
    msg([0, "ws", [], 2, 1]);
    msg([0, "n", [1, "on-req", null, null, [], null, "SUCCESS", "ok"], 1]);
    msg([0, "on", [], 3, 2]);
    msg([7, [100, 2, 2], 4]);
    expect(core.stats).toMatchObject({ seqGaps: 0, authSeqGaps: 0, resyncs: 0 });
    msg([0, "ou", [], 5, 4]);
    expect(core.stats.authSeqGaps).toBe(1);
    expect(gaps).toBe(1);
    expect(core.stats.seqGaps).toBe(0);
  });

  it("resynchronizes every book on a sequence gap", () => {
    const { core, sent, msg } = setup(CONF_FLAGS.SEQ_ALL);
    core.subscribe(BOOK_REQ);
    core.subscribe({ ...BOOK_REQ, symbol: "tETHUSD" });
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.SEQ_ALL });
    msg(SUBSCRIBED);
    msg({ ...SUBSCRIBED, chanId: 9, symbol: "tETHUSD", pair: "ETHUSD" });
    msg([7, [[100, 1, 2]], 1]);
    msg([9, [[10, 1, 2]], 2]);
    msg([7, "hb", 3]);
    msg([9, [10, 2, 2], 5]);
    expect(core.stats.seqGaps).toBe(1);
    expect(core.stats.resyncs).toBe(2);
    expect(sent.filter((m) => m["event"] === "unsubscribe")).toHaveLength(2);
  });

  it("adopts the existing channel on 10301 and records other subscribe errors", () => {
    const { core, msg } = setup(0);
    const sub = core.subscribe(BOOK_REQ);
    const bad = core.subscribe({ channel: "book", symbol: "tNOPE", prec: "P0", freq: "F0", len: "25" });
    core.onOpen();
    msg({
      event: "error",
      code: ERROR_CODES.SUB_DUPLICATE,
      msg: "subscribe: dup",
      chanId: 77,
      ...BOOK_REQ,
      pair: "BTCUSD",
    });
    expect(sub.status).toBe("SUBSCRIBED");
    expect(core.channels.has(77)).toBe(true);
    msg({
      event: "error",
      code: ERROR_CODES.SUB_FAILED,
      msg: "symbol: invalid",
      channel: "book",
      symbol: "tNOPE",
      prec: "P0",
      len: "25",
    });
    expect(bad.status).toBe("ERROR");
    expect(bad.error).toEqual({ code: ERROR_CODES.SUB_FAILED, msg: "symbol: invalid" });
  });

  it("goes back to ASKED on close and resubscribes everything on the next open", () => {
    const { core, sent, msg } = setup(0);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    msg(SUBSCRIBED);
    core.onClose();
    expect(sub.status).toBe("ASKED");
    expect(core.channels.size).toBe(0);
    sent.length = 0;
    core.onOpen();
    expect(sent).toEqual([{ event: "subscribe", ...BOOK_REQ }]);
  });

  it("reports info codes and resubscribes everything after maintenance ends (20061)", () => {
    const { core, sent, infos, msg } = setup(0);
    core.subscribe(BOOK_REQ);
    core.onOpen();
    msg(SUBSCRIBED);
    msg({ event: "info", code: INFO_CODES.MAINTENANCE_START, msg: "Entering maintenance mode" });
    msg({ event: "info", code: INFO_CODES.MAINTENANCE_END, msg: "Maintenance ended" });
    expect(infos).toEqual([INFO_CODES.MAINTENANCE_START, INFO_CODES.MAINTENANCE_END]);
    expect(sent.at(-1)).toEqual({ event: "unsubscribe", chanId: 7 });
    msg({ event: "unsubscribed", status: "OK", chanId: 7 });
    expect(sent.at(-1)).toEqual({ event: "subscribe", ...BOOK_REQ });
  });

  it("counts malformed frames and never throws", () => {
    const { core } = setup();
    core.onOpen();
    for (const junk of ["", "{", "[1,", "null", "42", '"x"', "[1]", '[1,"zz"]', '{"event":5}', "[-3,[]]"]) {
      expect(() => core.onMessage(junk)).not.toThrow();
    }
    expect(core.stats.malformed).toBe(10);
  });

  it("keeps the newest trades, deduplicated by id, trimmed above 48 to 24", () => {
    const { core, msg } = setup(0);
    core.subscribe({ channel: "trades", symbol: "tBTCUSD" });
    core.onOpen();
    msg({ event: "subscribed", channel: "trades", chanId: 3, symbol: "tBTCUSD", pair: "BTCUSD" });
    msg([
      3,
      [
        [2, 2000, 1, 100],
        [1, 1000, -1, 99],
      ],
    ]);
    msg([3, "te", [3, 3000, 0.5, 101]]);
    msg([3, "tu", [3, 3000, 0.5, 101]]);
    const trades = core.channels.get(3)?.trades;
    expect(trades?.rows.map((r) => r[0])).toEqual([3, 2, 1]);
    // The 49th stored trade trims the list to the newest 24 (ids 26–49); the 50th makes 25.
    for (let id = 4; id <= 50; id++) msg([3, "te", [id, id * 1000, 1, 100]]);
    expect(trades?.rows).toHaveLength(25);
    expect(trades?.rows[0]?.[0]).toBe(50);
    expect(trades?.rows.at(-1)?.[0]).toBe(26);
  });
});

describe("feed core subscription edge cases", () => {
  const ack = (chanId: number) => ({ event: "unsubscribed", status: "OK", chanId });

  it("subscribes again when asked while the unsubscribe is in flight", () => {
    const { core, sent, msg } = setup(0);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    msg(SUBSCRIBED);
    core.unsubscribe(sub.key);
    expect(sub.status).toBe("UNSUBSCRIBING");
    core.subscribe(BOOK_REQ);
    msg(ack(7));
    expect(sent.at(-1)).toEqual({ event: "subscribe", ...BOOK_REQ });
    expect(core.subs.get(sub.key)).toBe(sub);
    expect(sub.status).toBe("SUBSCRIBING");
  });

  it("unsubscribes a channel whose subscribe was still in flight as soon as it is acked", () => {
    const { core, sent, msg } = setup(0);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    core.unsubscribe(sub.key);
    msg(SUBSCRIBED);
    expect(sent.at(-1)).toEqual({ event: "unsubscribe", chanId: 7 });
    msg(ack(7));
    expect(core.subs.size).toBe(0);
    expect(core.channels.size).toBe(0);
  });

  it("never resubscribes a channel the user is dropping, on a checksum failure or 20061", () => {
    const { core, sent, msg } = setup(CONF_FLAGS.OB_CHECKSUM);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM });
    msg(SUBSCRIBED);
    msg([7, [[100, 1, 2]]]);
    core.unsubscribe(sub.key);
    msg([7, "cs", 1]);
    msg({ event: "info", code: INFO_CODES.MAINTENANCE_END, msg: "Maintenance ended" });
    msg(ack(7));
    expect(sent.filter((m) => m["event"] === "unsubscribe")).toHaveLength(1);
    expect(sent.filter((m) => m["event"] === "subscribe")).toHaveLength(1);
    expect(core.subs.size).toBe(0);
  });

  it("treats 10400 for a resyncing channel as unsubscribed and subscribes again", () => {
    const { core, sent, msg } = setup(CONF_FLAGS.OB_CHECKSUM);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM });
    msg(SUBSCRIBED);
    msg([7, [[100, 1, 2]]]);
    msg([7, "cs", 1]);
    expect(sub.status).toBe("OUT_OF_SYNC");
    msg({ event: "error", code: ERROR_CODES.UNSUB_FAILED, msg: "unsubscribe: invalid", chanId: 7 });
    expect(sent.at(-1)).toEqual({ event: "subscribe", ...BOOK_REQ });
    expect(sub.status).toBe("SUBSCRIBING");
  });

  it("gives entries with extra trailing fields to the full path, like JSON.parse would", () => {
    const { core, msg } = setup(0);
    core.subscribe(BOOK_REQ);
    core.onOpen();
    msg(SUBSCRIBED);
    msg([7, [[100, 1, 2]]]);
    core.onMessage("[7,[101,1,2,0]]");
    expect(core.channels.get(7)?.book?.bids.size).toBe(2);
    expect(core.stats.malformed).toBe(0);
  });
});

describe("feed health for the badge", () => {
  it("never reports a negative rate, and keeps the subscription's checksum counts while it has no channel", () => {
    const { core, msg } = setup(CONF_FLAGS.OB_CHECKSUM);
    const sub = core.subscribe(BOOK_REQ);
    core.onOpen();
    msg({ event: "conf", status: "OK", flags: CONF_FLAGS.OB_CHECKSUM });
    msg(SUBSCRIBED);
    msg([7, [[100, 1, 2]]]);
    msg([7, "cs", 12345]); // mismatch: the channel goes away while it resubscribes
    expect(healthOf(core.channels.get(7), 2000, -40, 5000)).toMatchObject({ messagesPerSecond: 0 });
    msg({ event: "unsubscribed", status: "OK", chanId: 7 });
    expect(healthOf(undefined, 2000, 0, 5000, sub)).toMatchObject({ checksumsFailed: 1, resyncs: 1 });
  });
});
