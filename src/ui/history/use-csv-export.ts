/**
 * The export button's state and its line of text, shared by the history pages
 * (docs/product-rules.md#reports): the rows counted as they arrive, then how many were exported or
 * a localized error. An API-key session, whose secret stays in the worker, has no token here and
 * is told it cannot export.
 */
import { useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { useSnapshot } from "valtio";
import { auth } from "../auth";
import { apiUrl, appConfig } from "../config";
import { appScheduler } from "../scheduler";
import { exchangeFetch, type ApiErrorKind } from "../shell/api-notice";
import { useApiErrorText } from "../shell/api-error-text";
import { streamCsv } from "./csv-download";

export type ExportState =
  | { readonly state: "idle" }
  | { readonly state: "running"; readonly rows: number }
  | { readonly state: "done"; readonly rows: number }
  | { readonly state: "failed"; readonly error: ApiErrorKind | "no-token" };

export interface CsvExport {
  readonly state: ExportState;
  /** The status line under the button; null before any export. */
  readonly text: string | null;
  readonly run: (path: string, body: Record<string, number>, fallbackName: string) => Promise<void>;
  /** Forgets the last export's outcome (another table is shown). */
  readonly reset: () => void;
}

export function useCsvExport(): CsvExport {
  const { t, i18n } = useLingui();
  const apiError = useApiErrorText();
  const { authToken } = useSnapshot(auth);
  const [state, setState] = useState<ExportState>({ state: "idle" });

  const run = async (path: string, body: Record<string, number>, fallbackName: string): Promise<void> => {
    if (authToken === "") {
      setState({ state: "failed", error: "no-token" });
      return;
    }
    setState({ state: "running", rows: 0 });
    const r = await streamCsv(
      (input, init) => exchangeFetch(input, init),
      apiUrl(appConfig().endpoints, path),
      authToken,
      body,
      (n) => setState({ state: "running", rows: n }),
      fallbackName,
    );
    if (!r.ok) {
      setState({ state: "failed", error: r.error });
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
    setState({ state: "done", rows: r.rows });
  };

  const text = ((): string | null => {
    switch (state.state) {
      case "idle":
        return null;
      case "running": {
        const count = i18n.number(state.rows);
        return t`Exporting… ${count} rows so far.`;
      }
      case "done": {
        const count = i18n.number(state.rows);
        return t`Exported ${count} rows.`;
      }
      case "failed":
        return state.error === "no-token"
          ? t`The export needs a password sign-in: an API-key session cannot download files.`
          : (apiError(state.error) ?? t`The export failed. Try again.`);
      default: {
        const never: never = state;
        return never;
      }
    }
  })();

  return { state, text, run, reset: () => setState({ state: "idle" }) };
}
