/**
 * The home page's markets table: every listed pair's last price, 24 h change and volume (in USD)
 * from `/v2/tickers`, through the desk's one tickers poll (`tickers-feed.ts`: one request every few
 * seconds for every table on the page, one render per answer, nothing per trade). Search by
 * currency, sort by any column, spot or derivatives; each pair links to its trading desk.
 */
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId, useMemo, useState, useSyncExternalStore } from "react";
import { buildRows, type MarketSortColumn, type MarketType } from "../desk/widgets/markets/markets-core";
import { subscribeTickers, tickersSnapshot, type TickersSnapshot } from "../desk/widgets/markets/tickers-feed";
import { TRADEDESK_PREFIX } from "../routing/paths";
import { change, compact, price } from "./format";
import { LoadError, Loading } from "./LoadState";
import * as css from "./site-live.css";

type Column = Exclude<MarketSortColumn, "custom">;

const COLUMNS: readonly { readonly id: Column; readonly label: MessageDescriptor; readonly numeric: boolean }[] = [
  { id: "pair", label: msg`Market`, numeric: false },
  { id: "last", label: msg`Last price`, numeric: true },
  { id: "change", label: msg`24h change`, numeric: true },
  { id: "volume", label: msg`24h volume (USD)`, numeric: true },
];

/** Before the first poll (and in the prerendered page): loading. */
const LOADING: TickersSnapshot = { tickers: new Map(), status: "loading", updatedAt: 0 };

export function MarketsTable() {
  const { t, i18n } = useLingui();
  const snap = useSyncExternalStore(subscribeTickers, tickersSnapshot, () => LOADING);
  const [search, setSearch] = useState("");
  const [type, setType] = useState<MarketType>("exchange");
  const [sort, setSort] = useState<Column>("volume");
  const [descending, setDescending] = useState(true);
  const searchId = useId();
  const captionId = useId();
  const rows = useMemo(
    () =>
      buildRows(snap.tickers, {
        type,
        search,
        favoritesOnly: false,
        favorites: [],
        volumeUnit: "USD",
        sort,
        descending,
        customOrder: [],
      }),
    [snap.tickers, type, search, sort, descending],
  );

  const sortBy = (c: Column) => {
    if (c === sort) setDescending((d) => !d);
    else {
      setSort(c);
      // Names read A→Z first; figures largest first.
      setDescending(c !== "pair");
    }
  };

  if (snap.status === "error") return <LoadError />;
  return (
    <div>
      <div className={css.toolbar}>
        <div className={css.field}>
          <label className={css.label} htmlFor={searchId}>
            <Trans>Search markets</Trans>
          </label>
          <input
            id={searchId}
            className={css.input}
            type="search"
            value={search}
            placeholder={t`BTC, ETH, USD…`}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className={css.toolbar} role="group" aria-label={t`Market type`}>
          <button
            type="button"
            className={css.button}
            aria-pressed={type === "exchange"}
            onClick={() => setType("exchange")}
          >
            <Trans>Spot</Trans>
          </button>
          <button
            type="button"
            className={css.button}
            aria-pressed={type === "derivative"}
            onClick={() => setType("derivative")}
          >
            <Trans>Derivatives</Trans>
          </button>
        </div>
      </div>
      {snap.status === "loading" ? (
        <Loading />
      ) : (
        <div className={css.tableWrap} tabIndex={0} role="region" aria-labelledby={captionId}>
          <table className={css.table}>
            <caption className={css.muted} id={captionId}>
              <Trans>Prices and 24-hour figures from the exchange, refreshed every few seconds.</Trans>
            </caption>
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c.id}
                    scope="col"
                    className={c.numeric ? css.thNum : css.th}
                    aria-sort={c.id === sort ? (descending ? "descending" : "ascending") : undefined}
                  >
                    <button type="button" className={css.sortButton} onClick={() => sortBy(c.id)}>
                      {i18n._(c.label)}
                      <span aria-hidden="true">{c.id === sort ? (descending ? "↓" : "↑") : ""}</span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.pair}>
                  <th scope="row" className={css.td}>
                    <a className={css.pairLink} href={`${TRADEDESK_PREFIX}/${r.pair}`}>
                      {r.base}
                      <span className={css.quote}>/{r.quote}</span>
                    </a>
                  </th>
                  <td className={css.tdNum}>{price(i18n.locale, r.last)}</td>
                  <td className={`${css.tdNum} ${r.changePerc >= 0 ? css.up : css.down}`}>
                    {change(i18n.locale, r.changePerc)}
                  </td>
                  <td className={css.tdNum}>{Number.isNaN(r.volume) ? "–" : compact(i18n.locale, r.volume)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {rows.length === 0 && (
            <p className={css.muted}>
              <Trans>No market matches your search.</Trans>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
