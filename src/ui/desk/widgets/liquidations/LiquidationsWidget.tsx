import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState, useSyncExternalStore } from "react";
import { toSignificant, type Liquidation } from "../../../../protocol";
import { log } from "../../../log";
import type { MarketBridge } from "../../../market/bridge";
import { market } from "../../../market/market";
import { appScheduler } from "../../../scheduler";
import { useTimeFormat } from "../../../time/format";
import type { WidgetDef } from "../../widget";
import { FeedBadge, HealthStore } from "../book";
import { LiquidationsStore, pairOf, REFRESH_MS } from "./liquidations";
import * as css from "./liquidations.css";

export type LiquidationsSource = Pick<MarketBridge, "status" | "liquidations">;

/** The desk's widget: every market's liquidations, from the app's bridge. */
export function LiquidationsWidget() {
  return <LiquidationsPanel source={market} />;
}

export const liquidationsWidget: WidgetDef = {
  type: "liquidations",
  title: msg`Liquidations`,
  component: LiquidationsWidget,
  // Liquidations are of margin positions: a variant without margin trading has none to show.
  feature: "margin",
  defaultSize: { w: 10, h: 12 },
  minSize: { w: 5, h: 6 },
};

/** A position's size without its sign or trailing zeros (to the satoshi). */
const amountText = (amount: number): string =>
  Math.abs(amount)
    .toFixed(8)
    .replace(/\.?0+$/, "");

function Row({ l }: { readonly l: Liquidation }) {
  const { t } = useLingui();
  const time = useTimeFormat();
  const long = l.amount > 0;
  return (
    <tr>
      <td className={css.td}>
        <time dateTime={new Date(l.mts).toISOString()}>{time.clock(l.mts)}</time>
      </td>
      <td className={css.td}>{pairOf(l.symbol)}</td>
      <td className={`${css.td} ${long ? css.positive : css.negative}`}>{long ? t`Long` : t`Short`}</td>
      <td className={`${css.td} ${css.num}`}>{amountText(l.amount)}</td>
      <td className={`${css.td} ${css.num}`}>
        {l.liquidationPrice === null ? "—" : toSignificant(l.liquidationPrice)}
      </td>
      <td className={css.td}>{l.isMatch ? t`Matched` : t`Triggered`}</td>
      <td className={css.td}>{l.isMarketSold ? t`System` : t`Market sale`}</td>
    </tr>
  );
}

/**
 * The exchange's liquidations (the public `liq:global` status channel) over their history (REST
 * `liquidations/hist`, a page at a time): when, which market, the side and size of the position,
 * the price it was liquidated at, its phase and how it was closed — in words. Re-renders once a
 * second at most; `source` is called inside the effects, so rendering never starts the worker.
 */
export function LiquidationsPanel({ source }: { readonly source: () => LiquidationsSource }) {
  const { t } = useLingui();
  const time = useTimeFormat();
  const [store] = useState(() => new LiquidationsStore());
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const titleId = useId();

  useEffect(() => {
    const controller = new AbortController();
    const bridge = source();
    bridge
      .status(
        "liq:global",
        (view) => {
          if (controller.signal.aborted) return;
          store.observeLive(view);
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("liquidations subscription failed", err));
    // The latest page at once: the feed itself starts empty.
    bridge
      .liquidations(0, (view) => !controller.signal.aborted && store.observeHistory(view))
      .catch((err: unknown) => log.warn("liquidations history failed", err));
    const timers = appScheduler.child();
    timers.every(REFRESH_MS, () => store.tick());
    return () => {
      controller.abort();
      timers.dispose();
    };
  }, [source, store, health]);

  const older = (): void => {
    source()
      .liquidations(store.askOlder(), (view) => store.observeHistory(view))
      .catch((err: unknown) => log.warn("liquidations history failed", err));
  };

  const { rows, history, more } = snap;
  const reason = history.error ?? "";
  const since = history.range ? time.full(history.range.start) : "";
  const loading = history.status === "LOADING";
  return (
    <section className={css.root} data-testid="liquidations" aria-labelledby={titleId}>
      <div className={css.header}>
        <h3 className={css.title} id={titleId}>
          <Trans>Liquidations</Trans>
        </h3>
        <span className={css.spacer} />
        <FeedBadge store={health} testId="liquidations-feed" />
      </div>
      <div className={css.body} tabIndex={0} aria-label={t`Liquidations`}>
        {rows.length === 0 ? (
          <p className={css.note}>{loading ? t`Loading…` : t`No liquidations yet`}</p>
        ) : (
          <table className={css.table}>
            <thead>
              <tr>
                <th className={css.th} scope="col">
                  <Trans>Time</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Pair</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Side</Trans>
                </th>
                <th className={`${css.th} ${css.num}`} scope="col">
                  <Trans>Amount</Trans>
                </th>
                <th className={`${css.th} ${css.num}`} scope="col">
                  <Trans>Price</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Phase</Trans>
                </th>
                <th className={css.th} scope="col">
                  <Trans>Closed by</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((l) => (
                <Row key={`${l.posId}|${l.isMatch ? 1 : 0}`} l={l} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      {history.status === "ERROR" && (
        <p className={css.error} role="alert">
          <Trans>Could not load liquidations: {reason}</Trans>
        </p>
      )}
      <div className={css.footer}>
        {history.range && (
          <span>
            <Trans>Since {since}</Trans>
          </span>
        )}
        <span className={css.spacer} />
        {history.status === "ERROR" ? (
          <button type="button" className={css.button} onClick={older}>
            <Trans>Retry</Trans>
          </button>
        ) : (
          more &&
          rows.length > 0 && (
            <button type="button" className={css.button} onClick={older} disabled={loading}>
              {loading ? t`Loading…` : t`Older`}
            </button>
          )
        )}
      </div>
    </section>
  );
}
