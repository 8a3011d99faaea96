/**
 * A live order book or funding book for the public pages, on the desk's market-data worker (the
 * same subscription, aggregation and checksums as the desk's book widget, `market().book`). The
 * rows are written into the table from the worker's views, at most twice a second, without React:
 * React renders only when the book, the precision or the feed's status changes.
 */
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState } from "react";
import {
  BOOK_VIEW_STRIDE,
  currencyTicker,
  splitPair,
  type BookPrecision,
  type BookView,
  type ChannelStatus,
} from "../../protocol";
import { market } from "../market/market";
import { amount, price } from "./format";
import * as css from "./site-live.css";

/** Levels shown per side. */
export const BOOK_ROWS = 25;
const THROTTLE_MS = 500;
const PRECISIONS: readonly BookPrecision[] = ["P0", "P1", "P2", "P3", "P4"];

type Side = "bids" | "asks";

export function LiveBook({
  symbol,
  funding,
  precision,
}: {
  readonly symbol: string;
  readonly funding: boolean;
  readonly precision: BookPrecision;
}) {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const book = `${symbol}|${precision}`;
  // The feed's status as last reported for this book (a new book reads as waiting at once).
  const [reported, setReported] = useState<{ readonly book: string; readonly status: ChannelStatus } | null>(null);
  const status = reported?.book === book ? reported.status : "WAITING";
  const ids = useId();
  const tables = useRef<Record<Side, HTMLTableSectionElement | null>>({ bids: null, asks: null });

  useEffect(() => {
    const ctl = new AbortController();
    let last: ChannelStatus | "WAITING" = "WAITING";
    const paint = (view: BookView) => {
      if (view.status !== last) {
        last = view.status;
        setReported({ book, status: view.status });
      }
      const sides: [Side, number, number][] = [
        ["bids", 0, view.bids],
        ["asks", view.bids, view.asks],
      ];
      for (const [side, start, n] of sides) {
        const body = tables.current[side];
        if (!body) continue;
        for (let i = 0; i < BOOK_ROWS; i++) {
          const cells = body.rows[i]?.cells;
          if (!cells) continue;
          const at = (start + i) * BOOK_VIEW_STRIDE;
          const has = i < n;
          // A funding level's rate is per day: shown as a percentage.
          const level = view.levels[at] ?? 0;
          (cells[0] as HTMLElement).textContent = has
            ? funding
              ? `${price(locale, level * 100)}%`
              : price(locale, level)
            : "";
          (cells[1] as HTMLElement).textContent = has ? amount(locale, view.levels[at + 2] ?? 0) : "";
          (cells[2] as HTMLElement).textContent = has ? amount(locale, view.levels[at + 3] ?? 0) : "";
        }
      }
    };
    void market()
      .book({ symbol, prec: precision, len: 25, depth: BOOK_ROWS, throttleMs: THROTTLE_MS }, paint, ctl.signal)
      .catch(() => setReported({ book, status: "ERROR" }));
    return () => ctl.abort();
  }, [book, symbol, precision, funding, locale]);

  const sideTable = (side: Side) => (
    <div className={css.tableWrap} tabIndex={0} role="region" aria-labelledby={`${ids}-${side}`}>
      <table className={css.table} data-testid={`book-${side}`}>
        <caption className={css.bookCaption} id={`${ids}-${side}`}>
          {side === "bids" ? (
            funding ? (
              <Trans>Bids (borrowers)</Trans>
            ) : (
              <Trans>Bids (buyers)</Trans>
            )
          ) : funding ? (
            <Trans>Offers (lenders)</Trans>
          ) : (
            <Trans>Asks (sellers)</Trans>
          )}
        </caption>
        <thead>
          <tr>
            <th scope="col" className={css.thNum}>
              {funding ? <Trans>Rate per day</Trans> : <Trans>Price</Trans>}
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Amount</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Total</Trans>
            </th>
          </tr>
        </thead>
        <tbody
          ref={(el) => {
            tables.current[side] = el;
          }}
          className={side === "bids" ? css.up : css.down}
        >
          {Array.from({ length: BOOK_ROWS }, (_, i) => (
            <tr key={i}>
              <td className={css.tdNum} />
              <td className={css.tdNum} />
              <td className={css.tdNum} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );

  return (
    <div>
      <p className={status === "ERROR" || status === "OUT_OF_SYNC" ? css.errorText : css.muted} role="status">
        {i18n._(
          STATUS_TEXT[
            status === "SUBSCRIBED" ? "live" : status === "ERROR" || status === "OUT_OF_SYNC" ? "error" : "wait"
          ],
        )}
      </p>
      <div className={css.bookSides}>
        {sideTable("bids")}
        {sideTable("asks")}
      </div>
    </div>
  );
}

const STATUS_TEXT = {
  live: msg`Live from the exchange, updated twice a second.`,
  wait: msg`Connecting to the exchange…`,
  error: msg`The book could not be loaded from the exchange. It reconnects on its own; you can also reload the page.`,
} as const;

/** The book and precision pickers above a LiveBook. */
export function BookPickers({
  choices,
  symbol,
  onSymbol,
  precision,
  onPrecision,
  funding,
}: {
  readonly choices: readonly string[];
  readonly symbol: string;
  readonly onSymbol: (s: string) => void;
  readonly precision: BookPrecision;
  readonly onPrecision: (p: BookPrecision) => void;
  readonly funding: boolean;
}) {
  const symbolId = useId();
  const precId = useId();
  const options = choices.includes(symbol) ? choices : [symbol, ...choices];
  return (
    <div className={css.toolbar}>
      <div className={css.field}>
        <label className={css.label} htmlFor={symbolId}>
          {funding ? <Trans>Currency</Trans> : <Trans>Market</Trans>}
        </label>
        <select id={symbolId} className={css.input} value={symbol} onChange={(e) => onSymbol(e.target.value)}>
          {options.map((c) => (
            <option key={c} value={c}>
              {funding ? currencyTicker(c) : pairLabel(c)}
            </option>
          ))}
        </select>
      </div>
      <div className={css.field}>
        <label className={css.label} htmlFor={precId}>
          <Trans>Precision (P0 is the finest)</Trans>
        </label>
        <select
          id={precId}
          className={css.input}
          value={precision}
          onChange={(e) => onPrecision(e.target.value as BookPrecision)}
        >
          {PRECISIONS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function pairLabel(pair: string): string {
  const legs = splitPair(pair);
  return legs ? `${legs.base}/${legs.quote}` : pair;
}
