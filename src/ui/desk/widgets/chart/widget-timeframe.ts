/**
 * Each chart widget's own timeframe, stored in IndexedDB under a key made from its widget key. The
 * grid's items carry no per-widget options (grid config 1.0.0: key, place, size, pinned pair), so
 * the choice lives beside the layout rather than in it. A widget that never chose one shows the
 * `chart_interval` setting, the default for new widgets.
 *
 * Loaded values are kept in memory, so a widget that mounts again (a layout switch, a page change)
 * knows its timeframe at once and subscribes to the right candles first time.
 */
import { del, get, set } from "idb-keyval";
import { log } from "../../../log";
import { CANDLE_TIMEFRAMES, type CandleTimeframe } from "../../../settings/schema";

const PREFIX = "chart-timeframe:";

/** The IndexedDB key of a widget's timeframe: `chart-timeframe:widget/chart/{id}`. */
export function timeframeStorageKey(widgetKey: string): string {
  return `${PREFIX}${widgetKey}`;
}

/** Per widget key: its timeframe, or null when it has none of its own. */
const known = new Map<string, CandleTimeframe | null>();

function isTimeframe(v: unknown): v is CandleTimeframe {
  return typeof v === "string" && (CANDLE_TIMEFRAMES as readonly string[]).includes(v);
}

/** The widget's timeframe if already loaded (null: none of its own), undefined when not yet known. */
export function knownWidgetTimeframe(widgetKey: string): CandleTimeframe | null | undefined {
  return known.get(widgetKey);
}

/** Reads the widget's timeframe; null when it has none (or storage fails, or holds a stale value). */
export async function loadWidgetTimeframe(widgetKey: string): Promise<CandleTimeframe | null> {
  const cached = known.get(widgetKey);
  if (cached !== undefined) return cached;
  let value: CandleTimeframe | null = null;
  try {
    const stored: unknown = await get(timeframeStorageKey(widgetKey));
    value = isTimeframe(stored) ? stored : null;
  } catch (err) {
    log.warn("chart timeframe not readable", widgetKey, err);
  }
  // A choice made while the read was in flight wins over what the read found.
  const raced = known.get(widgetKey);
  if (raced !== undefined) return raced;
  known.set(widgetKey, value);
  return value;
}

/** Remembers the widget's timeframe (in memory at once, in IndexedDB in the background). */
export function saveWidgetTimeframe(widgetKey: string, timeframe: CandleTimeframe): void {
  known.set(widgetKey, timeframe);
  set(timeframeStorageKey(widgetKey), timeframe).catch((err: unknown) =>
    log.warn("chart timeframe not saved", widgetKey, err),
  );
}

/** Forgets a widget's timeframe, for a widget removed from every layout. */
export async function forgetWidgetTimeframe(widgetKey: string): Promise<void> {
  known.set(widgetKey, null);
  try {
    await del(timeframeStorageKey(widgetKey));
  } catch (err) {
    log.warn("chart timeframe not removed", widgetKey, err);
  }
}

/** Drops the in-memory copies (tests: the next load reads IndexedDB again). */
export function clearKnownTimeframes(): void {
  known.clear();
}
