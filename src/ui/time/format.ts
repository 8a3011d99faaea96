/**
 * The one place dates and times become text: every time the desk, its tables, the chart, the trades
 * tape and the notifications show is written in the user's `time_format` pattern at `utc_offset`
 * hours (docs/product-rules.md#time-display). The default pattern is the product's
 * `YY-MM-DD HH:mm:ss` (24 h); its short year is read as year-month-day, which the settings control
 * says in words, and every shown time carries its exact, unambiguous form (four-digit year and the
 * offset) for a tooltip and the `<time>` element.
 *
 * Patterns: tokens YYYY, YY, MM, DD, HH, mm, ss; anything else is literal. Times are shifted by the
 * offset and read in UTC, so the browser's own zone never adds to them.
 */
import { useMemo } from "react";
import { useSnapshot } from "valtio";
import { settings } from "../settings/store";

const HOUR_MS = 3_600_000;
const TOKEN = /YYYY|YY|MM|DD|HH|mm|ss/g;
const DATE_TOKENS = new Set(["YYYY", "YY", "MM", "DD"]);

/** The exact form shown on hover and in `<time dateTime>`: four-digit year, no room for doubt. */
const EXACT_PATTERN = "YYYY-MM-DD HH:mm:ss";

/** The time-of-day pattern used where a pattern has no time tokens (the tape must show a clock). */
const CLOCK_FALLBACK = "HH:mm:ss";

/**
 * Patterns the settings control offers (the stored value may be any pattern another device wrote;
 * the control then lists it too). The first is the product's default.
 */
/* eslint-disable lingui/no-unlocalized-strings -- date patterns, not text */
export const TIME_FORMAT_CHOICES = [
  "YY-MM-DD HH:mm:ss",
  "YYYY-MM-DD HH:mm:ss",
  "DD.MM.YYYY HH:mm:ss",
  "DD/MM/YYYY HH:mm:ss",
  "MM/DD/YYYY HH:mm:ss",
] as const;
/* eslint-enable lingui/no-unlocalized-strings */

/**
 * UTC offsets the settings control offers: whole hours from −12 to +14 and the zones that keep a
 * half or three-quarter hour, all inside the setting's bound.
 */
export const UTC_OFFSET_CHOICES: readonly number[] = [
  ...Array.from({ length: 27 }, (_, i) => i - 12),
  -9.5,
  -3.5,
  3.5,
  4.5,
  5.5,
  5.75,
  6.5,
  9.5,
  10.5,
  12.75,
].sort((a, b) => a - b);

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

/** A time in `pattern`, shifted by `utcOffsetHours`; "–" for no time. */
export function formatTime(mts: number | null, pattern: string, utcOffsetHours: number): string {
  if (mts === null) return "–";
  const d = new Date(mts + utcOffsetHours * HOUR_MS);
  const parts: Record<string, string> = {
    YYYY: String(d.getUTCFullYear()),
    YY: pad(d.getUTCFullYear() % 100),
    MM: pad(d.getUTCMonth() + 1),
    DD: pad(d.getUTCDate()),
    HH: pad(d.getUTCHours()),
    mm: pad(d.getUTCMinutes()),
    ss: pad(d.getUTCSeconds()),
  };
  return pattern.replace(TOKEN, (token) => parts[token] ?? token);
}

/** "UTC", "UTC+3", "UTC−5", "UTC+5:30", "UTC+12:45". */
export function utcOffsetLabel(hours: number): string {
  if (hours === 0) return "UTC";
  const sign = hours > 0 ? "+" : "−";
  const abs = Math.abs(hours);
  const whole = Math.floor(abs);
  const minutes = Math.round((abs - whole) * 60);
  return `UTC${sign}${whole}${minutes === 0 ? "" : `:${pad(minutes)}`}`;
}

/** The exact time with its offset, e.g. "2026-11-25 14:03:07 UTC+3". */
export function exactTime(mts: number, utcOffsetHours: number): string {
  return `${formatTime(mts, EXACT_PATTERN, utcOffsetHours)} ${utcOffsetLabel(utcOffsetHours)}`;
}

/**
 * The time-of-day part of a pattern, from its first to its last time token ("YY-MM-DD HH:mm:ss" →
 * "HH:mm:ss"), for places that show a clock only (the trades tape). A pattern without time tokens,
 * or one whose date and time tokens interleave, gives the 24-hour clock.
 */
export function clockPattern(pattern: string): string {
  let start = Infinity;
  let end = -1;
  const dates: number[] = [];
  for (const m of pattern.matchAll(TOKEN)) {
    if (DATE_TOKENS.has(m[0])) dates.push(m.index);
    else {
      start = Math.min(start, m.index);
      end = m.index + m[0].length;
    }
  }
  const interleaved = dates.some((at) => at > start && at < end);
  return end < 0 || interleaved ? CLOCK_FALLBACK : pattern.slice(start, end);
}

/** The ISO form for `<time dateTime>`: the instant itself, whatever the display offset. */
export function isoTime(mts: number): string {
  return new Date(mts).toISOString();
}

interface TimeFormatter {
  /** The whole `time_format` pattern at the user's offset. */
  readonly full: (mts: number | null) => string;
  /** The time-of-day part only. */
  readonly clock: (mts: number) => string;
  /** The exact form with the offset, for a tooltip. */
  readonly exact: (mts: number) => string;
  readonly pattern: string;
  readonly utcOffset: number;
}

export function timeFormatter(pattern: string, utcOffset: number): TimeFormatter {
  const clock = clockPattern(pattern);
  return {
    full: (mts) => formatTime(mts, pattern, utcOffset),
    clock: (mts) => formatTime(mts, clock, utcOffset),
    exact: (mts) => exactTime(mts, utcOffset),
    pattern,
    utcOffset,
  };
}

/** The user's formatter; the same object until `time_format` or `utc_offset` changes. */
export function useTimeFormat(): TimeFormatter {
  const s = useSnapshot(settings);
  const pattern = s.time_format;
  const offset = s.utc_offset;
  return useMemo(() => timeFormatter(pattern, offset), [pattern, offset]);
}
