/**
 * The parts every history page shares (docs/product-rules.md#reports, #archive): the date-range
 * fields with their problem, the export bar (CSV now, or mailed by the exchange for a large range)
 * and the results card (error, loading, empty, the table, "load older"), plus the paging state
 * behind it. The pages keep only what is theirs: their filters, their query and their table.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, type ReactNode } from "react";
import * as pages from "../../pages/pages.css";
import * as css from "../../pages/reports.css";
import { isLargeRange, LARGE_EXPORT_ROWS, reportRequestOf } from "../reports/mailed";
import { MailReportButton } from "../reports/MailedReports";
import type { ApiErrorKind } from "../shell/api-notice";
import { useApiErrorText } from "../shell/api-error-text";
import type { RangeProblem } from "./range";
import type { CsvExport } from "./use-csv-export";
import { useRangeProblemText } from "./use-range-text";

/** One page of a history call: its rows (in the page's own shape) and whether older ones exist. */
export type PageReply<P> =
  | { readonly ok: true; readonly page: P; readonly more: boolean }
  | { readonly ok: false; readonly error: ApiErrorKind };

export interface HistoryPages<P> {
  /** The rows shown; null while the newest page for the current query is on its way. */
  readonly page: P | null;
  readonly more: boolean;
  readonly loading: boolean;
  readonly error: ApiErrorKind | null;
  readonly loadOlder: () => Promise<void>;
}

/**
 * The newest page for `key` (the query as text; null while the query is not valid), and older
 * pages on demand. A change of key clears the rows at once and drops any answer that was for the
 * previous key, so a slow older page can never land under a newer filter.
 */
export function useHistoryPages<P>(
  key: string | null,
  first: () => Promise<PageReply<P>>,
  older: (page: P) => Promise<PageReply<P>>,
  append: (before: P, next: P) => P,
): HistoryPages<P> {
  const [state, setState] = useState<{
    readonly key: string | null;
    readonly page: P | null;
    readonly more: boolean;
    readonly loading: boolean;
    readonly error: ApiErrorKind | null;
  }>({ key, page: null, more: false, loading: false, error: null });
  // The rows belong to the key they were asked for: rows of another key are never shown.
  const shown = state.key === key ? state : { key, page: null, more: false, loading: false, error: null };

  useEffect(() => {
    if (key === null) return;
    let live = true;
    void first().then((r) => {
      if (!live) return;
      setState(
        r.ok
          ? { key, page: r.page, more: r.more, loading: false, error: null }
          : { key, page: null, more: false, loading: false, error: r.error },
      );
    });
    return () => {
      live = false;
    };
    // `first` is the query of `key`: a new key is a new query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const loadOlder = async (): Promise<void> => {
    const before = shown.page;
    if (before === null || key === null) return;
    setState({ ...shown, loading: true });
    const r = await older(before);
    setState((s) =>
      s.key !== key
        ? s
        : r.ok
          ? { key, page: append(s.page ?? before, r.page), more: r.more, loading: false, error: null }
          : { ...s, loading: false, error: r.error },
    );
  };

  return { page: shown.page, more: shown.more, loading: shown.loading, error: shown.error, loadOlder };
}

interface RangeFieldsProps {
  readonly from: string;
  readonly to: string;
  readonly problem: RangeProblem | null;
  readonly ids: { readonly from: string; readonly to: string; readonly problem: string };
  readonly onChange: (patch: { from?: string; to?: string }) => void;
}

/** The "from" and "to" dates of a history filter. */
export function DateRangeFields({ from, to, problem, ids, onChange }: RangeFieldsProps) {
  const field = (which: "from" | "to", label: ReactNode, value: string) => (
    <label className={css.field} htmlFor={ids[which]}>
      {label}
      <input
        id={ids[which]}
        type="date"
        className={css.control}
        value={value}
        aria-invalid={problem === `${which}-date` || problem === "range"}
        aria-describedby={problem ? ids.problem : undefined}
        onChange={(e) => onChange({ [which]: e.target.value })}
      />
    </label>
  );
  return (
    <>
      {field("from", <Trans>From</Trans>, from)}
      {field("to", <Trans>To</Trans>, to)}
    </>
  );
}

/** The range's problem, tied to the date fields by `aria-describedby`. */
export function RangeProblemText({ id, problem }: { readonly id: string; readonly problem: RangeProblem | null }) {
  const text = useRangeProblemText();
  if (problem === null) return null;
  return (
    <p id={id} className={css.error} role="alert">
      {text(problem)}
    </p>
  );
}

interface ExportBarProps {
  readonly exporting: CsvExport;
  /** The export call for the current filters; null while they are not valid. */
  readonly query: { readonly path: string; readonly body: Record<string, number> } | null;
  readonly fileName: string;
  /** When the page opened: an open "to" date counts a range up to then. */
  readonly openedAt: number;
  /** Shown with "Clear filters" when some filter is set. */
  readonly onClear: (() => void) | null;
  readonly onQueued: () => void;
}

/**
 * Export as CSV now, clear the filters, and the same export mailed by the exchange — suggested
 * when the range is large, the last export was large, or it failed.
 */
export function ExportBar({ exporting, query, fileName, openedAt, onClear, onQueued }: ExportBarProps) {
  const done = exporting.state;
  const mailRequest = query ? reportRequestOf(query.path, query.body) : null;
  const suggestMail =
    (query !== null && isLargeRange(query.body["start"] ?? null, query.body["end"] ?? null, openedAt)) ||
    (done.state === "done" && done.rows > LARGE_EXPORT_ROWS) ||
    (done.state === "failed" && done.error !== "no-token");
  return (
    <>
      <div className={css.row}>
        <button
          type="button"
          className={css.primary}
          disabled={query === null || done.state === "running"}
          onClick={() => {
            if (query) void exporting.run(query.path, query.body, fileName);
          }}
        >
          <Trans>Export CSV</Trans>
        </button>
        {onClear && (
          <button type="button" className={css.button} onClick={onClear}>
            <Trans>Clear filters</Trans>
          </button>
        )}
        <span
          aria-live="polite"
          data-testid="export-status"
          className={done.state === "failed" ? css.error : css.muted}
        >
          {exporting.text}
        </span>
      </div>
      <MailReportButton
        // A change of filters or tab forgets what was said about the last request.
        key={mailRequest ? JSON.stringify(mailRequest) : ""}
        request={mailRequest}
        suggest={suggestMail}
        onQueued={onQueued}
      />
    </>
  );
}

interface ResultsProps<P> {
  readonly titleId: string;
  readonly title: ReactNode;
  readonly pages: HistoryPages<P>;
  /** Whether the filters are valid: an invalid range shows its problem instead of "Loading…". */
  readonly valid: boolean;
  readonly isEmpty: (page: P) => boolean;
  readonly emptyText: string;
  readonly emptyTestId: string;
  readonly children: (page: P) => ReactNode;
}

/** The results card: the error, "Loading…", the empty text or the table, and "Load older entries". */
export function HistoryResults<P>({
  titleId,
  title,
  pages: p,
  valid,
  isEmpty,
  emptyText,
  emptyTestId,
  children,
}: ResultsProps<P>) {
  const { t } = useLingui();
  const apiError = useApiErrorText();
  return (
    <section className={css.card} aria-labelledby={titleId}>
      <h2 id={titleId} className={pages.cardTitle}>
        {title}
      </h2>
      {p.error !== null && (
        <p className={css.error} role="alert">
          {apiError(p.error)}
        </p>
      )}
      {p.page === null && p.error === null && valid && <p className={css.muted}>{t`Loading…`}</p>}
      {p.page !== null && isEmpty(p.page) && (
        <p className={css.muted} data-testid={emptyTestId}>
          {emptyText}
        </p>
      )}
      {p.page !== null && !isEmpty(p.page) && (
        // Focusable: a table wider than its card scrolls, and the keyboard must reach it too.
        <div className={css.scroll} tabIndex={0} role="group" aria-labelledby={titleId}>
          {children(p.page)}
        </div>
      )}
      {p.more && (
        <div className={css.row}>
          <button type="button" className={css.button} disabled={p.loading} onClick={() => void p.loadOlder()}>
            <Trans>Load older entries</Trans>
          </button>
        </div>
      )}
    </section>
  );
}
