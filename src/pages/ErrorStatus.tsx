import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

/** A page whose data could not be loaded after every retry: say so and offer another try. */
export function ErrorStatus({ onRetry }: { readonly onRetry: () => void }) {
  return (
    <section className={css.hero} role="alert" data-testid="load-error">
      <h1 className={css.h1}>
        <Trans>This page could not be loaded</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>We tried several times. Check your connection, then try again.</Trans>
      </p>
      <button type="button" className={css.cta} onClick={onRetry}>
        <Trans>Try again</Trans>
      </button>
    </section>
  );
}
