/** What a live public page shows while its figures load, and when the exchange could not be reached. */
import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import * as css from "./site-live.css";

export function Loading({ children }: { readonly children?: ReactNode }) {
  return (
    <p className={css.loading} role="status">
      {children ?? <Trans>Loading figures from the exchange…</Trans>}
    </p>
  );
}

export function LoadError({ onRetry }: { readonly onRetry?: () => void }) {
  return (
    <div className={css.error} role="alert">
      <p className={css.errorText}>
        <Trans>The exchange could not be reached, so these figures cannot be shown right now.</Trans>
      </p>
      {onRetry && (
        <button type="button" className={css.button} onClick={onRetry}>
          <Trans>Try again</Trans>
        </button>
      )}
    </div>
  );
}
