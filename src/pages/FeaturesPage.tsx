import { Trans } from "@lingui/react/macro";
import * as css from "./pages.css";

export function FeaturesPage() {
  return (
    <section>
      <h1 className={css.h1}>
        <Trans>Features</Trans>
      </h1>
      <div className={css.grid}>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Off the main thread</Trans>
          </h2>
          <p className={css.muted}>
            <Trans>A dedicated worker holds the connection, the books and the checksums; the page only draws.</Trans>
          </p>
        </div>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Deep books</Trans>
          </h2>
          <p className={css.muted}>
            <Trans>Scroll all 250 levels of each side smoothly, at five precisions, with cumulative depth.</Trans>
          </p>
        </div>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Honest feed status</Trans>
          </h2>
          <p className={css.muted}>
            <Trans>A silent or drifting feed turns its badge red and is reconnected, never left green.</Trans>
          </p>
        </div>
        <div className={css.card}>
          <h2 className={css.cardTitle}>
            <Trans>Accessible</Trans>
          </h2>
          <p className={css.muted}>
            <Trans>High-contrast and colour-blind themes, keyboard shortcuts and screen-reader announcements.</Trans>
          </p>
        </div>
      </div>
    </section>
  );
}
