import { useLingui } from "@lingui/react/macro";
import {
  currencyDecimals,
  otcCurrencies,
  otcMinAmount,
  type OtcOutcome,
  type OtcPair,
  type OtcSide,
} from "../../protocol";
import type { OtcError } from "./api";

/** "BTC/USD": how the page names a pair (the API's code stays the value). */
export function pairName(pair: OtcPair): string {
  const { base, quote } = otcCurrencies(pair);
  return `${base}/${quote}`;
}

/**
 * The OTC page's words: sides, outcomes, and every refusal and failure, worded for the person
 * trading (the exchange's messages are mapped, never shown).
 */
export function useOtcWords() {
  const { t, i18n } = useLingui();

  const side = (s: OtcSide): string => (s === "buy" ? t`Buy` : t`Sell`);

  const outcome = (o: OtcOutcome): string => {
    switch (o) {
      case "ACCEPTED":
        return t`Accepted`;
      case "EXPIRED":
        return t`Expired`;
      case "OPEN":
        return t`Open`;
    }
  };

  /** The failure's sentence; `pair` names the currencies the amount and balance are in. */
  const error = (e: OtcError, pair: OtcPair): string => {
    const { base } = otcCurrencies(pair);
    switch (e.kind) {
      case "read-only":
        return t`This sub-account is open read-only: switch back to your own account to trade.`;
      case "unreachable":
        return t`The exchange could not be reached. Check your connection and try again.`;
      case "server":
        return t`The exchange could not complete this. Try again in a moment.`;
      case "refused":
        switch (e.refusal) {
          case "pair":
            return t`Choose a pair offered over the counter.`;
          case "side":
            return t`Choose to buy or to sell.`;
          case "amount":
            return t`Enter an amount above zero, such as 25 or 0.5.`;
          case "precision": {
            const decimals = currencyDecimals(base);
            return t`Use at most ${decimals} decimals for ${base}.`;
          }
          case "tooSmall": {
            const min = i18n.number(otcMinAmount(pair), { maximumFractionDigits: 8 });
            return t`A block trade is at least ${min} ${base}.`;
          }
          case "liquidity":
            return t`The order book cannot price a block this large right now. Try a smaller amount.`;
          case "unreliable":
            return t`The market is moving too fast to price a block. Try again in a moment.`;
          case "insufficient":
            return t`Your exchange wallet does not have enough for this block.`;
          case "quote":
          case "notFound":
            return t`This quote is not known. Request a new quote.`;
          case "expired":
            return t`This quote has expired and can no longer be accepted. Request a new quote.`;
          case "used":
            return t`This quote has already been accepted.`;
        }
    }
  };

  return { side, outcome, error };
}
