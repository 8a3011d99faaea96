/**
 * The markets list: every trading pair with last price, daily change coloured by the colour scheme
 * and volume in a chosen unit; search, favourites (`favorite_symbols`), favourites-only, spot vs
 * derivatives, sorting by column or by the user's own order per market type, and click (or Enter)
 * to switch the desk's pair. Tickers come from a shared REST poll (tickers-feed.ts), so the list
 * re-renders once per poll, not per tick.
 */
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useMemo, useState, useSyncExternalStore } from "react";
import { snapshot, useSnapshot } from "valtio";
import { useLocation } from "wouter";
import { abbreviate, formatPercent, toSignificant } from "../../../../protocol";
import { settings, updateSetting } from "../../../settings/store";
import { deskAreaOf, deskPath } from "../../desk-paths";
import type { WidgetDef, WidgetProps } from "../../widget";
import * as css from "./markets.css";
import {
  buildRows,
  fullCustomOrder,
  marketTypeOf,
  moveInFullOrder,
  toggleFavorite,
  type MarketSortColumn,
  type MarketType,
} from "./markets-core";
import { subscribeTickers, tickersSnapshot } from "./tickers-feed";

const VOLUME_UNITS = ["USD", "BTC", "EUR", "BASE"] as const;

export function MarketsWidget({ pair }: WidgetProps) {
  const { t } = useLingui();
  const s = useSnapshot(settings);
  const feed = useSyncExternalStore(subscribeTickers, tickersSnapshot);
  const [location, navigate] = useLocation();
  const [search, setSearch] = useState("");
  const [type, setType] = useState<MarketType>("exchange");
  const [sort, setSort] = useState<MarketSortColumn>("volume");
  const [descending, setDescending] = useState(true);

  const customOrder = s.ticker_custom_order[type];
  const rows = useMemo(
    () =>
      buildRows(feed.tickers, {
        type,
        search,
        favoritesOnly: s.ticker_favorites_only,
        favorites: s.favorite_symbols,
        volumeUnit: s.ticker_vol_unit,
        sort,
        descending,
        customOrder: customOrder ?? [],
      }),
    [
      feed.tickers,
      type,
      search,
      s.ticker_favorites_only,
      s.favorite_symbols,
      s.ticker_vol_unit,
      sort,
      descending,
      customOrder,
    ],
  );

  function sortBy(column: MarketSortColumn): void {
    if (column === sort) setDescending((d) => !d);
    else {
      setSort(column);
      setDescending(column !== "pair");
    }
  }

  function move(p: string, step: -1 | 1): void {
    // The move happens within the whole order of this market type: with a search or favourites-only
    // on, the rows are a subset, and storing only them would lose where the hidden pairs were.
    const pairs = [...feed.tickers.keys()].filter((k) => marketTypeOf(k) === type);
    const full = fullCustomOrder(pairs, settings.ticker_custom_order[type] ?? []);
    const next = moveInFullOrder(
      full,
      rows.map((r) => r.pair),
      p,
      step,
    );
    // A snapshot, not the proxy: the setting is stored with structuredClone, which refuses proxies.
    updateSetting("ticker_custom_order", { ...snapshot(settings).ticker_custom_order, [type]: next });
  }

  const open = (p: string): void => navigate(deskPath(deskAreaOf(location), p));

  const header = (column: MarketSortColumn, label: string) => (
    <th className={css.th} aria-sort={sort === column ? (descending ? "descending" : "ascending") : "none"} scope="col">
      <button type="button" className={css.sortButton} onClick={() => sortBy(column)}>
        {label}
        {sort === column ? (descending ? " ↓" : " ↑") : ""}
      </button>
    </th>
  );

  const unitLabel = (u: string): string => (u === "BASE" ? t`Base currency` : u);

  return (
    <div className={css.root} data-testid="markets">
      <div className={css.toolbar}>
        <input
          className={css.search}
          type="search"
          value={search}
          placeholder={t`Search`}
          aria-label={t`Search markets`}
          data-testid="markets-search"
          onChange={(e) => setSearch(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && rows[0]) open(rows[0].pair);
          }}
        />
        <div className={css.tabs} role="tablist" aria-label={t`Market type`}>
          <button
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={type === "exchange"}
            onClick={() => setType("exchange")}
          >
            {t`Spot`}
          </button>
          <button
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={type === "derivative"}
            onClick={() => setType("derivative")}
          >
            {t`Derivatives`}
          </button>
        </div>
        <button
          type="button"
          className={css.tab}
          aria-pressed={s.ticker_favorites_only}
          title={t`Show favourites only`}
          onClick={() => updateSetting("ticker_favorites_only", !settings.ticker_favorites_only)}
        >
          ★ {t`Favourites`}
        </button>
        <label>
          <span className={css.quote}>{t`Volume in`} </span>
          <select
            className={css.select}
            value={s.ticker_vol_unit}
            onChange={(e) => updateSetting("ticker_vol_unit", e.target.value)}
          >
            {VOLUME_UNITS.map((u) => (
              <option key={u} value={u}>
                {unitLabel(u)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className={css.tab}
          aria-pressed={sort === "custom"}
          title={t`Arrange the list in your own order`}
          onClick={() => (sort === "custom" ? setSort("volume") : setSort("custom"))}
        >
          {t`My order`}
        </button>
      </div>
      <div className={css.scroller}>
        {feed.status === "loading" && rows.length === 0 ? (
          <p className={css.status}>{t`Loading markets…`}</p>
        ) : feed.status === "error" && rows.length === 0 ? (
          <p className={css.status} role="alert">
            {t`Markets could not be loaded. Retrying…`}
          </p>
        ) : rows.length === 0 ? (
          <p className={css.status}>{t`No market matches.`}</p>
        ) : (
          <table className={css.table}>
            <thead>
              <tr>
                <th className={css.th} scope="col">
                  <span className={css.quote}>★</span>
                </th>
                {header("pair", t`Pair`)}
                {header("last", t`Last`)}
                {header("change", t`24h`)}
                {header("volume", t`Volume`)}
                {sort === "custom" && <th className={css.th} scope="col" aria-label={t`Order`} />}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const p = r.pair;
                return (
                  <tr
                    key={r.pair}
                    className={css.row}
                    data-pair={r.pair}
                    aria-current={r.pair === pair}
                    tabIndex={0}
                    onClick={() => open(r.pair)}
                    onKeyDown={(e) => {
                      // Enter on the star or the order buttons bubbles up here: that is their own
                      // action (a click), not a pair switch.
                      if (e.key === "Enter" && e.target === e.currentTarget) open(r.pair);
                    }}
                  >
                    <td className={css.tdStar}>
                      <button
                        type="button"
                        className={css.star}
                        aria-pressed={r.favorite}
                        aria-label={r.favorite ? t`Remove ${p} from favourites` : t`Add ${p} to favourites`}
                        onClick={(e) => {
                          e.stopPropagation();
                          updateSetting("favorite_symbols", toggleFavorite(settings.favorite_symbols, r.pair));
                        }}
                      >
                        {r.favorite ? "★" : "☆"}
                      </button>
                    </td>
                    <td className={css.tdPair}>
                      {r.base}
                      <span className={css.quote}>/{r.quote}</span>
                    </td>
                    <td className={css.td}>{toSignificant(r.last)}</td>
                    <td className={`${css.td} ${r.changePerc >= 0 ? css.up : css.down}`}>
                      {r.changePerc > 0 ? "+" : ""}
                      {formatPercent(r.changePerc)}
                    </td>
                    <td className={css.td}>{Number.isNaN(r.volume) ? "—" : abbreviate(r.volume)}</td>
                    {sort === "custom" && (
                      <td className={css.td}>
                        <span className={css.orderButtons}>
                          <button
                            type="button"
                            className={css.sortButton}
                            aria-label={t`Move ${p} up`}
                            onClick={(e) => {
                              e.stopPropagation();
                              move(r.pair, -1);
                            }}
                          >
                            ▲
                          </button>
                          <button
                            type="button"
                            className={css.sortButton}
                            aria-label={t`Move ${p} down`}
                            onClick={(e) => {
                              e.stopPropagation();
                              move(r.pair, 1);
                            }}
                          >
                            ▼
                          </button>
                        </span>
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

export const MARKETS_WIDGET: WidgetDef = {
  type: "markets",
  title: msg`Markets`,
  component: MarketsWidget,
  defaultSize: { w: 5, h: 20 },
  minSize: { w: 4, h: 8 },
};
