import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function SecuritiesPage() {
  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Securities</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>Tokenized securities offerings for verified investors in the jurisdictions that allow them.</Trans>
      </p>
      <p>
        <Trans>Availability depends on your country of residence and your verification level.</Trans>
      </p>
    </section>
  );
}
