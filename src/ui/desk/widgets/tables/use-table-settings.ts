import { useMemo } from "react";
import { useSnapshot } from "valtio";
import { settings } from "../../../settings/store";
import { readOrderFilters, type OrderFilters } from "./filters";
import { formatTime } from "./format";

/** The order filters from settings; the same object until a filter setting changes. */
export function useFilters(): OrderFilters {
  const s = useSnapshot(settings);
  const stored = s.order_filters;
  const side = s.orders_filter;
  return useMemo(() => readOrderFilters(stored, side), [stored, side]);
}

/** Formats a time cell in the user's time format and UTC offset. */
export function useTimeCell(): (mts: number | null) => string {
  const s = useSnapshot(settings);
  const pattern = s.time_format;
  const offset = s.utc_offset;
  return useMemo(() => (mts: number | null) => formatTime(mts, pattern, offset), [pattern, offset]);
}
