/**
 * The app's conversion rates (fx-rates.ts) over the browser's transport, and the hook a screen of
 * balances uses: `useRates(currencies, unit)` re-renders once per refresh of the rates, never per tick.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { log } from "../log";
import { appScheduler } from "../scheduler";
import { openingHttp } from "../session";
import { FxRates } from "./fx-rates";
import { RatesBook, type RatesSnapshot } from "./valuation";

export { valueIn, type RatesSnapshot } from "./valuation";

let shared: FxRates | null = null;

/** One cache for the whole tab: the desk's balances and the wallets page share their rates. */
function appRates(): FxRates {
  shared ??= new FxRates({
    post: (path, body) => openingHttp()({ method: "POST", path, body }),
    now: () => appScheduler.now(),
    log,
  });
  return shared;
}

/** Every currency of `currencies` valued in `unit`, kept fresh while the component is mounted. */
export function useRates(currencies: readonly string[], unit: string): RatesSnapshot {
  const [book] = useState(() => new RatesBook(appRates(), appScheduler));
  const wanted = [...new Set(currencies)].sort().join(",");
  useEffect(() => {
    book.want(wanted === "" ? [] : wanted.split(","), unit);
    return () => book.stop();
  }, [book, wanted, unit]);
  return useSyncExternalStore(book.subscribe, book.snapshot);
}
