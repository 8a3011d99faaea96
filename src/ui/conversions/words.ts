import { useLingui } from "@lingui/react/macro";
import { useWalletName } from "../wallets/words";
import { currencyDecimals, MAX_CONVERSION_AMOUNT, type AgreementRefusal, type ConversionRefusal } from "../../protocol";
import type { ConversionError } from "./api";

/** An agreement's words: its title and the summary the dialog shows, by the agreement's text id. */
export interface AgreementText {
  readonly title: string;
  readonly summary: readonly string[];
}

/**
 * The conversion dialog's words: wallet names, the agreements' texts, and every refusal and
 * failure, worded for the person converting (the exchange's messages are mapped, never shown).
 */
export function useConversionWords() {
  const { t, i18n } = useLingui();

  const walletName = useWalletName();

  /** The agreement's text by its id; null for an id this build does not know (it is not offered then). */
  const agreement = (textId: string): AgreementText | null => {
    switch (textId) {
      case "usdt-issuer-terms":
        return {
          title: t`USDt terms`,
          summary: [
            t`USDt is a stable coin issued and redeemed by Tether, not by this exchange. It is not legal tender and is not a bank deposit.`,
            t`Its value depends on the issuer's reserves. Redeeming USDt for dollars with the issuer follows the issuer's own terms and checks.`,
            t`This exchange converts at the rate it quotes and keeps the fee shown before you confirm.`,
          ],
        };
      case "try-fiat-terms":
        return {
          title: t`Turkish lira terms`,
          summary: [
            t`Turkish lira balances are held with a licensed payment partner in Türkiye, under Turkish law.`,
            t`Deposits and withdrawals of lira go only to and from bank accounts in your own name, and may be reported to the authorities as the law requires.`,
            t`This exchange converts at the rate it quotes and keeps the fee shown before you confirm.`,
          ],
        };
      case "brl-fiat-terms":
        return {
          title: t`Brazilian real terms`,
          summary: [
            t`Brazilian real balances are held with a licensed payment partner in Brazil, under Brazilian law.`,
            t`Deposits and withdrawals of reais go only to and from accounts in your own name (Pix or bank transfer), and may be reported to the authorities as the law requires.`,
            t`This exchange converts at the rate it quotes and keeps the fee shown before you confirm.`,
          ],
        };
      default:
        return null;
    }
  };

  const refusal = (r: ConversionRefusal, currency: string, agreementCurrency: string | null): string => {
    const decimals = currencyDecimals(currency);
    const limit = i18n.number(MAX_CONVERSION_AMOUNT);
    switch (r) {
      case "wallet":
        return t`Choose a wallet.`;
      case "from":
        return t`Choose a currency to convert.`;
      case "to":
        return t`Choose the currency to receive.`;
      case "sameCurrency":
        return t`Choose two different currencies.`;
      case "pair":
        return t`These two currencies do not convert into each other.`;
      case "amount":
        return t`Enter an amount above zero, such as 25 or 0.5.`;
      case "precision":
        return t`Use at most ${decimals} decimals for ${currency}.`;
      case "tooSmall":
        return t`This amount is too small to convert: it would give nothing.`;
      case "tooLarge":
        return t`One conversion takes or gives at most ${limit} of a currency.`;
      case "insufficient":
        return t`The wallet does not have that much available.`;
      case "rate":
        return t`No rate is available for these currencies right now. Try again in a moment.`;
      case "unreliableRate":
        return t`No reliable rate right now: the market is moving. Try again in a moment.`;
      case "quote":
      case "notFound":
        return t`This quote is no longer valid. Get a new quote.`;
      case "expired":
        return t`The quote has expired. Get a new quote.`;
      case "agreement": {
        const ccy = agreementCurrency ?? currency;
        return t`Accept the ${ccy} terms to convert.`;
      }
      default: {
        const never: never = r;
        return never;
      }
    }
  };

  const agreementRefusal = (r: AgreementRefusal): string => {
    switch (r) {
      case "currency":
        return t`This currency needs no agreement.`;
      case "version":
        return t`These terms have changed. Close this dialog and try again to read the current version.`;
      default: {
        const never: never = r;
        return never;
      }
    }
  };

  /** A failure's words; `currency` is the one being converted (its decimals, its name). */
  const error = (e: ConversionError, currency: string): string => {
    switch (e.kind) {
      case "refused":
        return refusal(e.refusal, currency, e.currency);
      case "agreement":
        return agreementRefusal(e.refusal);
      case "read-only":
        return t`You are acting in a read-only context: nothing can be changed here. Switch back to the main account to make changes.`;
      case "unreachable":
        return t`The exchange could not be reached. Nothing was converted; try again.`;
      case "server":
        return t`The exchange had a problem answering. Try again in a moment.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };

  /** A conversion whose answer did not arrive: it may have happened, and trying again is safe. */
  const lostAnswer = t`The exchange's answer did not arrive, so the conversion may or may not have happened. Press Convert again: this quote is converted at most once.`;

  return { walletName, agreement, error, lostAnswer };
}
