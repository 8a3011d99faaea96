/**
 * What the tables call out to: the order calls of the market bridge and the order-history REST
 * transport. Production uses the app's one bridge and the session token; tests inject fakes through
 * `TablesServicesContext` instead of starting a worker.
 */
import { createContext, useContext } from "react";
import { auth } from "../../../auth";
import { appConfig } from "../../../config";
import type { MarketBridge } from "../../../market/bridge";
import { market } from "../../../market/market";
import type { HistoryFetch } from "./history-pager";
import { restHistoryFetch } from "./history-rest";

export interface TablesServices {
  readonly orders: Pick<MarketBridge, "cancelOrder" | "cancelOrders" | "updateOrder">;
  readonly fetchHistory: HistoryFetch;
}

export const TablesServicesContext = createContext<TablesServices | null>(null);

let defaults: TablesServices | null = null;

function defaultServices(): TablesServices {
  // Created on first use: market() starts the worker and appConfig() needs the loaded config.
  defaults ??= {
    orders: {
      cancelOrder: (id) => market().cancelOrder(id),
      cancelOrders: (target) => market().cancelOrders(target),
      updateOrder: (update) => market().updateOrder(update),
    },
    fetchHistory: (request) => restHistoryFetch(appConfig().endpoints, () => auth.authToken)(request),
  };
  return defaults;
}

export function useTablesServices(): TablesServices {
  return useContext(TablesServicesContext) ?? defaultServices();
}
