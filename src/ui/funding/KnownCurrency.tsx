/**
 * The gate in front of the funding desk, as `KnownMarket.tsx` is for the trading desk: the desk
 * opens only for a currency with a funding market on this exchange (`pub:list:currency:margin`), so
 * `/f/FOO` subscribes to nothing and says plainly that there is no such funding market, with the
 * currencies that have one. When the list cannot be had, the desk opens as asked (the exchange's own
 * answer then decides).
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useSyncExternalStore, type ReactNode } from "react";
import { useLocation } from "wouter";
import { UnknownMarketCard } from "../desk/KnownMarket";
import { confList } from "../desk/market-list";
import * as css from "../desk/unknown-market.css";
import { fundingPath, suggestCurrencies, type FundingMarket } from "./funding-paths";

/** The currencies with a funding market (lent, borrowed, usable as margin). */
export const FUNDING_CURRENCY_KEYS = ["pub:list:currency:margin"] as const;

// eslint-disable-next-line lingui/no-unlocalized-strings -- a log label, not text
const currencyList = confList(FUNDING_CURRENCY_KEYS, "funding currency list");

export function KnownCurrency(props: {
  readonly market: FundingMarket;
  readonly children: (currency: string) => ReactNode;
}) {
  const { t } = useLingui();
  const list = useSyncExternalStore(currencyList.subscribe, currencyList.snapshot);
  useEffect(() => {
    void currencyList.load();
  }, []);
  const { market } = props;
  if (
    market.kind === "currency" &&
    (list.status === "error" || (list.status === "ready" && list.pairs.has(market.currency)))
  )
    return props.children(market.currency);
  if (list.status === "loading")
    return (
      <div className={css.loading} aria-busy="true" data-testid="funding-loading">
        {t`Loading…`}
      </div>
    );
  return <UnknownCurrency market={market} known={list.status === "ready" ? list.pairs : new Set()} />;
}

/** "Unknown funding market": what was asked for and the currencies that can be lent instead. */
function UnknownCurrency(props: { readonly market: FundingMarket; readonly known: ReadonlySet<string> }) {
  const { t } = useLingui();
  const [path] = useLocation();
  const asked = props.market.kind === "currency" ? props.market.currency : props.market.text;
  // The address is anyone's to write: only a name that could be a currency is repeated.
  const text = /^[A-Za-z0-9]{1,12}$/.test(asked)
    ? t`There is no funding market for “${asked}” on this exchange.`
    : t`There is no funding market at this address on this exchange.`;
  const links = suggestCurrencies(asked, props.known).map((c) => ({ href: fundingPath(path, c), label: c }));
  return <UnknownMarketCard text={text} listTitle={t`Funding markets`} links={links} testId="unknown-funding" />;
}
