/**
 * A coin's last price against the US dollar, read live from the exchange (coin-price.ts): loading
 * at first (also in the prerendered page), then the price and its 24-hour change, refreshed by the
 * poll; when the exchange does not answer, an error with "Try again" — or, when a price was read
 * before, that price marked as the last one read.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useSyncExternalStore } from "react";
import type { Locale } from "../../protocol";
import { intlTag } from "../i18n";
import { PRICE_LOADING, priceSnapshot, refreshPrice, subscribePrice } from "./coin-price";
import * as css from "./site-learn.css";

const formats = new Map<string, { price: Intl.NumberFormat; change: Intl.NumberFormat }>();

function formatsFor(locale: string) {
  let f = formats.get(locale);
  if (!f) {
    const tag = intlTag(locale as Locale);
    f = {
      price: new Intl.NumberFormat(tag, { style: "currency", currency: "USD", maximumFractionDigits: 2 }),
      change: new Intl.NumberFormat(tag, {
        style: "percent",
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
        signDisplay: "exceptZero",
      }),
    };
    formats.set(locale, f);
  }
  return f;
}

/** `base` is the coin's code (`BTC`); the market read is `t{base}USD`. */
export function LivePrice({ base }: { readonly base: string }) {
  const { i18n } = useLingui();
  const symbol = `t${base}USD`;
  const pair = `${base}/USD`;
  const subscribe = useCallback((l: () => void) => subscribePrice(symbol, l), [symbol]);
  const snap = useSyncExternalStore(
    subscribe,
    () => priceSnapshot(symbol),
    () => PRICE_LOADING,
  );
  const f = formatsFor(i18n.locale);

  if (snap.ticker === null) {
    return (
      <div className={css.priceCard}>
        {snap.status === "error" ? (
          <>
            <p className={css.errorText} role="alert">
              <Trans>The exchange did not answer, so the {pair} price cannot be shown right now.</Trans>
            </p>
            <button type="button" className={css.button} onClick={() => refreshPrice(symbol)}>
              <Trans>Try again</Trans>
            </button>
          </>
        ) : (
          <p className={css.stateText} role="status">
            <Trans>Reading the {pair} price from the exchange…</Trans>
          </p>
        )}
      </div>
    );
  }

  const { lastPrice, dailyChangePerc } = snap.ticker;
  const price = f.price.format(lastPrice);
  const change = f.change.format(dailyChangePerc);
  return (
    <div className={css.priceCard}>
      <div>
        <p className={css.priceLabel}>
          <Trans>Last price on {pair}</Trans>
        </p>
        <p className={css.priceValue} data-testid="coin-price" data-price={lastPrice}>
          {price}
        </p>
        <p className={css.priceMeta}>
          <Trans>
            24-hour change: <span className={dailyChangePerc < 0 ? css.down : css.up}>{change}</span>
          </Trans>
        </p>
      </div>
      <p className={css.priceMeta}>
        {snap.status === "error" ? (
          <Trans>The last price read: the exchange is not answering right now.</Trans>
        ) : (
          <Trans>Live from the exchange, refreshed every few seconds.</Trans>
        )}
      </p>
    </div>
  );
}
