import { Trans } from "@lingui/react/macro";
import { platform } from "../ui/config";
import { NewsletterSignup } from "../ui/notifications/NewsletterSignup";
import { HomeFigures } from "../ui/site-live/HomeFigures";
import { MarketsTable } from "../ui/site-live/MarketsTable";
import * as css from "./pages.css";

/** The public landing page: the pitch, the exchange's banner and figures, and every market live. */
export function HomePage() {
  const variant = platform();
  const currency = variant.defaultCurrency;
  const pair = `${variant.defaultPair.slice(0, 3)}/${variant.defaultPair.slice(3)}`;
  return (
    <>
      <section className={css.hero}>
        <h1 className={css.h1}>
          <Trans>A trading desk that keeps up with the market</Trans>
        </h1>
        <p className={css.lead}>
          <Trans>
            Deep order books, live trades and candles, computed off the main thread and verified against the exchange's
            checksums, so what you see is what the exchange holds.
          </Trans>
        </p>
        <div className={css.actions}>
          <a className={css.cta} href="/login">
            <Trans>Sign in</Trans>
          </a>
          <a className={css.ctaGhost} href="/features">
            <Trans>See the features</Trans>
          </a>
        </div>
      </section>
      <HomeFigures />
      <section aria-labelledby="markets">
        <h2 className={css.h2} id="markets">
          <Trans>Markets</Trans>
        </h2>
        <MarketsTable />
      </section>
      <div className={css.grid}>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Default market</Trans>
          </h2>
          <p className={css.muted} data-testid="default-pair">
            <Trans>
              {pair}, prices shown in {currency}
            </Trans>
          </p>
        </div>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Correct books</Trans>
          </h2>
          <p className={css.muted}>
            <Trans>Every book update is checked; a book that drifts is resubscribed on its own.</Trans>
          </p>
        </div>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Your language, your colours</Trans>
          </h2>
          <p className={css.muted}>
            <Trans>
              Seven languages, five themes, dark and light modes, and red-up colours for those who prefer them.
            </Trans>
          </p>
        </div>
      </div>
      <NewsletterSignup />
    </>
  );
}
