/**
 * The desk's notifications: toasts that leave after their TTL (6000 ms,
 * docs/product-rules.md#notifications) and the sidebar's history. Anything on the desk that needs
 * to tell the user something (an order acknowledged or refused, a fill, a price alert crossed, a
 * resync) calls `notify`; the toasts and the sidebar draw from here. The text is already localized
 * by the caller.
 *
 * A kind the user switched off (`notify_{kind}`, the product's notify_{x}_enabled, default on) is not
 * notified at all: no toast, no sidebar entry, no unread count — the sidebar is the history of what
 * the desk told the user, and an unread badge for notices that were never shown would nag about
 * nothing.
 *
 * A notice with a `key` is one notice however often it is told: the next `notify` with the same key
 * rewrites it in place (its toast shows again and its TTL starts over; the sidebar entry moves to the
 * top; it counts as unread once). An order's fills use this: one notice per order that follows the
 * fills as they arrive (docs/product-rules.md#notifications).
 */
import { proxy } from "valtio";
import { NOTIFICATION_TTL_MS } from "../../protocol";
import { appScheduler, type Cancel } from "../scheduler";
import { settings } from "../settings/store";

export type NoticeLevel = "info" | "success" | "warning" | "error";
/** Which notify_{kind}_enabled setting governs the notice. */
export type NoticeKind = "main" | "orders" | "trades" | "funding";

export interface Notice {
  readonly id: number;
  readonly level: NoticeLevel;
  readonly kind: NoticeKind;
  readonly text: string;
  readonly mts: number;
  readonly ttl: number;
  /** Notices with the same key are one notice, updated in place. */
  readonly key?: string;
}

export const SIDEBAR_KEPT = 100;

/** The setting that governs each kind. */
export const KIND_SETTING = {
  main: "notify_main",
  orders: "notify_orders",
  trades: "notify_trades",
  funding: "notify_funding",
} as const satisfies Record<NoticeKind, string>;

/** Whether the user wants notices of this kind (its notify_{kind} setting). */
export function kindEnabled(kind: NoticeKind): boolean {
  return settings[KIND_SETTING[kind]];
}

export interface NoticesState {
  /** On screen now, newest last. */
  toasts: Notice[];
  /** Everything shown this session, newest first (bounded). */
  history: Notice[];
  unread: number;
}

export const notices: NoticesState = proxy({ toasts: [], history: [], unread: 0 });

let nextId = 1;
/** The pending TTL of each toast on screen, cancelled when the toast is told again or dismissed. */
const expiries = new Map<number, Cancel>();

export function notify(input: {
  readonly level: NoticeLevel;
  readonly kind: NoticeKind;
  readonly text: string;
  readonly ttl?: number;
  readonly key?: string;
}): Notice | null {
  if (!kindEnabled(input.kind)) return null;
  const earlier = input.key === undefined ? undefined : notices.history.find((n) => n.key === input.key);
  const notice: Notice = {
    id: earlier?.id ?? nextId++,
    level: input.level,
    kind: input.kind,
    text: input.text,
    mts: appScheduler.now(),
    ttl: input.ttl ?? NOTIFICATION_TTL_MS,
    ...(input.key === undefined ? {} : { key: input.key }),
  };
  if (earlier) {
    notices.history.splice(notices.history.indexOf(earlier), 1);
    const shown = notices.toasts.findIndex((n) => n.id === notice.id);
    if (shown >= 0) notices.toasts[shown] = notice;
    else notices.toasts.push(notice);
  } else {
    notices.toasts.push(notice);
    notices.unread += 1;
  }
  notices.history.unshift(notice);
  if (notices.history.length > SIDEBAR_KEPT) notices.history.length = SIDEBAR_KEPT;
  expiries.get(notice.id)?.();
  expiries.delete(notice.id);
  if (notice.ttl > 0)
    expiries.set(
      notice.id,
      appScheduler.after(notice.ttl, () => dismiss(notice.id)),
    );
  return notice;
}

export function dismiss(id: number): void {
  expiries.get(id)?.();
  expiries.delete(id);
  const at = notices.toasts.findIndex((n) => n.id === id);
  if (at >= 0) notices.toasts.splice(at, 1);
}
