/**
 * Where the chart's data comes from, injectable so component tests feed synthetic views: the live
 * candles and the liquidations stream from the worker bridge, history pages from the public REST
 * host. The default is the app's bridge (`market()`) and `fetch`.
 */
import { createContext } from "react";
import type { CandlesView, StatusView } from "../../../../protocol";
import { apiUrl, appConfig } from "../../../config";
import { exchangeFetch } from "../../../shell/api-notice";
import { market } from "../../../market/market";
import type { CandleTimeframe } from "../../../settings/schema";
import { decodeCandleRows, historyPath } from "./candles-data";

export interface ChartSource {
  candles(key: string, throttleMs: number, onView: (view: CandlesView) => void, signal: AbortSignal): Promise<void>;
  status(key: string, onView: (view: StatusView) => void, signal: AbortSignal): Promise<void>;
  /** Stride-6 candle rows, oldest first, ending before `end` (ms). */
  loadHistory(key: string, timeframe: CandleTimeframe, end: number, signal: AbortSignal): Promise<Float64Array>;
}

export async function fetchCandleHistory(
  key: string,
  timeframe: CandleTimeframe,
  end: number,
  signal: AbortSignal,
): Promise<Float64Array> {
  const res = await exchangeFetch(apiUrl(appConfig().endpoints, historyPath(key, end, timeframe)), { signal });
  if (!res.ok) throw new Error(`candles history: HTTP ${res.status}`);
  return decodeCandleRows(await res.json());
}

export function marketChartSource(): ChartSource {
  return {
    candles: (key, throttleMs, onView, signal) => market().candles(key, throttleMs, onView, signal),
    status: (key, onView, signal) => market().status(key, onView, signal),
    loadHistory: fetchCandleHistory,
  };
}

/** Overrides the chart's source for a subtree (tests, storybook-like pages); null: the app's bridge. */
export const ChartSourceContext = createContext<ChartSource | null>(null);
