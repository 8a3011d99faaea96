import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import {
  NOTIFICATION_CATEGORIES,
  notificationCodec,
  type Notification,
  type NotificationCategory,
  type NotificationHistoryRow,
} from "../../protocol";
import { isoTime, useTimeFormat } from "../time/format";
import { historyPage, markRead, type AuthCall, type NotificationsError } from "./api";
import * as css from "./notifications.css";
import { useNotificationWords } from "./words";

/** Rows per page. */
const HISTORY_PAGE = 20;

type Filter = NotificationCategory | "all";
const FILTERS: readonly Filter[] = ["all", ...NOTIFICATION_CATEGORIES];

interface Shown {
  readonly row: NotificationHistoryRow;
  readonly n: Notification | null;
}

/**
 * The notifications the exchange sent this account (server/notification-history.ts), newest first,
 * a page at a time (the exchange's `before` cursor), filtered by category, with "mark all read".
 */
export function NotificationHistory({ call }: { readonly call: AuthCall }) {
  const { t } = useLingui();
  const words = useNotificationWords();
  const time = useTimeFormat();
  const filterId = useId();
  const [filter, setFilter] = useState<Filter>("all");
  /** The cursors of the pages before this one (the first page has none): "Newer" pops one. */
  const [cursors, setCursors] = useState<(number | null)[]>([]);
  const [cursor, setCursor] = useState<number | null>(null);
  const [rows, setRows] = useState<Shown[] | null>(null);
  const [error, setError] = useState<NotificationsError | null>(null);
  const [marked, setMarked] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  /** Bumped to read the page again (after marking read). */
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    void historyPage(call, { limit: HISTORY_PAGE, category: filter === "all" ? null : filter, before: cursor }).then(
      (r) => {
        if (!live) return;
        if (!r.ok) {
          setError(r.error);
          return;
        }
        setError(null);
        setRows(
          r.value.map((row) => {
            const d = notificationCodec.decode(row.notification);
            return { row, n: d.ok ? d.value : null };
          }),
        );
      },
    );
    return () => {
      live = false;
    };
  }, [call, filter, cursor, version]);

  const markAll = async (): Promise<void> => {
    setBusy(true);
    setMarked(null);
    // Up to the newest notification there is now, whatever the filter: one arriving after this
    // click stays unread.
    const top = await historyPage(call, { limit: 1 });
    const upTo = top.ok ? top.value[0]?.id : undefined;
    if (!top.ok) setError(top.error);
    else if (upTo !== undefined) {
      const r = await markRead(call, upTo);
      if (r.ok) setMarked(r.value);
      else setError(r.error);
      setVersion((v) => v + 1);
    } else setMarked(0);
    setBusy(false);
  };

  const errorText = error ? words.error(error) : null;
  const last = rows?.at(-1);

  return (
    <section className={css.card} aria-labelledby="history-title" data-testid="notification-history">
      <h2 id="history-title" className={css.h2}>
        <Trans>History</Trans>
      </h2>
      <p className={css.muted}>
        <Trans>What the exchange told you about your orders, funding, positions and wallets: the last 500.</Trans>
      </p>
      <div className={css.row}>
        <label htmlFor={filterId}>
          <Trans>Show</Trans>
        </label>
        <select
          id={filterId}
          className={css.select}
          value={filter}
          data-testid="history-filter"
          onChange={(e) => {
            setFilter(e.target.value as Filter);
            setCursors([]);
            setCursor(null);
          }}
        >
          {FILTERS.map((f) => (
            <option key={f} value={f}>
              {words.category(f)}
            </option>
          ))}
        </select>
        <button type="button" className={css.button} disabled={busy} onClick={() => void markAll()}>
          <Trans>Mark all read</Trans>
        </button>
        <span aria-live="polite" className={css.muted}>
          {marked !== null && t`${marked} marked read.`}
        </span>
      </div>
      {errorText !== null && (
        <p className={css.error} role="alert">
          {errorText}
        </p>
      )}
      {rows !== null && rows.length === 0 && (
        <p className={css.muted} data-testid="history-empty">
          {cursor === null ? t`No notifications yet.` : t`No older notifications.`}
        </p>
      )}
      {rows !== null && rows.length > 0 && (
        // Focusable: a table wider than a phone scrolls, and the keyboard must reach it too.
        <div className={css.scroll} tabIndex={0} role="group" aria-labelledby="history-title">
          <table className={css.table} data-testid="history-table">
            <thead className={css.thead}>
              <tr>
                <th className={css.th}>{t`Time`}</th>
                <th className={css.th}>{t`Type`}</th>
                <th className={css.th}>{t`Status`}</th>
                <th className={css.th}>{t`Message`}</th>
              </tr>
            </thead>
            <tbody className={css.tbody}>
              {rows.map(({ row, n }) => (
                <tr
                  key={row.id}
                  className={row.read ? css.tr : `${css.tr} ${css.unread}`}
                  data-read={row.read ? "1" : "0"}
                >
                  <td className={`${css.td} ${css.cellTime}`}>
                    <time dateTime={isoTime(row.mts)} title={time.exact(row.mts)}>
                      {time.full(row.mts)}
                    </time>
                  </td>
                  <td className={`${css.td} ${css.cellType}`}>
                    {n ? words.type(n.type) : "—"}
                    {!row.read && (
                      <>
                        {" "}
                        <span className={css.badgeWait}>{t`New`}</span>
                      </>
                    )}
                  </td>
                  <td className={`${css.td} ${css.cellStatus} ${css.level}`} data-level={n?.level}>
                    {n ? words.status(n.status) : "—"}
                  </td>
                  <td className={`${css.td} ${css.cellMessage}`}>{n?.message ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className={css.row}>
        <button
          type="button"
          className={css.button}
          disabled={cursors.length === 0}
          onClick={() => {
            setCursor(cursors.at(-1) ?? null);
            setCursors((c) => c.slice(0, -1));
          }}
        >
          <Trans>Newer</Trans>
        </button>
        <button
          type="button"
          className={css.button}
          disabled={rows === null || rows.length < HISTORY_PAGE || last === undefined}
          onClick={() => {
            if (!last) return;
            setCursors((c) => [...c, cursor]);
            setCursor(last.row.id);
          }}
        >
          <Trans>Older</Trans>
        </button>
      </div>
    </section>
  );
}
