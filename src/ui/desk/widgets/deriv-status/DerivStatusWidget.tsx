import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { abbreviate, toFixedCapped, toSignificant, type Position } from "../../../../protocol";
import { log } from "../../../log";
import type { MarketBridge } from "../../../market/bridge";
import { market } from "../../../market/market";
import { appScheduler } from "../../../scheduler";
import { accountStore } from "../../account-store";
import { loadMarketList, marketListSnapshot, subscribeMarketList } from "../../market-list";
import type { WidgetDef, WidgetProps } from "../../widget";
import { FeedBadge, HealthStore } from "../book";
import { countdown, DERIV_REFRESH_MS, DerivStatusStore, fundingPercent, perpetualFor, statusKey } from "./deriv-status";
import * as css from "./deriv-status.css";

export type StatusSource = Pick<MarketBridge, "status">;

/** The desk's widget: the perpetual of the desk's market, from the app's bridge. */
export function DerivStatusWidget({ pair }: WidgetProps) {
  const list = useSyncExternalStore(subscribeMarketList, marketListSnapshot);
  useEffect(() => void loadMarketList(), []);
  const perpetual = perpetualFor(pair, list.status === "ready" ? list.pairs : null);
  return <DerivStatusPanel key={perpetual} perpetual={perpetual} source={market} />;
}

export const derivStatusWidget: WidgetDef = {
  type: "deriv-status",
  title: msg`Derivatives status`,
  component: DerivStatusWidget,
  feature: "derivatives",
  defaultSize: { w: 12, h: 10 },
  minSize: { w: 5, h: 7 },
};

/** A price to the desk's 5 significant digits. */
function price(value: number | null): string {
  return value === null ? "—" : toSignificant(value);
}

/** A wallet amount: up to 8 decimals, trailing zeros dropped. */
function money(value: number | null, unit: string): string {
  if (value === null) return "—";
  const fixed = toFixedCapped(value, 8)
    .replace(/(\.\d*?)0+$/, "$1")
    .replace(/\.$/, "");
  return `${fixed === "-0" ? "0" : fixed} ${unit}`;
}

function Signed({ value, text }: { readonly value: number | null; readonly text: string }) {
  const cls = value === null || value === 0 ? undefined : value > 0 ? css.positive : css.negative;
  return <span className={cls}>{text}</span>;
}

function Row({
  label,
  children,
  testId,
}: {
  readonly label: string;
  readonly children: ReactNode;
  readonly testId: string;
}) {
  return (
    <div className={css.item}>
      <dt className={css.label}>{label}</dt>
      <dd className={css.value} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/**
 * The derivatives status of one perpetual (the exchange's `status` channel, `deriv:` key): prices,
 * the funding under way and its countdown, the insurance fund, open interest and the funding
 * clamps, and the account's funding paid on its position there. Re-renders once a second at most
 * (DerivStatusStore); `source` is called inside the effect, so rendering never starts the worker.
 */
export function DerivStatusPanel({
  perpetual,
  source,
}: {
  readonly perpetual: string;
  readonly source: () => StatusSource;
}) {
  const { t } = useLingui();
  const [store] = useState(() => new DerivStatusStore(() => appScheduler.now()));
  const [health] = useState(() => new HealthStore(() => appScheduler.now()));
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const account = useSnapshot(accountStore);

  useEffect(() => {
    const controller = new AbortController();
    source()
      .status(
        statusKey(perpetual),
        (view) => {
          if (controller.signal.aborted) return;
          store.observe(view);
          health.observe(view.status, view.health);
        },
        controller.signal,
      )
      .catch((err: unknown) => log.warn("derivatives status subscription failed", perpetual, err));
    return () => controller.abort();
  }, [source, perpetual, store, health]);

  useEffect(() => {
    const timers = appScheduler.child();
    timers.every(DERIV_REFRESH_MS, () => store.tick());
    return () => timers.dispose();
  }, [store]);

  const s = snap.status;
  const position = account.view?.positions.find((p: Position) => p.pair === `t${perpetual}` || p.pair === perpetual);
  const quote = "USTF0";
  const step = s?.fundingStep ?? null;
  const next = countdown(s?.nextFundingEvtMts ?? null, snap.now);
  return (
    <section className={css.root} data-testid="deriv-status" aria-labelledby={`deriv-title-${perpetual}`}>
      <div className={css.header}>
        <h3 className={css.title} id={`deriv-title-${perpetual}`}>
          <Trans>{perpetual} perpetual</Trans>
        </h3>
        <span className={css.spacer} />
        <FeedBadge store={health} testId="deriv-feed" />
      </div>
      <div className={css.body}>
        {s === null ? (
          <p className={css.note}>
            <Trans>Waiting for the derivatives status…</Trans>
          </p>
        ) : (
          <dl className={css.list}>
            <Row label={t`Mark price`} testId="deriv-mark">
              {price(s.markPrice)}
            </Row>
            <Row label={t`Spot price`} testId="deriv-spot">
              {price(s.priceSpot)}
            </Row>
            <Row label={t`Next funding`} testId="deriv-next">
              <time dateTime={s.nextFundingEvtMts === null ? undefined : new Date(s.nextFundingEvtMts).toISOString()}>
                {next ?? "—"}
              </time>
            </Row>
            <Row label={t`Accrued funding`} testId="deriv-accrued">
              <Signed value={s.fundingAccruedNext} text={fundingPercent(s.fundingAccruedNext)} />
            </Row>
            <Row label={t`Current funding`} testId="deriv-current">
              <Signed value={s.fundingAccruedCurrent} text={fundingPercent(s.fundingAccruedCurrent)} />
            </Row>
            <Row label={t`Funding step`} testId="deriv-step">
              {/* The exchange's accrual counter: samples taken toward the next funding, not a time. */}
              {step === null ? "—" : String(step)}
            </Row>
            <Row label={t`Insurance fund`} testId="deriv-insurance">
              {s.insuranceFundBalance === null ? "—" : `${abbreviate(s.insuranceFundBalance)} ${quote}`}
            </Row>
            <Row label={t`Open interest`} testId="deriv-oi">
              {s.openInterest === null ? "—" : abbreviate(s.openInterest)}
            </Row>
            <Row label={t`Funding clamps`} testId="deriv-clamps">
              {`${fundingPercent(s.clampMin)} / ${fundingPercent(s.fundingAccruedNextCap)}`}
            </Row>
            {position && (
              <Row label={t`Your funding`} testId="deriv-own-funding">
                <Signed value={position.swap} text={money(position.swap, quote)} />
              </Row>
            )}
          </dl>
        )}
      </div>
    </section>
  );
}
