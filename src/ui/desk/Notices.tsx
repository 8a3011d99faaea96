/**
 * Toasts (bottom right, each leaving after its TTL) and the notifications sidebar. A notice is shown
 * only when its kind's notify_{kind} setting is on; a sound plays for it when `sound_notices` is on
 * (a short tone made with Web Audio — no audio files to load, and nothing plays before the user has
 * interacted with the page, which browsers require anyway).
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { settings } from "../settings/store";
import * as css from "./desk.css";
import { dismiss, notices, type Notice } from "./notices";

const KIND_SETTING = {
  main: "notify_main",
  orders: "notify_orders",
  trades: "notify_trades",
  funding: "notify_funding",
} as const;

function enabled(n: Notice): boolean {
  return settings[KIND_SETTING[n.kind]];
}

let audio: AudioContext | null = null;

function tone(level: Notice["level"]): void {
  try {
    audio ??= new AudioContext();
    if (audio.state !== "running") return;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = level === "error" ? 220 : level === "success" ? 880 : 660;
    gain.gain.setValueAtTime(0.06, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.18);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.2);
  } catch {
    // No audio device or a blocked context: the toast is enough.
  }
}

export function Toasts() {
  const { t } = useLingui();
  const n = useSnapshot(notices);
  const s = useSnapshot(settings);
  const heard = useRef(0);
  const shown = n.toasts.filter((x) => enabled(x));
  useEffect(() => {
    const newest = shown.at(-1);
    if (!newest || newest.id <= heard.current) return;
    heard.current = newest.id;
    if (s.sound_notices) tone(newest.level);
  }, [shown, s.sound_notices]);
  return (
    <div className={css.toasts} role="status" aria-live="polite" data-testid="toasts">
      {shown.map((x) => (
        <div key={x.id} className={css.toast} data-level={x.level} data-testid="toast">
          <span className={css.toastText}>{x.text}</span>
          <button type="button" className={css.button} aria-label={t`Dismiss`} onClick={() => dismiss(x.id)}>
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}

export function NotificationsSidebar() {
  const { t, i18n } = useLingui();
  const n = useSnapshot(notices);
  useEffect(() => {
    notices.unread = 0;
  }, [n.history.length]);
  return (
    <aside className={css.sidebar} aria-label={t`Notifications`} data-testid="notifications-sidebar">
      <h2 className={css.sidebarTitle}>{t`Notifications`}</h2>
      {n.history.length === 0 && <p className={css.hint}>{t`Nothing yet. Order updates and alerts appear here.`}</p>}
      {n.history.map((x) => (
        <div key={x.id} className={css.noticeItem} data-level={x.level}>
          <div>{x.text}</div>
          <time className={css.noticeTime} dateTime={new Date(x.mts).toISOString()}>
            {i18n.date(new Date(x.mts), { hour: "2-digit", minute: "2-digit", second: "2-digit" })}
          </time>
        </div>
      ))}
    </aside>
  );
}
