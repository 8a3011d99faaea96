/**
 * Round trips of every positional record in records.ts:
 *  - over generated values: encode → wire text → decode gives the value back, field for field, and
 *    the derived fields follow from it;
 *  - over the captured wire (../shared/bitfinex/ws-message-examples.jsonl beside the repository):
 *    decode → encode gives the frame's text back byte for byte.
 * Codecs are found by shape among the module's exports, so a codec added later is covered without
 * touching this file (its derived fields need an entry in DERIVED when they are not the identity).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DecodeResult, FieldKind, FieldSpec } from "./positional";
import * as records from "./records";
import {
  decodeFeeEntry,
  decodeFundingInfo,
  decodeMarginInfo,
  decodeTickersRow,
  encodeFeeEntry,
  encodeFundingInfo,
  encodeMarginInfo,
  encodeTickersRow,
  fundingTickerCodec,
  isActiveFundingStatus,
  NOTIFICATION_TTL,
  orderTypeValue,
  tickerCodec,
  walletAvailable,
} from "./records";

type Fields = Record<string, unknown>;

interface AnyCodec {
  readonly spec: FieldSpec;
  readonly length: number;
  readonly fields: Readonly<Record<string, number>>;
  decode(raw: unknown): DecodeResult<unknown>;
  decodeFields(raw: unknown): DecodeResult<Fields>;
  encode(value: Fields, layoutLength?: number): unknown[];
}

function isCodec(x: unknown): x is AnyCodec {
  return (
    typeof x === "object" &&
    x !== null &&
    "spec" in x &&
    "length" in x &&
    typeof (x as { encode?: unknown }).encode === "function" &&
    typeof (x as { decodeFields?: unknown }).decodeFields === "function"
  );
}

/** Every codec exported, once (an alias such as the offer's second reading is the loan codec). */
const CODECS: readonly (readonly [string, AnyCodec])[] = (() => {
  const seen = new Set<AnyCodec>();
  const out: [string, AnyCodec][] = [];
  for (const [name, value] of Object.entries(records)) {
    if (!isCodec(value) || seen.has(value)) continue;
    seen.add(value);
    out.push([name, value]);
  }
  return out;
})();

const toWire = (row: unknown): unknown => JSON.parse(JSON.stringify(row));

/** JSON has no negative zero: -0 is written as 0, so generated values never hold one. */
function noNegativeZero(v: unknown): unknown {
  if (Object.is(v, -0)) return 0;
  if (Array.isArray(v)) return v.map(noNegativeZero);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      Object.defineProperty(out, k, { value: noNegativeZero(x), enumerable: true });
    return out;
  }
  return v;
}

const num: fc.Arbitrary<number> = fc
  .oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.maxSafeInteger())
  .map((x) => (x === 0 ? 0 : x)); // -0 === 0: both become 0
const str = fc.oneof(fc.string(), fc.string({ unit: "binary" }));
const KIND: Readonly<Record<FieldKind, fc.Arbitrary<unknown>>> = {
  num,
  "num?": fc.option(num, { nil: null }),
  str,
  "str?": fc.option(str, { nil: null }),
  bool: fc.boolean(),
  any: fc.jsonValue().map(noNegativeZero),
};

/** Values the derived fields branch on, mixed into the generated ones so every branch is taken. */
const STATUS = fc.oneof(
  fc.constantFrom("ACTIVE", "PARTIALLY FILLED @ 1.0(0.5)", "EXECUTED @ 1.0(1.0)", "CANCELED", "CLOSED (used)"),
  str,
);
const OVERRIDES: Readonly<Record<string, Readonly<Record<string, fc.Arbitrary<unknown>>>>> = {
  orderCodec: {
    type: fc.oneof(fc.constantFrom("EXCHANGE LIMIT", "LIMIT", "EXCHANGE STOP", "TRAILING STOP"), str),
    placed_id: fc.oneof(fc.constant(0), fc.constant(null), num),
  },
  authTradeCodec: { maker: fc.oneof(fc.constantFrom(1, -1, 0, null), num) },
  fundingOfferCodec: { status: fc.option(STATUS, { nil: null }) },
  walletCodec: { balance: fc.oneof(fc.constant(0), num) },
  derivStatusCodec: { markPrice: fc.oneof(fc.constantFrom(0, null), num) },
  userInfoCodec: {
    tfaTypes: fc.oneof(fc.array(fc.oneof(fc.constantFrom("otp", "u2f"), fc.integer())), KIND.any),
    isGroupWithdrawEnabled: fc.oneof(fc.constantFrom(null, 0, 1, true, false), KIND.any),
  },
  notificationCodec: {
    mts: fc.oneof(fc.double({ min: 0, max: 1e11, noNaN: true }).map(noNegativeZero), num),
    status: fc.option(fc.oneof(fc.constantFrom("SUCCESS", "ERROR", "FAILURE", "WARNING", "INFO"), str), { nil: null }),
  },
};

function valuesOf(name: string, spec: FieldSpec): fc.Arbitrary<Fields> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [field, [, kind]] of Object.entries(spec)) model[field] = OVERRIDES[name]?.[field] ?? KIND[kind];
  return fc.record(model);
}

/**
 * The decoded record expected from the wire fields `f`, where the codec derives more than the
 * fields themselves; every other codec decodes to exactly its fields.
 */
const DERIVED: Readonly<Record<string, (f: Fields) => unknown>> = {
  orderCodec: (f) => {
    const isOco = f["placed_id"] !== null && f["placed_id"] !== 0;
    return { ...f, isOco, type_value: orderTypeValue(f["type"] as string, isOco) };
  },
  authTradeCodec: (f) => ({ ...f, isMaker: f["maker"] === 1 }),
  fundingOfferCodec: (f) => ({ ...f, active: isActiveFundingStatus(f["status"] as string | null) }),
  walletCodec: ({ availableRaw, ...f }) => ({
    ...f,
    available: walletAvailable(f["balance"] as number, availableRaw as number | null),
  }),
  derivStatusCodec: (f) => {
    const d = f["priceDerivative"] as number | null;
    const m = f["markPrice"] as number | null;
    return { ...f, spread: d !== null && m !== null && m !== 0 ? d / m - 1 : null };
  },
  userInfoCodec: (f) => {
    const raw = f["tfaTypes"];
    const tfaTypes = Array.isArray(raw) ? raw.filter((t): t is string => typeof t === "string") : [];
    const g = f["isGroupWithdrawEnabled"];
    return {
      ...f,
      tfaTypes,
      tfaType: tfaTypes[0] ?? null,
      isGroupWithdrawEnabled: g === null || g === 1 || g === true,
    };
  },
  notificationCodec: (f) => {
    const mts = f["mts"] as number;
    const status = (f["status"] as string | null) ?? "INFO";
    const level =
      status === "SUCCESS"
        ? "success"
        : status === "ERROR" || status === "FAILURE"
          ? "error"
          : status === "WARNING"
            ? "warning"
            : "info";
    const type = f["type"] as string;
    return {
      type,
      sound: level === "error" || type === "te" || type.endsWith("-req"),
      level,
      message: (f["text"] as string | null) ?? "",
      tag: type,
      status,
      data: f["data"],
      mid: f["mid"],
      // Seconds (the WS on-req sample) are scaled to milliseconds.
      mts: mts < 1e11 ? Math.round(mts * 1000) : mts,
      ttl: NOTIFICATION_TTL,
      code: f["code"],
    };
  },
};

describe("every record codec round-trips generated values", () => {
  it("finds the codecs", () => {
    expect(CODECS.length).toBeGreaterThan(20);
    for (const name of Object.keys(DERIVED))
      expect(
        CODECS.map(([n]) => n),
        name,
      ).toContain(name);
  });

  for (const [name, codec] of CODECS) {
    it(`${name}: encode → wire → decode is the identity, and decode → encode gives the wire back`, () => {
      fc.assert(
        fc.property(valuesOf(name, codec.spec), (value) => {
          const row = codec.encode(value);
          expect(row).toHaveLength(codec.length);
          const wire = toWire(row);
          const fields = codec.decodeFields(wire);
          expect(fields).toEqual({ ok: true, value });
          if (!fields.ok) return;
          expect(JSON.stringify(codec.encode(fields.value))).toBe(JSON.stringify(wire));
          const derive = DERIVED[name];
          expect(codec.decode(wire)).toEqual({ ok: true, value: derive ? derive(value) : value });
        }),
      );
    });
  }

  it("field positions come from the spec", () => {
    for (const [name, codec] of CODECS)
      for (const [field, [index]] of Object.entries(codec.spec))
        expect(codec.fields[field], `${name}.${field}`).toBe(index);
    expect(records.PUBLIC_TRADE_FIELDS).toEqual({ id: 0, mts: 1, amount: 2, price: 3 });
    expect(records.CANDLE_FIELDS).toEqual({ mts: 0, open: 1, close: 2, high: 3, low: 4, volume: 5 });
  });

  it("an older, shorter layout leaves out only empty fields, and never drops a value", () => {
    const d = records.derivStatusCodec.decodeFields([
      1790133734000,
      null,
      86710.46,
      86670.5,
      null,
      62210384.95,
      null,
      1790150400000,
      0.00015317,
      3873,
      null,
      0,
      null,
      null,
      86676.3172,
      null,
      null,
      8851.89,
      null,
      null,
      null,
      0.0005,
      0.0025,
    ]);
    if (!d.ok) throw new Error("decode");
    expect(
      records.derivStatusCodec.encode({ ...d.value, clampMin: null, fundingAccruedNextCap: null }, 18),
    ).toHaveLength(18);
    const kept = records.derivStatusCodec.encode({ ...d.value, clampMin: null, fundingAccruedNextCap: 0.5 }, 18);
    expect(kept).toHaveLength(23);
    expect(kept.slice(18)).toEqual([null, null, null, null, 0.5]);
  });

  const marginInfo = fc.oneof(
    fc.record({
      kind: fc.constant("base" as const),
      pl: KIND["num?"],
      swap: KIND["num?"],
      balance: KIND["num?"],
      net: KIND["num?"],
      required: KIND["num?"],
    }),
    fc.record({
      kind: fc.constant("sym" as const),
      symbol: str,
      net: KIND["num?"],
      gross: KIND["num?"],
      buy: KIND["num?"],
      sell: KIND["num?"],
    }),
  );

  it("margin info (miu)", () => {
    fc.assert(
      fc.property(marginInfo, (m) => {
        const wire = toWire(encodeMarginInfo(m as never));
        expect(decodeMarginInfo(wire)).toEqual({ ok: true, value: m });
      }),
    );
  });

  it("funding info (fiu)", () => {
    const info = fc.record({
      symbol: str,
      yieldLoan: KIND["num?"],
      yieldLend: KIND["num?"],
      durationLoan: KIND["num?"],
      durationLend: KIND["num?"],
    });
    fc.assert(
      fc.property(info, (f) => {
        expect(decodeFundingInfo(toWire(encodeFundingInfo(f as never)))).toEqual({ ok: true, value: f });
      }),
    );
  });

  it("REST tickers rows, trading and funding", () => {
    const row = fc.oneof(
      fc.record({ symbol: str.map((s) => `t${s}`), ticker: valuesOf("tickerCodec", tickerCodec.spec) }),
      fc.record({ symbol: str.map((s) => `f${s}`), ticker: valuesOf("fundingTickerCodec", fundingTickerCodec.spec) }),
    );
    fc.assert(
      fc.property(row, ({ symbol, ticker }) => {
        const wire = toWire(encodeTickersRow(symbol, ticker as never));
        expect(decodeTickersRow(wire)).toEqual({ ok: true, value: { symbol, ticker } });
      }),
    );
  });

  it("fee overrides", () => {
    const fee = fc.record({ pair: str, taker_fee: num, maker_fee: num });
    fc.assert(
      fc.property(fee, (e) => {
        expect(decodeFeeEntry(toWire(encodeFeeEntry(e)))).toEqual({ ok: true, value: e });
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// The captured wire

const EXAMPLES_PATH = fileURLToPath(new URL("../../../shared/bitfinex/ws-message-examples.jsonl", import.meta.url));
const haveExamples = existsSync(EXAMPLES_PATH);

interface Example {
  readonly channel: string;
  readonly dir: string;
  readonly what: string;
  readonly frame: string;
}

const examples: readonly Example[] = haveExamples
  ? readFileSync(EXAMPLES_PATH, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Example)
  : [];

/**
 * Layouts the exchange sends besides the codec's own: today's ticker carries an 11th, empty field;
 * the 2019 derivatives status had 18 fields. No other record may differ in length.
 */
const OTHER_LAYOUTS = new Map<AnyCodec, readonly number[]>([
  [tickerCodec, [11]],
  [records.derivStatusCodec, [18]],
]);

/** decode → encode of one record, at the record's own layout length. */
function again(codec: AnyCodec, raw: unknown): unknown[] {
  const d = codec.decodeFields(raw);
  if (!d.ok) throw new Error(`does not decode: ${JSON.stringify(d.error)}`);
  const length = (raw as unknown[]).length;
  if (length !== codec.length) {
    const name = CODECS.find(([, c]) => c === codec)?.[0] ?? "";
    expect(OTHER_LAYOUTS.get(codec) ?? [], `${name}: a ${length}-field layout`).toContain(length);
  }
  return codec.encode(d.value, length);
}

const list = (codec: AnyCodec) => (raw: unknown) => (raw as unknown[]).map((r) => again(codec, r));
const one = (codec: AnyCodec) => (raw: unknown) => again(codec, raw);
const byArity =
  (byLength: Readonly<Record<number, AnyCodec>>) =>
  (raw: unknown): unknown => {
    const rows = raw as unknown[];
    const many = Array.isArray(rows[0]);
    const at = (r: unknown[]): AnyCodec => {
      const c = byLength[r.length];
      if (!c) throw new Error(`no codec for a ${r.length}-field row`);
      return c;
    };
    return many ? rows.map((r) => again(at(r as unknown[]), r)) : again(at(rows), rows);
  };

const ACCOUNT: Readonly<Record<string, (raw: unknown) => unknown>> = {
  os: list(records.orderCodec),
  on: one(records.orderCodec),
  ou: one(records.orderCodec),
  oc: one(records.orderCodec),
  ps: list(records.positionCodec),
  pn: one(records.positionCodec),
  pu: one(records.positionCodec),
  pc: one(records.positionCodec),
  te: one(records.authTradeCodec),
  tu: one(records.authTradeCodec),
  fte: one(records.fundingTradeCodec),
  ftu: one(records.fundingTradeCodec),
  ws: list(records.walletCodec),
  wu: one(records.walletCodec),
  bu: one(records.balanceCodec),
  fos: list(records.fundingOfferCodec),
  fon: one(records.fundingOfferCodec),
  fou: one(records.fundingOfferCodec),
  foc: one(records.fundingOfferCodec),
  fcs: list(records.fundingCreditCodec),
  fls: list(records.fundingLoanCodec),
  n: one(records.notificationCodec),
  miu: (raw) => {
    const d = decodeMarginInfo(raw);
    if (!d.ok) throw new Error("miu does not decode");
    return encodeMarginInfo(d.value);
  },
  fiu: (raw) => {
    const d = decodeFundingInfo(raw);
    if (!d.ok) throw new Error("fiu does not decode");
    return encodeFundingInfo(d.value);
  },
};

const PUBLIC: Readonly<Record<string, (raw: unknown) => unknown>> = {
  trades: byArity({ 4: records.publicTradeCodec, 5: records.publicFundingTradeCodec }),
  ticker: byArity({ 10: tickerCodec, 11: tickerCodec, 16: fundingTickerCodec }),
  candles: byArity({ 6: records.candleCodec }),
  status: (raw) =>
    Array.isArray((raw as unknown[])[0]) ? list(records.liquidationCodec)(raw) : again(records.derivStatusCodec, raw),
  book: byArity({ 3: records.bookLevelCodec, 4: records.fundingBookLevelCodec }),
  "book-R0": byArity({ 3: records.rawBookOrderCodec, 4: records.rawFundingBookOfferCodec }),
};

/** The frame with its record(s) replaced by their decode → encode, or null when it carries none. */
function reencodeFrame(ex: Example): unknown[] | null {
  const parsed: unknown = JSON.parse(ex.frame);
  if (ex.dir !== "s2c" || !Array.isArray(parsed)) return null;
  const frame: readonly unknown[] = parsed;
  if (frame[0] === 0) {
    const f = ACCOUNT[frame[1] as string];
    return f ? [frame[0], frame[1], f(frame[2]), ...frame.slice(3)] : null;
  }
  const f = PUBLIC[ex.channel];
  if (!f) return null;
  // [CHAN, PAYLOAD, …suffix] or an event [CHAN, "te", ROW, …suffix]; "hb" and "cs" carry no record.
  if (typeof frame[1] === "string")
    return frame[1] === "hb" || frame[1] === "cs" ? null : [frame[0], frame[1], f(frame[2]), ...frame.slice(3)];
  return [frame[0], f(frame[1]), ...frame.slice(2)];
}

const recordFrames = examples.filter((ex) => reencodeFrame(ex) !== null);

describe.skipIf(!haveExamples)(
  haveExamples
    ? "decode → encode reproduces the captured wire byte for byte"
    : `decode → encode against the captured wire: SKIPPED, ${EXAMPLES_PATH} is absent`,
  () => {
    it("covers every kind of record frame in the examples", () => {
      const kinds = new Set(
        recordFrames.map(
          (ex) => `${ex.channel}:${(JSON.parse(ex.frame) as unknown[])[0] === 0 ? "account" : "public"}`,
        ),
      );
      for (const k of [
        "auth:account",
        "trades:public",
        "ticker:public",
        "candles:public",
        "status:public",
        "book:public",
        "book-R0:public",
      ])
        expect(kinds, k).toContain(k);
      expect(recordFrames.length).toBeGreaterThan(40);
    });

    for (const ex of recordFrames)
      it(`${ex.channel}: ${ex.what}`, () => {
        expect(JSON.stringify(reencodeFrame(ex))).toBe(ex.frame);
      });
  },
);
