import { Trans, useLingui } from "@lingui/react/macro";
import { useCallback, useId, useState } from "react";
import { splitPair, STATS_VOLUME_ALL, statsVolumeKey } from "../protocol";
import { ContentPage, ContentSection } from "../ui/site";
import { compact, usdCompact } from "../ui/site-live/format";
import { LoadError, Loading } from "../ui/site-live/LoadState";
import { fetchBookChoices, fetchStatsSeries } from "../ui/site-live/site-api";
import * as css from "../ui/site-live/site-live.css";
import { StatsChart } from "../ui/site-live/StatsChart";
import { useRemote } from "../ui/site-live/use-remote";

/** Hourly points charted: the last 30 days. */
const POINTS = 720;

const loadTotal = (signal: AbortSignal) => fetchStatsSeries(STATS_VOLUME_ALL, POINTS, signal);
const loadPairs = (signal: AbortSignal) => fetchBookChoices("trading", signal);

/** Charts of the exchange's activity from its `stats1` series (docs/protocol.md#site-figures). */
export function StatsPage() {
  const { t, i18n } = useLingui();
  const l = i18n.locale;
  const [total, retryTotal] = useRemote(loadTotal);
  const [pairs] = useRemote(loadPairs);
  const [pair, setPair] = useState("BTCUSD");
  const [onePair, retryPair] = useRemote(
    (signal) => fetchStatsSeries(statsVolumeKey(`t${pair}`), POINTS, signal),
    pair,
  );
  const pairId = useId();
  const usd = useCallback((v: number) => usdCompact(l, v), [l]);
  const base = splitPair(pair)?.base ?? pair;
  const inBase = useCallback((v: number) => `${compact(l, v)} ${base}`, [l, base]);
  const choices = pairs.status === "ready" ? pairs.value : [pair];

  return (
    <ContentPage
      title={<Trans>Exchange statistics</Trans>}
      lead={
        <Trans>
          How much trades on this exchange, hour by hour over the last 30 days, computed from its own markets.
        </Trans>
      }
      toc={false}
      related={[
        { href: "/", label: <Trans>All markets</Trans> },
        { href: "/order-book", label: <Trans>Order book</Trans> },
        { href: "/fees", label: <Trans>Fees</Trans> },
      ]}
    >
      <ContentSection id="volume" title={<Trans>24-hour trading volume, all markets</Trans>}>
        <p>
          <Trans>
            Each point is the value of every trade in the 24 hours before it, in US dollars. Pairs quoted in other
            currencies are converted at today's rates.
          </Trans>
        </p>
        {total.status === "loading" && <Loading />}
        {total.status === "error" && <LoadError onRetry={retryTotal} />}
        {total.status === "ready" && (
          <StatsChart rows={total.value} label={t`24-hour volume of all markets, in USD`} format={usd} />
        )}
      </ContentSection>
      <ContentSection id="pair-volume" title={<Trans>24-hour volume by market</Trans>}>
        <div className={css.field}>
          <label className={css.label} htmlFor={pairId}>
            <Trans>Market</Trans>
          </label>
          <select id={pairId} className={css.input} value={pair} onChange={(e) => setPair(e.target.value)}>
            {choices.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        {onePair.status === "loading" && <Loading />}
        {onePair.status === "error" && <LoadError onRetry={retryPair} />}
        {onePair.status === "ready" && (
          <StatsChart rows={onePair.value} label={t`24-hour volume of ${pair}, in ${base}`} format={inBase} />
        )}
      </ContentSection>
    </ContentPage>
  );
}
