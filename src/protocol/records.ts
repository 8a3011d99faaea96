/**
 * Typed records for every positional entity (docs/product-rules.md#entities, docs/protocol.md#records),
 * each with its decoder and (for the embedded exchange) encoder. Field names are the product's;
 * positions are the wire's. Derived fields (isOco, type_value, wallet `available`, deriv `spread`, …) are
 * computed here, once, so no consumer guesses a meaning from a tuple's length.
 */
import {
  decodeList,
  decodePositional,
  encodePositional,
  fail,
  fieldIndexes,
  type Decoded,
  type DecodeResult,
  type FieldSpec,
} from "./positional";

function codec<S extends FieldSpec, T>(record: string, spec: S, length: number, derive: (d: Decoded<S>) => T) {
  return {
    spec,
    length,
    /** Each field's wire position, derived from the spec: for allocation-free reads. */
    fields: fieldIndexes(spec),
    decode(raw: unknown): DecodeResult<T> {
      const d = decodePositional(record, spec, raw);
      return d.ok ? { ok: true, value: derive(d.value) } : d;
    },
    decodeList(raw: unknown): DecodeResult<T[]> {
      return decodeList(raw, (r) => this.decode(r), record);
    },
    /** The wire fields as they are, before the derived ones: exactly what `encode` takes. */
    decodeFields(raw: unknown): DecodeResult<Decoded<S>> {
      return decodePositional(record, spec, raw);
    },
    /** `layoutLength`: an older, shorter (or longer) layout of the record, e.g. an 18-field status. */
    encode(value: Decoded<S>, layoutLength: number = length): unknown[] {
      return encodePositional(spec, value, layoutLength);
    },
  };
}

const same = <T>(d: T): T => d;

// ---------------------------------------------------------------------------------------------
// Orders (32 fields)

const ORDER = {
  id: [0, "num"],
  group_id: [1, "num?"],
  client_id: [2, "num?"],
  symbol: [3, "str"],
  mts_create: [4, "num"],
  mts_update: [5, "num"],
  amount: [6, "num"],
  original_amount: [7, "num"],
  type: [8, "str"],
  type_prev: [9, "str?"],
  mts_tif: [10, "num?"],
  flags: [12, "num?"],
  status: [13, "str"],
  price: [16, "num?"],
  price_average: [17, "num?"],
  price_trailing: [18, "num?"],
  price_aux_limit: [19, "num?"],
  notify: [23, "bool"],
  hidden: [24, "bool"],
  placed_id: [25, "num?"],
  routing: [28, "str?"],
  meta: [31, "any"],
} as const satisfies FieldSpec;

export type Order = Decoded<typeof ORDER> & {
  /** True when the order is one leg of an OCO pair (placed_id is set). */
  readonly isOco: boolean;
  /** The type without any EXCHANGE prefix, prefixed "OCO " for OCO orders (docs/product-rules.md#derived-fields). */
  readonly type_value: string;
};

/** Spot (exchange wallet) orders carry this prefix on their type; margin orders the bare type. */
export const EXCHANGE_ORDER_PREFIX = "EXCHANGE ";

export function isExchangeOrderType(type: string): boolean {
  return type.startsWith(EXCHANGE_ORDER_PREFIX);
}

export function orderTypeValue(type: string, isOco: boolean): string {
  const bare = isExchangeOrderType(type) ? type.slice(EXCHANGE_ORDER_PREFIX.length) : type;
  return isOco ? `OCO ${bare}` : bare;
}

export const orderCodec = codec("order", ORDER, 32, (d): Order => {
  const isOco = d.placed_id !== null && d.placed_id !== 0;
  return { ...d, isOco, type_value: orderTypeValue(d.type, isOco) };
});

/** Order flags, summed into `flags` (docs/protocol.md#order-flags). */
export const ORDER_FLAGS = {
  HIDDEN: 64,
  CLOSE: 512,
  REDUCE_ONLY: 1024,
  POST_ONLY: 4096,
  OCO: 16384,
  NO_VAR_RATES: 524288,
} as const;

/** Order types the exchange supports, margin (bare) and exchange (spot) forms. */
export const ORDER_TYPES = ["LIMIT", "MARKET", "STOP", "STOP LIMIT", "TRAILING STOP", "FOK", "IOC"] as const;
export type OrderTypeName = (typeof ORDER_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Trades

/** Own trade (`te`/`tu`, REST trades hist): 12 fields. `te` carries no fee; `tu` does. */
const AUTH_TRADE = {
  id: [0, "num"],
  pair: [1, "str"],
  mts_create: [2, "num"],
  order_id: [3, "num"],
  exec_amount: [4, "num"],
  exec_price: [5, "num"],
  order_type: [6, "str?"],
  order_price: [7, "num?"],
  maker: [8, "num?"],
  fee: [9, "num?"],
  fee_currency: [10, "str?"],
  cid: [11, "num?"],
} as const satisfies FieldSpec;
export type AuthTrade = Decoded<typeof AUTH_TRADE> & { readonly isMaker: boolean };
export const authTradeCodec = codec("trade", AUTH_TRADE, 12, (d): AuthTrade => ({ ...d, isMaker: d.maker === 1 }));

/** Public trading trade [ID, MTS, AMOUNT, PRICE]; amount sign is the taker side. */
const PUBLIC_TRADE = {
  id: [0, "num"],
  mts: [1, "num"],
  amount: [2, "num"],
  price: [3, "num"],
} as const satisfies FieldSpec;
export type PublicTrade = Decoded<typeof PUBLIC_TRADE>;
export const publicTradeCodec = codec("public trade", PUBLIC_TRADE, 4, same);
/** Positions in a public trade row, for the worker's trades list (no record per trade). */
export const PUBLIC_TRADE_FIELDS = publicTradeCodec.fields;

/** Public funding trade [ID, MTS, AMOUNT, RATE, PERIOD]. */
const PUBLIC_FUNDING_TRADE = {
  id: [0, "num"],
  mts: [1, "num"],
  amount: [2, "num"],
  rate: [3, "num"],
  period: [4, "num"],
} as const satisfies FieldSpec;
export type PublicFundingTrade = Decoded<typeof PUBLIC_FUNDING_TRADE>;
export const publicFundingTradeCodec = codec("public funding trade", PUBLIC_FUNDING_TRADE, 5, same);
export const PUBLIC_FUNDING_TRADE_FIELDS = publicFundingTradeCodec.fields;

/** Own funding trade (`fte`/`ftu`). */
const FUNDING_TRADE = {
  id: [0, "num"],
  symbol: [1, "str"],
  mts_create: [2, "num"],
  offer_id: [3, "num"],
  amount: [4, "num"],
  rate: [5, "num"],
  period: [6, "num"],
  maker: [7, "num?"],
} as const satisfies FieldSpec;
export type FundingTrade = Decoded<typeof FUNDING_TRADE>;
export const fundingTradeCodec = codec("funding trade", FUNDING_TRADE, 8, same);

// ---------------------------------------------------------------------------------------------
// Positions (20)

const POSITION = {
  pair: [0, "str"],
  status: [1, "str"],
  amount: [2, "num"],
  basePrice: [3, "num"],
  swap: [4, "num?"],
  swapType: [5, "num?"],
  pl: [6, "num?"],
  plPercent: [7, "num?"],
  liqPrice: [8, "num?"],
  leverage: [9, "num?"],
  id: [11, "num?"],
  mtsCreate: [12, "num?"],
  mtsUpdate: [13, "num?"],
  posType: [15, "num?"],
  collateral: [17, "num?"],
  minCollateral: [18, "num?"],
  maxCollateral: [19, "any"],
} as const satisfies FieldSpec;
export type Position = Decoded<typeof POSITION>;
export const positionCodec = codec("position", POSITION, 20, same);

// ---------------------------------------------------------------------------------------------
// Funding offers, credits, loans

/** Funding offer, first reading (21 fields, docs/protocol.md#funding-offers). */
const FUNDING_OFFER = {
  id: [0, "num"],
  symbol: [1, "str"],
  mtsCreate: [2, "num?"],
  mtsUpdate: [3, "num?"],
  amount: [4, "num"],
  amountOrig: [5, "num?"],
  type: [6, "str?"],
  flags: [9, "num?"],
  status: [10, "str?"],
  rate: [14, "num"],
  period: [15, "num"],
  notify: [16, "bool"],
  hidden: [17, "bool"],
  renew: [19, "bool"],
  rateReal: [20, "num?"],
} as const satisfies FieldSpec;
export type FundingOffer = Decoded<typeof FUNDING_OFFER> & { readonly active: boolean };
export const fundingOfferCodec = codec("funding offer", FUNDING_OFFER, 21, (d): FundingOffer => ({
  ...d,
  active: isActiveFundingStatus(d.status),
}));

/** Funding offers with status ACTIVE or PARTIALLY FILLED count as active (docs/product-rules.md#account-records). */
export function isActiveFundingStatus(status: string | null): boolean {
  return status !== null && (status.startsWith("ACTIVE") || status.startsWith("PARTIALLY FILLED"));
}

/**
 * Funding credit (22) and loan (21): the offer's second reading (id, symbol, side, …, noClose)
 * plus positionPair for credits (docs/protocol.md#funding-credits-and-loans).
 */
const FUNDING_CREDIT = {
  id: [0, "num"],
  symbol: [1, "str"],
  side: [2, "num?"],
  mtsCreate: [3, "num?"],
  mtsUpdate: [4, "num?"],
  amount: [5, "num"],
  flags: [6, "num?"],
  status: [7, "str?"],
  type: [8, "str?"],
  rate: [11, "num"],
  period: [12, "num"],
  mtsOpening: [13, "num?"],
  mtsLastPayout: [14, "num?"],
  notify: [15, "bool"],
  hidden: [16, "bool"],
  renew: [18, "bool"],
  rateReal: [19, "num?"],
  noClose: [20, "bool"],
  positionPair: [21, "str?"],
} as const satisfies FieldSpec;
export type FundingCredit = Decoded<typeof FUNDING_CREDIT>;
export const fundingCreditCodec = codec("funding credit", FUNDING_CREDIT, 22, same);
const { positionPair: _pp, ...FUNDING_LOAN } = FUNDING_CREDIT;
export type FundingLoan = Decoded<typeof FUNDING_LOAN>;
/** The loan: the credit layout without positionPair (a funding offer's second reading has it too). */
export const fundingLoanCodec = codec("funding loan", FUNDING_LOAN, 21, same);

/** Margin-taken credits are kept only while their status contains ACTIVE (docs/product-rules.md#account-records). */
export function keepCredit(credit: Pick<FundingCredit, "status">): boolean {
  return credit.status !== null && credit.status.includes("ACTIVE");
}

// ---------------------------------------------------------------------------------------------
// Wallets, balance, ledgers, movements

const WALLET = {
  type: [0, "str"],
  currency: [1, "str"],
  balance: [2, "num"],
  interest: [3, "num?"],
  availableRaw: [4, "num?"],
  description: [5, "str?"],
  meta: [6, "any"],
} as const satisfies FieldSpec;
export type Wallet = Omit<Decoded<typeof WALLET>, "availableRaw"> & { readonly available: number };

/**
 * docs/product-rules.md#derived-fields: available is 0 when the balance is 0, and falls back to the stored available
 * (the previous value for this wallet) or the balance when the wire sends null.
 */
export function walletAvailable(balance: number, wire: number | null, stored: number | null = null): number {
  if (balance === 0) return 0;
  if (wire !== null) return wire;
  return stored ?? balance;
}

export const walletCodec = codec("wallet", WALLET, 7, ({ availableRaw, ...d }): Wallet => ({
  ...d,
  available: walletAvailable(d.balance, availableRaw),
}));

/**
 * A wallet update (`wu`): a null available on the wire keeps the wallet's last one, which
 * `stored(type, currency)` looks up (null when the wallet is new).
 */
export function decodeWalletUpdate(
  raw: unknown,
  stored: (type: string, currency: string) => number | null,
): DecodeResult<Wallet> {
  const d = walletCodec.decodeFields(raw);
  if (!d.ok) return d;
  const { availableRaw, ...rest } = d.value;
  const available = walletAvailable(rest.balance, availableRaw, stored(rest.type, rest.currency));
  return { ok: true, value: { ...rest, available } };
}

export const WALLET_TYPES = ["exchange", "margin", "funding", "creditline", "contribution"] as const;
export type WalletType = (typeof WALLET_TYPES)[number];
/** The wallet types by name, for code that picks one (a wallet row's `type`). */
export const WALLET_TYPE = {
  EXCHANGE: "exchange",
  MARGIN: "margin",
  FUNDING: "funding",
} as const satisfies Record<string, WalletType>;

/**
 * The wallet names a request may use (transfers, deposit addresses, withdrawals): the API also
 * accepts the older "trading" for margin and "deposit" for funding.
 */
export const REQUEST_WALLETS: Readonly<Record<string, WalletType>> = {
  exchange: "exchange",
  margin: "margin",
  trading: "margin",
  funding: "funding",
  deposit: "funding",
};

const BALANCE = { aum: [0, "num"], aumNet: [1, "num"] } as const satisfies FieldSpec;
export type BalanceUpdate = Decoded<typeof BALANCE>;
export const balanceCodec = codec("balance", BALANCE, 2, same);

const LEDGER = {
  id: [0, "num"],
  currency: [1, "str"],
  wallet: [2, "str?"],
  time: [3, "num"],
  amount: [5, "num"],
  balance: [6, "num?"],
  description: [8, "str?"],
} as const satisfies FieldSpec;
export type LedgerEntry = Decoded<typeof LEDGER>;
export const ledgerCodec = codec("ledger", LEDGER, 9, same);

const MOVEMENT = {
  id: [0, "num"],
  currency: [1, "str"],
  currencyName: [2, "str?"],
  mtsStarted: [5, "num?"],
  mtsUpdated: [6, "num?"],
  status: [9, "str?"],
  amount: [12, "num"],
  fees: [13, "num?"],
  destinationAddress: [16, "str?"],
  txId: [20, "str?"],
  withdrawNote: [21, "str?"],
} as const satisfies FieldSpec;
export type Movement = Decoded<typeof MOVEMENT>;
export const movementCodec = codec("movement", MOVEMENT, 22, same);

/** A transfer between wallets (`w/transfer`'s notification data). */
const TRANSFER = {
  mts: [0, "num"],
  walletFrom: [1, "str"],
  walletTo: [2, "str"],
  currency: [4, "str"],
  currencyTo: [5, "str"],
  amount: [7, "num"],
} as const satisfies FieldSpec;
export type Transfer = Decoded<typeof TRANSFER>;
export const transferCodec = codec("transfer", TRANSFER, 8, same);

/** A withdrawal request (`w/withdraw`'s notification data). */
const WITHDRAWAL = {
  id: [0, "num"],
  method: [2, "str"],
  paymentId: [3, "str?"],
  wallet: [4, "str"],
  amount: [5, "num"],
  fee: [8, "num"],
} as const satisfies FieldSpec;
export type Withdrawal = Decoded<typeof WITHDRAWAL>;
export const withdrawalCodec = codec("withdrawal", WITHDRAWAL, 9, same);

/** A deposit address (`w/deposit/address`'s notification data). */
const DEPOSIT_ADDRESS = {
  method: [1, "str"],
  currency: [2, "str"],
  address: [4, "str"],
  poolAddress: [5, "str?"],
} as const satisfies FieldSpec;
export type DepositAddress = Decoded<typeof DEPOSIT_ADDRESS>;
export const depositAddressCodec = codec("deposit address", DEPOSIT_ADDRESS, 6, same);

/** A currency's funding auto-renew settings (`w/funding/auto`'s notification data); threshold 0: all. */
const FUNDING_AUTO = {
  currency: [0, "str"],
  period: [1, "num"],
  rate: [2, "num"],
  threshold: [3, "num"],
} as const satisfies FieldSpec;
export type FundingAuto = Decoded<typeof FUNDING_AUTO>;
export const fundingAutoCodec = codec("funding auto-renew", FUNDING_AUTO, 4, same);

// ---------------------------------------------------------------------------------------------
// Market data

const TICKER = {
  bid: [0, "num"],
  bidSize: [1, "num"],
  ask: [2, "num"],
  askSize: [3, "num"],
  dailyChange: [4, "num"],
  dailyChangePerc: [5, "num"],
  lastPrice: [6, "num"],
  volume: [7, "num"],
  high: [8, "num"],
  low: [9, "num"],
} as const satisfies FieldSpec;
export type Ticker = Decoded<typeof TICKER>;
export const tickerCodec = codec("ticker", TICKER, 10, same);

/** Funding ticker (16 fields; MODELS swaps BID_SIZE/BID_PERIOD — the docs' order is right). */
const FUNDING_TICKER = {
  frr: [0, "num"],
  bid: [1, "num"],
  bidPeriod: [2, "num"],
  bidSize: [3, "num"],
  ask: [4, "num"],
  askPeriod: [5, "num"],
  askSize: [6, "num"],
  dailyChange: [7, "num"],
  dailyChangePerc: [8, "num"],
  lastPrice: [9, "num"],
  volume: [10, "num"],
  high: [11, "num"],
  low: [12, "num"],
  frrAmountAvailable: [15, "num?"],
} as const satisfies FieldSpec;
export type FundingTicker = Decoded<typeof FUNDING_TICKER>;
export const fundingTickerCodec = codec("funding ticker", FUNDING_TICKER, 16, same);

/** Fiat ticker per currency: bid and ask (from a trading ticker row). */
export interface FiatTicker {
  readonly bid: number;
  readonly ask: number;
}
export function fiatTickerOf(t: Pick<Ticker, "bid" | "ask">): FiatTicker {
  return { bid: t.bid, ask: t.ask };
}

/** REST tickers rows carry the symbol first; the rest is the WS ticker. */
export function decodeTickersRow(row: unknown): DecodeResult<{ symbol: string; ticker: Ticker | FundingTicker }> {
  if (!Array.isArray(row) || typeof row[0] !== "string") return fail("tickers row", "symbol", 0, "wrong-type");
  const symbol = row[0];
  const rest = row.slice(1);
  const d = symbol.startsWith("f") ? fundingTickerCodec.decode(rest) : tickerCodec.decode(rest);
  return d.ok ? { ok: true, value: { symbol, ticker: d.value } } : d;
}

export function encodeTickersRow(symbol: string, ticker: Ticker | FundingTicker): unknown[] {
  // The symbol says which layout the row has, as it does for decodeTickersRow.
  if (symbol.startsWith("f")) return [symbol, ...fundingTickerCodec.encode(ticker as FundingTicker)];
  return [symbol, ...tickerCodec.encode(ticker)];
}

/** Candle [MTS, OPEN, CLOSE, HIGH, LOW, VOLUME] — close before high (docs/protocol.md#candles). */
const CANDLE = {
  mts: [0, "num"],
  open: [1, "num"],
  close: [2, "num"],
  high: [3, "num"],
  low: [4, "num"],
  volume: [5, "num"],
} as const satisfies FieldSpec;
export type Candle = Decoded<typeof CANDLE>;
export const candleCodec = codec("candle", CANDLE, 6, same);
/** Positions in a candle row; the candle views keep the wire layout, so these index them too. */
export const CANDLE_FIELDS = candleCodec.fields;

/** Derivatives status (23 fields today, 18 in 2019); spread = derivative price / mark price − 1. */
const DERIV_STATUS = {
  mts: [0, "num"],
  priceDerivative: [2, "num?"],
  priceSpot: [3, "num?"],
  insuranceFundBalance: [5, "num?"],
  nextFundingEvtMts: [7, "num?"],
  fundingAccruedNext: [8, "num?"],
  fundingStep: [9, "num?"],
  fundingAccruedCurrent: [11, "num?"],
  markPrice: [14, "num?"],
  openInterest: [17, "num?"],
  clampMin: [21, "num?"],
  fundingAccruedNextCap: [22, "num?"],
} as const satisfies FieldSpec;
export type DerivStatus = Decoded<typeof DERIV_STATUS> & { readonly spread: number | null };
export const derivStatusCodec = codec("derivatives status", DERIV_STATUS, 23, (d): DerivStatus => ({
  ...d,
  spread:
    d.priceDerivative !== null && d.markPrice !== null && d.markPrice !== 0
      ? d.priceDerivative / d.markPrice - 1
      : null,
}));

/** Liquidation ["pos", POS_ID, MTS, null, SYMBOL, AMOUNT, BASE_PRICE, null, IS_MATCH, IS_MARKET_SOLD, null, LIQ_PRICE]. */
const LIQUIDATION = {
  kind: [0, "str"],
  posId: [1, "num"],
  mts: [2, "num"],
  symbol: [4, "str"],
  amount: [5, "num"],
  basePrice: [6, "num?"],
  isMatch: [8, "bool"],
  isMarketSold: [9, "bool"],
  liquidationPrice: [11, "num?"],
} as const satisfies FieldSpec;
export type Liquidation = Decoded<typeof LIQUIDATION>;
export const liquidationCodec = codec("liquidation", LIQUIDATION, 12, same);

// ---------------------------------------------------------------------------------------------
// Book rows (snapshots and updates; the book engine reads them by these positions)

/** Aggregated trading book level [PRICE, COUNT, AMOUNT]: amount > 0 bid; count 0 deletes. */
const BOOK_LEVEL = { price: [0, "num"], count: [1, "num"], amount: [2, "num"] } as const satisfies FieldSpec;
export type BookLevel = Decoded<typeof BOOK_LEVEL>;
export const bookLevelCodec = codec("book level", BOOK_LEVEL, 3, same);

/** Raw trading book order [ORDER_ID, PRICE, AMOUNT]: price 0 deletes. */
const RAW_BOOK_ORDER = { id: [0, "num"], price: [1, "num"], amount: [2, "num"] } as const satisfies FieldSpec;
export type RawBookOrder = Decoded<typeof RAW_BOOK_ORDER>;
export const rawBookOrderCodec = codec("raw book order", RAW_BOOK_ORDER, 3, same);

/** Aggregated funding book level [RATE, PERIOD, COUNT, AMOUNT]: amount < 0 bid (borrowers). */
const FUNDING_BOOK_LEVEL = {
  rate: [0, "num"],
  period: [1, "num"],
  count: [2, "num"],
  amount: [3, "num"],
} as const satisfies FieldSpec;
export type FundingBookLevel = Decoded<typeof FUNDING_BOOK_LEVEL>;
export const fundingBookLevelCodec = codec("funding book level", FUNDING_BOOK_LEVEL, 4, same);

/** Raw funding book offer [OFFER_ID, PERIOD, RATE, AMOUNT]: rate 0 deletes. */
const RAW_FUNDING_BOOK_OFFER = {
  id: [0, "num"],
  period: [1, "num"],
  rate: [2, "num"],
  amount: [3, "num"],
} as const satisfies FieldSpec;
export type RawFundingBookOffer = Decoded<typeof RAW_FUNDING_BOOK_OFFER>;
export const rawFundingBookOfferCodec = codec("raw funding book offer", RAW_FUNDING_BOOK_OFFER, 4, same);

// ---------------------------------------------------------------------------------------------
// Account channel extras

export type NotificationLevel = "success" | "error" | "info" | "warning";

/**
 * Notification (docs/product-rules.md#notifications) from `n` [MTS, TYPE, MESSAGE_ID, null,
 * NOTIFY_INFO, CODE, STATUS, TEXT].
 */
export interface Notification {
  readonly type: string;
  readonly sound: boolean;
  readonly level: NotificationLevel;
  readonly message: string;
  readonly tag: string;
  readonly status: string;
  readonly data: unknown;
  readonly mid: number | null;
  /** Milliseconds; the WS on-req sample is fractional seconds, REST whole seconds: normalized here. */
  readonly mts: number;
  readonly ttl: number;
  readonly code: number | null;
}

const NOTIFICATION = {
  mts: [0, "num"],
  type: [1, "str"],
  mid: [2, "num?"],
  data: [4, "any"],
  code: [5, "num?"],
  status: [6, "str?"],
  text: [7, "str?"],
} as const satisfies FieldSpec;

export const NOTIFICATION_TTL = 6000;

export const notificationCodec = codec("notification", NOTIFICATION, 8, (d): Notification => {
  // Seconds-since-epoch values are below 1e11 (year 5138 in ms): scale them to ms.
  const mts = d.mts < 1e11 ? Math.round(d.mts * 1000) : d.mts;
  const status = d.status ?? "INFO";
  const level: NotificationLevel =
    status === "SUCCESS"
      ? "success"
      : status === "ERROR" || status === "FAILURE"
        ? "error"
        : status === "WARNING"
          ? "warning"
          : "info";
  return {
    type: d.type,
    sound: level === "error" || d.type === "te" || d.type.endsWith("-req"),
    level,
    message: d.text ?? "",
    tag: d.type,
    status,
    data: d.data,
    mid: d.mid,
    mts,
    ttl: NOTIFICATION_TTL,
    code: d.code,
  };
});

/**
 * A notification payload must be an object (or array record) to be stored
 * (docs/product-rules.md#lists-and-filters).
 */
export function storableNotificationPayload(payload: unknown): boolean {
  return typeof payload === "object" && payload !== null;
}

export interface MarginInfoBase {
  readonly kind: "base";
  readonly pl: number | null;
  readonly swap: number | null;
  readonly balance: number | null;
  readonly net: number | null;
  readonly required: number | null;
}
export interface MarginInfoSymbol {
  readonly kind: "sym";
  readonly symbol: string;
  readonly net: number | null;
  readonly gross: number | null;
  readonly buy: number | null;
  readonly sell: number | null;
}

const MARGIN_BASE = {
  pl: [0, "num?"],
  swap: [1, "num?"],
  balance: [2, "num?"],
  net: [3, "num?"],
  required: [4, "num?"],
} as const satisfies FieldSpec;
const MARGIN_SYM = {
  net: [0, "num?"],
  gross: [1, "num?"],
  buy: [2, "num?"],
  sell: [3, "num?"],
} as const satisfies FieldSpec;

export function decodeMarginInfo(raw: unknown): DecodeResult<MarginInfoBase | MarginInfoSymbol> {
  if (!Array.isArray(raw)) return fail("margin info", "", -1, "not-an-array");
  if (raw[0] === "base") {
    const d = decodePositional("margin info", MARGIN_BASE, raw[1]);
    return d.ok ? { ok: true, value: { kind: "base", ...d.value } } : d;
  }
  if (raw[0] === "sym" && typeof raw[1] === "string") {
    const d = decodePositional("margin info", MARGIN_SYM, raw[2]);
    return d.ok ? { ok: true, value: { kind: "sym", symbol: raw[1], ...d.value } } : d;
  }
  return fail("margin info", "kind", 0, "wrong-type");
}

/** The `miu` record: base (5 fields) or per symbol (the exchange sends 8, the last 4 empty). */
export function encodeMarginInfo(m: MarginInfoBase | MarginInfoSymbol): unknown[] {
  return m.kind === "base"
    ? ["base", encodePositional(MARGIN_BASE, m, 5)]
    : ["sym", m.symbol, encodePositional(MARGIN_SYM, m, 8)];
}

const FUNDING_INFO = {
  yieldLoan: [0, "num?"],
  yieldLend: [1, "num?"],
  durationLoan: [2, "num?"],
  durationLend: [3, "num?"],
} as const satisfies FieldSpec;
export type FundingInfo = Decoded<typeof FUNDING_INFO> & { readonly symbol: string };

export function decodeFundingInfo(raw: unknown): DecodeResult<FundingInfo> {
  if (!Array.isArray(raw) || raw[0] !== "sym" || typeof raw[1] !== "string")
    return fail("funding info", "kind", 0, "wrong-type");
  const d = decodePositional("funding info", FUNDING_INFO, raw[2]);
  return d.ok ? { ok: true, value: { symbol: raw[1], ...d.value } } : d;
}

export function encodeFundingInfo(f: FundingInfo): unknown[] {
  return ["sym", f.symbol, encodePositional(FUNDING_INFO, f, 4)];
}

const RANKING = { mts: [0, "num"], rank: [1, "num"] } as const satisfies FieldSpec;
export type Ranking = Decoded<typeof RANKING>;
export const rankingCodec = codec("ranking", RANKING, 2, same);

/** Fee override entry of pub:info:pair:fee:ovr: [pair, [taker_fee, maker_fee]] mapped flat. */
export interface FeeEntry {
  readonly pair: string;
  readonly taker_fee: number;
  readonly maker_fee: number;
}
export function decodeFeeEntry(raw: unknown): DecodeResult<FeeEntry> {
  if (!Array.isArray(raw) || typeof raw[0] !== "string") return fail("fee", "pair", 0, "wrong-type");
  const fees: unknown = raw[1];
  const values = Array.isArray(fees) ? fees : raw.slice(1);
  const taker = Number(values[0]);
  const maker = Number(values[1]);
  if (!Number.isFinite(taker) || !Number.isFinite(maker) || values[0] === null || values[1] === null) {
    return fail("fee", "taker_fee", 1, "wrong-type");
  }
  return { ok: true, value: { pair: raw[0], taker_fee: taker, maker_fee: maker } };
}

export function encodeFeeEntry(e: FeeEntry): unknown[] {
  return [e.pair, [e.taker_fee, e.maker_fee]];
}

/**
 * Entry of pub:info:pair: [PAIR, [_, _, _, MIN_ORDER_SIZE, MAX_ORDER_SIZE, _, _, _, INITIAL_MARGIN,
 * MIN_MARGIN]]. The sizes travel as decimal strings, which the numeric fields accept.
 */
const PAIR_INFO = {
  minOrderSize: [3, "num?"],
  maxOrderSize: [4, "num?"],
  initialMargin: [8, "num?"],
  minMargin: [9, "num?"],
} as const satisfies FieldSpec;
export type PairInfo = Decoded<typeof PAIR_INFO> & { readonly pair: string };

export function decodePairInfo(raw: unknown): DecodeResult<PairInfo> {
  if (!Array.isArray(raw) || typeof raw[0] !== "string") return fail("pair info", "pair", 0, "wrong-type");
  const d = decodePositional("pair info", PAIR_INFO, raw[1]);
  return d.ok ? { ok: true, value: { pair: raw[0], ...d.value } } : d;
}

/** The platform status (`/v2/platform/status`): [1] operative, [0] maintenance. */
const PLATFORM_STATUS = { status: [0, "num"] } as const satisfies FieldSpec;
export type PlatformStatus = Decoded<typeof PLATFORM_STATUS>;
export const platformStatusCodec = codec("platform status", PLATFORM_STATUS, 1, same);

// ---------------------------------------------------------------------------------------------
// User info (r/info/user, 55 fields)

const USER_INFO = {
  id: [0, "num"],
  email: [1, "str"],
  username: [2, "str"],
  mtsAccountCreate: [3, "num?"],
  verified: [4, "bool"],
  verificationLevel: [5, "num?"],
  timezone: [7, "str?"],
  locale: [8, "str?"],
  company: [9, "str?"],
  isEmailVerified: [10, "bool"],
  subaccountType: [11, "str?"],
  groupId: [15, "num?"],
  masterAccountId: [16, "num?"],
  inheritMasterAccountVerification: [17, "bool"],
  isGroupMaster: [18, "bool"],
  isGroupWithdrawEnabled: [19, "any"],
  isPptEnabled: [21, "bool"],
  isMerchantEnabled: [24, "bool"],
  isCompetitionEnabled: [25, "bool"],
  tfaTypes: [26, "any"],
  isSecuritiesMaster: [34, "bool"],
  isSecuritiesEnabled: [38, "bool"],
  isSecuritiesAccredited: [40, "bool"],
  isElSalvadorSecuritiesVerified: [41, "bool"],
  teMarginGroup: [42, "num?"],
  groupAllowDisableContextSwitch: [39, "bool"],
  lastLoginTime: [44, "str?"],
  verificationLevelSubmitted: [45, "num?"],
  verificationDataRequired: [46, "any"],
  groupDisableContextSwitch: [47, "bool"],
  complianceRegions: [49, "any"],
  complianceResidenceRegions: [50, "any"],
  complianceAccountType: [51, "str?"],
  signupCountry: [52, "str?"],
  isPermittedBeneficiary: [53, "bool"],
} as const satisfies FieldSpec;

export type UserInfo = Omit<Decoded<typeof USER_INFO>, "tfaTypes" | "isGroupWithdrawEnabled"> & {
  /** Two-factor kinds the account has (u2f, otp, …); first one as tfaType. */
  readonly tfaType: string | null;
  readonly tfaTypes: readonly string[];
  /** Group withdraw counts as enabled when unset (docs/product-rules.md#user-info). */
  readonly isGroupWithdrawEnabled: boolean;
};

export const userInfoCodec = codec("user info", USER_INFO, 55, (d): UserInfo => {
  const tfaTypes = Array.isArray(d.tfaTypes) ? d.tfaTypes.filter((t): t is string => typeof t === "string") : [];
  return {
    ...d,
    tfaTypes,
    tfaType: tfaTypes[0] ?? null,
    isGroupWithdrawEnabled:
      d.isGroupWithdrawEnabled === null || d.isGroupWithdrawEnabled === 1 || d.isGroupWithdrawEnabled === true,
  };
});

// ---------------------------------------------------------------------------------------------
// API keys, permissions, alerts

export interface ScopePermission {
  readonly read: boolean;
  readonly write: boolean;
}
export type Permissions = Readonly<Record<string, ScopePermission>>;

/** Capability letters of tokens and keys (docs/product-rules.md#token-capabilities, docs/protocol.md#tokens). */
export const CAPABILITY_SCOPES: Readonly<Record<string, string>> = {
  a: "account",
  o: "orders",
  f: "funding",
  s: "settings",
  w: "wallets",
  wd: "withdraw",
  bp: "bfxpay",
  h: "history",
  p: "positions",
};

/**
 * Permission strings come in two formats (docs/product-rules.md#permission-strings):
 *  - scope list: "orders-read,orders-write,wallets-read" — every item ends in read or write;
 *  - caps: capability letters colon-separated with a trailing write flag, "o:f:w:1" (write) or
 *    "a:o:0" (read only). A string not ending in read or write is parsed in the caps format.
 */
export function parsePermissionString(text: string): Permissions {
  const out: Record<string, { read: boolean; write: boolean }> = {};
  const trimmed = text.trim();
  if (trimmed === "") return out;
  if (/(read|write)$/.test(trimmed)) {
    for (const item of trimmed.split(/[,\s]+/)) {
      const m = /^([a-z_]+)[-:_](read|write)$/.exec(item);
      if (!m) continue;
      const scope = (out[m[1] as string] ??= { read: false, write: false });
      if (m[2] === "write") scope.write = true;
      scope.read = true;
    }
    return out;
  }
  const parts = trimmed.split(":");
  const last = parts[parts.length - 1];
  const writeFlag = last === "1" || last === "0" ? parts.pop() === "1" : false;
  for (const cap of parts) {
    const scope = CAPABILITY_SCOPES[cap];
    if (scope) out[scope] = { read: true, write: writeFlag };
  }
  return out;
}

/** caps as the auth reply sends them: an object, or a JSON string of one, with 0/1 or "0"/"1". */
export function parseCaps(raw: unknown): Permissions {
  let obj: unknown = raw;
  if (typeof raw === "string") {
    try {
      obj = JSON.parse(raw);
    } catch {
      return {};
    }
  }
  if (typeof obj !== "object" || obj === null) return {};
  const out: Record<string, ScopePermission> = {};
  for (const [scope, v] of Object.entries(obj as Record<string, unknown>)) {
    if (typeof v !== "object" || v === null) continue;
    const r = (v as Record<string, unknown>)["read"];
    const w = (v as Record<string, unknown>)["write"];
    out[scope] = { read: r === 1 || r === "1" || r === true, write: w === 1 || w === "1" || w === true };
  }
  return out;
}

export interface ApiKeyItem {
  readonly id: string;
  readonly apiLabel: string;
  readonly permissions: Permissions;
}

/** A scope's permission row of `r/permissions` (and of an API key row): [SCOPE, READ, WRITE], 0 or 1. */
const PERMISSION_ROW = { scope: [0, "str"], read: [1, "bool"], write: [2, "bool"] } as const satisfies FieldSpec;
export type PermissionRow = Decoded<typeof PERMISSION_ROW>;
export const permissionRowCodec = codec("permission", PERMISSION_ROW, 3, same);

/**
 * An API key of `r/api/keys` (and `w/api/key/update`'s reply):
 * [KEY, LABEL, PERMISSION_ROWS, MTS_CREATE, IP_ALLOWLIST] — the allowlist a list of addresses and
 * CIDR ranges, empty for any address.
 */
const API_KEY_ROW = {
  key: [0, "str"],
  label: [1, "str"],
  permissions: [2, "any"],
  mtsCreate: [3, "num?"],
  ipAllowlist: [4, "any"],
} as const satisfies FieldSpec;
export type ApiKeyRow = Decoded<typeof API_KEY_ROW>;
export const apiKeyRowCodec = codec("api key row", API_KEY_ROW, 5, same);

/** An API key list item: apiLabel from `name`, permissions from `caps` (either format). */
export function decodeApiKeyItem(raw: unknown): DecodeResult<ApiKeyItem> {
  if (typeof raw !== "object" || raw === null) return fail("api key", "", -1, "wrong-type");
  const r = raw as Record<string, unknown>;
  const id = r["id"] ?? r["key"];
  if (typeof id !== "string" && typeof id !== "number") return fail("api key", "id", -1, "wrong-type");
  const caps = r["caps"];
  const permissions = typeof caps === "string" ? parsePermissionString(caps) : parseCaps(caps);
  return { ok: true, value: { id: String(id), apiLabel: typeof r["name"] === "string" ? r["name"] : "", permissions } };
}

/** Alert key "price:tBTCUSD:30000" (colon-separated, index and price last): docs/product-rules.md#alerts. */
export interface AlertKey {
  readonly symbol: string;
  readonly index: string;
  readonly price: number;
}
export function parseAlertKey(key: string): AlertKey | null {
  const parts = key.split(":");
  if (parts.length < 3) return null;
  const price = Number(parts[parts.length - 1]);
  if (!Number.isFinite(price)) return null;
  return { index: parts[0] as string, symbol: parts.slice(1, -1).join(":"), price };
}

/** An alert price is added only once per pair (docs/product-rules.md#lists-and-filters). */
export function addAlertPrice(prices: readonly number[], price: number): readonly number[] {
  return prices.includes(price) ? prices : [...prices, price].sort((a, b) => a - b);
}
