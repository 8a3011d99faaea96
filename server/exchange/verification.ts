/**
 * The compliance gates the exchange enforces (docs/product-rules.md#compliance-gates; the levels
 * and dates are `src/protocol/compliance.ts`, shared with the account page): deposits need
 * BASIC_PLUS; margin trading needs BASIC_PLUS for accounts created from 2022-01-01 and
 * INTERMEDIATE from 2022-03-02 (older accounts trade margin whatever their level); withdrawals need
 * INTERMEDIATE; paper trading (the TEST pairs) is never gated. A person who answered that they are
 * a US resident may not deposit or trade on margin (the terms exclude US persons; withdrawing what
 * is theirs stays open). Each refusal's text is `levelGateMessage`'s, which the app reads back into
 * the required-verification dialog. Levels are raised with a KYC review (server/compliance.ts).
 */
import { DEPOSIT_LEVEL, levelGateMessage, marginLevelNeeded, WITHDRAW_LEVEL } from "../../src/protocol/index.ts";
import type { Db } from "../store/db.ts";

/** The refusal for an account that declared itself a US resident. */
export const US_RESIDENT_REFUSAL = "compliance: not available to US residents";

interface AccountFacts {
  readonly level: number;
  readonly createdAt: number;
  readonly usResident: boolean;
}

/** An account's verification level, creation time and residency (0, now, false for an unknown one: fail closed on level). */
export function accountFacts(db: Db, userId: number): AccountFacts {
  const row = db
    .prepare("SELECT verification_level AS v, created_at AS c, us_resident AS us FROM users WHERE id = ?")
    .get(userId) as { v: number; c: number; us: number | null } | undefined;
  return { level: row?.v ?? 0, createdAt: row?.c ?? Date.now(), usResident: row?.us === 1 };
}

/** Why `userId` may not trade `symbol` on margin, or null when it may. */
export function marginRefusal(db: Db, userId: number, symbol: string): string | null {
  if (symbol.startsWith("tTEST")) return null;
  const { level, createdAt, usResident } = accountFacts(db, userId);
  if (usResident) return US_RESIDENT_REFUSAL;
  const needed = marginLevelNeeded(createdAt);
  return level >= needed ? null : levelGateMessage({ action: "margin", needed, current: level });
}

/** Why `userId` may not deposit, or null when it may. */
export function depositRefusal(db: Db, userId: number): string | null {
  const { level, usResident } = accountFacts(db, userId);
  if (usResident) return US_RESIDENT_REFUSAL;
  return level >= DEPOSIT_LEVEL ? null : levelGateMessage({ action: "deposit", needed: DEPOSIT_LEVEL, current: level });
}

/** Why `userId` may not withdraw, or null when it may. */
export function withdrawRefusal(db: Db, userId: number): string | null {
  const { level } = accountFacts(db, userId);
  return level >= WITHDRAW_LEVEL
    ? null
    : levelGateMessage({ action: "withdraw", needed: WITHDRAW_LEVEL, current: level });
}
