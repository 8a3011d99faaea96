/**
 * The gate in front of the desk: the desk opens only for a pair the exchange lists
 * (`market-list.ts`), so an address such as `/tradedesk/FOOBAR` subscribes to nothing and says
 * plainly that the market does not exist, with the closest pairs to go to instead. A funding
 * symbol (`fUSD`) is a market, but not one this desk trades: the same state says so and offers the
 * currency's spot pairs. When the list cannot be had, the desk opens as asked (the exchange's own
 * answer then decides) rather than keeping a trader from a pair that may well exist.
 */
import { useLingui } from "@lingui/react/macro";
import { useEffect, useId, useSyncExternalStore, type ReactNode } from "react";
import { useLocation } from "wouter";
import { splitPair, suggestMarkets, type DeskMarket } from "../../protocol";
import { deskAreaOf, deskPath } from "./desk-paths";
import { loadMarketList, marketListSnapshot, subscribeMarketList } from "./market-list";
import * as css from "./unknown-market.css";

export function KnownMarket(props: { readonly market: DeskMarket; readonly children: (pair: string) => ReactNode }) {
  const { t } = useLingui();
  const list = useSyncExternalStore(subscribeMarketList, marketListSnapshot);
  useEffect(() => {
    void loadMarketList();
  }, []);
  const { market } = props;
  if (market.kind === "pair" && (list.status === "error" || (list.status === "ready" && list.pairs.has(market.pair))))
    return props.children(market.pair);
  if (list.status === "loading")
    return (
      <div className={css.loading} aria-busy="true" data-testid="desk-loading">
        {t`Loading…`}
      </div>
    );
  return <UnknownMarket market={market} known={list.status === "ready" ? list.pairs : new Set()} />;
}

/** "Unknown market": what was asked for, why there is no desk for it, and where to go instead. */
export function UnknownMarket(props: { readonly market: DeskMarket; readonly known: ReadonlySet<string> }) {
  const { t } = useLingui();
  const [path] = useLocation();
  const { market } = props;
  const suggestions = suggestMarkets(market, props.known);
  const area = deskAreaOf(path);
  let text: string;
  let listTitle: string;
  if (market.kind === "funding") {
    const currency = market.currency;
    const symbol = `f${currency}`;
    text = t`${symbol} is a funding market (lending and borrowing ${currency}). This desk trades pairs only.`;
    listTitle = t`Pairs with ${currency}`;
  } else {
    const name = market.kind === "pair" ? market.pair : market.text;
    // The address is anyone's to write: only a name that could be a symbol is repeated, so a link
    // cannot make the exchange's own page say a sentence of the sender's choosing.
    text = /^[A-Za-z0-9:]{1,24}$/.test(name)
      ? t`There is no market “${name}” on this exchange.`
      : t`There is no market at this address on this exchange.`;
    listTitle = t`Similar markets`;
  }
  const links = suggestions.map((pair) => {
    const parts = splitPair(pair);
    return { href: deskPath(area, pair), label: parts ? `${parts.base}/${parts.quote}` : pair };
  });
  return <UnknownMarketCard text={text} listTitle={listTitle} links={links} testId="unknown-market" />;
}

/**
 * The "unknown market" card: the heading, why there is no desk, and where to go instead (the funding
 * desk's unknown currency shows the same card).
 */
export function UnknownMarketCard(props: {
  readonly text: string;
  readonly listTitle: string;
  readonly links: readonly { readonly href: string; readonly label: string }[];
  readonly testId: string;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const listId = useId();
  return (
    <div className={css.page} data-testid={props.testId}>
      <section className={css.card} aria-labelledby={headingId}>
        <h1 id={headingId} className={css.heading}>
          <span className={css.mark} aria-hidden="true">
            ?
          </span>
          {t`Unknown market`}
        </h1>
        <p className={css.text}>{props.text}</p>
        {props.links.length > 0 && (
          <nav aria-labelledby={listId}>
            <h2 id={listId} className={css.subheading}>
              {props.listTitle}
            </h2>
            <ul className={css.list}>
              {props.links.map((l) => (
                <li key={l.href}>
                  <a className={css.link} href={l.href}>
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </section>
    </div>
  );
}
