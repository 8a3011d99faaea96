/**
 * What each verification level unlocks, derived from the rules the exchange itself enforces
 * (docs/product-rules.md#compliance-gates): the deposit and withdrawal levels and the margin gate of
 * `src/protocol/compliance.ts`, and the daily withdrawal limits of `src/protocol/withdrawals.ts`,
 * which `server/exchange/verification.ts` and `server/exchange/withdrawals.ts` apply. The
 * verification page shows this table, so it cannot drift from what the exchange refuses.
 */
import {
  DEPOSIT_LEVEL,
  MARGIN_INTERMEDIATE_FROM,
  marginLevelNeeded,
  VERIFICATION_LEVELS,
  WITHDRAW_LEVEL,
  withdrawalDailyLimitUsd,
  type VerificationLevel,
} from "../../protocol";

export interface LevelRights {
  readonly level: VerificationLevel;
  readonly deposit: boolean;
  readonly withdraw: boolean;
  /** Margin trading for an account opened today (older accounts have an earlier, lower gate). */
  readonly margin: boolean;
  /** The USD value the level may withdraw in any rolling 24 hours; 0 when it may not withdraw. */
  readonly dailyWithdrawalUsd: number;
}

/**
 * The level a newly opened account needs for margin: the gate of the latest account-creation date
 * (a constant, not the clock, so the page renders the same at build time and in the browser).
 */
export const NEW_ACCOUNT_MARGIN_LEVEL: VerificationLevel = marginLevelNeeded(MARGIN_INTERMEDIATE_FROM);

/** Every level, lowest first, with what it allows. */
export function levelRights(): readonly LevelRights[] {
  const levels = Object.values(VERIFICATION_LEVELS) as VerificationLevel[];
  return [...levels]
    .sort((a, b) => a - b)
    .map((level) => ({
      level,
      deposit: level >= DEPOSIT_LEVEL,
      withdraw: level >= WITHDRAW_LEVEL,
      margin: level >= NEW_ACCOUNT_MARGIN_LEVEL,
      dailyWithdrawalUsd: withdrawalDailyLimitUsd(level),
    }));
}

export { DEPOSIT_LEVEL, WITHDRAW_LEVEL };
