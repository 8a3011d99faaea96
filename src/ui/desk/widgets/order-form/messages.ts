/** Localized labels and validation messages of the order form (descriptors; the component translates). */
import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import type { OrderKind, TradeContext } from "./order-model";
import type { Issue } from "./validate";

export const KIND_LABELS: Record<OrderKind, MessageDescriptor> = {
  LIMIT: msg`Limit`,
  MARKET: msg`Market`,
  STOP: msg`Stop`,
  "STOP LIMIT": msg`Stop limit`,
  "TRAILING STOP": msg`Trailing stop`,
  FOK: msg`Fill or kill`,
  IOC: msg`Immediate or cancel`,
};

export const CONTEXT_LABELS: Record<TradeContext, MessageDescriptor> = {
  exchange: msg`Exchange`,
  margin: msg`Margin`,
  derivative: msg`Derivatives`,
};

function param(issue: Issue, key: string): string {
  const v = issue.params?.[key];
  return v === undefined ? "" : String(v);
}

/** The message for a validation issue. */
export function issueMessage(issue: Issue): MessageDescriptor {
  const min = param(issue, "min");
  const max = param(issue, "max");
  const last = param(issue, "last");
  switch (issue.code) {
    case "required":
      return msg`Required`;
    case "not-positive-number":
      return msg`Enter a positive number`;
    case "too-many-decimals":
      return msg`At most ${max} decimal places`;
    case "below-min":
      return msg`The minimum order size is ${min}`;
    case "above-max":
      return msg`The maximum order size is ${max}`;
    case "stop-buy-not-above-last":
      return msg`A buy stop must be above the last price (${last})`;
    case "stop-sell-not-below-last":
      return msg`A sell stop must be below the last price (${last})`;
    case "trail-too-wide":
      return msg`The trailing distance must be less than the last price (${last})`;
    case "oco-buy-not-above-last":
      return msg`The OCO stop of a buy must be above the last price (${last})`;
    case "oco-sell-not-below-last":
      return msg`The OCO stop of a sell must be below the last price (${last})`;
    case "oco-buy-not-above-limit":
      return msg`The OCO stop of a buy must be above its limit price`;
    case "oco-sell-not-below-limit":
      return msg`The OCO stop of a sell must be below its limit price`;
    case "tif-invalid":
      return msg`Enter a date and time`;
    case "tif-past":
      return msg`The cancel time must be in the future`;
    case "leverage-range":
      return msg`Leverage must be a whole number from ${min} to ${max}`;
    case "insufficient-balance": {
      const available = param(issue, "available");
      const currency = param(issue, "currency");
      return msg`More than your available balance (${available} ${currency}); the exchange will refuse it`;
    }
    case "post-only-crosses": {
      const best = param(issue, "best");
      return msg`Crosses the best price (${best}): a post-only order would be cancelled`;
    }
    case "far-from-last": {
      const percent = param(issue, "percent");
      return msg`${percent}% away from the last price (${last})`;
    }
    default: {
      const never: never = issue.code;
      return never;
    }
  }
}
