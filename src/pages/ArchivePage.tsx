import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { parseSymbol, type AuthTrade, type Order, type Position } from "../protocol";
import { displayPair } from "../ui/desk/widgets/tables/format";
import {
  appendPage,
  ARCHIVE_TABS,
  archiveCursor,
  archivePageOf,
  archiveQuery,
  FUNDING_KINDS,
  fundingSymbols,
  NO_ARCHIVE_FILTERS,
  tradedPairs,
  type ArchiveFilters,
  type ArchiveRows,
  type ArchiveTab,
  type FundingKind,
  type FundingRecord,
} from "../ui/history/archive";
import { useCsvExport } from "../ui/history/use-csv-export";
import { useRangeProblemText } from "../ui/history/use-range-text";
import { isLargeRange, LARGE_EXPORT_ROWS, reportRequestOf } from "../ui/reports/mailed";
import { MailReportButton, YourReports } from "../ui/reports/MailedReports";
import { authCall } from "../ui/session";
import type { ApiErrorKind } from "../ui/shell/api-notice";
import { useApiErrorText } from "../ui/shell/api-error-text";
import * as css from "./archive.css";
import * as pages from "./pages.css";
import * as table from "./reports.css";

/**
 * The status without its details: "EXECUTED @ 100(1): was …", a funding offer's "EXECUTED at
 * 0.02% (200.0)" → "EXECUTED"; a credit's "CLOSED (expired)" → "CLOSED".
 */
function statusKind(status: string): string {
  const cut = status.search(/ @| at | \(|:| was /);
  return (cut < 0 ? status : status.slice(0, cut)).trim();
}

function useArchiveWords() {
  const { t } = useLingui();
  const tab = (k: ArchiveTab): string => {
    switch (k) {
      case "orders":
        return t`Orders`;
      case "trades":
        return t`Trades`;
      case "positions":
        return t`Positions`;
      case "funding":
        return t`Funding`;
      default: {
        const never: never = k;
        return never;
      }
    }
  };
  const status = (raw: string): string => {
    switch (statusKind(raw)) {
      case "EXECUTED":
        return t`Executed`;
      case "PARTIALLY FILLED":
        return t`Partially filled`;
      case "CANCELED":
        return t`Cancelled`;
      case "ACTIVE":
        return t`Active`;
      case "CLOSED":
        return t({ message: "Closed", context: "position status" });
      default:
        // Other statuses (INSUFFICIENT MARGIN, RSN_POS_REDUCE_FLIP, …) are the exchange's own words.
        return raw;
    }
  };
  const side = (amount: number): string => (amount < 0 ? t`Sell` : t`Buy`);
  const liquidity = (maker: boolean): string => (maker ? t`Maker` : t`Taker`);
  const direction = (amount: number): string => (amount < 0 ? t`Short` : t`Long`);
  const closing = (raw: string): string =>
    raw === "LIQUIDATED"
      ? t`Liquidated`
      : raw === "CLOSED"
        ? t({ message: "Closed", context: "position status" })
        : raw;
  const funding = (k: FundingKind): string => {
    switch (k) {
      case "offers":
        return t`Offers`;
      case "credits":
        return t`Credits`;
      case "loans":
        return t`Loans`;
      case "trades":
        return t`Funding trades`;
      default: {
        const never: never = k;
        return never;
      }
    }
  };
  return { tab, status, side, liquidity, direction, closing, funding };
}

/**
 * The archive (/archive, protected): the account's closed orders and own trades, newest first,
 * filtered by pair and dates, paged back with the exchange's cursor, and exported as CSV for the
 * same filters (docs/product-rules.md#archive).
 */
export function ArchivePage() {
  const { t, i18n } = useLingui();
  const words = useArchiveWords();
  const rangeText = useRangeProblemText();
  const apiError = useApiErrorText();
  const exporting = useCsvExport();
  const ids = { symbol: useId(), from: useId(), to: useId(), problem: useId(), panel: useId(), title: useId() };
  const tabIds: Record<ArchiveTab, string> = {
    orders: useId(),
    trades: useId(),
    positions: useId(),
    funding: useId(),
  };
  const kindId = useId();
  const [tab, setTab] = useState<ArchiveTab>("orders");
  const [filters, setFilters] = useState<ArchiveFilters>(NO_ARCHIVE_FILTERS);
  const [pairs, setPairs] = useState<readonly string[]>([]);
  const [fundingCurrencies, setFundingCurrencies] = useState<readonly string[]>([]);
  const [page, setPage] = useState<ArchiveRows | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiErrorKind | null>(null);
  /** Bumped by each change of tab or filters: an older page answering after one is dropped. */
  const generation = useRef(0);
  const tabRefs = useRef<Partial<Record<ArchiveTab, HTMLButtonElement | null>>>({});
  /** Bumped when a report is asked for: the list of reports is read again. */
  const [reportsVersion, setReportsVersion] = useState(0);
  /** When the page opened: an open "to" date counts a range up to then. */
  const [openedAt] = useState(() => Date.now());

  const query = archiveQuery(tab, filters, "hist");
  const problem = query.ok ? null : query.problem;

  useEffect(() => {
    let live = true;
    void tradedPairs(authCall).then((p) => {
      if (live) setPairs(p);
    });
    void fundingSymbols(authCall).then((f) => {
      if (live) setFundingCurrencies(f);
    });
    return () => {
      live = false;
    };
  }, []);

  // The newest page for the tab and filters; a change clears the rows first (`change`), so an
  // answer for a choice no longer made is dropped here.
  useEffect(() => {
    const q = archiveQuery(tab, filters, "hist");
    if (!q.ok) return;
    let live = true;
    void archivePageOf(authCall, tab, q.path, q.body, filters.funding).then((r) => {
      if (!live) return;
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setError(null);
      setPage(r.page);
      setMore(r.more);
    });
    return () => {
      live = false;
    };
  }, [tab, filters]);

  const loadOlder = async (): Promise<void> => {
    const q = archiveQuery(tab, filters, "hist", page ? archiveCursor(page) : null);
    if (!q.ok) return;
    const mine = generation.current;
    setLoading(true);
    const r = await archivePageOf(authCall, tab, q.path, q.body, filters.funding);
    if (mine !== generation.current) return;
    setLoading(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(null);
    setPage((before) => appendPage(before, r.page));
    setMore(r.more);
  };

  const change = (nextTab: ArchiveTab, next: ArchiveFilters): void => {
    generation.current++;
    if (nextTab !== tab) exporting.reset();
    setTab(nextTab);
    // A trading pair means nothing on the funding tab, nor a funding currency on the others.
    setFilters((nextTab === "funding") === (tab === "funding") ? next : { ...next, symbol: "" });
    setPage(null);
    setMore(false);
    setLoading(false);
  };
  const set = (patch: Partial<ArchiveFilters>): void => change(tab, { ...filters, ...patch });

  // Arrow keys move between the tabs (the WAI-ARIA tabs pattern); only the chosen tab is in the
  // Tab order.
  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>): void => {
    const at = ARCHIVE_TABS.indexOf(tab);
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    const to =
      e.key === "Home"
        ? 0
        : e.key === "End"
          ? ARCHIVE_TABS.length - 1
          : step !== 0
            ? (at + step + ARCHIVE_TABS.length) % ARCHIVE_TABS.length
            : -1;
    if (to < 0) return;
    e.preventDefault();
    const next = ARCHIVE_TABS[to] as ArchiveTab;
    change(next, filters);
    tabRefs.current[next]?.focus();
  };

  // The same export, generated by the exchange and mailed as a link (docs/product-rules.md#reports).
  const exportQuery = archiveQuery(tab, filters, "export");
  const mailRequest = exportQuery.ok ? reportRequestOf(exportQuery.path, exportQuery.body) : null;
  const exported = exporting.state;
  const suggestMail =
    (exportQuery.ok && isLargeRange(exportQuery.body["start"] ?? null, exportQuery.body["end"] ?? null, openedAt)) ||
    (exported.state === "done" && exported.rows > LARGE_EXPORT_ROWS) ||
    (exported.state === "failed" && exported.error !== "no-token");

  const runExport = async (): Promise<void> => {
    const q = archiveQuery(tab, filters, "export");
    if (q.ok) await exporting.run(q.path, q.body, tab === "funding" ? `funding-${filters.funding}.csv` : `${tab}.csv`);
  };

  const date = (mts: number): string => i18n.date(new Date(mts), { dateStyle: "medium", timeStyle: "medium" });
  const number = (n: number | null): string => (n === null ? "—" : i18n.number(n, { maximumFractionDigits: 8 }));
  // Prices to eight significant digits: an average price's long fraction says nothing more.
  const price = (n: number | null): string => (n === null ? "—" : i18n.number(n, { maximumSignificantDigits: 8 }));
  const errorText = error ? apiError(error) : null;
  const filtered = filters.symbol !== "" || filters.from !== "" || filters.to !== "";
  const funding = tab === "funding";
  const rows = page?.tab === tab ? page : null;
  const empty = ((): string => {
    switch (tab) {
      case "orders":
        return filtered ? t`No orders match these filters.` : t`No closed orders yet.`;
      case "trades":
        return filtered ? t`No trades match these filters.` : t`No trades yet.`;
      case "positions":
        return filtered ? t`No positions match these filters.` : t`No closed positions yet.`;
      default:
        return filtered ? t`No funding records match these filters.` : t`No funding records yet.`;
    }
  })();

  return (
    <div className={table.page}>
      <h1 className={pages.h1}>
        <Trans>Archive</Trans>
      </h1>
      <p className={table.muted}>
        <Trans>
          Your closed orders, trades, closed positions and funding history, newest first. Narrow them down by pair or
          currency and dates, page back through older ones, or export those that match as a CSV file.
        </Trans>
      </p>
      <div className={css.tabs} role="tablist" aria-label={t`Archive`}>
        {ARCHIVE_TABS.map((k) => (
          <button
            key={k}
            ref={(el) => {
              tabRefs.current[k] = el;
            }}
            id={tabIds[k]}
            type="button"
            role="tab"
            className={css.tab}
            aria-selected={tab === k}
            aria-controls={ids.panel}
            tabIndex={tab === k ? 0 : -1}
            onKeyDown={onTabKey}
            onClick={() => {
              if (k !== tab) change(k, filters);
            }}
          >
            {words.tab(k)}
          </button>
        ))}
      </div>
      <div id={ids.panel} role="tabpanel" aria-labelledby={tabIds[tab]} className={table.page}>
        <section className={table.card} aria-labelledby="archive-filters">
          <h2 id="archive-filters" className={pages.cardTitle}>
            <Trans>Filters</Trans>
          </h2>
          <div className={table.filters}>
            {funding && (
              <label className={table.field} htmlFor={kindId}>
                <Trans>Show</Trans>
                <select
                  id={kindId}
                  className={table.control}
                  value={filters.funding}
                  onChange={(e) => set({ funding: e.target.value as FundingKind })}
                >
                  {FUNDING_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {words.funding(k)}
                    </option>
                  ))}
                </select>
              </label>
            )}
            <label className={table.field} htmlFor={ids.symbol}>
              {funding ? <Trans>Currency</Trans> : <Trans>Pair</Trans>}
              <select
                id={ids.symbol}
                className={table.control}
                value={filters.symbol}
                onChange={(e) => set({ symbol: e.target.value })}
              >
                <option value="">{funding ? t`All currencies` : t`All pairs`}</option>
                {(funding ? fundingCurrencies : pairs).map((p) => (
                  <option key={p} value={p}>
                    {funding ? p.slice(1) : displayPair(p)}
                  </option>
                ))}
              </select>
            </label>
            <label className={table.field} htmlFor={ids.from}>
              <Trans>From</Trans>
              <input
                id={ids.from}
                type="date"
                className={table.control}
                value={filters.from}
                aria-invalid={problem === "from-date" || problem === "range"}
                aria-describedby={problem ? ids.problem : undefined}
                onChange={(e) => set({ from: e.target.value })}
              />
            </label>
            <label className={table.field} htmlFor={ids.to}>
              <Trans>To</Trans>
              <input
                id={ids.to}
                type="date"
                className={table.control}
                value={filters.to}
                aria-invalid={problem === "to-date" || problem === "range"}
                aria-describedby={problem ? ids.problem : undefined}
                onChange={(e) => set({ to: e.target.value })}
              />
            </label>
          </div>
          {problem && (
            <p id={ids.problem} className={table.error} role="alert">
              {rangeText(problem)}
            </p>
          )}
          <div className={table.row}>
            <button
              type="button"
              className={table.primary}
              disabled={problem !== null || exporting.state.state === "running"}
              onClick={() => void runExport()}
            >
              <Trans>Export CSV</Trans>
            </button>
            {filtered && (
              <button type="button" className={table.button} onClick={() => change(tab, NO_ARCHIVE_FILTERS)}>
                <Trans>Clear filters</Trans>
              </button>
            )}
            <span
              aria-live="polite"
              data-testid="export-status"
              className={exporting.state.state === "failed" ? table.error : table.muted}
            >
              {exporting.text}
            </span>
          </div>
          <MailReportButton
            // A change of filters or tab forgets what was said about the last request.
            key={mailRequest ? JSON.stringify(mailRequest) : ""}
            request={mailRequest}
            suggest={suggestMail}
            onQueued={() => setReportsVersion((n) => n + 1)}
          />
        </section>
        <section className={table.card} aria-labelledby={ids.title}>
          <h2 id={ids.title} className={pages.cardTitle}>
            {words.tab(tab)}
          </h2>
          {errorText !== null && (
            <p className={table.error} role="alert">
              {errorText}
            </p>
          )}
          {rows === null && error === null && problem === null && <p className={table.muted}>{t`Loading…`}</p>}
          {rows !== null && rows.rows.length === 0 && (
            <p className={table.muted} data-testid="archive-empty">
              {empty}
            </p>
          )}
          {rows !== null && rows.rows.length > 0 && (
            // Focusable: a table wider than its card scrolls, and the keyboard must reach it too.
            <div className={table.scroll} tabIndex={0} role="group" aria-labelledby={ids.title}>
              {rows.tab === "orders" ? (
                <OrdersTable rows={rows.rows} date={date} number={number} price={price} words={words} />
              ) : rows.tab === "trades" ? (
                <TradesTable rows={rows.rows} date={date} number={number} price={price} words={words} />
              ) : rows.tab === "positions" ? (
                <PositionsTable rows={rows.rows} date={date} number={number} price={price} words={words} />
              ) : (
                <FundingTable rows={rows.rows} date={date} number={number} price={price} words={words} />
              )}
            </div>
          )}
          {more && (
            <div className={table.row}>
              <button type="button" className={table.button} disabled={loading} onClick={() => void loadOlder()}>
                <Trans>Load older entries</Trans>
              </button>
            </div>
          )}
        </section>
      </div>
      <YourReports version={reportsVersion} />
    </div>
  );
}

interface TableProps<T> {
  readonly rows: readonly T[];
  readonly date: (mts: number) => string;
  readonly number: (n: number | null) => string;
  readonly price: (n: number | null) => string;
  readonly words: ReturnType<typeof useArchiveWords>;
}

function Side({ amount, text }: { readonly amount: number; readonly text: string }) {
  return <span className={`${css.side} ${amount < 0 ? table.debit : table.credit}`}>{text}</span>;
}

function When({ mts, text }: { readonly mts: number; readonly text: string }) {
  return <time dateTime={new Date(mts).toISOString()}>{text}</time>;
}

/** Closed orders: when each closed, its pair, type, side and size, prices and how it ended. */
function OrdersTable({ rows, date, number, price, words }: TableProps<Order>) {
  const { t } = useLingui();
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t`Date`}</th>
          <th className={table.th}>{t`Pair`}</th>
          <th className={table.th}>{t`Type`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Price`}</th>
          <th className={table.thNum}>{t`Avg. price`}</th>
          <th className={table.th}>{t`Status`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((o) => (
          <tr key={o.id} className={table.tr} data-id={o.id}>
            <td className={table.date}>
              <When mts={o.mts_update} text={date(o.mts_update)} />
            </td>
            <td className={table.where}>{displayPair(o.symbol)}</td>
            <td className={table.where}>{o.type}</td>
            <td className={table.amount}>
              <Side amount={o.original_amount} text={words.side(o.original_amount)} />{" "}
              {number(Math.abs(o.original_amount))}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Price`}>
              {price(o.price)}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Avg. price`}>
              {price(o.price_average || null)}
            </td>
            <td className={table.description} title={o.status}>
              {words.status(o.status)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Own trades: when, the pair, side and size, the price, the fee in its currency, maker or taker. */
function TradesTable({ rows, date, number, price, words }: TableProps<AuthTrade>) {
  const { t } = useLingui();
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t`Date`}</th>
          <th className={table.th}>{t`Pair`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Price`}</th>
          <th className={table.thNum}>{t`Fee`}</th>
          <th className={table.th}>{t`Liquidity`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((tr) => (
          <tr key={tr.id} className={table.tr} data-id={tr.id}>
            <td className={table.date}>
              <When mts={tr.mts_create} text={date(tr.mts_create)} />
            </td>
            <td className={table.where}>{displayPair(tr.pair)}</td>
            <td className={table.amount}>
              <Side amount={tr.exec_amount} text={words.side(tr.exec_amount)} /> {number(Math.abs(tr.exec_amount))}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Price`}>
              {price(tr.exec_price)}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Fee`}>
              {tr.fee === null ? "—" : `${number(tr.fee)} ${tr.fee_currency ?? ""}`.trim()}
            </td>
            <td className={table.where}>{words.liquidity(tr.isMaker)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * Closed positions: opened and closed, the pair, long or short and the largest size held, the base
 * price, the P/L that settled (in the pair's quote currency) and how it ended.
 */
function PositionsTable({ rows, date, number, price, words }: TableProps<Position>) {
  const { t, i18n } = useLingui();
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t({ message: "Closed", context: "position closed at" })}</th>
          <th className={table.th}>{t`Opened`}</th>
          <th className={table.th}>{t`Pair`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Base price`}</th>
          <th className={table.thNum}>{t`P/L`}</th>
          <th className={table.th}>{t`Status`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((p) => {
          const info = parseSymbol(p.pair);
          const quote = info?.kind === "trading" ? info.quote : "";
          const pl = p.pl ?? 0;
          return (
            <tr key={p.id ?? p.pair} className={table.tr} data-id={p.id ?? undefined}>
              <td className={table.date}>
                {p.mtsUpdate === null ? "—" : <When mts={p.mtsUpdate} text={date(p.mtsUpdate)} />}
              </td>
              <td className={`${table.where} ${css.labelled}`} data-label={t`Opened`}>
                {p.mtsCreate === null ? "—" : <When mts={p.mtsCreate} text={date(p.mtsCreate)} />}
              </td>
              <td className={table.where}>{displayPair(p.pair)}</td>
              <td className={table.amount}>
                <Side amount={p.amount} text={words.direction(p.amount)} /> {number(Math.abs(p.amount))}
              </td>
              <td className={`${table.balance} ${css.labelled}`} data-label={t`Base price`}>
                {price(p.basePrice)}
              </td>
              <td
                className={`${table.balance} ${css.labelled} ${pl < 0 ? table.debit : pl > 0 ? table.credit : ""}`}
                data-label={t`P/L`}
              >
                {`${i18n.number(pl, { maximumFractionDigits: 8, signDisplay: "exceptZero" })} ${quote}`.trim()}
              </td>
              <td className={table.description}>{words.closing(p.status)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/**
 * Funding records: when each closed (a trade: when it happened), the currency, the amount, the
 * daily rate, the period in days, and the status — or, for a funding trade, maker or taker.
 */
function FundingTable({ rows, date, number, words }: TableProps<FundingRecord>) {
  const { t, i18n } = useLingui();
  const rate = (r: number): string => i18n.number(r, { style: "percent", maximumFractionDigits: 6 });
  return (
    <table className={table.table} data-testid="archive-table">
      <thead className={table.thead}>
        <tr>
          <th className={table.th}>{t`Date`}</th>
          <th className={table.th}>{t`Currency`}</th>
          <th className={table.thNum}>{t`Amount`}</th>
          <th className={table.thNum}>{t`Daily rate`}</th>
          <th className={table.thNum}>{t`Period (days)`}</th>
          <th className={table.th}>{t`Status`}</th>
        </tr>
      </thead>
      <tbody className={table.tbody}>
        {rows.map((f) => (
          <tr key={f.id} className={table.tr} data-id={f.id}>
            <td className={table.date}>
              <When mts={f.time} text={date(f.time)} />
            </td>
            <td className={table.where}>{f.symbol.slice(1)}</td>
            <td className={`${table.amount} ${f.amount < 0 ? table.debit : table.credit}`}>{number(f.amount)}</td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Daily rate`}>
              {rate(f.rate)}
            </td>
            <td className={`${table.balance} ${css.labelled}`} data-label={t`Period (days)`}>
              {i18n.number(f.period)}
            </td>
            <td className={table.description} title={f.status ?? undefined}>
              {f.maker !== null ? words.liquidity(f.maker) : words.status(f.status ?? "")}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
