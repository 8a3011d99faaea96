/**
 * The fee and movement tables of the fees and deposits-and-withdrawals pages, drawn from what the
 * exchange publishes (site-api.ts): nothing here knows a rate or a minimum.
 */
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { currencyTicker, splitPair, type TxMethodTerms } from "../../protocol";
import { amount, count, percent } from "./format";
import type { FeesData } from "./site-api";
import * as css from "./site-live.css";

export function TradingFeeTable({ fees }: { readonly fees: FeesData }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  const captionId = useId();
  return (
    <div className={css.tableWrap} tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className={css.table}>
        <caption className={css.muted} id={captionId}>
          <Trans>Trading fees, as a share of the trade's value</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col" className={css.th}>
              <Trans>Markets</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Maker</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Taker</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row" className={css.td}>
              <Trans>All spot and derivatives pairs</Trans>
            </th>
            <td className={css.tdNum} data-testid="maker-fee">
              {percent(l, fees.schedule.maker)}
            </td>
            <td className={css.tdNum} data-testid="taker-fee">
              {percent(l, fees.schedule.taker)}
            </td>
          </tr>
          {fees.overrides.map((o) => {
            const legs = splitPair(o.pair);
            return (
              <tr key={o.pair}>
                <th scope="row" className={css.td}>
                  {legs ? `${legs.base}/${legs.quote}` : o.pair}
                </th>
                <td className={css.tdNum}>{percent(l, o.maker_fee)}</td>
                <td className={css.tdNum}>{percent(l, o.taker_fee)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const NOT_OFFERED = msg`Not offered`;

/** Per currency and network: deposit minimum and confirmations, withdrawal fee and minimum. */
export function MovementTable({ methods }: { readonly methods: readonly TxMethodTerms[] }) {
  const { i18n } = useLingui();
  const l = i18n.locale;
  const dash = (
    <>
      <span aria-hidden="true">–</span>
      <span className={css.visuallyHidden}>{i18n._(NOT_OFFERED)}</span>
    </>
  );
  const sum = (v: number | null, ccy: string) => (v === null ? dash : `${amount(l, v)} ${currencyTicker(ccy)}`);
  const captionId = useId();
  return (
    <div className={css.tableWrap} tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className={css.table}>
        <caption className={css.muted} id={captionId}>
          <Trans>Deposit and withdrawal terms per currency and network</Trans>
        </caption>
        <thead>
          <tr>
            <th scope="col" className={css.th}>
              <Trans>Currency</Trans>
            </th>
            <th scope="col" className={css.th}>
              <Trans>Network</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Minimum deposit</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Confirmations</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Withdrawal fee</Trans>
            </th>
            <th scope="col" className={css.thNum}>
              <Trans>Minimum withdrawal</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {methods.map((m) => (
            <tr key={m.method}>
              <th scope="row" className={css.td}>
                {currencyTicker(m.currency)}
              </th>
              <td className={css.td}>{m.network}</td>
              <td className={css.tdNum}>{sum(m.depositMinimum, m.currency)}</td>
              <td className={css.tdNum}>{m.depositConfirmations === null ? dash : count(l, m.depositConfirmations)}</td>
              <td className={css.tdNum}>{sum(m.withdrawalFee, m.currency)}</td>
              <td className={css.tdNum}>{sum(m.withdrawalMinimum, m.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
