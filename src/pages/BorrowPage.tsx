import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function BorrowPage() {
  return (
    <section className={css.hero}>
      <h1 className={css.h1}>
        <Trans>Borrow</Trans>
      </h1>
      <p className={css.lead}>
        <Trans>
          Borrow from the funding market at the rate and period you choose, from 2 to 120 days, and repay at any time.
        </Trans>
      </p>
      <p>
        <Trans>Rates move with supply and demand. Check the funding book before you take an offer.</Trans>
      </p>
    </section>
  );
}
