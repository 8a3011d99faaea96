/**
 * The home page's banner (`pub:raw:banner:home:{lang}`, in the visitor's language when the exchange
 * has one) and headline figures (`pub:raw:website:stats`: the day's volume and trades computed from
 * the exchange's own tape). Read once per visit and language: a headline, not a ticker.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { fetchHomeFigures } from "./site-api";
import { count, usdCompact } from "./format";
import { LoadError, Loading } from "./LoadState";
import { useRemote } from "./use-remote";
import * as css from "./site-live.css";

export function HomeFigures() {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const [state, retry] = useRemote((signal) => fetchHomeFigures(locale, signal), locale);
  if (state.status === "loading") return <Loading />;
  if (state.status === "error") return <LoadError onRetry={retry} />;
  const { stats, banner } = state.value;
  return (
    <>
      {banner && (
        <p className={css.banner}>
          <span>{banner.title}</span>
          <a className={css.bannerLink} href={banner.link}>
            <Trans>Open the trading desk</Trans>
          </a>
        </p>
      )}
      <dl className={css.figures}>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>24h trading volume</Trans>
          </dt>
          <dd className={css.figureValue} data-testid="volume-24h">
            {usdCompact(locale, stats.volume24hUsd)}
          </dd>
        </div>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Trades in the last 24 hours</Trans>
          </dt>
          <dd className={css.figureValue}>{count(locale, stats.trades24h)}</dd>
        </div>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Trading markets</Trans>
          </dt>
          <dd className={css.figureValue}>{count(locale, stats.markets)}</dd>
        </div>
        <div className={css.figure}>
          <dt className={css.figureLabel}>
            <Trans>Funding markets</Trans>
          </dt>
          <dd className={css.figureValue}>{count(locale, stats.fundingMarkets)}</dd>
        </div>
      </dl>
    </>
  );
}
