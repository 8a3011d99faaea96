import { Trans } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { useSearch } from "wouter";
import { useReportDownload, useReportErrorText, type DownloadError } from "../ui/reports/MailedReports";
import * as css from "./pages.css";

type State =
  | { readonly kind: "fetching" }
  | { readonly kind: "saved" }
  | { readonly kind: "failed"; readonly error: DownloadError };

/**
 * A mailed report's link (`/reports/download?token=…`, protected: docs/product-rules.md#reports).
 * The file is fetched with the session's token in a header and saved; a link that is wrong,
 * expired or another account's is explained instead.
 */
export function ReportDownloadPage() {
  const token = new URLSearchParams(useSearch()).get("token") ?? "";
  const download = useReportDownload();
  const errorText = useReportErrorText();
  const [state, setState] = useState<State>({ kind: "fetching" });
  // Saved once on opening (a re-render must not save it again); "Download again" asks explicitly.
  const started = useRef(false);

  const run = async (): Promise<void> => {
    setState({ kind: "fetching" });
    const failed = await download.run({ token });
    setState(failed === null ? { kind: "saved" } : { kind: "failed", error: failed });
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
    // Runs once for the link the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Your report</Trans>
      </h1>
      {state.kind === "fetching" && (
        <p className={css.lead} role="status">
          <Trans>Downloading your report…</Trans>
        </p>
      )}
      {state.kind === "saved" && (
        <>
          <p className={css.lead} role="status" data-testid="report-saved">
            <Trans>
              Your report has been downloaded. The link works until it expires, so you can download it again.
            </Trans>
          </p>
          <div className={css.actions}>
            <button type="button" className={css.cta} onClick={() => void run()}>
              <Trans>Download again</Trans>
            </button>
            <a className={css.ctaGhost} href="/reports">
              <Trans>Back to reports</Trans>
            </a>
          </div>
        </>
      )}
      {state.kind === "failed" && (
        <>
          <p className={css.alert} role="alert" data-testid="report-download-error">
            {errorText(state.error)}
          </p>
          <div className={css.actions}>
            <a className={css.cta} href="/reports">
              <Trans>Back to reports</Trans>
            </a>
          </div>
        </>
      )}
    </section>
  );
}
