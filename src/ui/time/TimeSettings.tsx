/**
 * The controls of the two time settings, for the interface settings page: `time_format` (each
 * choice shown as the current time written in it, with the order of its date parts in words, so
 * "26-11-25" is never a guess) and `utc_offset`. The store's bounds decide what is kept; a pattern
 * another device stored that is not among the choices is listed as it is.
 */
import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useSnapshot } from "valtio";
import { settings, updateSetting } from "../settings/store";
import { appScheduler } from "../scheduler";
import { formatTime, TIME_FORMAT_CHOICES, UTC_OFFSET_CHOICES, utcOffsetLabel } from "./format";

/** The order of a pattern's date parts: "YMD", "DMY", "MDY", or null for another shape. */
function dateOrder(pattern: string): "YMD" | "DMY" | "MDY" | null {
  const order = [...pattern.matchAll(/YYYY|YY|MM|DD/g)].map((m) => m[0][0]).join("");
  return order === "YMD" || order === "DMY" || order === "MDY" ? order : null;
}

export function TimeFormatSelect({ className }: { readonly className?: string }) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  // The examples show the moment the page opened; they only illustrate the patterns.
  const [now] = useState(() => appScheduler.now());
  const choices: readonly string[] = TIME_FORMAT_CHOICES.includes(s.time_format as (typeof TIME_FORMAT_CHOICES)[number])
    ? TIME_FORMAT_CHOICES
    : [...TIME_FORMAT_CHOICES, s.time_format];
  const words = (pattern: string): string => {
    switch (dateOrder(pattern)) {
      case "YMD":
        return t`year-month-day`;
      case "DMY":
        return t`day-month-year`;
      case "MDY":
        return t`month-day-year`;
      default:
        return pattern;
    }
  };
  return (
    <select
      className={className}
      value={s.time_format}
      data-testid="setting-time_format"
      onChange={(e) => updateSetting("time_format", e.target.value)}
    >
      {choices.map((p) => (
        <option key={p} value={p}>
          {`${formatTime(now, p, s.utc_offset)} (${words(p)})`}
        </option>
      ))}
    </select>
  );
}

export function UtcOffsetSelect({ className }: { readonly className?: string }) {
  const s = useSnapshot(settings);
  const choices = UTC_OFFSET_CHOICES.includes(s.utc_offset)
    ? UTC_OFFSET_CHOICES
    : [...UTC_OFFSET_CHOICES, s.utc_offset].sort((a, b) => a - b);
  return (
    <select
      className={className}
      value={String(s.utc_offset)}
      data-testid="setting-utc_offset"
      onChange={(e) => updateSetting("utc_offset", Number(e.target.value))}
    >
      {choices.map((o) => (
        <option key={o} value={String(o)}>
          {utcOffsetLabel(o)}
        </option>
      ))}
    </select>
  );
}
