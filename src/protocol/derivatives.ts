/**
 * Perpetual derivatives (`tBTCF0:USTF0`, …): one copy, for the exchange that enforces them and the
 * desk that shows them, of the numbers and shapes docs/product-rules.md#derivatives describes — the
 * order's leverage, the margin ratios, the funding clock and clamp, the spot index a perpetual
 * tracks, the liquidation price of an isolated position, the collateral calls' bodies and the
 * refusals the exchange answers with (the web app maps them to localized messages). No user text.
 */
import { DEFAULT_LEVERAGE, LEVERAGE_MAX, LEVERAGE_MIN } from "./constants";
import { parseSymbol } from "./symbols";

/**
 * Maintenance margin of a derivative position: 0.5 % of its notional at the mark price. Below it
 * (collateral plus unrealized P/L) the position is liquidated.
 */
export const DERIV_MAINTENANCE_MARGIN = 0.005;

/** Funding is paid every 8 hours of the exchange's clock (`DERIV_FUNDING_MS` shortens it for tests). */
export const DERIV_FUNDING_INTERVAL_MS = 8 * 3_600_000;

/** Samples of the premium the funding rate averages over one interval (one a minute over 8 hours). */
export const DERIV_FUNDING_STEPS = 480;

/** A funding rate is held within ±0.25 % per interval, whatever the premium. */
export const DERIV_FUNDING_CLAMP = 0.0025;

/** The refusals the exchange answers derivative orders and collateral calls with. */
export const DERIV_REFUSALS = {
  lev: `Invalid order: lev must be a whole number from ${LEVERAGE_MIN} to ${LEVERAGE_MAX}`,
  orderType: "Invalid order: derivatives trade with the margin order types, not EXCHANGE ones",
  noIndex: "Invalid order: no mark price",
  symbol: "symbol: invalid",
  noPosition: "symbol: no open position",
  collateral: "collateral: invalid",
  /** Less than the minimum: the position would be too close to its liquidation (Bitfinex's wording). */
  marketRisk: "collateral: market risk",
  insufficient: "collateral: insufficient balance",
  /** Residents of Spain may not open derivative positions (the web app matches /spain/i). */
  spain: "Invalid order: derivatives trading is not available to residents of Spain",
} as const;

/**
 * An order's `lev`: absent is the default (10); otherwise a whole number from 1 to 100, as a number
 * or a decimal string. Null when it is anything else (the order is refused).
 */
export function orderLeverage(v: unknown): number | null {
  if (v === undefined || v === null) return DEFAULT_LEVERAGE;
  const n = typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= LEVERAGE_MIN && n <= LEVERAGE_MAX ? n : null;
}

/** Whether a trading symbol is a perpetual (both legs end in F0). */
export function isDerivativeSymbol(symbol: string): boolean {
  const info = parseSymbol(symbol);
  return info !== null && info.kind === "trading" && info.derivative;
}

/**
 * The spot market a perpetual tracks, whose price is its index and mark: `tBTCF0:USTF0` → `tBTCUSD`,
 * `tETHF0:USTF0` → `tETHUSD`. Null for anything but a perpetual on a currency with a dollar market.
 */
export function spotIndexOf(symbol: string): string | null {
  const m = /^t([A-Z0-9]+)F0:(?:UST|USD)F0$/.exec(symbol);
  return m ? `t${m[1]}USD` : null;
}

/**
 * The mark at which an isolated position reaches maintenance: collateral + amount × (L − base) =
 * |amount| × L × maintenance, solved for L. Null for an empty position; 0 when no price liquidates
 * it (a long whose collateral covers its whole notional).
 */
export function derivLiquidationPrice(
  amount: number,
  basePrice: number,
  collateral: number,
  maintenance = DERIV_MAINTENANCE_MARGIN,
): number | null {
  if (amount === 0) return null;
  const l = (amount * basePrice - collateral) / (amount * (1 - Math.sign(amount) * maintenance));
  return l > 0 && Number.isFinite(l) ? Number(l.toPrecision(8)) : 0;
}

/** `w/deriv/collateral/set` body: `{symbol, collateral}`, the collateral a decimal number or string. */
export function decodeCollateralSetRequest(
  body: Readonly<Record<string, unknown>>,
): { ok: true; symbol: string; collateral: number } | { ok: false; reason: string } {
  const symbol = body["symbol"];
  if (typeof symbol !== "string" || !isDerivativeSymbol(symbol)) return { ok: false, reason: DERIV_REFUSALS.symbol };
  const raw = body["collateral"];
  const collateral =
    typeof raw === "number" ? raw : typeof raw === "string" && /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!(collateral > 0) || !Number.isFinite(collateral) || collateral > 1e12)
    return { ok: false, reason: DERIV_REFUSALS.collateral };
  return { ok: true, symbol, collateral };
}

/** `w/deriv/collateral/set` answer: `[[1]]` when the collateral was set. */
export function encodeCollateralSet(): [[1]] {
  return [[1]];
}

export function decodeCollateralSet(raw: unknown): boolean {
  return Array.isArray(raw) && Array.isArray(raw[0]) && raw[0][0] === 1;
}

/** `calc/deriv/collateral/limits` answer: `[MIN_COLLATERAL, MAX_COLLATERAL]`. */
export interface CollateralLimits {
  readonly min: number;
  readonly max: number;
}

export function encodeCollateralLimits(l: CollateralLimits): [number, number] {
  return [l.min, l.max];
}

export function decodeCollateralLimits(raw: unknown): CollateralLimits | null {
  if (!Array.isArray(raw) || typeof raw[0] !== "number" || typeof raw[1] !== "number") return null;
  return { min: raw[0], max: raw[1] };
}
