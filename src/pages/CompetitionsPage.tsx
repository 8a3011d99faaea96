import { Trans } from "@lingui/react/macro";
import { CompetitionLeaderboard } from "../ui/site-live/CompetitionLeaderboard";
import * as css from "./pages.css";

export function CompetitionsPage() {
  return (
    <>
      <section className={css.hero}>
        <h1 className={css.h1}>
          <Trans>Trading competitions</Trans>
        </h1>
        <p className={css.lead}>
          <Trans>Compete on paper-trading accounts for rankings and prizes, with no real funds at risk.</Trans>
        </p>
      </section>
      <CompetitionLeaderboard />
    </>
  );
}
