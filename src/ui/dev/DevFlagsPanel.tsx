import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { STRESS_INTENSITIES, type BookView } from "../../protocol";
import { market } from "../market/market";
import * as shell from "../shell/shell.css";
import * as css from "./dev.css";
import { closeFlag, devFlags, devRequested, flagOn, STRESS_MULTIPLIERS, stressSetting, toggleFlag } from "./flags";

/** Keeps the worker's stress source in step with the stress flag, while the app runs. */
function useStressSync(): void {
  const f = useSnapshot(devFlags);
  const setting = stressSetting(f);
  const key = setting ? `${setting.intervalMs}/${setting.count}` : "off";
  useEffect(() => {
    const s = stressSetting(devFlags);
    if (s === null && key === "off") return;
    void market().stress(s);
  }, [key]);
}

/**
 * Live figures of the stress book, written straight into the DOM from the worker's views: a
 * developer tool must not itself add per-tick React renders to what it measures.
 */
function StressStats() {
  const { t } = useLingui();
  const out = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const ac = new AbortController();
    let last = 0;
    void market().book(
      { symbol: "tSTRESS", prec: "P0", len: 250, depth: 25, throttleMs: 250 },
      (v: BookView) => {
        const el = out.current;
        if (!el || v.version === last) return;
        last = v.version;
        const { checksumsOk: ok, checksumsFailed: failed, resyncs } = v.health;
        const rate = Math.round(v.health.messagesPerSecond);
        el.textContent = t`${rate} msg/s · checksums ${ok} ok, ${failed} failed · resyncs ${resyncs}`;
      },
      ac.signal,
    );
    return () => ac.abort();
  }, [t]);
  return <div ref={out} className={css.stats} data-testid="stress-stats" aria-live="off" />;
}

export function DevFlagsPanel() {
  const { t } = useLingui();
  const f = useSnapshot(devFlags);
  const pinned = "stress" in f.pinned;
  const on = flagOn(f, "stress");
  return (
    <section className={css.panel} aria-label={t`Developer flags`} data-testid="dev-flags">
      <div className={css.head}>
        <span>
          <Trans>Developer flags</Trans>
        </span>
        <button
          type="button"
          className={css.iconButton}
          aria-label={t`Close the panel`}
          onClick={() => (devFlags.open = false)}
        >
          ✕
        </button>
      </div>
      <div className={css.flag}>
        <div className={css.row}>
          <label className={css.row}>
            <input type="checkbox" checked={on} onChange={() => toggleFlag("stress")} data-testid="flag-stress" />
            <Trans>Stress test (synthetic book tSTRESS)</Trans>
          </label>
          {pinned && (
            <button
              type="button"
              className={css.iconButton}
              aria-label={t`Remove the flag`}
              onClick={() => closeFlag("stress")}
            >
              ✕
            </button>
          )}
        </div>
        <div className={css.row}>
          <label className={css.row}>
            <span>{t`Intensity`}</span>
            <select
              className={shell.select}
              value={f.stressIntensity}
              onChange={(e) => (devFlags.stressIntensity = Number(e.target.value))}
            >
              {STRESS_INTENSITIES.map(({ count, intervalMs }, i) => (
                <option key={intervalMs} value={i}>
                  {t`${count} every ${intervalMs} ms`}
                </option>
              ))}
            </select>
          </label>
          <label className={css.row}>
            <span>{t`Multiplier`}</span>
            <select
              className={shell.select}
              value={f.stressMultiplier}
              onChange={(e) => (devFlags.stressMultiplier = Number(e.target.value))}
            >
              {STRESS_MULTIPLIERS.map((m) => (
                <option key={m} value={m}>
                  ×{m}
                </option>
              ))}
            </select>
          </label>
        </div>
        {on && <StressStats />}
      </div>
    </section>
  );
}

/** Mounted once in the app: the shortcut, the ?dev=1 switch and the stress sync. */
export function DevFlagsHost() {
  const f = useSnapshot(devFlags);
  useStressSync();
  useEffect(() => {
    if (devRequested(window.location.search)) devFlags.open = true;
    const onKey = (e: KeyboardEvent): void => {
      if (e.ctrlKey && e.shiftKey && (e.key === "D" || e.key === "d")) {
        e.preventDefault();
        devFlags.open = !devFlags.open;
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
  return f.open ? <DevFlagsPanel /> : null;
}
