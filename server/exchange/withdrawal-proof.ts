/**
 * A withdrawal's second factor (docs/product-rules.md#withdrawals): the account's authenticator
 * code, else a code texted to its SMS number for the purpose (server/sms.ts, purpose `withdraw`);
 * an API key with the withdraw permission is its own proof. Wrong codes count among the owner's
 * wrong proofs (server/owner-proof.ts), so a stolen session cannot guess codes at leisure.
 */
import { ERROR_CODES, WITHDRAW_REFUSALS as R, type WithdrawSecondFactor } from "../../src/protocol/index.ts";
import { sendMail } from "../mail.ts";
import { countWrongCode, proofLocked, takeCountedCode } from "../owner-proof.ts";
import { fail, type Reply } from "../reply.ts";
import { Sms, type SmsWithdrawal } from "../sms.ts";
import type { Accounts, UserRow } from "../store/accounts.ts";
import type { Caller } from "./withdrawals.ts";

const err = (msg: string): Reply => fail(ERROR_CODES.GENERIC, msg);

export class WithdrawalProof {
  readonly #sms: Sms;

  constructor(
    readonly accounts: Accounts,
    readonly now: () => number,
  ) {
    // The SMS codes live in SQLite: this instance and the security page's agree on them.
    this.#sms = new Sms(accounts, now, (to, subject, body) => sendMail(accounts.db, to, subject, body, now()));
  }

  /** The account's second factor a withdrawal asks for: its authenticator first, else SMS, else none. */
  factor(user: UserRow): WithdrawSecondFactor {
    if (user.tfa_secret) return "otp";
    return this.#sms.factorOf(user.id) ? "sms" : null;
  }

  /** `w/int/movements/withdraw/sms`: a code texted for this one withdrawal's `code`. */
  send(userId: number, caller: Caller, withdrawal: SmsWithdrawal): Reply {
    // A key needs no code, so it has no text to ask for.
    if (caller.keyId !== undefined) return err(R.smsNotEnabled);
    const user = this.accounts.byId(userId);
    if (!user || this.factor(user) !== "sms") return err(R.smsNotEnabled);
    const sent = this.#sms.sendWithdrawal(userId, withdrawal);
    if (sent === null) return err(R.smsNotEnabled);
    // The texts' refusals are a bad parameter (10020) there; a withdrawal's refusals are 10001.
    if (Array.isArray(sent.body) && sent.body[0] === "error") return err(String(sent.body[2]));
    return sent;
  }

  /**
   * Null when the caller proved the withdrawal is the owner's: an API key is its own proof; any
   * other credential sends the account's current authenticator code, or the code texted to its
   * SMS number for this withdrawal (`fingerprint`). Else the refusal.
   */
  check(user: UserRow, code: unknown, caller: Caller, now: number, fingerprint: string): string | null {
    if (caller.keyId !== undefined) return null;
    const factor = this.factor(user);
    if (factor === null) return R.noSecondFactor;
    if (typeof code !== "string" || code.trim() === "") return R.secondFactorRequired;
    const given = code.replace(/\s+/g, "");
    if (factor === "otp") {
      const taken = takeCountedCode(this.accounts, user, given, now);
      return taken === "ok" ? null : taken === "locked" ? R.secondFactorLocked : R.secondFactorWrong;
    }
    if (proofLocked(this.accounts, user.id, now)) return R.secondFactorLocked;
    const checked = this.#sms.check(user.id, "withdraw", given, fingerprint);
    switch (checked.result) {
      case "ok":
        return null;
      case "invalid":
        countWrongCode(this.accounts, user.id, now);
        return R.secondFactorWrong;
      case "expired":
        return R.secondFactorExpired;
      case "too-many":
        return R.secondFactorLocked;
      default: {
        const never: never = checked;
        return never;
      }
    }
  }
}
