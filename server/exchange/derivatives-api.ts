/**
 * The derivatives' own REST calls (docs/protocol.md#derivatives): `w/deriv/collateral/set
 * {symbol, collateral}` sets the collateral of the caller's open position on a perpetual (`[[1]]`),
 * within the limits `calc/deriv/collateral/limits {symbol}` answers (`[MIN, MAX]`). Bodies are
 * read and answers built by src/protocol/derivatives.ts; the model is positions.ts.
 */
import {
  decodeCollateralSetRequest,
  DERIV_REFUSALS,
  encodeCollateralLimits,
  encodeCollateralSet,
  ERROR_CODES,
  isDerivativeSymbol,
} from "../../src/protocol/index.ts";
import { fromUnits, toUnits } from "../store/db.ts";
import { fail, ok, type Reply } from "../reply.ts";
import type { Positions } from "./positions.ts";

const { GENERIC, PARAMS } = ERROR_CODES;

/** The derivatives REST calls; null for any other path. */
export function derivativesRest(
  p: Positions,
  userId: number,
  path: string,
  body: Readonly<Record<string, unknown>>,
): Reply | null {
  if (path === "/v2/auth/calc/deriv/collateral/limits") {
    const symbol = body["symbol"];
    if (typeof symbol !== "string" || !isDerivativeSymbol(symbol)) return fail(PARAMS, DERIV_REFUSALS.symbol, 400);
    const pos = p.get(userId, symbol);
    if (!pos) return fail(GENERIC, DERIV_REFUSALS.noPosition);
    const l = p.collateralLimits(pos);
    return ok(encodeCollateralLimits({ min: fromUnits(l.min), max: fromUnits(l.max) }));
  }
  if (path === "/v2/auth/w/deriv/collateral/set") {
    const req = decodeCollateralSetRequest(body);
    if (!req.ok) return fail(PARAMS, req.reason, 400);
    const pos = p.get(userId, req.symbol);
    if (!pos) return fail(GENERIC, DERIV_REFUSALS.noPosition);
    const units = toUnits(req.collateral);
    const l = p.collateralLimits(pos);
    if (units < l.min) return fail(GENERIC, DERIV_REFUSALS.marketRisk);
    if (units > l.max) return fail(GENERIC, DERIV_REFUSALS.insufficient);
    p.setCollateral(pos, units);
    return ok(encodeCollateralSet());
  }
  return null;
}
