/**
 * OTC block trades (`w/int/otc/quote`, `w/int/otc/accept`, `r/int/otc/hist`;
 * docs/product-rules.md#otc-block-trades, wire in docs/protocol.md#otc-block-trades). One copy for
 * the page that checks the form as it is filled and the exchange that checks it again: the pairs,
 * the minimum block per base currency, the spread, the quote's lifetime, the price math, the bodies
 * and the refusals the exchange sends (the web app maps them to localized messages). The amount
 * rules, the quote id and the decimal reading are the conversions' (conversions.ts), shared, not
 * copied. Nothing here is user text.
 */
import { decimalToUnits, isConversionQuoteId } from "./conversions";
import { checkTransferAmount, TRANSFER_REFUSALS } from "./transfers";

/** The pairs a block can be quoted on: the listed spot pairs whose books are deep enough to price one. */
export const OTC_PAIRS = ["BTCUSD", "ETHUSD", "ETHBTC", "LTCUSD", "XRPUSD", "SOLUSD", "BTCEUR", "BTCJPY"] as const;
export type OtcPair = (typeof OTC_PAIRS)[number];

/**
 * The smallest block, in the pair's base currency: a few thousand dollars' worth, so a block is
 * worth a desk's attention yet stays within what the exchange's books can price.
 */
export const OTC_MIN_AMOUNT: Readonly<Record<string, number>> = {
  BTC: 0.05,
  ETH: 1,
  LTC: 25,
  XRP: 1_000,
  SOL: 15,
};

/** The spread over the book's average price, in parts per million: 0.5 %, added for a buy and taken off for a sell. */
export const OTC_SPREAD_PPM = 5_000;

/** How long a quote holds: 15 s of the exchange's clock. */
export const OTC_QUOTE_MS = 15_000;

/** Significant digits of a quoted price, as the exchange prices orders. */
export const OTC_PRICE_DIGITS = 5;

export type OtcSide = "buy" | "sell";
export const OTC_SIDES: readonly OtcSide[] = ["buy", "sell"];

export function isOtcPair(v: unknown): v is OtcPair {
  return typeof v === "string" && (OTC_PAIRS as readonly string[]).includes(v);
}

/** A pair's base and quote currencies (every OTC pair is 3 + 3 letters). */
export function otcCurrencies(pair: OtcPair): { readonly base: string; readonly quote: string } {
  return { base: pair.slice(0, 3), quote: pair.slice(3) };
}

/** The smallest block on a pair, in its base currency. */
export function otcMinAmount(pair: OtcPair): number {
  return OTC_MIN_AMOUNT[otcCurrencies(pair).base] ?? Number.POSITIVE_INFINITY;
}

/** The refusals the exchange answers an OTC call with (`["error", CODE, MESSAGE]`). */
export const OTC_REFUSALS = {
  pair: "pair: not quoted over the counter",
  side: "side: invalid",
  amount: TRANSFER_REFUSALS.amount,
  precision: TRANSFER_REFUSALS.precision,
  tooSmall: "amount: below the minimum block",
  liquidity: "amount: more than the book can price now",
  // The book is one-sided, too wide or just pushed (the conversions' guard): no price to trust now.
  unreliable: "price: not reliable now",
  insufficient: "amount: insufficient balance in the wallet",
  quote: "quote: invalid",
  notFound: "quote: not found",
  expired: "quote: expired",
  used: "quote: already accepted",
} as const;

export type OtcRefusal = keyof typeof OTC_REFUSALS;

/** Which refusal a message is; null for a message of another kind. */
export function otcRefusalOf(message: string): OtcRefusal | null {
  for (const [k, v] of Object.entries(OTC_REFUSALS)) if (v === message) return k as OtcRefusal;
  return null;
}

/** A block asked for, as the page sends it. */
export interface OtcRequest {
  readonly pair: string;
  readonly side: string;
  /** Decimal text in the base currency, as typed. */
  readonly amount: string;
}

/**
 * What is wrong with a request's fields, or null: the pair, the side, the amount by the transfer
 * rules (plain decimal text above 0, at most 8 decimals) and the pair's minimum block. The balance
 * and the book are checked where they are known.
 */
export function otcProblem(r: {
  readonly pair: unknown;
  readonly side: unknown;
  readonly amount: unknown;
}): OtcRefusal | null {
  if (!isOtcPair(r.pair)) return "pair";
  if (r.side !== "buy" && r.side !== "sell") return "side";
  const problem = checkTransferAmount(r.amount, otcCurrencies(r.pair).base);
  if (problem === "invalid") return "amount";
  if (problem === "precision") return "precision";
  const n = typeof r.amount === "number" ? r.amount : Number(String(r.amount).trim());
  return n < otcMinAmount(r.pair) ? "tooSmall" : null;
}

/** `w/int/otc/quote`'s body. */
export function encodeOtcQuoteRequest(r: OtcRequest): Record<string, unknown> {
  return { pair: r.pair, side: r.side, amount: r.amount.trim() };
}

/** A quote request as the exchange reads it: the fields checked by `otcProblem`, the amount as integer units. */
export function readOtcQuoteRequest(
  body: Readonly<Record<string, unknown>>,
):
  | { readonly ok: true; readonly pair: OtcPair; readonly side: OtcSide; readonly amountUnits: number }
  | { readonly ok: false; readonly refusal: OtcRefusal } {
  const r = { pair: body["pair"], side: body["side"], amount: body["amount"] };
  const problem = otcProblem(r);
  if (problem !== null) return { ok: false, refusal: problem };
  const units = decimalToUnits(String(r.amount));
  if (units === null || units <= 0) return { ok: false, refusal: "amount" };
  return { ok: true, pair: r.pair as OtcPair, side: r.side as OtcSide, amountUnits: units };
}

/** `w/int/otc/accept`'s body: the quote to trade at. */
export function encodeOtcAcceptRequest(quoteId: string): Record<string, unknown> {
  return { quote: quoteId };
}

/** A quote id: the conversions' form (32 hex characters, 16 random bytes). */
export const isOtcQuoteId = isConversionQuoteId;

// ---- the price -----------------------------------------------------------------------------------

/** `value` rounded to `digits` significant digits, up or down (never to the nearest: the side decides). */
export function roundSignificant(value: number, digits: number, direction: "up" | "down"): number {
  if (!(value > 0) || !Number.isFinite(value)) return 0;
  const scale = 10 ** (digits - 1 - Math.floor(Math.log10(value)));
  // The epsilon keeps a value already on the grid (binary noise of 86500 * 1e-1) where it is.
  const scaled = direction === "up" ? Math.ceil(value * scale - 1e-9) : Math.floor(value * scale + 1e-9);
  return Number((scaled / scale).toPrecision(digits));
}

/** A quote's figures: the price per base unit and the total in units (1e-8) of the quote currency. */
export interface OtcFigures {
  /** The book's average price over the amount, before the spread. */
  readonly bookPrice: number;
  readonly price: number;
  readonly totalUnits: number;
}

/**
 * Prices a block from the book side it would take (asks for a buy, bids for a sell), best level
 * first as `[price, amount in base]`: the average price over `amountUnits`, the spread added (buy)
 * or taken off (sell), rounded to OTC_PRICE_DIGITS away from the account's favour; the total is
 * the amount at that price in exact integer arithmetic, rounded up for a buy and down for a sell,
 * so the exchange never gives a fraction of a unit it did not price. Null when the side cannot
 * fill the amount, or for a result beyond 2^53 units.
 */
export function otcFigures(
  amountUnits: number,
  side: OtcSide,
  levels: readonly (readonly [number, number])[],
  spreadPpm: number = OTC_SPREAD_PPM,
): OtcFigures | null {
  if (!Number.isSafeInteger(amountUnits) || amountUnits <= 0) return null;
  let left = amountUnits;
  let cost = 0;
  for (const [price, amount] of levels) {
    if (!(price > 0) || !(amount > 0)) continue;
    const take = Math.min(left, Math.round(amount * 1e8));
    cost += take * price;
    left -= take;
    if (left <= 0) break;
  }
  if (left > 0) return null;
  const bookPrice = cost / amountUnits;
  const spread = side === "buy" ? 1 + spreadPpm / 1e6 : 1 - spreadPpm / 1e6;
  const price = roundSignificant(bookPrice * spread, OTC_PRICE_DIGITS, side === "buy" ? "up" : "down");
  if (!(price > 0)) return null;
  // The price as an exact fraction: 5 significant digits fit in a scaled integer whatever its size.
  const decimals = Math.max(0, OTC_PRICE_DIGITS - 1 - Math.floor(Math.log10(price)));
  const scale = 10n ** BigInt(decimals);
  const scaled = BigInt(Math.round(price * 10 ** decimals));
  const product = BigInt(amountUnits) * scaled;
  const total = side === "buy" ? (product + scale - 1n) / scale : product / scale;
  if (total > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { bookPrice, price, totalUnits: Number(total) };
}

// ---- quotes, trades and the history --------------------------------------------------------------

/**
 * A quote: `amount` of the pair's base bought or sold at `price`, `total` of its quote currency
 * paid or received; good from `mts` until `expires` (the exchange's clock, epoch ms).
 */
export interface OtcQuote {
  readonly id: string;
  readonly pair: OtcPair;
  readonly side: OtcSide;
  readonly amount: number;
  readonly price: number;
  readonly total: number;
  readonly mts: number;
  readonly expires: number;
}

/** A block traded: its quote's figures, `mts` when it was accepted and `tradeId` its row in the trade history. */
export interface OtcTrade {
  readonly id: string;
  readonly pair: OtcPair;
  readonly side: OtcSide;
  readonly amount: number;
  readonly price: number;
  readonly total: number;
  readonly mts: number;
  readonly tradeId: number;
}

/** What became of a quote: still open, accepted, or run out unused. */
export type OtcOutcome = "OPEN" | "ACCEPTED" | "EXPIRED";

/** A quote in the history, with its outcome and when it was accepted (null unless it was). */
export interface OtcHistoryEntry extends OtcQuote {
  readonly status: OtcOutcome;
  readonly accepted: number | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isAmount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isSide = (v: unknown): v is OtcSide => v === "buy" || v === "sell";

type Fields = Omit<OtcQuote, "expires">;

function decodeFields(raw: unknown): Fields | null {
  if (!isRecord(raw)) return null;
  const { id, pair, side, amount, price, total, mts } = raw;
  if (!isOtcQuoteId(id) || !isOtcPair(pair) || !isSide(side)) return null;
  if (!isAmount(amount) || !isAmount(price) || !isAmount(total) || !isAmount(mts)) return null;
  return { id, pair, side, amount, price, total, mts };
}

function encodeFields(q: Fields): Record<string, unknown> {
  return { id: q.id, pair: q.pair, side: q.side, amount: q.amount, price: q.price, total: q.total, mts: q.mts };
}

/** `w/int/otc/quote`'s answer: `{id, pair, side, amount, price, total, mts, expires}`. */
export const otcQuoteCodec = {
  encode(q: OtcQuote): Record<string, unknown> {
    return { ...encodeFields(q), expires: q.expires };
  },
  decode(raw: unknown): OtcQuote | null {
    const f = decodeFields(raw);
    const expires = isRecord(raw) ? raw["expires"] : undefined;
    return f !== null && isAmount(expires) && expires > f.mts ? { ...f, expires } : null;
  },
};

/** The trade a `w/int/otc/accept` notification carries (`acc_otc`, its DATA field). */
export const otcTradeCodec = {
  encode(t: OtcTrade): Record<string, unknown> {
    return { ...encodeFields(t), tradeId: t.tradeId };
  },
  decode(raw: unknown): OtcTrade | null {
    const f = decodeFields(raw);
    const tradeId = isRecord(raw) ? raw["tradeId"] : undefined;
    return f !== null && isAmount(tradeId) && Number.isSafeInteger(tradeId) ? { ...f, tradeId } : null;
  },
};

const OUTCOMES: readonly OtcOutcome[] = ["OPEN", "ACCEPTED", "EXPIRED"];

/** `r/int/otc/hist`'s answer: the account's quotes, newest first, each with its outcome. */
export const otcHistoryCodec = {
  encode(list: readonly OtcHistoryEntry[]): Record<string, unknown>[] {
    return list.map((e) => ({ ...otcQuoteCodec.encode(e), status: e.status, accepted: e.accepted }));
  },
  decode(raw: unknown): OtcHistoryEntry[] | null {
    if (!Array.isArray(raw)) return null;
    const out: OtcHistoryEntry[] = [];
    for (const r of raw as unknown[]) {
      const q = otcQuoteCodec.decode(r);
      if (q === null || !isRecord(r)) return null;
      const { status, accepted } = r;
      if (!(OUTCOMES as readonly unknown[]).includes(status)) return null;
      if (accepted !== null && !isAmount(accepted)) return null;
      out.push({ ...q, status: status as OtcOutcome, accepted });
    }
    return out;
  },
};

/** The notification type of a block trade (its `n` and its REST answer), a wallet notification like `acc_cv`. */
export const OTC_NOTIFICATION = "acc_otc";

/** The order type a block's row in the trade history carries: a spot trade, priced over the counter. */
export const OTC_ORDER_TYPE = "EXCHANGE OTC";

/** How many quotes `r/int/otc/hist` answers at most (the newest). */
export const OTC_HISTORY_LIMIT = 50;
