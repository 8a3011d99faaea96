import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
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
} from "../ui/history/archive";
import { ArchiveTable, useArchiveWords } from "../ui/history/ArchiveTables";
import {
  DateRangeFields,
  ExportBar,
  HistoryResults,
  RangeProblemText,
  useHistoryPages,
  type PageReply,
} from "../ui/history/HistoryParts";
import type { HistoryCursor } from "../ui/history/range";
import { useCsvExport } from "../ui/history/use-csv-export";
import { YourReports } from "../ui/reports/MailedReports";
import { authCall } from "../ui/session";
import * as css from "./archive.css";
import * as pages from "./pages.css";
import * as table from "./reports.css";

/**
 * The archive (/archive, protected): the account's closed orders, own trades, closed positions and
 * funding history, newest first, filtered by pair or currency and dates, paged back with the
 * exchange's cursor, and exported as CSV for the same filters (docs/product-rules.md#archive).
 */
export function ArchivePage() {
  const { t, i18n } = useLingui();
  const words = useArchiveWords();
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
  const tabRefs = useRef<Partial<Record<ArchiveTab, HTMLButtonElement | null>>>({});
  /** Bumped when a report is asked for: the list of reports is read again. */
  const [reportsVersion, setReportsVersion] = useState(0);
  /** When the page opened: an open "to" date counts a range up to then. */
  const [openedAt] = useState(() => Date.now());

  const query = archiveQuery(tab, filters, "hist");
  const problem = query.ok ? null : query.problem;
  const pageOf = async (cursor: HistoryCursor | null): Promise<PageReply<ArchiveRows>> => {
    const q = archiveQuery(tab, filters, "hist", cursor);
    if (!q.ok) return { ok: false, error: "server" };
    return archivePageOf(authCall, tab, q.path, q.body, filters.funding);
  };
  const history = useHistoryPages<ArchiveRows>(
    // The funding kind changes how a page is read, not only what is asked.
    query.ok ? JSON.stringify([tab, filters.funding, query.path, query.body]) : null,
    () => pageOf(null),
    (page) => pageOf(archiveCursor(page)),
    appendPage,
  );

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

  const change = (nextTab: ArchiveTab, next: ArchiveFilters): void => {
    if (nextTab !== tab) exporting.reset();
    setTab(nextTab);
    // A trading pair means nothing on the funding tab, nor a funding currency on the others.
    setFilters((nextTab === "funding") === (tab === "funding") ? next : { ...next, symbol: "" });
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

  const exportQuery = archiveQuery(tab, filters, "export");
  const date = (mts: number): string => i18n.date(new Date(mts), { dateStyle: "medium", timeStyle: "medium" });
  const number = (n: number | null): string => (n === null ? "—" : i18n.number(n, { maximumFractionDigits: 8 }));
  // Prices to eight significant digits: an average price's long fraction says nothing more.
  const price = (n: number | null): string => (n === null ? "—" : i18n.number(n, { maximumSignificantDigits: 8 }));
  const filtered = filters.symbol !== "" || filters.from !== "" || filters.to !== "";
  const funding = tab === "funding";
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
            <DateRangeFields from={filters.from} to={filters.to} problem={problem} ids={ids} onChange={set} />
          </div>
          <RangeProblemText id={ids.problem} problem={problem} />
          <ExportBar
            exporting={exporting}
            query={exportQuery.ok ? exportQuery : null}
            fileName={funding ? `funding-${filters.funding}.csv` : `${tab}.csv`}
            openedAt={openedAt}
            onClear={filtered ? () => change(tab, NO_ARCHIVE_FILTERS) : null}
            onQueued={() => setReportsVersion((n) => n + 1)}
          />
        </section>
        <HistoryResults
          titleId={ids.title}
          title={words.tab(tab)}
          pages={history}
          valid={problem === null}
          isEmpty={(page) => page.rows.length === 0}
          emptyText={empty}
          emptyTestId="archive-empty"
        >
          {(page) => <ArchiveTable rows={page} date={date} number={number} price={price} words={words} />}
        </HistoryResults>
      </div>
      <YourReports version={reportsVersion} />
    </div>
  );
}
