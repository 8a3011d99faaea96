/**
 * The order form's validation (docs/product-rules.md#validation plus what the exchange itself checks), pure so it
 * tests in Node: every field gets at most one error (blocks submitting) and at most one warning
 * (shown, does not block). Issues are codes with parameters; messages.ts turns them into localized
 * text, so this module stays free of lingui and React.
 */
import { LEVERAGE_MAX, LEVERAGE_MIN, validPositiveNumber } from "../../../../protocol";
import {
  AMOUNT_DECIMALS,
  balanceNeeded,
  kindFields,
  parseLocalDateTime,
  type AvailableBalance,
  type MarketQuote,
  type OrderFormValues,
} from "./order-model";

export type FormField = "amount" | "price" | "priceAux" | "trailing" | "ocoStop" | "tif" | "leverage";

export type IssueCode =
  | "required"
  | "not-positive-number"
  | "too-many-decimals"
  | "below-min"
  | "above-max"
  | "stop-buy-not-above-last"
  | "stop-sell-not-below-last"
  | "trail-too-wide"
  | "oco-buy-not-above-last"
  | "oco-sell-not-below-last"
  | "oco-buy-not-above-limit"
  | "oco-sell-not-below-limit"
  | "tif-invalid"
  | "tif-past"
  | "leverage-range"
  | "insufficient-balance"
  | "post-only-crosses"
  | "far-from-last";

export interface Issue {
  readonly code: IssueCode;
  /** Figures the message shows (already formatted as the user typed or as the exchange sends them). */
  readonly params?: Readonly<Record<string, string | number>>;
}

export interface ValidationEnv {
  readonly quote: MarketQuote;
  /** The balance the order draws on; null while signed out or before the wallets arrive. */
  readonly balance: AvailableBalance | null;
  /** Minimum and maximum order size in base (pub:info:pair; see pair-limits.ts). */
  readonly minAmount: number;
  readonly maxAmount: number | null;
  /** Epoch ms, for the time-in-force. */
  readonly now: number;
}

export interface Validation {
  readonly errors: Readonly<Partial<Record<FormField, Issue>>>;
  readonly warnings: Readonly<Partial<Record<FormField, Issue>>>;
  readonly ok: boolean;
}

/** The order of fields on screen: the first invalid one gets the focus after a refused submit. */
export const FIELD_ORDER: readonly FormField[] = [
  "leverage",
  "price",
  "priceAux",
  "trailing",
  "ocoStop",
  "amount",
  "tif",
];

/** A limit further than this from the last price gets a warning (a typo in the price, most often). */
export const FAR_FROM_LAST = 0.1;

function decimals(text: string): number {
  const t = text.trim();
  if (/e/i.test(t)) return 0;
  const dot = t.indexOf(".");
  return dot < 0 ? 0 : t.length - dot - 1;
}

/** A required positive number: an issue, or the number. */
function number(text: string): Issue | number {
  if (text.trim() === "") return { code: "required" };
  if (!validPositiveNumber(text, false)) return { code: "not-positive-number" };
  return Number(text.trim());
}

export function validateOrder(v: OrderFormValues, env: ValidationEnv): Validation {
  const errors: Partial<Record<FormField, Issue>> = {};
  const warnings: Partial<Record<FormField, Issue>> = {};
  const f = kindFields(v.kind);
  const last = env.quote.last;
  const buy = v.side === "buy";

  // Amount: positive, the exchange's 8 decimals, within the pair's bounds.
  const amount = number(v.amount);
  if (typeof amount !== "number") errors.amount = amount;
  else if (decimals(v.amount) > AMOUNT_DECIMALS)
    errors.amount = { code: "too-many-decimals", params: { max: AMOUNT_DECIMALS } };
  else if (amount < env.minAmount) errors.amount = { code: "below-min", params: { min: env.minAmount } };
  else if (env.maxAmount !== null && amount > env.maxAmount)
    errors.amount = { code: "above-max", params: { max: env.maxAmount } };
  else if (env.balance !== null) {
    const needed = balanceNeeded(v, env.balance, env.quote);
    if (needed !== null && needed > env.balance.amount + 1e-12)
      warnings.amount = {
        code: "insufficient-balance",
        params: { available: env.balance.amount, currency: env.balance.currency },
      };
  }

  // Price: a limit, or a stop's trigger, which must sit on the far side of the market or it fires at once.
  let price: number | null = null;
  if (f.price) {
    const p = number(v.price);
    if (typeof p !== "number") errors.price = p;
    else {
      price = p;
      const stop = v.kind === "STOP" || v.kind === "STOP LIMIT";
      if (stop && last !== null) {
        if (buy && p <= last) errors.price = { code: "stop-buy-not-above-last", params: { last } };
        if (!buy && p >= last) errors.price = { code: "stop-sell-not-below-last", params: { last } };
      } else if (!stop) {
        const best = buy ? env.quote.ask : env.quote.bid;
        if (f.postOnly && v.postOnly && best !== null && (buy ? p >= best : p <= best))
          warnings.price = { code: "post-only-crosses", params: { best } };
        else if (last !== null && Math.abs(p - last) / last > FAR_FROM_LAST)
          warnings.price = {
            code: "far-from-last",
            params: { last, percent: Math.round((Math.abs(p - last) / last) * 100) },
          };
      }
    }
  }

  if (f.priceAux) {
    const p = number(v.priceAux);
    if (typeof p !== "number") errors.priceAux = p;
  }

  if (f.trailing) {
    const p = number(v.trailing);
    if (typeof p !== "number") errors.trailing = p;
    // The exchange refuses a distance of the whole price or more (trading.ts).
    else if (last !== null && p >= last) errors.trailing = { code: "trail-too-wide", params: { last } };
  }

  if (f.oco && v.oco) {
    const p = number(v.ocoStop);
    if (typeof p !== "number") errors.ocoStop = p;
    else if (last !== null && buy && p <= last) errors.ocoStop = { code: "oco-buy-not-above-last", params: { last } };
    else if (last !== null && !buy && p >= last) errors.ocoStop = { code: "oco-sell-not-below-last", params: { last } };
    // The two legs bracket the market: a buy OCO's stop above its limit, a sell's below.
    else if (price !== null && buy && p <= price) errors.ocoStop = { code: "oco-buy-not-above-limit" };
    else if (price !== null && !buy && p >= price) errors.ocoStop = { code: "oco-sell-not-below-limit" };
  }

  if (f.tif && v.tifOn) {
    if (v.tif.trim() === "") errors.tif = { code: "required" };
    else {
      const ms = parseLocalDateTime(v.tif);
      if (ms === null) errors.tif = { code: "tif-invalid" };
      else if (ms <= env.now) errors.tif = { code: "tif-past" };
    }
  }

  if (v.context === "derivative") {
    const t = v.leverage.trim();
    const lev = /^\d+$/.test(t) ? Number(t) : Number.NaN;
    if (!(lev >= LEVERAGE_MIN && lev <= LEVERAGE_MAX))
      errors.leverage = { code: "leverage-range", params: { min: LEVERAGE_MIN, max: LEVERAGE_MAX } };
  }

  return { errors, warnings, ok: Object.keys(errors).length === 0 };
}

/** The first field (in screen order) with an error, for the focus after a refused submit. */
export function firstInvalid(validation: Validation): FormField | null {
  return FIELD_ORDER.find((field) => validation.errors[field] !== undefined) ?? null;
}
