import { useLingui } from "@lingui/react/macro";
import { currencyDecimals, type TransferRefusal } from "../../protocol";
import type { TransferError } from "./model";

/** A wallet type as the wallets page and the transfer form name it. */
export function useWalletName(): (type: string) => string {
  const { t } = useLingui();
  return (type) => {
    switch (type) {
      case "exchange":
        return t`Exchange`;
      case "margin":
        return t`Margin`;
      case "funding":
        return t`Funding`;
      case "creditline":
        return t`Credit line`;
      case "contribution":
        return t`Contribution`;
      default:
        return type;
    }
  };
}

/** Every refusal and failure of a transfer, worded for the person moving the money (never the exchange's text). */
export function useTransferErrorWords(): (e: TransferError, currency: string) => string {
  const { t } = useLingui();
  const refusal = (r: TransferRefusal, currency: string): string => {
    const decimals = currencyDecimals(currency);
    switch (r) {
      case "sameWallet":
        return t`Choose two different wallets.`;
      case "currency":
      case "currencyTo":
        return t`Choose a currency.`;
      case "amount":
        return t`Enter an amount above zero, such as 25 or 0.5.`;
      case "precision":
        return t`Use at most ${decimals} decimals for ${currency}.`;
      case "insufficient":
        return t`The source wallet does not have that much available.`;
      case "from":
      case "to":
        return t`Choose a wallet.`;
      case "requestId":
      case "requestReused":
        return t`The exchange refused the request. Check the form and try again.`;
      default: {
        const never: never = r;
        return never;
      }
    }
  };
  return (e, currency) => {
    switch (e.kind) {
      case "refused":
        return refusal(e.refusal, currency);
      case "account":
        return e.reason === "invalid"
          ? t`That sub-account does not exist or is not yours.`
          : t`This account may not do that: only a main account manages sub-accounts, and funds move only between a main account and its own sub-accounts.`;
      case "read-only":
        return t`You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make changes.`;
      case "unreachable":
        return t`The exchange could not be reached. Nothing was moved; try again.`;
      case "server":
        return t`The exchange had a problem answering. Try again in a moment.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
}
