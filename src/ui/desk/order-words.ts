/**
 * The words the desk shows for an order's type, context, status and side: one module, so the
 * orders tables, the own trades, the edit panel and the notices name an order the same way. The
 * exchange's own strings ("EXCHANGE STOP LIMIT", "PARTIALLY FILLED @ 100.0(0.5): was …") are read
 * here and never shown raw; a type or status this module does not know is shown as received
 * (docs/protocol.md#order-status: statuses are matched by prefix, never by equality).
 *
 * The plain functions take the `I18n` instance so they also work outside React (a notice built in
 * an effect); `useOrderWords` binds them to the active locale for components.
 */
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { EXCHANGE_ORDER_PREFIX, isExchangeOrderType, ORDER_TYPES, type OrderTypeName } from "../../protocol";
import { CONTEXT_LABELS, KIND_LABELS } from "./widgets/order-form/messages";
import { statusKind } from "./widgets/tables/columns";

const OCO_PREFIX = "OCO ";

function isOrderTypeName(type: string): type is OrderTypeName {
  return (ORDER_TYPES as readonly string[]).includes(type);
}

/**
 * An order type as the desk names it: `EXCHANGE LIMIT` and `LIMIT` → "Limit", `STOP LIMIT` →
 * "Stop limit"; an OCO leg (`oco`, or a derived `type_value` starting with "OCO ") → "OCO Limit".
 * The context (exchange or margin) is `orderContextWord`'s, added here only with `withContext`:
 * "Limit · Exchange".
 */
export function orderTypeWord(
  i18n: I18n,
  type: string,
  options: { readonly oco?: boolean; readonly withContext?: boolean } = {},
): string {
  const oco = options.oco === true || type.startsWith(OCO_PREFIX);
  const upper = (type.startsWith(OCO_PREFIX) ? type.slice(OCO_PREFIX.length) : type).toUpperCase();
  const bare = isExchangeOrderType(upper) ? upper.slice(EXCHANGE_ORDER_PREFIX.length) : upper;
  // A block trade at an OTC quote is recorded as `EXCHANGE OTC` (docs/product-rules.md#otc-block-trades).
  let word = isOrderTypeName(bare) ? i18n._(KIND_LABELS[bare]) : bare === "OTC" ? i18n._(msg`OTC`) : type;
  if (oco) word = i18n._(msg`OCO ${word}`);
  return options.withContext === true ? `${word} · ${orderContextWord(i18n, type)}` : word;
}

/** "Exchange" for a spot order (`EXCHANGE …` type), "Margin" for a bare type. */
export function orderContextWord(i18n: I18n, type: string): string {
  const bare = type.startsWith(OCO_PREFIX) ? type.slice(OCO_PREFIX.length) : type;
  return i18n._(isExchangeOrderType(bare) ? CONTEXT_LABELS.exchange : CONTEXT_LABELS.margin);
}

/** An order's status in words: "Active", "Partially filled", "Executed", "Cancelled", … */
export function orderStatusWord(i18n: I18n, status: string): string {
  const kind = statusKind(status);
  switch (kind) {
    case "ACTIVE":
      return i18n._(msg`Active`);
    case "PARTIALLY FILLED":
      return i18n._(msg`Partially filled`);
    case "EXECUTED":
    case "FORCED EXECUTED":
      return i18n._(msg`Executed`);
    case "CANCELED":
    case "POSTONLY CANCELED":
    case "FILLORKILL CANCELED":
      return i18n._(msg`Cancelled`);
    case "INSUFFICIENT BALANCE":
    case "INSUFFICIENT MARGIN":
      return i18n._(msg`Insufficient balance`);
    case "RSN_DUST":
      return i18n._(msg`Too small`);
    case "RSN_PAUSE":
      return i18n._(msg`Paused`);
    default:
      return status;
  }
}

/** "Buy" or "Sell", from a side or from a signed amount (positive buys, negative sells). */
export function orderSideWord(i18n: I18n, side: "buy" | "sell" | number): string {
  const sell = typeof side === "number" ? side < 0 : side === "sell";
  return sell ? i18n._(msg`Sell`) : i18n._(msg`Buy`);
}

export interface OrderWords {
  readonly type: (type: string, options?: { readonly oco?: boolean; readonly withContext?: boolean }) => string;
  readonly context: (type: string) => string;
  readonly status: (status: string) => string;
  readonly side: (side: "buy" | "sell" | number) => string;
}

/** The order words bound to the active locale (re-rendered on a locale switch). */
export function useOrderWords(): OrderWords {
  const { i18n } = useLingui();
  return {
    type: (type, options) => orderTypeWord(i18n, type, options),
    context: (type) => orderContextWord(i18n, type),
    status: (status) => orderStatusWord(i18n, status),
    side: (side) => orderSideWord(i18n, side),
  };
}
