/**
 * The desk's notifications panel: what the desk told the user this session, newest first, each with
 * its time in the user's `time_format` at `utc_offset` (src/ui/time/format.ts).
 *
 * A non-modal dialog over the grid (the grid keeps its size): it takes the focus when it opens,
 * Escape or its Close button shuts it, and the focus goes back to what opened it. The desk keeps
 * working behind it — a notice arriving while it is open is read at once.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef } from "react";
import { useSnapshot } from "valtio";
import { notices } from "../desk/notices";
import { isoTime, useTimeFormat } from "../time/format";
import * as deskCss from "../desk/desk.css";
import * as css from "./panel.css";

interface NotificationsPanelProps {
  readonly onClose: () => void;
}

export function NotificationsPanel({ onClose }: NotificationsPanelProps) {
  const { t } = useLingui();
  const n = useSnapshot(notices);
  const time = useTimeFormat();
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);

  // Everything that arrives while the panel is open is read: keyed on the unread count itself (the
  // history's length stops changing once it holds SIDEBAR_KEPT notices).
  useEffect(() => {
    if (n.unread !== 0) notices.unread = 0;
  }, [n.unread]);

  // Focus in on open, back to the opener on close (the element focused before, when still there).
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    title.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  return (
    <div
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      className={css.panel}
      data-testid="notifications-panel"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        onClose();
      }}
    >
      <div className={css.head}>
        <h2 id={titleId} ref={title} tabIndex={-1} className={css.title}>
          {t`Notifications`}
        </h2>
        <button type="button" className={deskCss.button} onClick={onClose}>
          {t`Close`}
        </button>
      </div>
      {n.history.length === 0 ? (
        <p className={css.empty}>{t`Nothing yet. Order updates and alerts appear here.`}</p>
      ) : (
        <ul className={css.list}>
          {n.history.map((x) => (
            <li key={x.id} className={css.item} data-level={x.level} data-testid="notification-item">
              <div>{x.text}</div>
              <time className={css.time} dateTime={isoTime(x.mts)} title={time.exact(x.mts)}>
                {time.full(x.mts)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
