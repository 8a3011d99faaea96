import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function NotFoundPage() {
  return (
    <section className={css.hero} data-testid="not-found">
      <p className={css.code}>404</p>
      <h1 className={css.h1}>
        <Trans>Page not found</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>The address may be mistyped, or the page has moved.</Trans>
      </p>
      <a className={css.cta} href="/">
        <Trans>Go to the home page</Trans>
      </a>
    </section>
  );
}
