/** The funding forms' problems in the user's words (model.ts says which, this says how). */
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { OfferIssue } from "./model";

export function issueText(i18n: I18n, issue: OfferIssue, currency: string): string {
  switch (issue.kind) {
    case "required":
      return i18n._(msg`Required.`);
    case "not-a-number":
      return i18n._(msg`Enter a number.`);
    case "rate-positive":
      return i18n._(msg`The rate must be above zero.`);
    case "rate-too-high": {
      const max = issue.max;
      return i18n._(msg`At most ${max} % a day.`);
    }
    case "delta-negative":
      return i18n._(msg`A floating offer cannot go below the FRR.`);
    case "period-range": {
      const { min, max } = issue;
      return i18n._(msg`From ${min} to ${max} days.`);
    }
    case "amount-positive":
      return i18n._(msg`The amount must be above zero.`);
    case "amount-minimum": {
      const usd = issue.minUsd;
      const min = issue.min;
      return i18n._(msg`The minimum is ${usd} USD (${min} ${currency}).`);
    }
    case "amount-balance": {
      const available = issue.available;
      return i18n._(msg`Only ${available} ${currency} available.`);
    }
    default: {
      const never: never = issue;
      return never;
    }
  }
}
