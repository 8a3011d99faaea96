import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function FreezePage() {
  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Freeze your account</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          If you think someone else has access to your account, freeze it: trading, withdrawals and API keys stop at
          once until you contact support.
        </Trans>
      </p>
      <p>
        <Trans>Use the freeze link in any sign-in or withdrawal e-mail we sent you. It works without signing in.</Trans>
      </p>
    </section>
  );
}
