import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import {
  LEDGER_CATEGORIES,
  LEDGER_CATEGORY,
  ledgerCategoryOf,
  walletCodec,
  type LedgerCategory,
  type LedgerEntry,
} from "../protocol";
import { auth } from "../ui/auth";
import { apiUrl, appConfig } from "../ui/config";
import {
  cursorAfter,
  exportLedger,
  ledgerPageOf,
  ledgerQuery,
  NO_FILTERS,
  reconcile,
  type FilterProblem,
  type ReconcileReply,
  type ReportFilters,
} from "../ui/reports/ledger";
import { appScheduler } from "../ui/scheduler";
import { authCall } from "../ui/session";
import type { ApiErrorKind } from "../ui/shell/api-notice";
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
      case LEDGER_CATEGORY.MARGIN_FUNDING:
        return t({ message: "Margin funding", context: "ledger category" });
      case LEDGER_CATEGORY.POSITION:
        return t({ message: "Position profit or loss", context: "ledger category" });
      case LEDGER_CATEGORY.POSITION_CLAIM:
        return t({ message: "Position claim", context: "ledger category" });
      case LEDGER_CATEGORY.ADJUSTMENT:
        return t({ message: "Adjustment", context: "ledger category" });
      default: {
        const never: never = c;
        return never;
      }
    }
  };
  const wallet = (type: string | null): string => {
    switch (type) {
      case "exchange":
        return t`Exchange`;
      case "margin":
        return t`Margin`;
      case "funding":
        return t`Funding`;
      default:
        return type ?? "—";
    }
  };
  const problem = (p: FilterProblem): string => {
    switch (p) {
      case "from-date":
        return t`The "from" date is not a date.`;
      case "to-date":
        return t`The "to" date is not a date.`;
      case "range":
        return t`The "from" date is after the "to" date.`;
      default: {
        const never: never = p;
        return never;
      }
    }
  };
  return { category, wallet, problem };
}

type Export =
  | { readonly state: "idle" }
  | { readonly state: "running"; readonly rows: number }
  | { readonly state: "done"; readonly rows: number }
  | { readonly state: "failed"; readonly error: ApiErrorKind | "no-token" };

/**
 * The reports page (/reports, protected): the account's ledger, newest first, filtered by currency,
 * category and dates, paged back with the exchange's cursor, and exported as CSV for the same
 * filters (docs/product-rules.md#reports).
 */
export function ReportsPage() {
  const { t, i18n } = useLingui();
  const words = useLedgerWords();
  const apiError = useApiErrorText();
  const { authToken } = useSnapshot(auth);
  const ids = { currency: useId(), category: useId(), from: useId(), to: useId(), problem: useId() };
  const [filters, setFilters] = useState<ReportFilters>(NO_FILTERS);
  const [currencies, setCurrencies] = useState<readonly string[]>([]);
  const [rows, setRows] = useState<readonly LedgerEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiErrorKind | null>(null);
  const [exporting, setExporting] = useState<Export>({ state: "idle" });
  /** Bumped by each change of filters: an older page answering after one is dropped. */
  const generation = useRef(0);

  const query = ledgerQuery(filters, "hist");
  const problem = query.ok ? null : query.problem;

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

  // The newest page for the filters; a change of filters clears the rows first (`change`), so an
  // answer for filters no longer chosen is dropped here.
  useEffect(() => {
    const q = ledgerQuery(filters, "hist");
    if (!q.ok) return;
    let live = true;
    void ledgerPageOf(authCall, q.path, q.body).then((r) => {
      if (!live) return;
      if (!r.ok) {
        setError(r.error);
        return;
      }
      setError(null);
      setRows(r.rows);
      setMore(r.more);
    });
    return () => {
      live = false;
    };
  }, [filters]);

  const loadOlder = async (): Promise<void> => {
    const q = ledgerQuery(filters, "hist", cursorAfter(rows ?? []));
    if (!q.ok) return;
    const mine = generation.current;
    setLoading(true);
    const r = await ledgerPageOf(authCall, q.path, q.body);
    if (mine !== generation.current) return;
    setLoading(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(null);
    setRows((before) => [...(before ?? []), ...r.rows]);
    setMore(r.more);
  };

  const change = (next: ReportFilters): void => {
    generation.current++;
    setFilters(next);
    setRows(null);
    setMore(false);
    setLoading(false);
  };

  const runExport = async (): Promise<void> => {
    const q = ledgerQuery(filters, "export");
    if (!q.ok) return;
    // An API-key session has no token on this thread (its secret lives in the worker).
    if (authToken === "") {
      setExporting({ state: "failed", error: "no-token" });
      return;
    }
    setExporting({ state: "running", rows: 0 });
    const r = await exportLedger(
      (input, init) => fetch(input, init),
      apiUrl(appConfig().endpoints, q.path),
      authToken,
      q.body,
      (n) => setExporting({ state: "running", rows: n }),
    );
    if (!r.ok) {
      setExporting({ state: "failed", error: r.error });
      return;
    }
    const href = URL.createObjectURL(r.blob);
    const a = document.createElement("a");
    a.href = href;
    a.download = r.filename;
    document.body.append(a);
    a.click();
    a.remove();
    // Revoked once the browser has taken the file: revoking at once can cancel the download.
    appScheduler.after(60_000, () => URL.revokeObjectURL(href));
    setExporting({ state: "done", rows: r.rows });
  };

  const set = (patch: Partial<ReportFilters>): void => change({ ...filters, ...patch });
  const amount = (n: number): string => i18n.number(n, { maximumFractionDigits: 8, signDisplay: "exceptZero" });
  const exportText = ((): string | null => {
    switch (exporting.state) {
      case "idle":
        return null;
      case "running": {
        const count = i18n.number(exporting.rows);
        return t`Exporting… ${count} rows so far.`;
      }
      case "done": {
        const count = i18n.number(exporting.rows);
        return t`Exported ${count} rows.`;
      }
      case "failed":
        return exporting.error === "no-token"
          ? t`The export needs a password sign-in: an API-key session cannot download files.`
          : (apiError(exporting.error) ?? t`The export failed. Try again.`);
      default: {
        const never: never = exporting;
        return never;
      }
    }
  })();
  const errorText = error ? apiError(error) : null;
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
          <label className={css.field} htmlFor={ids.currency}>
            <Trans>Currency</Trans>
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
          </label>
          <label className={css.field} htmlFor={ids.category}>
            <Trans>Category</Trans>
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
          </label>
          <label className={css.field} htmlFor={ids.from}>
            <Trans>From</Trans>
            <input
              id={ids.from}
              type="date"
              className={css.control}
              value={filters.from}
              aria-invalid={problem === "from-date" || problem === "range"}
              aria-describedby={problem ? ids.problem : undefined}
              onChange={(e) => set({ from: e.target.value })}
            />
          </label>
          <label className={css.field} htmlFor={ids.to}>
            <Trans>To</Trans>
            <input
              id={ids.to}
              type="date"
              className={css.control}
              value={filters.to}
              aria-invalid={problem === "to-date" || problem === "range"}
              aria-describedby={problem ? ids.problem : undefined}
              onChange={(e) => set({ to: e.target.value })}
            />
          </label>
        </div>
        {problem && (
          <p id={ids.problem} className={css.error} role="alert">
            {words.problem(problem)}
          </p>
        )}
        <div className={css.row}>
          <button
            type="button"
            className={css.primary}
            disabled={problem !== null || exporting.state === "running"}
            onClick={() => void runExport()}
          >
            <Trans>Export CSV</Trans>
          </button>
          {filtered && (
            <button type="button" className={css.button} onClick={() => change(NO_FILTERS)}>
              <Trans>Clear filters</Trans>
            </button>
          )}
          <span
            aria-live="polite"
            data-testid="export-status"
            className={exporting.state === "failed" ? css.error : css.muted}
          >
            {exportText}
          </span>
        </div>
      </section>
      <section className={css.card} aria-labelledby="ledger-title">
        <h2 id="ledger-title" className={pages.cardTitle}>
          <Trans>Ledger</Trans>
        </h2>
        {errorText !== null && (
          <p className={css.error} role="alert">
            {errorText}
          </p>
        )}
        {rows === null && error === null && problem === null && <p className={css.muted}>{t`Loading…`}</p>}
        {rows !== null && rows.length === 0 && (
          <p className={css.muted} data-testid="ledger-empty">
            {filtered ? t`No ledger entries match these filters.` : t`No ledger entries yet.`}
          </p>
        )}
        {rows !== null && rows.length > 0 && (
          // Focusable: a table wider than its card scrolls, and the keyboard must reach it too.
          <div className={css.scroll} tabIndex={0} role="group" aria-labelledby="ledger-title">
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
          </div>
        )}
        {more && (
          <div className={css.row}>
            <button type="button" className={css.button} disabled={loading} onClick={() => void loadOlder()}>
              <Trans>Load older entries</Trans>
            </button>
          </div>
        )}
      </section>
      <Reconciliation wallet={words.wallet} />
    </div>
  );
}

/**
 * Whether each wallet's ledger adds up (docs/product-rules.md#reports): every entry's balance is
 * the one before plus its amount, and the last is the wallet's balance; else the first entry where
 * it breaks.
 */
function Reconciliation({ wallet }: { readonly wallet: (type: string | null) => string }) {
  const { t, i18n } = useLingui();
  const apiError = useApiErrorText();
  const [result, setResult] = useState<ReconcileReply | null>(null);
  const [busy, setBusy] = useState(false);
  const check = async (): Promise<void> => {
    setBusy(true);
    setResult(await reconcile(authCall));
    setBusy(false);
  };
  const number = (n: number | null): string => (n === null ? "—" : i18n.number(n, { maximumFractionDigits: 8 }));
  const failure = result && !result.ok ? apiError(result.error) : null;
  return (
    <section className={css.card} aria-labelledby="reconcile-title">
      <h2 id="reconcile-title" className={pages.cardTitle}>
        <Trans>Reconciliation</Trans>
      </h2>
      <p className={css.muted}>
        <Trans>
          Checks that each wallet&apos;s ledger adds up: every entry&apos;s balance is the one before plus its amount,
          and the last entry&apos;s balance is the wallet&apos;s balance.
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
      {result?.ok === true && (
        <ul className={css.checks} data-testid="reconciliation">
          {result.wallets.map((w) => {
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
    </section>
  );
}
