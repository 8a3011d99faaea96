/**
 * A derivatives position's collateral (docs/product-rules.md#derivatives): the room the exchange
 * allows (`calc/deriv/collateral/limits` → [MIN, MAX]) and setting it (`w/deriv/collateral/set`,
 * answered `[[1]]`). More collateral moves the liquidation price away; less frees it for other
 * positions down to the minimum the position's risk needs. Framework-free over the signed-in call.
 */
import {
  decodeCollateralLimits,
  decodeCollateralSet,
  DERIV_REFUSALS,
  parseApiError,
  type CollateralLimits,
} from "../../../../protocol";

export type CollateralCall = (
  path: string,
  body: unknown,
) => Promise<{ readonly status: number; readonly body: unknown }>;

export type { CollateralLimits };

/**
 * Why the exchange refused: below the minimum (`collateral: market risk`), above what the
 * derivatives wallet holds (`collateral: insufficient balance`), the position gone, not reached,
 * or anything else (its text as sent).
 */
export type CollateralRefusal =
  { readonly kind: "min" | "max" | "no-position" | "unreachable" } | { readonly kind: "other"; readonly text: string };

/** The limits for `symbol`'s position, or null when the exchange did not say. */
export async function collateralLimits(call: CollateralCall, symbol: string): Promise<CollateralLimits | null> {
  const reply = await call("/v2/auth/calc/deriv/collateral/limits", { symbol }).catch(() => null);
  if (!reply || reply.status !== 200) return null;
  const limits = decodeCollateralLimits(reply.body);
  return limits !== null && Number.isFinite(limits.min) && Number.isFinite(limits.max) ? limits : null;
}

function refusalOf(reply: { readonly status: number; readonly body: unknown } | null): CollateralRefusal | null {
  if (reply === null || reply.status === 0) return { kind: "unreachable" };
  if (reply.status === 200 && decodeCollateralSet(reply.body)) return null;
  const text = parseApiError(reply.body)?.message ?? "";
  if (text === DERIV_REFUSALS.marketRisk) return { kind: "min" };
  if (text === DERIV_REFUSALS.insufficient) return { kind: "max" };
  if (text === DERIV_REFUSALS.noPosition) return { kind: "no-position" };
  return { kind: "other", text };
}

/** Sets the position's collateral to `amount` (a positive decimal); null when it was set. */
export async function setCollateral(
  call: CollateralCall,
  symbol: string,
  amount: number,
): Promise<CollateralRefusal | null> {
  return refusalOf(await call("/v2/auth/w/deriv/collateral/set", { symbol, collateral: amount }).catch(() => null));
}
