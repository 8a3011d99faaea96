/**
 * The withdrawal page's rules, framework-free (docs/product-rules.md#withdrawals): the figures the
 * form shows as the amount is typed — what arrives (amount − fee), the most that may be asked for
 * (the wallet's available amount or what is left of the level's daily limit, whichever is smaller),
 * whether the travel-rule details are needed (the amount's USD value at or above the threshold) —
 * the amount's problems found before anything is sent, by the rules the exchange applies
 * (src/protocol withdrawals.ts), and which field of the form each of the exchange's refusals belongs
 * to, so the page words it beside what has to change.
 *
 * Amounts are counted in whole units of 1e-8 (the exchange keeps every wallet to 8 decimals), as
 * BigInt: 0.3 − 0.1 must show 0.2, not 0.19999999999999998.
 */
import {
  checkWithdrawalAmount,
  type WithdrawalAmountProblem,
  type WithdrawalMethodInfo,
  type WithdrawRefusal,
} from "../../protocol";

const SCALE = 100_000_000n;
const DECIMALS = 8;

/** The units of 1e-8 in a decimal text (as checkWithdrawalAmount accepts it), or null when it is not one. */
export function unitsOf(text: string): bigint | null {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || text.trim() === "" || text.trim() === ".") return null;
  const whole = m[1] ?? "";
  const frac = m[2] ?? "";
  if (frac.replace(/0+$/, "").length > DECIMALS) return null;
  return BigInt(whole === "" ? "0" : whole) * SCALE + BigInt(frac.padEnd(DECIMALS, "0").slice(0, DECIMALS));
}

/**
 * The units of a number the exchange sent (a wallet balance, a fee), rounded to the nearest unit:
 * a balance is whole units, and its float is only the nearest binary number to them.
 */
export function unitsOfNumber(n: number): bigint {
  return BigInt(Math.round(n * 1e8));
}

/**
 * The whole units below a number the exchange sent (what is left of a limit, converted at a rate):
 * never rounded up, so "Max" never asks for a unit more than is allowed. The epsilon undoes binary
 * noise (0.3 × 1e8 is 29999999.999999996), never a real unit.
 */
export function unitsBelow(n: number): bigint {
  return BigInt(Math.floor(n * 1e8 + 1e-6));
}

/** Units as plain decimal text without trailing zeros ("0.0005", "2"), what the amount field takes. */
export function textOfUnits(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const whole = abs / SCALE;
  const frac = (abs % SCALE).toString().padStart(DECIMALS, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${frac === "" ? "" : `.${frac}`}`;
}

/** What arrives at the address for an amount: amount − fee; null when the amount is not a valid text or leaves nothing. */
export function receiveUnits(amount: string, fee: number): bigint | null {
  const units = unitsOf(amount);
  if (units === null) return null;
  const left = units - unitsOfNumber(fee);
  return left > 0n ? left : null;
}

/**
 * The most that may be asked for: the wallet's available amount, or what is left of the daily
 * limit in the currency (null when the exchange has no rate to tell it), whichever is smaller;
 * never below zero.
 */
export function maxUnits(available: number, remaining: number | null): bigint {
  const a = unitsOfNumber(Math.max(0, available));
  if (remaining === null) return a;
  const r = unitsBelow(Math.max(0, remaining));
  return a < r ? a : r;
}

/** The USD value of an amount at a rate; null when either is unknown. */
export function usdValue(amount: string, usdRate: number | null): number | null {
  const units = unitsOf(amount);
  if (units === null || usdRate === null) return null;
  return (Number(units) / 1e8) * usdRate;
}

/**
 * Whether the travel-rule details must go with the amount: its USD value at or above the
 * threshold. Unknown without a rate; then the exchange decides, and its refusal shows the section.
 */
export function travelRuleNeeded(amount: string, usdRate: number | null, thresholdUsd: number): boolean {
  const value = usdValue(amount, usdRate);
  return value !== null && value >= thresholdUsd;
}

/** An amount's problem as the form tells it before sending. */
export type AmountProblem = WithdrawalAmountProblem | "insufficient" | "daily-limit";

/**
 * What is wrong with the amount, or null: its text and the method's minimum (the exchange's own
 * rule), then more than the wallet has available, then more than is left of the daily limit.
 */
export function amountProblem(
  amount: string,
  method: WithdrawalMethodInfo,
  available: number,
  remaining: number | null,
): AmountProblem | null {
  const problem = checkWithdrawalAmount(amount, method);
  if (problem !== null) return problem;
  const units = unitsOf(amount);
  if (units === null) return "invalid";
  if (units > unitsOfNumber(Math.max(0, available))) return "insufficient";
  if (remaining !== null && units > unitsBelow(Math.max(0, remaining))) return "daily-limit";
  return null;
}

/**
 * The part of the form a refusal is shown beside: `form` for what concerns the whole request (above
 * the button), `level` for the required-level dialog, `history` for a call on a listed withdrawal,
 * `confirm` for the mailed link's page.
 */
export type RefusalField =
  "wallet" | "amount" | "address" | "payment-id" | "travel-rule" | "code" | "level" | "form" | "history" | "confirm";

export function fieldOfRefusal(r: WithdrawRefusal): RefusalField {
  switch (r) {
    case "wallet":
      return "wallet";
    case "amount":
    case "precision":
    case "belowMinimum":
    case "insufficient":
    case "dailyLimit":
    case "noRate":
      return "amount";
    case "address":
    case "whitelist":
      return "address";
    case "paymentId":
      return "payment-id";
    case "travelRuleRequired":
    case "travelRuleInvalid":
    case "travelRuleVasp":
      return "travel-rule";
    case "secondFactorRequired":
    case "secondFactorWrong":
    case "secondFactorExpired":
    case "secondFactorLocked":
    case "smsNotEnabled":
    case "smsWait":
    case "smsTooMany":
      return "code";
    case "level":
      return "level";
    case "method":
    case "withdrawalsOff":
    case "noSecondFactor":
    case "requestId":
    case "requestReused":
    case "sessionRequired":
      return "form";
    case "cancelTooLate":
    case "notFound":
      return "history";
    case "confirmLink":
      return "confirm";
    default: {
      const never: never = r;
      return never;
    }
  }
}

/**
 * The request id of the withdrawal being asked for: kept while the same withdrawal is sent again
 * (a retry after a lost answer is answered with the first reply and moves nothing twice), a new
 * one as soon as anything of it changes or it went through.
 */
export class RequestIds {
  readonly #newId: () => string;
  #pending: { readonly id: string; readonly key: string } | null = null;

  constructor(newId: () => string) {
    this.#newId = newId;
  }

  /** The id for the withdrawal described by `key` (its fields, without the one-time code). */
  for(key: string): string {
    if (this.#pending?.key !== key) this.#pending = { id: this.#newId(), key };
    return this.#pending.id;
  }

  /** The withdrawal went through: the next one, even alike, is a new one. */
  done(): void {
    this.#pending = null;
  }
}
