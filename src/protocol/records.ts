/**
 * Typed records for every positional entity of SPEC section 3 and PROTOCOL.md 4–6, each with its
 * decoder and (for the embedded exchange) encoder. Field names follow SPEC section 3; positions
 * follow PROTOCOL.md. Derived fields (isOco, type_value, wallet `available`, deriv `spread`, …) are
 * computed here, once, so no consumer guesses a meaning from a tuple's length.
 */
import {
  decodeList,
  decodePositional,
  encodePositional,
  fail,
  type Decoded,
  type DecodeResult,
  type FieldSpec,
} from "./positional";

function codec<S extends FieldSpec, T>(record: string, spec: S, length: number, derive: (d: Decoded<S>) => T) {
  return {
    spec,
    length,
    decode(raw: unknown): DecodeResult<T> {
      const d = decodePositional(record, spec, raw);
      return d.ok ? { ok: true, value: derive(d.value) } : d;
    },
    decodeList(raw: unknown): DecodeResult<T[]> {
      return decodeList(raw, (r) => this.decode(r), record);
    },
    encode(value: Decoded<S>): unknown[] {
      return encodePositional(spec, value, length);
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
  /** The type without any EXCHANGE prefix, prefixed "OCO " for OCO orders (SPEC section 3). */
  readonly type_value: string;
};

export function orderTypeValue(type: string, isOco: boolean): string {
  const bare = type.replace(/^EXCHANGE /, "");
  return isOco ? `OCO ${bare}` : bare;
}

export const orderCodec = codec("order", ORDER, 32, (d): Order => {
  const isOco = d.placed_id !== null && d.placed_id !== 0;
  return { ...d, isOco, type_value: orderTypeValue(d.type, isOco) };
});

/** Order flags (PROTOCOL.md 4.4). */
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

/** Funding offer, first reading (21 fields, PROTOCOL.md 4.2). */
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

/** SPEC section 4: funding offers with status ACTIVE or PARTIALLY FILLED count as active. */
export function isActiveFundingStatus(status: string | null): boolean {
  return status !== null && (status.startsWith("ACTIVE") || status.startsWith("PARTIALLY FILLED"));
}

/**
 * Funding credit (22) and loan (21): the offer's second reading (id, symbol, side, …, noClose)
 * plus positionPair for credits (SPEC section 3).
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
export const fundingLoanCodec = codec("funding loan", FUNDING_LOAN, 21, same);
/** The funding offer's second reading has the credit layout without positionPair. */
export const fundingOfferSecondReadingCodec = fundingLoanCodec;

/** SPEC section 4: margin-taken credits are kept only if their status contains ACTIVE. */
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
 * SPEC section 3: available is 0 when the balance is 0, and falls back to the stored available
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

export const WALLET_TYPES = ["exchange", "margin", "funding", "creditline", "contribution"] as const;

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

/** Candle [MTS, OPEN, CLOSE, HIGH, LOW, VOLUME] — close before high (PROTOCOL.md checklist 11). */
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
// Account channel extras

export type NotificationLevel = "success" | "error" | "info" | "warning";

/** Notification (SPEC section 3) from `n` [MTS, TYPE, MESSAGE_ID, null, NOTIFY_INFO, CODE, STATUS, TEXT]. */
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

/** SPEC section 5: a notification payload must be an object (or array record) to be stored. */
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
  /** SPEC section 6: group withdraw is enabled by default when unset. */
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

/** Capability letters of tokens and keys (SPEC section 6, PROTOCOL.md 6 w/token). */
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
 * Permission strings come in two formats (SPEC sections 3 and 5):
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

/** Alert key "price:tBTCUSD:30000" (colon-separated, index and price last): SPEC section 3. */
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

/** SPEC section 5: an alert price is added only once per pair. */
export function addAlertPrice(prices: readonly number[], price: number): readonly number[] {
  return prices.includes(price) ? prices : [...prices, price].sort((a, b) => a - b);
}
