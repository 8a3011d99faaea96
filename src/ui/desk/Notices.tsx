/**
 * Toasts (bottom right, each leaving after its TTL; the notifications panel that lists them all is
 * src/ui/notifications/NotificationsPanel.tsx). Notices of a kind
 * the user switched off never get here (notices.ts drops them); a toast of a kind switched off
 * since it arrived is hidden. A sound plays for a new toast when `sound_notices` is on: a short tone
 * made with Web Audio, no audio files to load.
 *
 * Browsers start an AudioContext "suspended" unless the page has had a user gesture. The context
 * is made by the first notice or the first gesture, whichever comes first, and resumed on every
 * gesture while it is not running (and asked to resume when a notice plays), so a notice that
 * arrives before the user has touched the page does not leave the sound off for the session.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useRef } from "react";
import { useSnapshot } from "valtio";
import { appScheduler } from "../scheduler";
import { settings } from "../settings/store";
import * as css from "./desk.css";
import { dismiss, KIND_SETTING, notices, type Notice } from "./notices";

/** A resume that takes longer than this was waiting for a gesture: the tone would come too late. */
const LATE_TONE_MS = 1000;

let audio: AudioContext | null = null;

function context(): AudioContext | null {
  try {
    audio ??= new AudioContext();
    return audio;
  } catch {
    // No Web Audio (or no device): the toast is enough.
    return null;
  }
}

function beep(ctx: AudioContext, level: Notice["level"]): void {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = level === "error" ? 220 : level === "success" ? 880 : 660;
  gain.gain.setValueAtTime(0.06, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.18);
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.2);
}

function tone(level: Notice["level"]): void {
  const ctx = context();
  if (!ctx) return;
  try {
    if (ctx.state === "running") {
      beep(ctx, level);
      return;
    }
    if (ctx.state !== "suspended") return;
    const asked = appScheduler.now();
    ctx
      .resume()
      .then(() => {
        if (ctx.state === "running" && appScheduler.now() - asked < LATE_TONE_MS) beep(ctx, level);
      })
      .catch(() => undefined);
  } catch {
    // A blocked or closed context: the toast is enough.
  }
}

/** A user gesture: the moment browsers let a suspended context run. */
function onGesture(): void {
  if (!settings.sound_notices) return;
  const ctx = context();
  if (ctx?.state === "suspended") ctx.resume().catch(() => undefined);
}

const GESTURES = ["pointerdown", "keydown"] as const;

/** Drops the audio context (tests start each case without one). */
export function resetNoticeSound(): void {
  void audio?.close().catch(() => undefined);
  audio = null;
}

export function Toasts() {
  const { t } = useLingui();
  const n = useSnapshot(notices);
  const s = useSnapshot(settings);
  const heard = useRef(0);
  const shown = n.toasts.filter((x) => s[KIND_SETTING[x.kind]]);
  useEffect(() => {
    for (const g of GESTURES) document.addEventListener(g, onGesture, { capture: true, passive: true });
    return () => {
      for (const g of GESTURES) document.removeEventListener(g, onGesture, { capture: true });
    };
  }, []);
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
