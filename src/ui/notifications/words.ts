import { useLingui } from "@lingui/react/macro";
import type { NotificationCategory, NotificationsRefusal } from "../../protocol";
import { useApiErrorText } from "../shell/api-error-text";
import type { NotificationsError } from "./api";

/**
 * The notifications page's words: campaign names and descriptions (the exchange sends its English
 * ones; these are the translations, by campaign id, the exchange's text the fallback for a campaign
 * this build does not know), categories, notification types and statuses, and refusals.
 */
export function useNotificationWords() {
  const { t } = useLingui();
  const apiError = useApiErrorText();

  const campaignName = (id: string, fallback: string): string => {
    switch (id) {
      case "market-weekly":
        return t`The Weekly Close`;
      case "product-news":
        return t`Product News`;
      case "research-desk":
        return t`Research Desk`;
      default:
        return fallback;
    }
  };
  const campaignDescription = (id: string, fallback: string): string => {
    switch (id) {
      case "market-weekly":
        return t`Every Monday: the week's moves in the major markets, funding rates and volumes, in five minutes.`;
      case "product-news":
        return t`New markets, features and fee changes, about twice a month.`;
      case "research-desk":
        return t`Long reads from our analysts on market structure, derivatives and on-chain flows, once a month.`;
      default:
        return fallback;
    }
  };
  const category = (c: NotificationCategory | "all"): string => {
    switch (c) {
      case "all":
        return t`All`;
      case "orders":
        return t`Orders`;
      case "funding":
        return t`Funding`;
      case "positions":
        return t`Positions`;
      case "wallet":
        return t`Wallet`;
      case "other":
        return t`Other`;
      default: {
        const never: never = c;
        return never;
      }
    }
  };
  const type = (kind: string): string => {
    switch (kind) {
      case "on-req":
        return t`New order`;
      case "ou-req":
        return t`Order update`;
      case "oc-req":
        return t`Order cancellation`;
      case "oc_multi-req":
        return t`Orders cancelled`;
      case "ox_multi-req":
        return t`Order batch`;
      case "fon-req":
        return t`Funding offer`;
      case "foc-req":
        return t`Funding offer cancellation`;
      case "foc_all-req":
        return t`All funding offers cancelled`;
      case "fclose-req":
        return t`Funding closed`;
      case "fa-req":
        return t`Auto-renew`;
      case "pos_claim":
        return t`Position claim`;
      case "acc_tf":
        return t`Transfer`;
      case "acc_cv":
        return t`Conversion`;
      case "acc_dep":
        return t`Deposit address`;
      case "acc_wd-req":
        return t`Withdrawal`;
      default:
        return kind;
    }
  };
  const status = (s: string): string => {
    switch (s) {
      case "SUCCESS":
        return t`Success`;
      case "ERROR":
        return t`Error`;
      case "FAILURE":
        return t`Failed`;
      case "WARNING":
        return t`Warning`;
      case "INFO":
        return t`Info`;
      default:
        return s;
    }
  };
  const refusal = (r: NotificationsRefusal): string => {
    switch (`${r.field}:${r.reason}`) {
      case "email:invalid":
        return t`Enter an e-mail address such as name@example.com.`;
      case "campaign:invalid":
        return t`Choose a newsletter.`;
      case "token:used":
        return t`This link was already used.`;
      case "token:expired":
        return t`This link has expired. Subscribe again to get a new one.`;
      case "token:invalid":
        return t`This link is not valid. Check that you opened the whole link from the mail.`;
      default:
        return t`The exchange could not do that. Reload the page and try again.`;
    }
  };
  /** A failed call's text; null when the app already says it once for all pages. */
  const error = (e: NotificationsError): string | null => (e.kind === "field" ? refusal(e.refusal) : apiError(e.kind));

  return { campaignName, campaignDescription, category, type, status, refusal, error };
}
