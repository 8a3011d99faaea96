import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import {
  LEDGER_CATEGORIES,
  LEDGER_CATEGORY,
  ledgerCategoryOf,
  walletCodec,
  type LedgerCategory,
  type LedgerCheckError,
  type LedgerCheckResult,
  type LedgerEntry,
  type LedgerReconciliation,
} from "../protocol";
import {
  DateRangeFields,
  ExportBar,
  HistoryResults,
  RangeProblemText,
  useHistoryPages,
  type PageReply,
} from "../ui/history/HistoryParts";
import { useCsvExport } from "../ui/history/use-csv-export";
import {
  cursorAfter,
  ledgerPageOf,
  ledgerQuery,
  NO_FILTERS,
  reconcile,
  type LedgerCursor,
  type ReconcileReply,
  type ReportFilters,
} from "../ui/reports/ledger";
import { market } from "../ui/market/market";
import { YourReports } from "../ui/reports/MailedReports";
import { authCall } from "../ui/session";
import { useWalletName } from "../ui/wallets/words";
import { useApiErrorText } from "../ui/shell/api-error-text";
import * as pages from "./pages.css";
import * as css from "./reports.css";

function useLedgerWords() {
  const { t } = useLingui();
  const category = (c: LedgerCategory): string => {
    switch (c) {
      case LEDGER_CATEGORY.EXCHANGE:
        return t({ message: "Trade", context: "ledger category" });
      case LEDGER_CATEGORY.TRADING_FEE:
        return t({ message: "Trading fee", context: "ledger category" });
      case LEDGER_CATEGORY.TRANSFER:
        return t({ message: "Transfer", context: "ledger category" });
      case LEDGER_CATEGORY.DEPOSIT:
        return t({ message: "Deposit", context: "ledger category" });
      case LEDGER_CATEGORY.WITHDRAWAL:
        return t({ message: "Withdrawal", context: "ledger category" });
      case LEDGER_CATEGORY.CANCELED_WITHDRAWAL:
        return t({ message: "Canceled withdrawal", context: "ledger category" });
      case LEDGER_CATEGORY.MARGIN_FUNDING:
        return t({ message: "Margin funding", context: "ledger category" });
      case LEDGER_CATEGORY.POSITION:
        return t({ message: "Position profit or loss", context: "ledger category" });
      case LEDGER_CATEGORY.POSITION_CLAIM:
        return t({ message: "Position claim", context: "ledger category" });
      case LEDGER_CATEGORY.ADJUSTMENT:
        return t({ message: "Adjustment", context: "ledger category" });
      case LEDGER_CATEGORY.CONVERSION:
        return t({ message: "Currency conversion", context: "ledger category" });
      default: {
        const never: never = c;
        return never;
      }
    }
  };
  const walletName = useWalletName();
  const wallet = (type: string | null): string => (type === null ? "—" : walletName(type));
  return { category, wallet };
}

/**
 * The reports page (/reports, protected): the account's ledger, newest first, filtered by currency,
 * category and dates, paged back with the exchange's cursor, and exported as CSV for the same
 * filters (docs/product-rules.md#reports).
 */
export function ReportsPage() {
  const { t, i18n } = useLingui();
  const words = useLedgerWords();
  const exporting = useCsvExport();
  const ids = { currency: useId(), category: useId(), from: useId(), to: useId(), problem: useId() };
  const [filters, setFilters] = useState<ReportFilters>(NO_FILTERS);
  const [currencies, setCurrencies] = useState<readonly string[]>([]);
  /** Bumped when a report is asked for: the list of reports is read again. */
  const [reportsVersion, setReportsVersion] = useState(0);
  /** When the page opened: an open "to" date counts a range up to then. */
  const [openedAt] = useState(() => Date.now());

  const query = ledgerQuery(filters, "hist");
  const problem = query.ok ? null : query.problem;
  const pageOf = async (cursor: LedgerCursor | null): Promise<PageReply<readonly LedgerEntry[]>> => {
    const q = ledgerQuery(filters, "hist", cursor);
    if (!q.ok) return { ok: false, error: "server" };
    const r = await ledgerPageOf(authCall, q.path, q.body);
    return r.ok ? { ok: true, page: r.rows, more: r.more } : r;
  };
  const ledger = useHistoryPages<readonly LedgerEntry[]>(
    query.ok ? JSON.stringify([query.path, query.body]) : null,
    () => pageOf(null),
    (rows) => pageOf(cursorAfter(rows)),
    (before, next) => [...before, ...next],
  );

  useEffect(() => {
    let live = true;
    void authCall("/v2/auth/r/wallets", {}).then((r) => {
      const w = r.status === 200 ? walletCodec.decodeList(r.body) : null;
      if (live && w?.ok) setCurrencies([...new Set(w.value.map((x) => x.currency))].sort());
    });
    return () => {
      live = false;
    };
  }, []);

  const set = (patch: Partial<ReportFilters>): void => setFilters({ ...filters, ...patch });
  const exportQuery = ledgerQuery(filters, "export");
  const amount = (n: number): string => i18n.number(n, { maximumFractionDigits: 8, signDisplay: "exceptZero" });
  const filtered = filters.currency !== "" || filters.category !== null || filters.from !== "" || filters.to !== "";

  return (
    <div className={css.page}>
      <h1 className={pages.h1}>
        <Trans>Reports</Trans>
      </h1>
      <p className={css.muted}>
        <Trans>
          Every change of your balances, newest first. Narrow it down, page back through older entries, or export the
          entries that match as a CSV file.
        </Trans>
      </p>
      <section className={css.card} aria-labelledby="ledger-filters">
        <h2 id="ledger-filters" className={pages.cardTitle}>
          <Trans>Filters</Trans>
        </h2>
        <div className={css.filters}>
          {/* The label holds only its word: wrapping the select would make its options part of the label's text. */}
          <div className={css.field}>
            <label htmlFor={ids.currency}>
              <Trans>Currency</Trans>
            </label>
            <select
              id={ids.currency}
              className={css.control}
              value={filters.currency}
              onChange={(e) => set({ currency: e.target.value })}
            >
              <option value="">{t`All currencies`}</option>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          {/* The label holds only its word: wrapping the select would make its options part of the label's text. */}
          <div className={css.field}>
            <label htmlFor={ids.category}>
              <Trans>Category</Trans>
            </label>
            <select
              id={ids.category}
              className={css.control}
              value={filters.category ?? ""}
              onChange={(e) =>
                set({ category: e.target.value === "" ? null : (Number(e.target.value) as LedgerCategory) })
              }
            >
              <option value="">{t`All categories`}</option>
              {LEDGER_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {words.category(c)}
                </option>
              ))}
            </select>
          </div>
          <DateRangeFields from={filters.from} to={filters.to} problem={problem} ids={ids} onChange={set} />
        </div>
        <RangeProblemText id={ids.problem} problem={problem} />
        <ExportBar
          exporting={exporting}
          query={exportQuery.ok ? exportQuery : null}
          fileName="ledgers.csv"
          openedAt={openedAt}
          onClear={filtered ? () => setFilters(NO_FILTERS) : null}
          onQueued={() => setReportsVersion((n) => n + 1)}
        />
      </section>
      <HistoryResults
        titleId="ledger-title"
        title={<Trans>Ledger</Trans>}
        pages={ledger}
        valid={problem === null}
        isEmpty={(rows) => rows.length === 0}
        emptyText={filtered ? t`No ledger entries match these filters.` : t`No ledger entries yet.`}
        emptyTestId="ledger-empty"
      >
        {(rows) => (
          <table className={css.table} data-testid="ledger-table">
            <thead className={css.thead}>
              <tr>
                <th className={css.th}>{t`Date`}</th>
                <th className={css.th}>{t`Currency`}</th>
                <th className={css.th}>{t`Wallet`}</th>
                <th className={css.th}>{t`Category`}</th>
                <th className={css.thNum}>{t({ message: "Amount", context: "ledger change" })}</th>
                <th className={css.thNum}>{t`Balance`}</th>
                <th className={css.th}>{t`Description`}</th>
              </tr>
            </thead>
            <tbody className={css.tbody}>
              {rows.map((l) => (
                <tr key={l.id} className={css.tr} data-id={l.id}>
                  <td className={css.date}>
                    <time dateTime={new Date(l.time).toISOString()}>
                      {i18n.date(new Date(l.time), { dateStyle: "medium", timeStyle: "medium" })}
                    </time>
                  </td>
                  <td className={css.where}>{l.currency}</td>
                  <td className={css.where}>{words.wallet(l.wallet)}</td>
                  <td className={css.where}>{words.category(ledgerCategoryOf(l.description))}</td>
                  <td className={`${css.amount} ${l.amount < 0 ? css.debit : css.credit}`}>{amount(l.amount)}</td>
                  <td className={css.balance}>
                    {l.balance === null ? "—" : i18n.number(l.balance, { maximumFractionDigits: 8 })}
                  </td>
                  <td className={css.description}>{l.description ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </HistoryResults>
      <Reconciliation wallet={words.wallet} />
      <YourReports version={reportsVersion} />
    </div>
  );
}

/**
 * Whether each wallet's ledger adds up (docs/product-rules.md#reports): every entry's balance is
 * the one before plus its amount, and the last is the wallet's balance; else the first entry where
 * it breaks.
 */
/** The worker's ledger check and the exchange's own verdict, asked together. */
interface CheckOutcome {
  readonly browser: LedgerCheckResult;
  readonly exchange: ReconcileReply;
}

/** Whether two reconciliations say the same of every wallet. */
function sameVerdict(a: readonly LedgerReconciliation[], b: readonly LedgerReconciliation[]): boolean {
  const key = (w: LedgerReconciliation): string =>
    JSON.stringify([w.currency, w.wallet, w.rows, w.chained, w.breakId, w.balance]);
  return a.length === b.length && a.every((w, i) => key(w) === key(b[i] as LedgerReconciliation));
}

/**
 * "Check the ledger" (docs/product-rules.md#reports): the worker reads every ledger row and checks
 * each wallet's chain against the balance the account socket shows; the exchange's own check runs
 * alongside, and the page says whether the two agree. When the browser cannot check (signed out,
 * balances not arrived), the exchange's verdict is shown, saying so.
 */
function Reconciliation({ wallet }: { readonly wallet: (type: string | null) => string }) {
  const { t, i18n } = useLingui();
  const apiError = useApiErrorText();
  const [outcome, setOutcome] = useState<CheckOutcome | null>(null);
  const [busy, setBusy] = useState(false);
  const check = async (): Promise<void> => {
    setBusy(true);
    const [browser, exchange] = await Promise.all([market().checkLedgers(), reconcile(authCall)]);
    setOutcome({ browser, exchange });
    setBusy(false);
  };
  const number = (n: number | null): string => (n === null ? "—" : i18n.number(n, { maximumFractionDigits: 8 }));
  const browserProblem = (e: LedgerCheckError): string => {
    switch (e) {
      case "signed-out":
        return t`Your browser could not check the ledger: the account is not signed in on this tab.`;
      case "no-wallets":
        return t`Your browser could not check the ledger yet: the balances have not arrived. Try again in a moment.`;
      case "unreachable":
      case "refused":
      case "malformed":
        return t`Your browser could not read the ledger from the exchange.`;
      default: {
        const never: never = e;
        return never;
      }
    }
  };
  const browser = outcome?.browser;
  const exchange = outcome?.exchange;
  const wallets = browser?.ok ? browser.wallets : exchange?.ok ? exchange.wallets : null;
  const failure = browser && !browser.ok && exchange && !exchange.ok ? apiError(exchange.error) : null;
  return (
    <section className={css.card} aria-labelledby="reconcile-title">
      <h2 id="reconcile-title" className={pages.cardTitle}>
        <Trans>Reconciliation</Trans>
      </h2>
      <p className={css.muted}>
        <Trans>
          Checks that each wallet&apos;s ledger adds up: every entry&apos;s balance is the one before plus its amount,
          and the last entry&apos;s balance is the wallet&apos;s balance. Your browser checks every entry against the
          balances it shows; the exchange checks its own records at the same time.
        </Trans>
      </p>
      <div className={css.row}>
        <button type="button" className={css.button} disabled={busy} onClick={() => void check()}>
          <Trans>Check the ledger</Trans>
        </button>
      </div>
      {failure !== null && (
        <p className={css.error} role="alert">
          {failure}
        </p>
      )}
      {browser && !browser.ok && failure === null && (
        <p className={css.muted} role="status">
          {browserProblem(browser.error)} <Trans>Shown below: the exchange&apos;s own check.</Trans>
        </p>
      )}
      {wallets !== null && (
        <ul className={css.checks} data-testid="reconciliation">
          {wallets.map((w) => {
            const where = `${w.currency} · ${wallet(w.wallet)}`;
            const entries = i18n.number(w.rows);
            const balance = number(w.balance);
            const id = w.breakId ?? 0;
            const date =
              w.breakTime === null
                ? ""
                : i18n.date(new Date(w.breakTime), { dateStyle: "medium", timeStyle: "medium" });
            const expected = number(w.expected);
            const found = number(w.found);
            return (
              <li key={`${w.currency}-${w.wallet}`} className={w.chained ? css.ok : css.broken}>
                <span aria-hidden="true">{w.chained ? "✓" : "✗"}</span>{" "}
                {w.chained
                  ? t`${where}: adds up to the balance of ${balance} (entries checked: ${entries}).`
                  : w.breakId !== null
                    ? t`${where}: breaks at entry ${id} (${date}): the balance should be ${expected}, the entry says ${found}.`
                    : t`${where}: the entries add up, but not to the wallet's balance of ${balance}.`}
              </li>
            );
          })}
        </ul>
      )}
      {browser?.ok === true && exchange !== undefined && (
        <p className={css.muted} role="status" data-testid="reconciliation-agreement">
          {!exchange.ok
            ? `${t`The exchange's own check could not be asked.`} ${apiError(exchange.error)}`
            : sameVerdict(browser.wallets, exchange.wallets)
              ? t`The exchange's own check agrees.`
              : t`The exchange's own check says otherwise: its records and the balances your browser shows differ. Check again in a moment; if it persists, contact support.`}
        </p>
      )}
    </section>
  );
}
