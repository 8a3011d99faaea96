import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function AboutPage() {
  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>About us</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          We build a web trading front end for high-volume traders: fast under any feed rate, correct to the last level,
          and usable by everyone.
        </Trans>
      </p>
      <p>
        <Trans>
          It speaks the Bitfinex API version 2 protocol. Out of the box it runs against its own embedded exchange for
          paper trading; pointed at a live venue, the same build trades for real.
        </Trans>
      </p>
    </section>
  );
}
