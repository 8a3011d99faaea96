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
 */
import { proxy } from "valtio";
import { NOTIFICATION_TTL_MS } from "../../protocol";
import { appScheduler } from "../scheduler";
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

export function notify(input: {
  readonly level: NoticeLevel;
  readonly kind: NoticeKind;
  readonly text: string;
  readonly ttl?: number;
}): Notice | null {
  if (!kindEnabled(input.kind)) return null;
  const notice: Notice = {
    id: nextId++,
    level: input.level,
    kind: input.kind,
    text: input.text,
    mts: appScheduler.now(),
    ttl: input.ttl ?? NOTIFICATION_TTL_MS,
  };
  notices.toasts.push(notice);
  notices.history.unshift(notice);
  if (notices.history.length > SIDEBAR_KEPT) notices.history.length = SIDEBAR_KEPT;
  notices.unread += 1;
  if (notice.ttl > 0) appScheduler.after(notice.ttl, () => dismiss(notice.id));
  return notice;
}

export function dismiss(id: number): void {
  const at = notices.toasts.findIndex((n) => n.id === id);
  if (at >= 0) notices.toasts.splice(at, 1);
}
