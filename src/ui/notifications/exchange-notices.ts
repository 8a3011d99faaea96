/**
 * The exchange's own notifications (`n` on the account socket: an order placed or cancelled
 * elsewhere, a funding offer, a transfer, a withdrawal moving on…) as desk notices, in the user's
 * language (docs/product-rules.md#notifications). The records come decoded by `src/protocol`'s
 * notification codec through the worker's account view; nothing here reads a wire row.
 *
 * The wording is chosen by the notification's type and status: a type this module knows gets its
 * own sentence (on failure with the exchange's text after it, as only the exchange says why); any
 * other type gets a generic sentence that still carries the exchange's text, so nothing the exchange
 * says is lost.
 */
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { DEPOSIT_NOTIFICATIONS, WITHDRAWAL_NOTIFICATIONS, type Notification } from "../../protocol";

type ExchangeNoticeKind = "main" | "orders" | "funding";

/**
 * Answers to order requests. The desk's order form and tables tell the answer to the requests they
 * send in their own words; an answer they did not tell (a request from another tab, device or API
 * client) is the exchange's to tell.
 */
const ORDER_REQUESTS = new Set(["on-req", "ou-req", "oc-req", "oc_multi-req", "ox_multi-req"]);

export function isOrderRequest(type: string): boolean {
  return ORDER_REQUESTS.has(type);
}

/** Which `notify_*` setting governs the notice. */
export function exchangeNoticeKind(n: Notification): ExchangeNoticeKind {
  if (isOrderRequest(n.type)) return "orders";
  if (/^f[a-z_]*-req$/.test(n.type)) return "funding";
  return "main";
}

const failed = (n: Notification): boolean => n.level === "error";

/** The notice's text in the active locale. */
export function exchangeNoticeText(i18n: I18n, n: Notification): string {
  const text = n.message;
  const bad = failed(n);
  switch (n.type) {
    case "on-req":
      return bad ? i18n._(msg`Order refused: ${text}`) : i18n._(msg`Order placed.`);
    case "ou-req":
      return bad ? i18n._(msg`Order not changed: ${text}`) : i18n._(msg`Order changed.`);
    case "oc-req":
      return bad ? i18n._(msg`Order not cancelled: ${text}`) : i18n._(msg`Order cancelled.`);
    case "oc_multi-req":
    case "ox_multi-req":
      return bad ? i18n._(msg`Orders not cancelled: ${text}`) : i18n._(msg`Orders cancelled.`);
    case "fon-req":
      return bad ? i18n._(msg`Funding offer refused: ${text}`) : i18n._(msg`Funding offer placed.`);
    case "foc-req":
    case "foc_all-req":
      return bad ? i18n._(msg`Funding offer not cancelled: ${text}`) : i18n._(msg`Funding offer cancelled.`);
    case "acc_tf":
      return bad ? i18n._(msg`Transfer failed: ${text}`) : i18n._(msg`Transfer done.`);
    case "acc_cv":
      return bad ? i18n._(msg`Conversion failed: ${text}`) : i18n._(msg`Conversion done.`);
    case "acc_wd-req":
      return bad ? i18n._(msg`Withdrawal refused: ${text}`) : i18n._(msg`Withdrawal requested.`);
    case WITHDRAWAL_NOTIFICATIONS.processing:
      return i18n._(msg`Withdrawal is being sent.`);
    case WITHDRAWAL_NOTIFICATIONS.completed:
      return i18n._(msg`Withdrawal completed.`);
    case WITHDRAWAL_NOTIFICATIONS.canceled:
      return i18n._(msg`Withdrawal cancelled.`);
    case DEPOSIT_NOTIFICATIONS.arrived:
      return i18n._(msg`Deposit arrived, waiting for confirmations.`);
    case DEPOSIT_NOTIFICATIONS.completed:
      return i18n._(msg`Deposit credited.`);
    default:
      // A custom message (`ucm-…`) can be sent by any API key of the account, a bot's included:
      // it is not worded as the exchange's own, so a key's holder cannot pass for the exchange.
      if (n.type.startsWith("ucm-")) return i18n._(msg`Message from an app connected to your account: ${text}`);
      return bad
        ? i18n._(msg`The exchange reports a problem: ${text}`)
        : i18n._(msg`Message from the exchange: ${text}`);
  }
}

/** A notification's identity across account views (the records carry no id of their own). */
const identity = (n: Notification): string => `${n.mts}|${n.type}|${n.status}|${n.code ?? ""}|${n.message}`;

/**
 * The notifications that are new in each account view, oldest first. The first view only marks
 * what it holds as seen: what the exchange said before the desk opened is history (the
 * notifications page lists it), not news.
 */
export class ExchangeNoticeTracker {
  #seen = new Set<string>();
  #primed = false;

  update(list: readonly Notification[]): Notification[] {
    const ids = list.map(identity);
    if (!this.#primed) {
      this.#primed = true;
      this.#seen = new Set(ids);
      return [];
    }
    const fresh: Notification[] = [];
    list.forEach((n, i) => {
      if (!this.#seen.has(ids[i] as string)) fresh.push(n);
    });
    // Only what the view still holds can come again.
    this.#seen = new Set(ids);
    return fresh.reverse();
  }
}
