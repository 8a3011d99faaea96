import { useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, useSyncExternalStore } from "react";
import { useSnapshot } from "valtio";
import { appScheduler } from "../../../scheduler";
import { connectionStore } from "../../connection-store";
import { feedLabel, feedLevel, feedState } from "../../feed-status";
import type { HealthStore } from "./feed-health";
import * as css from "./order-book.css";

interface FeedBadgeProps {
  readonly store: HealthStore;
  readonly testId?: string;
}

/**
 * The feed-health badge: a dot and a short state, red on a stale or out-of-sync channel, a feed
 * silent for too long or a socket that is down; pressing it shows the figures (last update age,
 * messages/s, resyncs, checksums, channel status). It re-renders at most once a second (see
 * HealthStore). Its state is read as the header's light reads it (`feed-status.ts`).
 */
export function FeedBadge({ store, testId }: FeedBadgeProps) {
  const { i18n, t } = useLingui();
  const h = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const connection = useSnapshot(connectionStore).state;
  const [open, setOpen] = useState(false);
  const detailsId = useId();

  useEffect(() => {
    const timers = appScheduler.child();
    timers.every(1000, () => store.tick());
    return () => timers.dispose();
  }, [store]);

  const feed = feedState(connection, h);
  const level = feedLevel(feed);
  const state = i18n._(feedLabel(feed));
  const seconds = h.ageS;
  const rate = h.messagesPerSecond;
  const age = seconds < 0 ? "—" : t`${seconds} s ago`;
  return (
    <span className={css.badgeWrap}>
      <button
        type="button"
        className={css.badge}
        data-health={level}
        data-testid={testId}
        aria-expanded={open}
        aria-controls={detailsId}
        aria-label={t`Feed health: ${state}, last update ${age}`}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "Escape") setOpen(false);
        }}
      >
        <span className={`${css.dot} ${css.dotLevel[level]}`} aria-hidden="true" />
        <span className={css.badgeText}>{state}</span>
        {level === "ok" ? <span className={css.badgeText}>{t`${rate}/s`}</span> : null}
      </button>
      {open ? (
        <dl id={detailsId} className={css.details} data-testid={testId ? `${testId}-details` : undefined}>
          <dt className={css.detailsTerm}>{t`Channel`}</dt>
          <dd className={css.detailsValue}>{h.status === "NONE" ? "—" : h.status}</dd>
          <dt className={css.detailsTerm}>{t`Last update`}</dt>
          <dd className={css.detailsValue}>{age}</dd>
          <dt className={css.detailsTerm}>{t`Messages per second`}</dt>
          <dd className={css.detailsValue}>{h.messagesPerSecond}</dd>
          <dt className={css.detailsTerm}>{t`Resyncs`}</dt>
          <dd className={css.detailsValue}>{h.resyncs}</dd>
          <dt className={css.detailsTerm}>{t`Checksums OK`}</dt>
          <dd className={css.detailsValue}>{h.checksumsOk}</dd>
          <dt className={css.detailsTerm}>{t`Checksums failed`}</dt>
          <dd className={`${css.detailsValue} ${h.checksumsFailed > 0 ? css.detailsBad : ""}`}>{h.checksumsFailed}</dd>
          <dt className={css.detailsTerm}>{t`Stale`}</dt>
          <dd className={`${css.detailsValue} ${h.stale ? css.detailsBad : ""}`}>{h.stale ? t`yes` : t`no`}</dd>
        </dl>
      ) : null}
    </span>
  );
}
