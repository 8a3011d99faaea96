/**
 * The order form's model, free of React and of the DOM so it tests in Node: the form's values, the
 * exchange's order types and flags, the OrderRequest the form submits, and the arithmetic that keeps
 * amount, total and percent-of-balance consistent. Prices and amounts stay decimal strings as typed
 * (the wire takes strings, so nothing is lost to binary rounding on the way out); numbers are used
 * only for the derived figures (totals, reserves, percent fills).
 */
import {
  EXCHANGE_ORDER_PREFIX,
  MAKER_FEE_RATE,
  ORDER_FLAGS,
  ORDER_TYPES,
  TAKER_FEE_RATE,
  WALLET_TYPE,
  type OrderRequest,
  type OrderTypeName,
  type Ticker,
} from "../../../../protocol";
import type { OrderSide } from "../../desk-state";

/** Order types without their context prefix (`EXCHANGE LIMIT` in the exchange context, `LIMIT` on margin). */
export const ORDER_KINDS = ORDER_TYPES;
export type OrderKind = OrderTypeName;

/**
 * Where the order trades: `exchange` (spot, the exchange wallet, types prefixed EXCHANGE), `margin`
 * (bare types, the margin wallet) or `derivative` (bare types with a leverage, on F0 pairs).
 * The settings key `trade_type` holds exchange or margin; derivative pairs force `derivative`.
 */
export type TradeContext = "exchange" | "margin" | "derivative";

export interface OrderFormValues {
  readonly side: OrderSide;
  readonly kind: OrderKind;
  readonly context: TradeContext;
  /** LIMIT/FOK/IOC: the limit price; STOP/STOP LIMIT: the trigger price. */
  readonly price: string;
  /** STOP LIMIT: the limit price once triggered. */
  readonly priceAux: string;
  /** TRAILING STOP: the distance the trigger trails the market by. */
  readonly trailing: string;
  /** OCO: the stop leg's price. */
  readonly ocoStop: string;
  readonly amount: string;
  readonly hidden: boolean;
  readonly postOnly: boolean;
  readonly reduceOnly: boolean;
  readonly oco: boolean;
  /** Whether a time-in-force is set; `tif` is the `<input type="datetime-local">` value (local time). */
  readonly tifOn: boolean;
  readonly tif: string;
  /** Derivatives only: 1–100. */
  readonly leverage: string;
}

/** Which inputs a kind shows. */
export interface KindFields {
  readonly price: boolean;
  readonly priceAux: boolean;
  readonly trailing: boolean;
  readonly hidden: boolean;
  readonly postOnly: boolean;
  readonly oco: boolean;
  readonly tif: boolean;
}

const NONE: KindFields = {
  price: false,
  priceAux: false,
  trailing: false,
  hidden: false,
  postOnly: false,
  oco: false,
  tif: false,
};

export function kindFields(kind: OrderKind): KindFields {
  switch (kind) {
    case "LIMIT":
      // The exchange pairs an OCO stop only with a limit order (trading.ts: "OCO needs an exchange limit order").
      return { ...NONE, price: true, hidden: true, postOnly: true, oco: true, tif: true };
    case "MARKET":
      return NONE;
    case "STOP":
      return { ...NONE, price: true, tif: true };
    case "STOP LIMIT":
      return { ...NONE, price: true, priceAux: true, hidden: true, tif: true };
    case "TRAILING STOP":
      return { ...NONE, trailing: true };
    case "FOK":
    case "IOC":
      // Immediate orders: nothing rests, so hiding, post-only and a time-in-force mean nothing.
      return { ...NONE, price: true };
    default: {
      const never: never = kind;
      return never;
    }
  }
}

export function isStopKind(kind: OrderKind): boolean {
  return kind === "STOP" || kind === "STOP LIMIT" || kind === "TRAILING STOP";
}

/** The exchange's `type` string: `EXCHANGE LIMIT` in the exchange context, `LIMIT` on margin and derivatives. */
export function exchangeType(kind: OrderKind, context: TradeContext): string {
  return context === "exchange" ? `${EXCHANGE_ORDER_PREFIX}${kind}` : kind;
}

/** Order flags for the values (only the flags the kind and context allow). */
export function orderFlags(v: OrderFormValues): number {
  const f = kindFields(v.kind);
  let flags = 0;
  if (f.hidden && v.hidden) flags |= ORDER_FLAGS.HIDDEN;
  if (f.postOnly && v.postOnly) flags |= ORDER_FLAGS.POST_ONLY;
  if (f.oco && v.oco) flags |= ORDER_FLAGS.OCO;
  // Reduce-only closes or shrinks a position; spot trading has none.
  if (v.context !== "exchange" && v.reduceOnly) flags |= ORDER_FLAGS.REDUCE_ONLY;
  return flags;
}

/**
 * A decimal string as the wire should carry it: trimmed, leading zeros and a trailing dot dropped,
 * exponent forms expanded through Number (they are rare and short). Assumes a valid positive number.
 */
export function normalizeDecimal(text: string): string {
  const t = text.trim();
  if (/e/i.test(t)) return String(Number(t));
  let s = t.startsWith(".") ? `0${t}` : t;
  if (s.endsWith(".")) s = s.slice(0, -1);
  s = s.replace(/^0+(?=\d)/, "");
  if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s === "" ? "0" : s;
}

const pad2 = (n: number): string => String(n).padStart(2, "0");

/** A UTC epoch as the exchange's TIF form `YYYY-MM-DD HH:mm:ss`. */
export function formatTif(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

/**
 * The epoch of a `datetime-local` value (`YYYY-MM-DDTHH:mm[:ss]`, the user's local time), or null
 * when it is not one. Parsed by hand: Date's own parser is lenient about forms we do not want.
 */
export function parseLocalDateTime(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(y, mo - 1, d, h, mi, s);
  // Date rolls 31 February over into March; a value that does not round-trip was not a date.
  if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d || date.getHours() !== h)
    return null;
  return date.getTime();
}

/** The OrderRequest for valid values (validate first: this trusts every field it uses). */
export function buildOrderRequest(v: OrderFormValues, symbol: string): OrderRequest {
  const f = kindFields(v.kind);
  const amount = normalizeDecimal(v.amount);
  const flags = orderFlags(v);
  const tifMs = f.tif && v.tifOn ? parseLocalDateTime(v.tif) : null;
  return {
    type: exchangeType(v.kind, v.context),
    symbol,
    amount: v.side === "buy" ? amount : `-${amount}`,
    ...(f.price ? { price: normalizeDecimal(v.price) } : {}),
    ...(f.priceAux ? { priceAuxLimit: normalizeDecimal(v.priceAux) } : {}),
    ...(f.trailing ? { priceTrailing: normalizeDecimal(v.trailing) } : {}),
    ...(f.oco && v.oco ? { priceOcoStop: normalizeDecimal(v.ocoStop) } : {}),
    ...(flags !== 0 ? { flags } : {}),
    ...(tifMs !== null ? { tif: formatTif(tifMs) } : {}),
    ...(v.context === "derivative" ? { lev: Number(v.leverage) } : {}),
  };
}

/** What the form knows of the market: the last trade price and the best bid and ask (null until known). */
export interface MarketQuote {
  readonly last: number | null;
  readonly bid: number | null;
  readonly ask: number | null;
}

export const NO_QUOTE: MarketQuote = { last: null, bid: null, ask: null };

/** A field's number, or null when empty or not a positive finite number. */
export function positive(text: string): number | null {
  const t = text.trim();
  if (t === "") return null;
  const n = Number(t);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * The price an order's total is figured at: its limit (LIMIT, FOK, IOC, the STOP LIMIT's limit),
 * its trigger (STOP), or the market (MARKET, TRAILING STOP: the side's best price, else the last).
 */
export function pricingBasis(v: OrderFormValues, quote: MarketQuote): number | null {
  switch (v.kind) {
    case "LIMIT":
    case "FOK":
    case "IOC":
    case "STOP":
      return positive(v.price);
    case "STOP LIMIT":
      return positive(v.priceAux);
    case "MARKET":
    case "TRAILING STOP":
      return (v.side === "buy" ? quote.ask : quote.bid) ?? quote.last;
    default: {
      const never: never = v.kind;
      return never;
    }
  }
}

/** Market buys reserve the book walk plus 2 % on the embedded exchange (trading.ts). */
export const MARKET_BUY_HEADROOM = 1.02;
/** Stop buys reserve the trigger plus 5 % slippage (trading.ts), as does an OCO's stop leg. */
export const STOP_BUY_HEADROOM = 1.05;

/**
 * What a buy reserves per unit of base, in quote, on the exchange: the limit, the market plus 2 %,
 * a stop's trigger plus 5 %; an OCO reserves once for whichever leg needs more. Null when a price it
 * needs is missing. Sells reserve the amount itself in base.
 */
export function buyReservePerUnit(v: OrderFormValues, quote: MarketQuote): number | null {
  const price = positive(v.price);
  switch (v.kind) {
    case "LIMIT": {
      if (price === null) return null;
      if (!v.oco) return price;
      const stop = positive(v.ocoStop);
      return stop === null ? price : Math.max(price, stop * STOP_BUY_HEADROOM);
    }
    case "FOK":
    case "IOC":
      return price;
    case "STOP":
      return price === null ? null : price * STOP_BUY_HEADROOM;
    case "STOP LIMIT":
      return positive(v.priceAux);
    case "MARKET": {
      const p = quote.ask ?? quote.last;
      return p === null ? null : p * MARKET_BUY_HEADROOM;
    }
    case "TRAILING STOP": {
      const trail = positive(v.trailing);
      return quote.last === null || trail === null ? null : (quote.last + trail) * STOP_BUY_HEADROOM;
    }
    default: {
      const never: never = v.kind;
      return never;
    }
  }
}

/** Amounts go to the exchange with at most 8 decimals (its unit is 1e-8). */
export const AMOUNT_DECIMALS = 8;

/** Rounds down to 8 decimals, so a percent fill never asks for more than the balance holds. */
export function floorAmount(value: number): string {
  if (!Number.isFinite(value) || value <= 0) return "";
  const units = Math.floor(value * 1e8 + 1e-6);
  if (units <= 0) return "";
  const whole = Math.floor(units / 1e8);
  const frac = String(units % 1e8)
    .padStart(8, "0")
    .replace(/0+$/, "");
  return frac === "" ? String(whole) : `${whole}.${frac}`;
}

/** A quote-currency figure for display and for the total field: 8 decimals at most, trailing zeros dropped. */
export function formatQuote(value: number): string {
  if (!Number.isFinite(value)) return "";
  return value
    .toFixed(8)
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
}

/**
 * The balance an order draws on. Spot orders spend the exchange wallet: quote for a buy, base for a
 * sell. Margin and derivative orders are bounded by the tradable amount the exchange reports per
 * side (margin info `sym`: buy / sell), already in base.
 */
export interface AvailableBalance {
  readonly amount: number;
  readonly currency: string;
  readonly unit: "base" | "quote";
}

/**
 * The amount for a percentage of the available balance: of a quote balance at the price the buy
 * reserves per unit (so 100 % is exactly what the exchange will accept), of a base balance as is.
 * Null when the figure cannot be made (no balance known, no price).
 */
export function amountForPercent(
  v: OrderFormValues,
  percent: number,
  balance: AvailableBalance | null,
  quote: MarketQuote,
): string | null {
  if (balance === null || !(balance.amount > 0) || !(percent > 0)) return null;
  const share = (balance.amount * percent) / 100;
  if (balance.unit === "base") return floorAmount(share) || null;
  const perUnit = buyReservePerUnit(v, quote);
  if (perUnit === null || !(perUnit > 0)) return null;
  return floorAmount(share / perUnit) || null;
}

/** What the order needs of the balance, in the balance's unit; null when it cannot be figured yet. */
export function balanceNeeded(v: OrderFormValues, balance: AvailableBalance, quote: MarketQuote): number | null {
  const amount = positive(v.amount);
  if (amount === null) return null;
  if (balance.unit === "base") return amount;
  const perUnit = buyReservePerUnit(v, quote);
  return perUnit === null ? null : amount * perUnit;
}

/** The total (quote) for an amount at the order's pricing basis, or "" when either is missing. */
export function totalForAmount(v: OrderFormValues, quote: MarketQuote): string {
  const amount = positive(v.amount);
  const basis = pricingBasis(v, quote);
  return amount === null || basis === null ? "" : formatQuote(amount * basis);
}

/** The amount for a total (quote) at the order's pricing basis, or "" when either is missing. */
export function amountForTotal(total: string, v: OrderFormValues, quote: MarketQuote): string {
  const t = positive(total);
  const basis = pricingBasis(v, quote);
  return t === null || basis === null ? "" : floorAmount(t / basis);
}

/**
 * The fee estimate: post-only orders can only make; anything else may take, so the estimate is the
 * taker rate (the most it can cost). Charged on what the order receives: base for a buy, quote for a
 * sell (trading.ts settles it that way).
 */
export function feeEstimate(
  v: OrderFormValues,
  quote: MarketQuote,
): { readonly rate: number; readonly amount: number | null; readonly in: "base" | "quote" } {
  const f = kindFields(v.kind);
  const rate = f.postOnly && v.postOnly ? MAKER_FEE_RATE : TAKER_FEE_RATE;
  const amount = positive(v.amount);
  if (v.side === "buy") return { rate, amount: amount === null ? null : amount * rate, in: "base" };
  const basis = pricingBasis(v, quote);
  return { rate, amount: amount === null || basis === null ? null : amount * basis * rate, in: "quote" };
}

function finitePositive(x: unknown): number | null {
  return typeof x === "number" && Number.isFinite(x) && x > 0 ? x : null;
}

/** The quote from the ticker (none yet: nothing known). */
export function quoteFromTicker(ticker: Pick<Ticker, "bid" | "ask" | "lastPrice"> | null): MarketQuote {
  if (!ticker) return { bid: null, ask: null, last: null };
  return { bid: finitePositive(ticker.bid), ask: finitePositive(ticker.ask), last: finitePositive(ticker.lastPrice) };
}

/** The part of the account the balance comes from. */
export interface BalanceSource {
  readonly wallets: readonly { readonly type: string; readonly currency: string; readonly available: number }[];
  readonly marginSymbols: Readonly<Record<string, { readonly buy: number | null; readonly sell: number | null }>>;
}

/**
 * The balance an order on `symbol` draws on (see AvailableBalance): the exchange wallet's free
 * quote (buy) or base (sell); on margin and derivatives the tradable amount per side from the
 * margin info, in base. A derivatives account the margin info does not cover yet is bounded by its
 * collateral (the derivatives wallet, in the quote currency) times the leverage, either side.
 * Null when the account has not said (no wallet row, no margin info).
 */
export function availableBalance(
  account: BalanceSource | null,
  context: TradeContext,
  side: OrderSide,
  symbol: string,
  base: string,
  quoteCcy: string,
  leverage = 1,
): AvailableBalance | null {
  if (account === null) return null;
  if (context === "exchange") {
    const currency = side === "buy" ? quoteCcy : base;
    const wallet = account.wallets.find((w) => w.type === WALLET_TYPE.EXCHANGE && w.currency === currency);
    if (!wallet) return null;
    return { amount: Math.max(0, wallet.available), currency, unit: side === "buy" ? "quote" : "base" };
  }
  const info = account.marginSymbols[symbol];
  if (context === "derivative" && info === undefined) {
    const wallet = account.wallets.find((w) => w.type === WALLET_TYPE.MARGIN && w.currency === quoteCcy);
    if (!wallet || !Number.isFinite(leverage) || leverage < 1) return null;
    return { amount: Math.max(0, wallet.available) * leverage, currency: quoteCcy, unit: "quote" };
  }
  const tradable = side === "buy" ? info?.buy : info?.sell;
  if (tradable === null || tradable === undefined || !Number.isFinite(tradable)) return null;
  return { amount: Math.abs(tradable), currency: base, unit: "base" };
}
