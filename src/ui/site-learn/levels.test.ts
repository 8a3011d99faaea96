import { describe, expect, it } from "vitest";
import {
  DEPOSIT_LEVEL,
  marginLevelNeeded,
  VERIFICATION_LEVELS,
  WITHDRAW_LEVEL,
  withdrawalDailyLimitUsd,
} from "../../protocol";
import { levelRights, NEW_ACCOUNT_MARGIN_LEVEL } from "./levels";

describe("levelRights", () => {
  const rows = levelRights();

  it("has one row per level, lowest first", () => {
    expect(rows.map((r) => r.level)).toEqual([0, 1, 2, 3]);
  });

  it("reads the gates the exchange enforces", () => {
    // The exchange's own reading of these rules today: deposits from Basic plus, withdrawals from
    // Intermediate, limits of 50,000 and 1,000,000 USD (docs/product-rules.md#compliance-gates).
    expect(rows).toEqual([
      { level: 0, deposit: false, withdraw: false, margin: false, dailyWithdrawalUsd: 0 },
      { level: 1, deposit: true, withdraw: false, margin: false, dailyWithdrawalUsd: 0 },
      { level: 2, deposit: true, withdraw: true, margin: true, dailyWithdrawalUsd: 50_000 },
      { level: 3, deposit: true, withdraw: true, margin: true, dailyWithdrawalUsd: 1_000_000 },
    ]);
    for (const r of rows) {
      expect(r.deposit).toBe(r.level >= DEPOSIT_LEVEL);
      expect(r.withdraw).toBe(r.level >= WITHDRAW_LEVEL);
      expect(r.dailyWithdrawalUsd).toBe(withdrawalDailyLimitUsd(r.level));
    }
  });

  it("gives a limit exactly to the levels that may withdraw", () => {
    for (const r of rows) expect(r.dailyWithdrawalUsd > 0).toBe(r.withdraw);
  });

  it("shows the margin gate of an account opened today", () => {
    expect(NEW_ACCOUNT_MARGIN_LEVEL).toBe(marginLevelNeeded(Date.UTC(2026, 0, 1)));
    expect(NEW_ACCOUNT_MARGIN_LEVEL).toBe(VERIFICATION_LEVELS.INTERMEDIATE);
  });
});
