import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { useSnapshot } from "valtio";
import { appScheduler } from "../scheduler";
import { apiNotice, dismissRateLimit, rateLimitSecondsLeft } from "./api-notice";
import * as css from "./api-notice.css";

/** Seconds left of the app-wide rate limit, ticking once a second while one is in force. */
export function useRateLimitSeconds(): number {
  const n = useSnapshot(apiNotice);
  const [now, setNow] = useState(() => appScheduler.now());
  const until = n.rateLimitedUntil;
  // A new limit is counted from now, not from the last tick of an earlier one (React's pattern for
  // state that follows a changed input: set during render, not in an effect).
  const [seen, setSeen] = useState(until);
  if (seen !== until) {
    setSeen(until);
    setNow(appScheduler.now());
  }
  useEffect(() => {
    if (until === null) return;
    return appScheduler.every(1000, () => {
      const t = appScheduler.now();
      setNow(t);
      if (t >= until && apiNotice.rateLimitedUntil === until) dismissRateLimit();
    });
  }, [until]);
  return rateLimitSecondsLeft(n, now);
}

/**
 * The one place the app tells that the exchange refused calls for being too many (HTTP 429), and
 * when to try again; it goes away by itself once that time has come.
 */
export function ApiNotice() {
  const { t } = useLingui();
  const seconds = useRateLimitSeconds();
  // The live region exists from the start, so the notice is read out when it appears. No `alert`
  // role on the empty region: a page's own alerts stay the only alerts on it.
  return (
    <div className={css.toastRegion} aria-live="assertive" aria-atomic="true">
      {seconds > 0 && (
        <div className={css.toast} data-testid="rate-limit-notice">
          <span className={css.text}>
            <Trans>Too many requests in a short time. You can try again in {seconds} s.</Trans>
          </span>
          <button type="button" className={css.close} aria-label={t`Dismiss`} onClick={dismissRateLimit}>
            ✕
          </button>
        </div>
      )}
    </div>
  );
}
