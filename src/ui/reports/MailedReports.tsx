/**
 * Mailed reports on the history pages (docs/product-rules.md#reports): "E-mail me this report"
 * next to a live export, the account's reports with their state, and saving a stored report's file.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import { useSnapshot } from "valtio";
import { REPORT_PATHS, REPORTS_GENERATING_MAX, type ReportRequest, type ReportRow } from "../../protocol";
import { auth } from "../auth";
import { apiUrl, appConfig } from "../config";
import { appScheduler } from "../scheduler";
import { authCall } from "../session";
import { useApiErrorText } from "../shell/api-error-text";
import { exchangeFetch } from "../shell/api-notice";
import * as pages from "../../pages/pages.css";
import * as css from "../../pages/reports.css";
import { visuallyHidden } from "../shell/shell.css";
import { downloadReport, listReports, requestReport, type ReportError } from "./mailed";
import * as cell from "./mailed.css";

/** How often the list is read again while a report is being prepared. */
const POLL_MS = 5_000;

export type DownloadError = ReportError | "no-token";

/** A report's refusal or error as the reader's text. */
export function useReportErrorText(): (e: DownloadError) => string {
  const { t } = useLingui();
  const apiError = useApiErrorText();
  return (e) => {
    if (e === "no-token") return t`The export needs a password sign-in: an API-key session cannot download files.`;
    if (e.kind === "api") return apiError(e.error) ?? t`Something went wrong. Try again.`;
    switch (e.refusal) {
      case "tooMany": {
        const max = REPORTS_GENERATING_MAX;
        return t`You already have ${max} reports being prepared. Wait until one is ready, then ask again.`;
      }
      case "link":
        return t`This link is invalid or has expired. Ask for the report again on the reports page.`;
      case "session":
        return t`The export needs a password sign-in: an API-key session cannot download files.`;
      case "kind":
      case "symbol":
        return t`The exchange refused these filters. Change them and try again.`;
      default: {
        const never: never = e.refusal;
        return never;
      }
    }
  };
}

/** Saves a file the page holds, as the live export does. */
export function saveBlob(blob: Blob, filename: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = href;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  // Revoked once the browser has taken the file: revoking at once can cancel the download.
  appScheduler.after(60_000, () => URL.revokeObjectURL(href));
}

/** Downloads a stored report (by the mailed token or by id) with the session's token in a header. */
export function useReportDownload(): {
  /** Null once saved; else why not (its text by `useReportErrorText`, in the reader's language). */
  readonly run: (which: { readonly token: string } | { readonly id: number }) => Promise<DownloadError | null>;
} {
  const { authToken } = useSnapshot(auth);
  return {
    run: async (which) => {
      if (authToken === "") return "no-token";
      const r = await downloadReport(
        (input, init) => exchangeFetch(input, init),
        apiUrl(appConfig().endpoints, REPORT_PATHS.download),
        authToken,
        which,
      );
      if (!r.ok) return r.error;
      saveBlob(r.blob, r.filename);
      return null;
    },
  };
}

/**
 * "E-mail me this report": always offered next to the export, suggested (`suggest`) when the range
 * is long or the live export was large. `request` is null while the filters are not valid.
 */
export function MailReportButton(props: {
  readonly request: ReportRequest | null;
  readonly suggest: boolean;
  readonly onQueued: () => void;
}) {
  const { t } = useLingui();
  const errorText = useReportErrorText();
  const hintId = useId();
  const [state, setState] = useState<"idle" | "asking" | "queued" | { readonly error: ReportError }>("idle");
  const ask = async (): Promise<void> => {
    if (!props.request) return;
    setState("asking");
    const r = await requestReport(authCall, props.request);
    if (!r.ok) {
      setState({ error: r.error });
      return;
    }
    setState("queued");
    props.onQueued();
  };
  return (
    <div className={css.row}>
      <button
        type="button"
        className={css.button}
        disabled={props.request === null || state === "asking"}
        aria-describedby={props.suggest ? hintId : undefined}
        onClick={() => void ask()}
      >
        <Trans>E-mail me this report</Trans>
      </button>
      <span
        aria-live="polite"
        data-testid="mail-report-status"
        className={typeof state === "object" ? css.error : css.muted}
      >
        {state === "queued"
          ? t`We'll e-mail you a link when it is ready.`
          : typeof state === "object"
            ? errorText(state.error)
            : null}
      </span>
      {props.suggest && state === "idle" && (
        <span id={hintId} className={css.muted}>
          <Trans>This is a large report: we can prepare it for you and e-mail you a link.</Trans>
        </span>
      )}
    </div>
  );
}

function useReportWords() {
  const { t } = useLingui();
  const kind = (k: string): string => {
    switch (k) {
      case "ledgers":
        return t`Ledger`;
      case "orders":
        return t`Orders`;
      case "trades":
        return t`Trades`;
      case "positions":
        return t`Positions`;
      case "funding-offers":
        return t`Funding offers`;
      case "funding-credits":
        return t`Funding credits`;
      case "funding-loans":
        return t`Funding loans`;
      case "funding-trades":
        return t`Funding trades`;
      default:
        return k;
    }
  };
  const status = (s: string): string => {
    switch (s) {
      case "QUEUED":
        return t({ message: "Being prepared", context: "report status" });
      case "READY":
        return t({ message: "Ready", context: "report status" });
      case "EXPIRED":
        return t({ message: "Expired", context: "report status" });
      default:
        return t({ message: "Failed", context: "report status" });
    }
  };
  return { kind, status };
}

/** The account's reports; read again when `version` changes and while one is being prepared. */
export function YourReports(props: { readonly version: number }) {
  const { t, i18n } = useLingui();
  const words = useReportWords();
  const errorText = useReportErrorText();
  const download = useReportDownload();
  const [rows, setRows] = useState<readonly ReportRow[] | null>(null);
  const [error, setError] = useState<ReportError | null>(null);
  const [poll, setPoll] = useState(0);
  const preparing = rows?.some((r) => r.status === "QUEUED") ?? false;

  useEffect(() => {
    let live = true;
    void listReports(authCall).then((r) => {
      if (!live) return;
      if (r.ok) {
        setRows(r.rows);
        setError(null);
      } else setError(r.error);
    });
    return () => {
      live = false;
    };
  }, [props.version, poll]);

  useEffect(() => {
    if (!preparing) return;
    return appScheduler.after(POLL_MS, () => setPoll((n) => n + 1));
  }, [preparing, poll]);

  const day = (ms: number): string => i18n.date(new Date(ms), { dateStyle: "medium" });
  const when = (ms: number): string => i18n.date(new Date(ms), { dateStyle: "medium", timeStyle: "short" });
  const range = (r: ReportRow): string => {
    if (r.start === null && r.end === null) return t`All dates`;
    const from = r.start === null ? "…" : day(r.start);
    const to = r.end === null ? "…" : day(r.end);
    return `${from} – ${to}`;
  };

  return (
    <section className={css.card} aria-labelledby="your-reports-title">
      <h2 id="your-reports-title" className={pages.cardTitle}>
        <Trans>Your reports</Trans>
      </h2>
      {error !== null && (
        <p className={css.error} role="alert">
          {errorText(error)}
        </p>
      )}
      {rows !== null && rows.length === 0 && (
        <p className={css.muted}>
          <Trans>No reports yet. Ask for one above and we'll e-mail you a link when it is ready.</Trans>
        </p>
      )}
      {rows !== null && rows.length > 0 && (
        <div className={css.scroll} tabIndex={0} role="group" aria-labelledby="your-reports-title">
          <table className={css.table} data-testid="your-reports">
            <thead className={css.thead}>
              <tr>
                <th className={css.th}>{t`Report`}</th>
                <th className={css.th}>{t`Dates`}</th>
                <th className={css.th}>{t`Status`}</th>
                <th className={css.thNum}>{t`Rows`}</th>
                <th className={css.th}>{t`Available until`}</th>
                <th className={css.th}>
                  <span className={visuallyHidden}>{t`Download`}</span>
                </th>
              </tr>
            </thead>
            <tbody className={css.tbody}>
              {rows.map((r) => (
                <ReportLine
                  key={r.id}
                  row={r}
                  kind={r.symbol === null ? words.kind(r.kind) : `${words.kind(r.kind)} · ${r.symbol}`}
                  range={range(r)}
                  status={words.status(r.status)}
                  expires={when(r.expires)}
                  rows={r.rows === null ? "—" : i18n.number(r.rows)}
                  download={download.run}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ReportLine(props: {
  readonly row: ReportRow;
  readonly kind: string;
  readonly range: string;
  readonly status: string;
  readonly expires: string;
  readonly rows: string;
  readonly download: (which: { readonly id: number }) => Promise<DownloadError | null>;
}) {
  const { t } = useLingui();
  const errorText = useReportErrorText();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DownloadError | null>(null);
  const { row, kind } = props;
  const save = async (): Promise<void> => {
    setBusy(true);
    setError(await props.download({ id: row.id }));
    setBusy(false);
  };
  return (
    <tr className={css.tr} data-id={row.id}>
      <td className={cell.what}>{props.kind}</td>
      <td className={cell.dates}>{props.range}</td>
      <td className={cell.status}>{props.status}</td>
      <td className={cell.rows}>{props.rows}</td>
      <td className={cell.expires}>{props.expires}</td>
      <td className={cell.action}>
        {row.status === "READY" && (
          <button
            type="button"
            className={css.button}
            disabled={busy}
            aria-label={t`Download ${kind} report`}
            onClick={() => void save()}
          >
            <Trans>Download</Trans>
          </button>
        )}
        {error !== null && (
          <span className={css.error} role="alert">
            {errorText(error)}
          </span>
        )}
      </td>
    </tr>
  );
}
