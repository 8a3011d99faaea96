/**
 * The verification levels the product gates features on (docs/product-rules.md#compliance-gates;
 * BASIC 0, BASIC_PLUS 1, INTERMEDIATE 2, FULL 3; `r/info/user` field 5): deposits need basic-plus;
 * margin trading needs basic-plus for accounts created from 2022-01-01 and intermediate for
 * accounts created from 2022-03-02 (older accounts trade margin whatever their level); paper
 * trading (the TEST pairs) is never gated. Withdrawals need level 2 (funds.ts WITHDRAW_LEVEL).
 * Levels are raised on this machine with `POST /dev/verification` (server/README.md).
 */
import type { Db } from "../store/db.ts";

export const DEPOSIT_LEVEL = 1;
/** From this account-creation date margin trading needs basic-plus… */
export const MARGIN_BASIC_PLUS_FROM = Date.UTC(2022, 0, 1);
/** …and from this one intermediate. */
export const MARGIN_INTERMEDIATE_FROM = Date.UTC(2022, 2, 2);

/** An account's verification level and creation time (0 and now for an unknown one: fail closed). */
export function accountLevel(db: Db, userId: number): { level: number; createdAt: number } {
  const row = db.prepare("SELECT verification_level AS v, created_at AS c FROM users WHERE id = ?").get(userId) as
    { v: number; c: number } | undefined;
  return { level: row?.v ?? 0, createdAt: row?.c ?? Date.now() };
}

/** The level an account created at `createdAt` needs to trade on margin. */
export function marginLevelNeeded(createdAt: number): number {
  if (createdAt >= MARGIN_INTERMEDIATE_FROM) return 2;
  if (createdAt >= MARGIN_BASIC_PLUS_FROM) return 1;
  return 0;
}

/** Why `userId` may not trade `symbol` on margin, or null when it may. */
export function marginRefusal(db: Db, userId: number, symbol: string): string | null {
  if (symbol.startsWith("tTEST")) return null;
  const { level, createdAt } = accountLevel(db, userId);
  const need = marginLevelNeeded(createdAt);
  return level >= need ? null : `verification: level ${need} needed to trade on margin (this account has ${level})`;
}

/** Why `userId` may not deposit, or null when it may. */
export function depositRefusal(db: Db, userId: number): string | null {
  const { level } = accountLevel(db, userId);
  return level >= DEPOSIT_LEVEL
    ? null
    : `verification: level ${DEPOSIT_LEVEL} needed to deposit (this account has ${level})`;
}
