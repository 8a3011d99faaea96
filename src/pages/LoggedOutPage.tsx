import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function LoggedOutPage() {
  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>You have signed out</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Your session has ended on this device.</Trans>
      </p>
      <a className={css.cta} href="/login">
        <Trans>Sign in again</Trans>
      </a>
    </section>
  );
}
