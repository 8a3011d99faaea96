/**
 * Wire shapes against ../shared/bitfinex/ws-message-examples.jsonl (frames recorded from, or
 * documented for, the real server). A scripted session — public channels with and without the
 * sequence/timestamp/checksum flags, and an account that places, updates, cancels and fills orders —
 * collects this server's frames; every frame of a kind the examples show must have the example's
 * shape: same event keys, same array lengths, same value types position by position (a null on
 * either side matches anything: the real API nulls optional fields). Funding examples are checked
 * in funding-public.test.ts and funding-offers.test.ts; margin and position examples are left out.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { CONF_FLAGS } from "../../src/protocol/index.ts";
import { listenApi } from "../test-support/api.ts";
import type { ApiServer } from "../api-server.ts";
import { DEMO } from "../store/seed.ts";
import { sharedBitfinexDir } from "./recordings.ts";
import { openVenue } from "./venue.ts";
import { messageText } from "../ws-text.ts";

const shared = sharedBitfinexDir();
const examplesFile = shared ? join(shared, "ws-message-examples.jsonl") : null;
const present = examplesFile !== null && existsSync(examplesFile);

interface Example {
  readonly channel: string;
  readonly dir: string;
  readonly what: string;
  readonly frame: string;
}

/** What is not served here: funding, margin, positions, liquidation rows, custom notifications. */
const NOT_SERVED_WHAT = /\bfunding\b|\bpositions?\b|\bmargin\b|liquidation row|balance update|custom|\bft[eu]\b/i;
/** A funding symbol in the frame (fUSD, fUST, …). */
const FUNDING_SYMBOL = /"f[A-Z]{3,}"/;

/** A frame's kind: the event (with code or channel), the account message type, or channel + form. */
function kindOf(f: unknown, channelOf: (chanId: number) => string | undefined): string | null {
  if (!Array.isArray(f)) {
    const e = f as Record<string, unknown>;
    const extra = e["event"] === "auth" ? e["status"] : (e["code"] ?? e["channel"] ?? e["status"] ?? "");
    return `event:${String(e["event"])}:${String(extra)}`;
  }
  if (f[0] === 0) return f[1] === "n" ? `n:${String((f[2] as unknown[])[1])}` : `acct:${String(f[1])}`;
  const channel = channelOf(f[0] as number);
  if (!channel) return null;
  const body: unknown = f[1];
  const form =
    typeof body === "string"
      ? body
      : Array.isArray(body) && Array.isArray(body[0])
        ? "list"
        : Array.isArray(body) && body.length > 0
          ? "row"
          : "empty";
  return `${channel}:${form}`;
}

/**
 * A channel frame without the sequence number and timestamp the conf flags append: those are
 * checked as numbers here, then the frame's own part is compared.
 */
function withoutSuffix(f: unknown): unknown {
  if (!Array.isArray(f) || f[0] === 0 || !(f.length > 2)) return f;
  const base = typeof f[1] === "string" && f[1] !== "hb" ? 3 : 2;
  const suffix = f.slice(base);
  if (suffix.length > 2 || !suffix.every((x) => typeof x === "number")) return f;
  return f.slice(0, base);
}

/** Same shape: a null on either side matches anything; arrays by length and position; objects by keys. */
function sameShape(ours: unknown, theirs: unknown, path = "$"): string | null {
  if (ours === null || theirs === null) return null;
  if (Array.isArray(theirs)) {
    if (!Array.isArray(ours)) return `${path}: array expected`;
    // A list of rows (snapshots, bulk updates) may be any length: compare the rows with the first.
    const list = theirs.length > 0 && theirs.every(Array.isArray) && ours.every(Array.isArray);
    if (list) {
      for (const row of ours) {
        const d = sameShape(row, theirs[0], `${path}[]`);
        if (d) return d;
      }
      return null;
    }
    if (ours.length !== theirs.length) return `${path}: length ${ours.length}, expected ${theirs.length}`;
    for (let i = 0; i < theirs.length; i++) {
      const d = sameShape(ours[i], theirs[i], `${path}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (typeof theirs === "object") {
    if (typeof ours !== "object" || Array.isArray(ours)) return `${path}: object expected`;
    for (const k of Object.keys(theirs)) {
      if (!(k in ours)) return `${path}.${k}: missing`;
      const d = sameShape((ours as Record<string, unknown>)[k], (theirs as Record<string, unknown>)[k], `${path}.${k}`);
      if (d) return d;
    }
    return null;
  }
  return typeof ours === typeof theirs ? null : `${path}: ${typeof ours}, expected ${typeof theirs}`;
}

const { exchange, orders, gateway } = openVenue({
  dbPath: ":memory:",
  seed: 21,
  markets: [{ symbol: "tBTCUSD", start: 30_000 }],
});

let api: ApiServer;
let url = "";
let stepper: ReturnType<typeof setInterval>;
beforeAll(async () => {
  const started = await listenApi({ exchange, heartbeatMs: 150, account: gateway });
  api = started.api;
  url = `ws://${started.host}/ws/2`;
  stepper = setInterval(() => exchange.simulator.step(), 20);
});
afterAll(async () => {
  clearInterval(stepper);
  await api.close();
});

/** One connection's frames, with its channel names by chanId. */
async function session(
  flags: number,
  script: (send: (m: unknown) => void, frames: readonly unknown[]) => Promise<void>,
) {
  const ws = new WebSocket(url);
  const frames: unknown[] = [];
  const channels = new Map<number, string>();
  ws.on("message", (d) => {
    const f = JSON.parse(messageText(d)) as unknown;
    frames.push(f);
    const e = f as Record<string, unknown>;
    if (!Array.isArray(f) && e["event"] === "subscribed") {
      const raw = e["prec"] === "R0" ? "book-R0" : String(e["channel"]);
      channels.set(e["chanId"] as number, raw);
    }
  });
  await new Promise((r) => ws.once("open", r));
  const send = (m: unknown): void => ws.send(JSON.stringify(m));
  if (flags !== 0) send({ event: "conf", flags });
  await script(send, frames);
  ws.close();
  return { frames, channelOf: (id: number) => channels.get(id) };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!present)("wire shapes against the recorded examples (needs ../shared; skipped when absent)", () => {
  it("sends every served kind in the examples' shapes", async () => {
    const examples = readFileSync(examplesFile as string, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Example)
      .filter((e) => e.dir === "s2c" && !NOT_SERVED_WHAT.test(e.what) && !FUNDING_SYMBOL.test(e.frame));
    const theirs = new Map<string, unknown[]>();
    for (const e of examples) {
      const f = JSON.parse(e.frame) as unknown;
      const chan = Array.isArray(f) && f[0] !== 0 ? e.channel : undefined;
      const kind = kindOf(f, () => chan);
      if (kind) theirs.set(kind, [...(theirs.get(kind) ?? []), f]);
    }

    const subscribeAll = (send: (m: unknown) => void): void => {
      send({ event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" });
      send({ event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "R0", len: "25" });
      send({ event: "subscribe", channel: "trades", symbol: "tBTCUSD" });
      send({ event: "subscribe", channel: "ticker", symbol: "tBTCUSD" });
      send({ event: "subscribe", channel: "candles", key: "trade:1m:tBTCUSD" });
    };
    const plain = await session(0, async (send, got) => {
      subscribeAll(send);
      send({ event: "subscribe", channel: "book", symbol: "tBTCUSD", prec: "P0", freq: "F0", len: "25" });
      send({ event: "subscribe", channel: "book", symbol: "tNOPE", prec: "P0", freq: "F0", len: "25" });
      send({ event: "ping", cid: 1234 });
      await wait(600);
      const first = got.find((f) => (f as Record<string, unknown>)["event"] === "subscribed");
      send({ event: "unsubscribe", chanId: (first as Record<string, unknown>)["chanId"] });
      await wait(100);
    });
    const flagged = await session(CONF_FLAGS.SEQ_ALL | CONF_FLAGS.TIMESTAMP | CONF_FLAGS.OB_CHECKSUM, async (send) => {
      subscribeAll(send);
      await wait(600);
    });
    const bulk = await session(CONF_FLAGS.BULK_UPDATES | CONF_FLAGS.SEQ_ALL | CONF_FLAGS.TIMESTAMP, async (send) => {
      subscribeAll(send);
      await wait(600);
    });
    const login = await fetch(url.replace("ws://", "http://").replace("/ws/2", "/v2/login"), {
      method: "POST",
      body: JSON.stringify({ login: DEMO.username, password: DEMO.password }),
    });
    const [token] = (await login.json()) as [string];
    const account = await session(0, async (send) => {
      send({ event: "auth", apiKey: DEMO.apiKey, authSig: "00", authNonce: 1, authPayload: "AUTH1" });
      send({ event: "auth", token });
      await wait(200);
      const bid = exchange.markets.get("tBTCUSD")?.engine.bestBid() as number;
      const price = String(Number((bid * 0.8).toPrecision(5)));
      send([0, "on", null, { cid: 1, type: "EXCHANGE LIMIT", symbol: "tBTCUSD", amount: "0.01", price }]);
      await wait(150);
      const id = orders.openOrdersWire(1)[0]?.[0];
      send([0, "ou", null, { id, price: String(Number(price) - 10) }]);
      await wait(100);
      send([0, "oc", null, { id }]);
      send([0, "on", null, { cid: 2, type: "EXCHANGE MARKET", symbol: "tBTCUSD", amount: "0.01" }]);
      await wait(500);
    });

    const checked = new Set<string>();
    const problems: string[] = [];
    for (const s of [plain, flagged, bulk, account]) {
      for (const f of s.frames) {
        const kind = kindOf(f, s.channelOf);
        const refs = kind ? theirs.get(kind) : undefined;
        if (!kind || !refs) continue;
        const diffs = refs.map((r) => sameShape(withoutSuffix(f), withoutSuffix(r)));
        if (diffs.some((d) => d === null)) checked.add(kind);
        else problems.push(`${kind}: ${diffs.join("; ")} in ${JSON.stringify(f).slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
    // Every kind the examples show and this server serves was seen and matched.
    const served = [
      "event:info:",
      "event:conf:OK",
      "event:pong:",
      "event:unsubscribed:OK",
      "event:error:10300",
      "event:error:10301",
      "event:subscribed:book",
      "event:subscribed:trades",
      "event:subscribed:ticker",
      "event:subscribed:candles",
      "event:auth:OK",
      "event:auth:FAILED",
      "book:list",
      "book:row",
      "book:cs",
      "book:hb",
      "book-R0:list",
      "book-R0:row",
      "trades:list",
      "trades:te",
      "trades:tu",
      "ticker:row",
      "candles:list",
      "candles:row",
      "acct:on",
      "acct:ou",
      "acct:oc",
      "acct:ws",
      "acct:wu",
      "acct:te",
      "acct:tu",
      "n:on-req",
      "n:oc-req",
    ];
    expect(served.filter((k) => !checked.has(k))).toEqual([]);
  });
});
