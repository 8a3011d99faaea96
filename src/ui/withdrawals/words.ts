/**
 * What the withdrawal page says of the exchange's refusals (src/protocol withdrawals.ts
 * `WITHDRAW_REFUSALS`) and of a call that failed around them, in the reader's language.
 */
import { useLingui } from "@lingui/react/macro";
import type { WithdrawRefusal } from "../../protocol";
import { useApiErrorText } from "../shell/api-error-text";
import type { WithdrawError } from "./withdraw-api";

/** A failed call in words; null for what the app already says once for all pages (429, forced sign-out). */
export function useErrorText(): (e: WithdrawError) => string | null {
  const refusal = useRefusalText();
  const app = useApiErrorText();
  const { t } = useLingui();
  return (e) => {
    switch (e.kind) {
      case "refused":
        return refusal(e.refusal);
      case "read-only":
        return t`You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make changes.`;
      case "app":
        return app(e.app);
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}

/** Every refusal of the exchange in the reader's language. */
export function useRefusalText(): (r: WithdrawRefusal) => string {
  const { t } = useLingui();
  return (r) => {
    switch (r) {
      case "wallet":
        return t`Choose a wallet.`;
      case "method":
        return t`Choose a currency.`;
      case "amount":
        return t`Enter an amount above zero, such as 25 or 0.5.`;
      case "precision":
        return t`Use at most 8 decimals.`;
      case "belowMinimum":
        return t`The amount is below the minimum withdrawal.`;
      case "insufficient":
        return t`The wallet does not have that much available.`;
      case "noRate":
        return t`The exchange has no price for this currency right now, so the daily limit cannot be checked. Try again later.`;
      case "dailyLimit":
        return t`The amount is over what is left of your daily withdrawal limit.`;
      case "address":
        return t`This is not a valid address for this network.`;
      case "paymentId":
        return t`A destination tag is a whole number without leading zeros.`;
      case "whitelist":
        return t`The whitelist is on: choose one of your confirmed addresses.`;
      case "withdrawalsOff":
        return t`Withdrawals of this currency are turned off for your account. Turn them on in your withdrawal addresses.`;
      case "level":
        return t`Withdrawals need a higher verification level.`;
      case "travelRuleRequired":
        return t`Say who owns the address and where it is held.`;
      case "travelRuleInvalid":
        return t`Say who owns the address and where it is held.`;
      case "travelRuleVasp":
        return t`Choose the exchange or custodian from the list.`;
      case "secondFactorRequired":
        return t`Enter the code.`;
      case "secondFactorWrong":
        return t`That code is not right. Enter the current code.`;
      case "secondFactorExpired":
        return t`That code has expired. Ask for a new one.`;
      case "secondFactorLocked":
        return t`Too many wrong passwords or codes. Wait ten minutes, then try again.`;
      case "noSecondFactor":
        return t`Withdrawals need two-factor authentication. Set it up on the security page first.`;
      case "smsNotEnabled":
        return t`Your account's second factor is not SMS.`;
      case "smsWait":
        return t`Wait a minute before asking for another code.`;
      case "smsTooMany":
        return t`Too many text messages this hour. Try again later.`;
      case "requestId":
      case "requestReused":
        return t`The exchange refused the request. Check the form and try again.`;
      case "sessionRequired":
        return t`Sign in on this device to confirm the withdrawal.`;
      case "confirmLink":
        return t`This confirmation link is not valid: it was used already, it has expired, or it belongs to another account.`;
      case "cancelTooLate":
        return t`It is too late to cancel: the withdrawal is being sent or done.`;
      case "notFound":
        return t`That withdrawal was not found. The list has been refreshed.`;
      default: {
        const never: never = r;
        return never;
      }
    }
  };
}
