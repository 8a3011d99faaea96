import "fake-indexeddb/auto";
import { i18n } from "@lingui/core";
import { get, set } from "idb-keyval";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tickerCodec, type DecodeResult, type TickerView } from "../../protocol";
import {
  addAlert,
  alertKeysOf,
  alerts,
  alertsOf,
  ALERTS_STORAGE_KEY,
  applyStoredAlerts,
  checkAlerts,
  hydrateAndPersistAlerts,
  parseAlertKey,
  removeAlert,
  removeAlertByKey,
  resetAlerts,
  watchAlerts,
} from "./alerts";
import { notices } from "./notices";

function clearNotices(): void {
  notices.toasts.length = 0;
  notices.history.length = 0;
  notices.unread = 0;
}

describe("price alerts", () => {
  beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
  beforeEach(() => {
    resetAlerts();
    clearNotices();
  });

  it("parses the colon-separated key into index and price", () => {
    expect(parseAlertKey("0:42000")).toEqual({ index: 0, price: 42000 });
    expect(parseAlertKey("3:0.00012")).toEqual({ index: 3, price: 0.00012 });
    for (const bad of ["", "42000", ":1", "1:", "a:1", "-1:5", "1:-5", "1:0", "1:2:3", "1:abc", "1.5:3"])
      expect(parseAlertKey(bad), bad).toBeNull();
  });

  it("adds a price only once per pair, and keeps pairs apart", () => {
    expect(addAlert("BTCUSD", 42000)).toBe(true);
    expect(addAlert("BTCUSD", 42000)).toBe(false);
    expect(addAlert("BTCUSD", 43000)).toBe(true);
    expect(addAlert("ETHUSD", 42000)).toBe(true);
    expect(addAlert("BTCUSD", 0)).toBe(false);
    expect(addAlert("BTCUSD", Number.NaN)).toBe(false);
    expect(alertKeysOf("BTCUSD")).toEqual(["0:42000", "1:43000"]);
    expect(alertsOf("ETHUSD")).toEqual([{ index: 0, price: 42000 }]);
  });

  it("removes by price or by key, and drops an emptied pair", () => {
    addAlert("BTCUSD", 1);
    addAlert("BTCUSD", 2);
    expect(removeAlertByKey("BTCUSD", "0:2")).toBe(false); // index and price must agree
    expect(removeAlertByKey("BTCUSD", "1:2")).toBe(true);
    expect(removeAlert("BTCUSD", 5)).toBe(false);
    expect(removeAlert("BTCUSD", 1)).toBe(true);
    expect(alerts.byPair).toEqual({});
  });

  it("fires once when the price crosses a level upwards or downwards, then removes the alert", () => {
    addAlert("BTCUSD", 100);
    addAlert("BTCUSD", 90);
    expect(checkAlerts("BTCUSD", 95)).toEqual([]); // first observation: no direction yet
    expect(checkAlerts("BTCUSD", 99.5)).toEqual([]);
    expect(checkAlerts("BTCUSD", 100)).toEqual([100]); // touching the level counts
    expect(alertsOf("BTCUSD").map((a) => a.price)).toEqual([90]);
    expect(checkAlerts("BTCUSD", 120)).toEqual([]);
    expect(checkAlerts("BTCUSD", 80)).toEqual([90]);
    expect(checkAlerts("BTCUSD", 95)).toEqual([]);
    expect(alertsOf("BTCUSD")).toEqual([]);
    expect(notices.toasts.map((n) => [n.kind, n.level])).toEqual([
      ["main", "info"],
      ["main", "info"],
    ]);
    expect(notices.toasts[0]?.text).toContain("BTCUSD");
    expect(notices.toasts[0]?.text).toContain("100");
  });

  it("fires every level jumped over in one move, and only the pair's own", () => {
    addAlert("BTCUSD", 10);
    addAlert("BTCUSD", 20);
    addAlert("BTCUSD", 30);
    addAlert("ETHUSD", 15);
    checkAlerts("BTCUSD", 5);
    checkAlerts("ETHUSD", 5);
    expect(checkAlerts("BTCUSD", 25).sort((a, b) => a - b)).toEqual([10, 20]);
    expect(alertsOf("ETHUSD")).toHaveLength(1);
    expect(notices.toasts).toHaveLength(2);
  });

  it("restores stored keys in index order, dropping malformed keys and duplicates", () => {
    const n = applyStoredAlerts({ BTCUSD: ["1:200", "0:100", "junk", "2:100", 7], ETHUSD: "nope", LTCUSD: [] });
    expect(n).toBe(2);
    expect(alerts.byPair).toEqual({ BTCUSD: [100, 200] });
    expect(applyStoredAlerts(null)).toBe(0);
  });

  it("persists to IndexedDB and reads back on hydrate", async () => {
    await set(ALERTS_STORAGE_KEY, { ETHUSD: ["0:3000"] });
    const stop = await hydrateAndPersistAlerts();
    expect(alertKeysOf("ETHUSD")).toEqual(["0:3000"]);
    addAlert("BTCUSD", 50000);
    await stop();
    expect(await get(ALERTS_STORAGE_KEY)).toEqual({ ETHUSD: ["0:3000"], BTCUSD: ["0:50000"] });
  });

  it("watches one ticker per pair with alerts and checks its last price", async () => {
    const opened: { symbol: string; onView: (v: TickerView) => void; signal: AbortSignal }[] = [];
    const stop = watchAlerts({
      ticker: (symbol, onView, signal) => {
        opened.push({ symbol, onView, signal });
        return Promise.resolve();
      },
    });
    addAlert("BTCUSD", 100);
    await Promise.resolve(); // valtio notifies per microtask
    await Promise.resolve();
    expect(opened.map((o) => o.symbol)).toEqual(["tBTCUSD"]);
    const must = <T>(d: DecodeResult<T>): T => {
      if (!d.ok) throw new Error("ticker fixture does not decode");
      return d.value;
    };
    const tick = (last: number): TickerView => ({
      handle: "h",
      symbol: "tBTCUSD",
      status: "SUBSCRIBED",
      ticker: must(tickerCodec.decode([0, 0, 0, 0, 0, 0, last, 0, 0, 0])),
      health: { lastUpdateAt: 0, messagesPerSecond: 0, resyncs: 0, checksumsOk: 0, checksumsFailed: 0, stale: false },
      version: 1,
    });
    opened[0]?.onView(tick(90));
    opened[0]?.onView(tick(101));
    expect(alertsOf("BTCUSD")).toEqual([]);
    await Promise.resolve();
    await Promise.resolve();
    expect(opened[0]?.signal.aborted).toBe(true); // no alerts left on the pair
    stop();
  });
});
