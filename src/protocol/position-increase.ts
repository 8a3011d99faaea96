/**
 * `r/position/increase/info {symbol, amount}` — what adding to a margin position from the margin
 * wallet's own funds may take (docs/protocol.md#authenticated-calls). The answer nests arrays:
 * `[[MAX_POS, CURRENT_POS], [BASE_BALANCE, [TRADABLE_QUOTE, TRADABLE_QUOTE_TOTAL, TRADABLE_BASE,
 * TRADABLE_BASE_TOTAL], FUNDING_AVAIL], _, _, [FUNDING_VALUE, FUNDING_REQUIRED],
 * [FUNDING_VALUE_CURRENCY, FUNDING_REQUIRED_CURRENCY]]`. One table per inner array, as for every
 * other record, so the exchange's encoder and the client's decoder cannot disagree.
 */
import {
  decodePositional,
  encodePositional,
  fail,
  type Decoded,
  type DecodeResult,
  type FieldSpec,
} from "./positional";

const POSITION_PART = { maxPos: [0, "num"], currentPos: [1, "num"] } as const satisfies FieldSpec;
const BALANCE_PART = { baseBalance: [0, "num"], fundingAvail: [2, "num?"] } as const satisfies FieldSpec;
const TRADABLE_PART = {
  tradableQuote: [0, "num"],
  tradableQuoteTotal: [1, "num"],
  tradableBase: [2, "num"],
  tradableBaseTotal: [3, "num"],
} as const satisfies FieldSpec;
const FUNDING_PART = { fundingValue: [0, "num?"], fundingRequired: [1, "num?"] } as const satisfies FieldSpec;
const FUNDING_CCY_PART = {
  fundingValueCurrency: [0, "str?"],
  fundingRequiredCurrency: [1, "str?"],
} as const satisfies FieldSpec;

export type PositionIncreaseInfo = Decoded<typeof POSITION_PART> &
  Decoded<typeof BALANCE_PART> &
  Decoded<typeof TRADABLE_PART> &
  Decoded<typeof FUNDING_PART> &
  Decoded<typeof FUNDING_CCY_PART>;

const RECORD = "position increase info";

export function encodePositionIncreaseInfo(i: PositionIncreaseInfo): unknown[] {
  const balance = encodePositional(BALANCE_PART, i, 3);
  balance[1] = encodePositional(TRADABLE_PART, i, 4);
  return [
    encodePositional(POSITION_PART, i, 2),
    balance,
    null,
    null,
    encodePositional(FUNDING_PART, i, 2),
    encodePositional(FUNDING_CCY_PART, i, 2),
  ];
}

export function decodePositionIncreaseInfo(raw: unknown): DecodeResult<PositionIncreaseInfo> {
  if (!Array.isArray(raw)) return fail(RECORD, "record", 0, "not-an-array");
  const balanceRaw: unknown = raw[1];
  if (!Array.isArray(balanceRaw)) return fail(RECORD, "balance", 1, "not-an-array");
  const position = decodePositional(RECORD, POSITION_PART, raw[0]);
  if (!position.ok) return position;
  const balance = decodePositional(RECORD, BALANCE_PART, balanceRaw);
  if (!balance.ok) return balance;
  const tradable = decodePositional(RECORD, TRADABLE_PART, balanceRaw[1]);
  if (!tradable.ok) return tradable;
  // The funding parts are informative: an exchange that leaves them out still answers the question.
  const funding = decodePositional(RECORD, FUNDING_PART, raw[4] ?? [null, null]);
  if (!funding.ok) return funding;
  const currencies = decodePositional(RECORD, FUNDING_CCY_PART, raw[5] ?? [null, null]);
  if (!currencies.ok) return currencies;
  return {
    ok: true,
    value: { ...position.value, ...balance.value, ...tradable.value, ...funding.value, ...currencies.value },
  };
}
