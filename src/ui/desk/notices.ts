/**
 * The desk's notifications: toasts that leave after their TTL (SPEC: 6000 ms) and the sidebar's
 * history. Anything on the desk that needs to tell the user something (an order acknowledged or
 * refused, a fill, a price alert crossed, a resync) calls `notify`; the toasts and the sidebar draw
 * from here. The text is already localized by the caller.
 */
import { proxy } from "valtio";
import { NOTIFICATION_TTL_MS } from "../../protocol";
import { appScheduler } from "../scheduler";

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
}): Notice {
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
