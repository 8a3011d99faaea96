/**
 * The chart's times in the user's `time_format` at `utc_offset` hours, as the account tables show
 * them (the tables' `formatTime` does the formatting), and the layout of the time axis' labels.
 *
 * The axis splits the pattern into its date part and its time part: ticks show the time part (without
 * seconds while every tick is on a whole minute), the first tick of each day adds the date part under
 * it, and ticks a day or more apart show the date part alone. Where the pattern has no date (or no
 * time) tokens, that part falls back to the locale's own form — localized month names, a 24-hour
 * clock as everywhere on the desk — still at the user's offset, never in the browser's zone.
 */
import { i18n } from "@lingui/core";
import type { Locale } from "../../../../protocol";
import { intlTag } from "../../../i18n";
import { formatTime } from "../tables/format";

/** The user's time settings as the chart needs them. */
export interface TimeFormat {
  /** `time_format`: tokens YYYY, YY, MM, DD, HH, mm, ss, anything else literal. */
  readonly pattern: string;
  /** `utc_offset` in hours (may be fractional). */
  readonly utcOffset: number;
}

export interface PatternParts {
  /** From the first to the last date token (YYYY, YY, MM, DD), or null without any. */
  readonly date: string | null;
  /** From the first to the last time token (HH, mm, ss), or null without any. */
  readonly time: string | null;
}

const TOKEN = /YYYY|YY|MM|DD|HH|mm|ss/g;
const DATE_TOKENS = new Set(["YYYY", "YY", "MM", "DD"]);
const HOUR_MS = 3_600_000;
const DAY_S = 86_400;

const partsCache = new Map<string, PatternParts>();

/**
 * The date and time parts of a pattern. A pattern whose date and time tokens interleave
 * ("DD HH MM") cannot be split: both parts are the whole pattern.
 */
export function splitTimePattern(pattern: string): PatternParts {
  const cached = partsCache.get(pattern);
  if (cached) return cached;
  const span = { date: [Infinity, -1], time: [Infinity, -1] };
  for (const m of pattern.matchAll(TOKEN)) {
    const s = DATE_TOKENS.has(m[0]) ? span.date : span.time;
    s[0] = Math.min(s[0] as number, m.index);
    s[1] = Math.max(s[1] as number, m.index + m[0].length);
  }
  const [d0, d1] = span.date as [number, number];
  const [t0, t1] = span.time as [number, number];
  let parts: PatternParts;
  if (d1 >= 0 && t1 >= 0 && d0 < t1 && t0 < d1) parts = { date: pattern, time: pattern };
  else
    parts = {
      date: d1 >= 0 ? pattern.slice(d0, d1) : null,
      time: t1 >= 0 ? pattern.slice(t0, t1) : null,
    };
  // Patterns come from one setting: the cache holds a handful of entries at most.
  if (partsCache.size > 32) partsCache.clear();
  partsCache.set(pattern, parts);
  return parts;
}

/** "HH:mm:ss" → "HH:mm": the seconds token and the separator before it, when it ends the part. */
export function withoutSeconds(timePattern: string): string {
  const m = /[^A-Za-z]*ss$/.exec(timePattern);
  if (!m || !/mm[^A-Za-z]*ss$/.test(timePattern)) return timePattern;
  return timePattern.slice(0, m.index);
}

/**
 * For uPlot's `tzDate`: a Date whose local fields (getHours, getDate…) read the wall time at the
 * user's offset, so the axis puts day and hour ticks on that zone's boundaries. Like uPlot's own
 * "UTC" conversion it corrects by the browser zone's offset at that instant.
 */
export function zonedDate(seconds: number, utcOffset: number): Date {
  const shifted = seconds * 1000 + utcOffset * HOUR_MS;
  const d = new Date(shifted);
  return new Date(shifted + d.getTimezoneOffset() * 60_000);
}

/** The crosshair legend's time: the whole pattern, as the tables show it. */
export function legendTime(mts: number, format: TimeFormat): string {
  return formatTime(mts, format.pattern, format.utcOffset);
}

const intlCache = new Map<string, Intl.DateTimeFormat>();

/** The locale's own short forms, read in UTC from a time already shifted by the user's offset. */
function localeFormat(kind: "time" | "day"): Intl.DateTimeFormat {
  const key = `${i18n.locale}|${kind}`;
  let f = intlCache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(
      intlTag(i18n.locale as Locale),
      kind === "time"
        ? { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" }
        : { month: "short", day: "numeric", timeZone: "UTC" },
    );
    intlCache.set(key, f);
  }
  return f;
}

/** A day number at the user's offset, to find the first tick of each day. */
function dayIndex(mts: number, utcOffset: number): number {
  return Math.floor((mts + utcOffset * HOUR_MS) / (DAY_S * 1000));
}

/**
 * Time-axis labels for uPlot's splits (seconds): the time part per tick with the date part under the
 * first tick of each day, or the date part alone when ticks are a day or more apart.
 */
export function timeAxisLabels(splits: readonly number[], incr: number, format: TimeFormat): string[] {
  const { date, time } = splitTimePattern(format.pattern);
  const off = format.utcOffset;
  const dayLabel = (mts: number): string =>
    date !== null ? formatTime(mts, date, off) : localeFormat("day").format(mts + off * HOUR_MS);
  if (incr >= DAY_S) return splits.map((t) => dayLabel(t * 1000));
  // The pattern's seconds would read ":00" on every tick of a minute-based axis.
  const timePattern = time === null ? null : incr % 60 === 0 ? withoutSeconds(time) : time;
  const timeLabel = (mts: number): string =>
    timePattern !== null ? formatTime(mts, timePattern, off) : localeFormat("time").format(mts + off * HOUR_MS);
  // An inseparable pattern already holds the date: no second line.
  const dateLine = date !== null && date === time ? null : dayLabel;
  let lastDay = NaN;
  return splits.map((t) => {
    const mts = t * 1000;
    const label = timeLabel(mts);
    const day = dayIndex(mts, off);
    if (day === lastDay || dateLine === null) return label;
    lastDay = day;
    return `${label}\n${dateLine(mts)}`;
  });
}

/** A label centred on its tick, before placement; `x` and widths in canvas pixels. */
export interface AxisLabel {
  readonly lines: readonly string[];
  readonly x: number;
}

export interface PlacedLabel {
  readonly lines: readonly string[];
  /** The tick's position. */
  readonly x: number;
  /** Where the label's box starts: inside [lo, hi − width]. */
  readonly left: number;
  readonly width: number;
}

/**
 * Places the labels inside the canvas. uPlot centres each label on its tick, so a tick near the
 * plot's left edge pushed half its label (often the date) off the canvas. Edge labels are moved
 * inwards instead (`bounds`: the canvas less a margin, as glyphs ink a little outside their box); one that then runs into its neighbour is dropped, handing its date line to the
 * neighbour when that one has none (same day), so the first day's date stays on screen.
 */
export function placeAxisLabels(
  labels: readonly AxisLabel[],
  bounds: { readonly lo: number; readonly hi: number },
  measure: (text: string) => number,
  gap: number,
): PlacedLabel[] {
  const { lo, hi } = bounds;
  const place = (lines: readonly string[], x: number): PlacedLabel & { shifted: boolean } => {
    let width = 0;
    for (const line of lines) width = Math.max(width, measure(line));
    const natural = x - width / 2;
    const left = Math.min(Math.max(lo, hi - width), Math.max(lo, natural));
    return { lines, x, left, width, shifted: left !== natural };
  };
  const out = labels.map((l) => place(l.lines, l.x));
  const overlap = (a: PlacedLabel, b: PlacedLabel): boolean => a.left + a.width + gap > b.left;
  for (let guard = 0; guard < 2 && out.length > 1; guard++) {
    const first = out[0] as (typeof out)[number];
    const second = out[1] as (typeof out)[number];
    if (!first.shifted || !overlap(first, second)) break;
    out.shift();
    if (first.lines.length > second.lines.length && second.lines.length > 0)
      out[0] = place([second.lines[0] as string, ...first.lines.slice(1)], second.x);
  }
  if (out.length > 1) {
    const last = out[out.length - 1] as (typeof out)[number];
    if (last.shifted && overlap(out[out.length - 2] as PlacedLabel, last)) out.pop();
  }
  return out.map(({ lines, x, left, width }) => ({ lines, x, left, width }));
}
