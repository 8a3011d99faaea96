import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

/** Shown when the server answers 500 for a page, or when rendering a page threw. */
export function ErrorPage() {
  return (
    <section className={css.hero} data-testid="error-page">
      <p className={css.code}>500</p>
      <h1 className={css.h1}>
        <Trans>Something went wrong</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>The page could not be shown. Nothing you entered was lost; try again in a moment.</Trans>
      </p>
      <div className={css.actions}>
        <button type="button" className={css.cta} onClick={() => window.location.reload()}>
          <Trans>Reload</Trans>
        </button>
        <a className={css.ctaGhost} href="/">
          <Trans>Go to the home page</Trans>
        </a>
      </div>
    </section>
  );
}
