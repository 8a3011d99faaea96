import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { STRESS_INTENSITIES, type BookView } from "../../protocol";
import { market } from "../market/market";
import * as shell from "../shell/shell.css";
import * as css from "./dev.css";
import {
  closeFlag,
  devFlags,
  devRequested,
  FAULT_RATE_CHOICES,
  FAULT_RATES,
  faultSettings,
  faultsFromUrl,
  flagOn,
  STRESS_MULTIPLIERS,
  stressSetting,
  toggleFlag,
  type FaultRate,
} from "./flags";

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

/** Keeps the worker's fault injector in step with the faults flag. */
function useFaultsSync(): void {
  const f = useSnapshot(devFlags);
  const settings = faultSettings(f);
  const key = settings ? JSON.stringify(settings) : "off";
  useEffect(() => {
    // A plain copy: the valtio proxy itself cannot be cloned into the worker.
    const s = faultSettings(devFlags);
    void market().faults(s ? { ...s } : null);
  }, [key]);
}

/** The faults flag's controls: a rate per fault kind, the delay, freeze. */
function FaultControls() {
  const { t } = useLingui();
  const f = useSnapshot(devFlags);
  const labels: Record<FaultRate, string> = {
    drop: t`Drop frames`,
    delay: t`Delay frames`,
    duplicate: t`Duplicate frames`,
    reorder: t`Reorder frames`,
    corrupt: t`Corrupt frames`,
    loseSubscribed: t`Lose subscribe replies`,
  };
  return (
    <div className={css.faults}>
      {FAULT_RATES.map((kind) => (
        <label key={kind} className={css.row}>
          <span>{labels[kind]}</span>
          <select
            className={shell.select}
            value={f.faults[kind]}
            data-testid={`fault-${kind}`}
            onChange={(e) => (devFlags.faults = { ...devFlags.faults, [kind]: Number(e.target.value) })}
          >
            {FAULT_RATE_CHOICES.map((r) => (
              <option key={r} value={r}>
                {r === 0 ? t`off` : `${Math.round(r * 100)} %`}
              </option>
            ))}
          </select>
        </label>
      ))}
      <label className={css.row}>
        <span>{t`Delay (ms)`}</span>
        <input
          type="number"
          min={0}
          max={60000}
          step={100}
          className={shell.select}
          value={f.faults.delayMs}
          onChange={(e) => {
            const ms = Number(e.target.value);
            if (Number.isInteger(ms) && ms >= 0 && ms <= 60_000) devFlags.faults = { ...devFlags.faults, delayMs: ms };
          }}
        />
      </label>
      <label className={css.row}>
        <input
          type="checkbox"
          checked={f.faults.freeze}
          data-testid="fault-freeze"
          onChange={(e) => (devFlags.faults = { ...devFlags.faults, freeze: e.target.checked })}
        />
        <Trans>Freeze the feed (nothing arrives)</Trans>
      </label>
    </div>
  );
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
      <div className={css.flag}>
        <div className={css.row}>
          <label className={css.row}>
            <input
              type="checkbox"
              checked={flagOn(f, "faults")}
              onChange={() => toggleFlag("faults")}
              data-testid="flag-faults"
            />
            <Trans>Feed faults (public socket)</Trans>
          </label>
          {"faults" in f.pinned && (
            <button
              type="button"
              className={css.iconButton}
              aria-label={t`Remove the flag`}
              onClick={() => closeFlag("faults")}
            >
              ✕
            </button>
          )}
        </div>
        {flagOn(f, "faults") && <FaultControls />}
      </div>
    </section>
  );
}

/** Mounted once in the app: the shortcut, the ?dev=1 switch and the stress sync. */
export function DevFlagsHost() {
  const f = useSnapshot(devFlags);
  useStressSync();
  useFaultsSync();
  useEffect(() => {
    if (devRequested(window.location.search)) devFlags.open = true;
    // ?faults=… turns the faults flag on with those settings (tests and demos start from a link).
    const fromUrl = faultsFromUrl(window.location.search);
    if (fromUrl) {
      devFlags.faults = fromUrl;
      devFlags.pinned.faults = true;
    }
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
