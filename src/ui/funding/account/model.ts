/**
 * The funding desk's account widgets without React: the offer form's values, its checks (the
 * exchange's own rules, from src/protocol), the request it sends, the high-cost borrow rule
 * (docs/product-rules.md#funding-offers), the auto-renew settings' checks, and the earned and paid
 * interest read from the margin-funding ledger rows.
 *
 * Rates are typed and shown as a percentage a day (the wire's 0.0002 is 0.02 %), with the yearly
 * figure next to them (a day's rate × 365, not compounded — as the exchange quotes it).
 */
import {
  FUNDING_MIN_OFFER_USD,
  FUNDING_PERIOD_MAX,
  FUNDING_PERIOD_MIN,
  FUNDING_RATE_MAX,
  LEDGER_CATEGORY,
  ledgerCategoryOf,
  ORDER_FLAGS,
  type FundingOfferType,
  type LedgerEntry,
} from "../../../protocol";

export type FundingSide = "lend" | "borrow";

/** How the rate is set: a fixed rate, or the FRR plus a delta (floating, or fixed at opening). */
export type RateMode = "fixed" | "frr-var" | "frr-fix";

export const RATE_MODE_TYPE: Readonly<Record<RateMode, FundingOfferType>> = {
  fixed: "LIMIT",
  "frr-var": "FRRDELTAVAR",
  "frr-fix": "FRRDELTAFIX",
};

export interface OfferValues {
  readonly side: FundingSide;
  readonly mode: RateMode;
  /** % a day for a fixed rate; the delta over the FRR, % a day, for the FRR modes. */
  readonly rate: string;
  readonly period: string;
  readonly amount: string;
  readonly hidden: boolean;
  readonly renew: boolean;
}

export const EMPTY_OFFER: OfferValues = {
  side: "lend",
  mode: "fixed",
  rate: "",
  period: String(FUNDING_PERIOD_MIN),
  amount: "",
  hidden: false,
  renew: false,
};

/** What the checks know about the world: the wallet, the price in USD, the FRR (null: unknown). */
export interface OfferEnv {
  readonly currency: string;
  /** Available in the funding wallet (lending reserves it). */
  readonly available: number | null;
  /** One unit of the currency in USD (1 for USD itself). */
  readonly usdPrice: number | null;
  /** The current Flash Return Rate, a daily fraction. */
  readonly frr: number | null;
}

/** The highest rate as typed, % a day (0.07 × 100 is 7.000000000000001 in floating point). */
const MAX_PERCENT = Number((FUNDING_RATE_MAX * 100).toPrecision(8));

export type OfferField = "rate" | "period" | "amount";

export type OfferIssue =
  | { readonly kind: "required" }
  | { readonly kind: "not-a-number" }
  | { readonly kind: "rate-positive" }
  | { readonly kind: "rate-too-high"; readonly max: number }
  | { readonly kind: "delta-negative" }
  | { readonly kind: "period-range"; readonly min: number; readonly max: number }
  | { readonly kind: "amount-positive" }
  | { readonly kind: "amount-minimum"; readonly minUsd: number; readonly min: number }
  | { readonly kind: "amount-balance"; readonly available: number };

export type OfferCheck =
  | { readonly ok: true; readonly request: OfferRequest; readonly dailyRate: number | null }
  | { readonly ok: false; readonly issues: Partial<Record<OfferField, OfferIssue>> };

/** `w/funding/offer/submit`'s body. */
export interface OfferRequest {
  readonly type: FundingOfferType;
  readonly symbol: string;
  /** Positive lends, negative borrows; a decimal string as the exchange takes it. */
  readonly amount: string;
  /** The daily fraction: the rate, or the delta over the FRR. */
  readonly rate: string;
  readonly period: number;
  readonly flags: number;
  readonly renew: 0 | 1;
}

/** A decimal as typed: "1,5" and " 1.5 " read 1.5; "" is null; anything else NaN. */
export function parseDecimal(text: string): number | null {
  const t = text.trim().replace(",", ".");
  if (t === "") return null;
  return /^[+-]?(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : Number.NaN;
}

/** A daily fraction as the wire's decimal string: at most 8 significant digits, never in exponent form. */
export function rateText(fraction: number): string {
  const s = Number(fraction.toPrecision(8)).toFixed(10);
  return s.replace(/\.?0+$/, "");
}

/** The smallest offer in the currency, null while its USD price is unknown. */
export function minimumAmount(usdPrice: number | null): number | null {
  if (usdPrice === null || !(usdPrice > 0)) return null;
  return Math.ceil((FUNDING_MIN_OFFER_USD / usdPrice) * 1e8) / 1e8;
}

/** The rate the offer would open at: the fixed rate, or the FRR plus the delta (null: FRR unknown). */
export function effectiveRate(mode: RateMode, rate: number, frr: number | null): number | null {
  if (mode === "fixed") return rate;
  return frr === null ? null : frr + rate;
}

export function checkOffer(v: OfferValues, env: OfferEnv): OfferCheck {
  const issues: Partial<Record<OfferField, OfferIssue>> = {};
  const ratePct = parseDecimal(v.rate);
  let rate = 0;
  if (ratePct === null) {
    // An FRR offer may leave the delta empty: at the FRR itself.
    if (v.mode === "fixed") issues.rate = { kind: "required" };
  } else if (Number.isNaN(ratePct)) issues.rate = { kind: "not-a-number" };
  else {
    rate = ratePct / 100;
    if (v.mode === "fixed" && !(rate > 0)) issues.rate = { kind: "rate-positive" };
    else if (v.mode === "frr-var" && rate < 0) issues.rate = { kind: "delta-negative" };
    else if (Math.abs(rate) > FUNDING_RATE_MAX) issues.rate = { kind: "rate-too-high", max: MAX_PERCENT };
  }
  const dailyRate = effectiveRate(v.mode, rate, env.frr);
  if (!issues.rate && dailyRate !== null && dailyRate > FUNDING_RATE_MAX)
    issues.rate = { kind: "rate-too-high", max: MAX_PERCENT };

  const period = parseDecimal(v.period);
  const periodRange = { kind: "period-range", min: FUNDING_PERIOD_MIN, max: FUNDING_PERIOD_MAX } as const;
  if (period === null) issues.period = { kind: "required" };
  else if (!Number.isInteger(period) || period < FUNDING_PERIOD_MIN || period > FUNDING_PERIOD_MAX)
    issues.period = periodRange;

  const amount = parseDecimal(v.amount);
  const min = minimumAmount(env.usdPrice);
  if (amount === null) issues.amount = { kind: "required" };
  else if (Number.isNaN(amount)) issues.amount = { kind: "not-a-number" };
  else if (!(amount > 0)) issues.amount = { kind: "amount-positive" };
  else if (min !== null && amount < min) issues.amount = { kind: "amount-minimum", minUsd: FUNDING_MIN_OFFER_USD, min };
  else if (v.side === "lend" && env.available !== null && amount > env.available)
    issues.amount = { kind: "amount-balance", available: env.available };

  if (Object.keys(issues).length > 0) return { ok: false, issues };
  const units = Math.round((amount as number) * 1e8) / 1e8;
  return {
    ok: true,
    dailyRate,
    request: {
      type: RATE_MODE_TYPE[v.mode],
      symbol: `f${env.currency}`,
      amount: rateText(v.side === "lend" ? units : -units),
      rate: rateText(rate),
      period: period as number,
      flags: v.hidden ? ORDER_FLAGS.HIDDEN : 0,
      renew: v.renew ? 1 : 0,
    },
  };
}

/**
 * The high-cost borrow rule (docs/product-rules.md#funding-offers): a borrow is expensive when it
 * would open at 0.1 % a day (36.5 % a year) or more, or at more than twice the current FRR. An FRR
 * offer whose FRR is not known yet is not called expensive on a guess.
 */
export const HIGH_COST_DAILY = 0.001;
export const HIGH_COST_FRR_MULTIPLE = 2;

export function isHighCostBorrow(side: FundingSide, dailyRate: number | null, frr: number | null): boolean {
  if (side !== "borrow" || dailyRate === null) return false;
  if (dailyRate >= HIGH_COST_DAILY) return true;
  return frr !== null && frr > 0 && dailyRate > frr * HIGH_COST_FRR_MULTIPLE;
}

/** A daily fraction as "0.0200 %" (four decimals: the book's resolution). */
export function dailyPercent(fraction: number | null): string {
  return fraction === null ? "—" : `${(fraction * 100).toFixed(4)} %`;
}

/** A daily fraction per year, "7.30 %" (× 365, not compounded). */
export function yearlyPercent(fraction: number | null): string {
  return fraction === null ? "—" : `${(fraction * 36500).toFixed(2)} %`;
}

// --- auto-renew ------------------------------------------------------------------------------------

export interface AutoRenewValues {
  readonly active: boolean;
  readonly period: string;
  /** % a day; empty or 0: at the FRR. */
  readonly rate: string;
  /** Up to this amount is offered again; empty or 0: all of it. */
  readonly threshold: string;
}

export type AutoRenewField = "period" | "rate" | "threshold";

export type AutoRenewCheck =
  | { readonly ok: true; readonly body: Record<string, unknown> }
  | { readonly ok: false; readonly issues: Partial<Record<AutoRenewField, OfferIssue>> };

export function checkAutoRenew(v: AutoRenewValues, currency: string): AutoRenewCheck {
  if (!v.active) return { ok: true, body: { status: 0, currency } };
  const issues: Partial<Record<AutoRenewField, OfferIssue>> = {};
  const period = parseDecimal(v.period);
  if (period === null) issues.period = { kind: "required" };
  else if (!Number.isInteger(period) || period < FUNDING_PERIOD_MIN || period > FUNDING_PERIOD_MAX)
    issues.period = { kind: "period-range", min: FUNDING_PERIOD_MIN, max: FUNDING_PERIOD_MAX };
  const ratePct = parseDecimal(v.rate) ?? 0;
  if (Number.isNaN(ratePct)) issues.rate = { kind: "not-a-number" };
  else if (ratePct < 0) issues.rate = { kind: "rate-positive" };
  else if (ratePct / 100 > FUNDING_RATE_MAX) issues.rate = { kind: "rate-too-high", max: MAX_PERCENT };
  const threshold = parseDecimal(v.threshold) ?? 0;
  if (Number.isNaN(threshold)) issues.threshold = { kind: "not-a-number" };
  else if (threshold < 0) issues.threshold = { kind: "amount-positive" };
  if (Object.keys(issues).length > 0) return { ok: false, issues };
  return {
    ok: true,
    body: { status: 1, currency, period, rate: rateText(ratePct / 100), amount: rateText(threshold) },
  };
}

// --- earnings ----------------------------------------------------------------------------------

export interface Earnings {
  /** Interest received as a lender (into the funding wallet), after the platform's share. */
  readonly earned: number;
  /** Interest charged as a borrower. */
  readonly paid: number;
  /** How many payments each sum is made of. */
  readonly payments: number;
  readonly charges: number;
}

/** Sums the margin-funding ledger rows: credits to the wallet are interest earned, debits interest paid. */
export function sumEarnings(rows: readonly LedgerEntry[]): Earnings {
  let earned = 0;
  let paid = 0;
  let payments = 0;
  let charges = 0;
  for (const r of rows) {
    if (ledgerCategoryOf(r.description) !== LEDGER_CATEGORY.MARGIN_FUNDING) continue;
    if (r.amount > 0) {
      earned += r.amount;
      payments++;
    } else if (r.amount < 0) {
      paid -= r.amount;
      charges++;
    }
  }
  const round = (x: number): number => Math.round(x * 1e8) / 1e8;
  return { earned: round(earned), paid: round(paid), payments, charges };
}
