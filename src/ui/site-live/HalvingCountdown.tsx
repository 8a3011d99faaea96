/**
 * The countdown to the next halving. The time left is written into the page once a second from an
 * effect (no React state per second), and only in the browser: the prerendered page shows dashes,
 * since the build cannot know when it will be read.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { Locale } from "../../protocol";
import { intlTag } from "../i18n";
import { appScheduler } from "../scheduler";
import { amount, count } from "./format";
import { countdownParts, estimateHalving, type HalvingEstimate } from "./halving";
import * as css from "./site-live.css";

const noSubscription = () => () => {};
const isClient = () => true;
const isServer = () => false;

export function HalvingCountdown() {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  // Null while hydrating the prerendered page (the build cannot know when it is read), then the
  // estimate at the visitor's clock.
  const client = useSyncExternalStore(noSubscription, isClient, isServer);
  const estimate = useMemo<HalvingEstimate | null>(
    () => (client ? estimateHalving(appScheduler.now()) : null),
    [client],
  );
  const cells = useRef<(HTMLElement | null)[]>([]);

  useEffect(() => {
    if (!estimate) return;
    const e = estimate;
    const paint = () => {
      const parts = countdownParts(e.mts, appScheduler.now());
      parts.forEach((v, i) => {
        const el = cells.current[i];
        if (el) el.textContent = String(v).padStart(i === 0 ? 1 : 2, "0");
      });
    };
    paint();
    return appScheduler.every(1000, paint);
  }, [estimate]);

  const units = [
    <Trans key="d">Days</Trans>,
    <Trans key="h">Hours</Trans>,
    <Trans key="m">Minutes</Trans>,
    <Trans key="s">Seconds</Trans>,
  ];
  const date = estimate
    ? new Intl.DateTimeFormat(intlTag(l as Locale), { dateStyle: "long", timeZone: "UTC" }).format(estimate.mts)
    : "–";
  return (
    <>
      <div className={css.countdown} role="timer" aria-label={t`Time until the next halving`}>
        {units.map((u, i) => (
          <div key={i} className={css.figure}>
            <p
              className={css.countdownValue}
              ref={(el) => {
                cells.current[i] = el;
              }}
            >
              –
            </p>
            <p className={css.figureLabel}>{u}</p>
          </div>
        ))}
      </div>
      <dl className={css.figures}>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Estimated date (UTC)</Trans>
          </dt>
          <dd className={css.figureValue} data-testid="halving-date">
            {date}
          </dd>
        </div>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Halving block</Trans>
          </dt>
          <dd className={css.figureValue}>{estimate ? count(l, estimate.halvingHeight) : "–"}</dd>
        </div>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Blocks left (estimated)</Trans>
          </dt>
          <dd className={css.figureValue}>{estimate ? count(l, estimate.blocksLeft) : "–"}</dd>
        </div>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Block reward after</Trans>
          </dt>
          <dd className={css.figureValue}>{estimate ? `${amount(l, estimate.nextSubsidy)} BTC` : "–"}</dd>
        </div>
      </dl>
    </>
  );
}
