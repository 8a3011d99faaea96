import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { useSnapshot } from "valtio";
import {
  decodeFundingInfo,
  LEDGER_CATEGORY,
  LEDGER_LIMIT_MAX,
  ledgerCodec,
  WALLET_TYPE,
  type FundingInfo,
  type LedgerEntry,
} from "../../../protocol";
import { accountStore } from "../../desk/account-store";
import { formatAmount } from "../../desk/widgets/tables/format";
import type { WidgetProps } from "../../desk/widget";
import { currencyOf } from "./currency";
import * as css from "./funding-account.css";
import { dailyPercent, sumEarnings, yearlyPercent, type Earnings } from "./model";
import { useFundingServices } from "./services";

/**
 * The currency's funding at a glance: the yields and the days left of what the account lends and
 * borrows (funding info: `r/info/funding/fCCY` when shown, then the socket's `fiu`), and the
 * interest earned as a lender and paid as a borrower, summed from the margin-funding ledger rows
 * (the exchange writes one per daily payment and per charge). Read again whenever a credit, a loan
 * or a wallet of the account changes, since a payment moves the wallet.
 */
export function FundingSummary(props: WidgetProps) {
  const { t } = useLingui();
  const services = useFundingServices();
  const currency = currencyOf(props);
  const symbol = `f${currency}`;
  const account = useSnapshot(accountStore);
  const live = account.link === "live";
  const view = account.view;
  const [fetchedInfo, setFetchedInfo] = useState<FundingInfo | null>(null);
  const [earnings, setEarnings] = useState<Earnings | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!live) return;
    let stale = false;
    void services.call(`/v2/auth/r/info/funding/${symbol}`, {}).then((r) => {
      const d = r.ok ? decodeFundingInfo(r.data) : null;
      if (!stale && d?.ok) setFetchedInfo(d.value);
    });
    return () => {
      stale = true;
    };
  }, [services, symbol, live]);

  // What moves the sums: a payment (the funding wallet's balance), a charge (the margin wallet's),
  // a credit or a loan opening or closing.
  const wallets = view?.wallets.filter(
    (w) => w.currency === currency && (w.type === WALLET_TYPE.FUNDING || w.type === WALLET_TYPE.MARGIN),
  );
  const changeKey = [
    ...(wallets ?? []).map((w) => `${w.type}:${w.balance}`),
    view?.credits.length ?? 0,
    view?.loans.length ?? 0,
  ].join("|");

  useEffect(() => {
    if (!live) return;
    let stale = false;
    void services
      .call(`/v2/auth/r/ledgers/${currency}/hist`, {
        category: LEDGER_CATEGORY.MARGIN_FUNDING,
        limit: LEDGER_LIMIT_MAX,
      })
      .then((r) => {
        if (stale) return;
        if (!r.ok || !Array.isArray(r.data)) {
          setFailed(true);
          return;
        }
        const rows: LedgerEntry[] = [];
        for (const raw of r.data) {
          const d = ledgerCodec.decode(raw);
          if (d.ok) rows.push(d.value);
        }
        setFailed(false);
        setEarnings(sumEarnings(rows));
      });
    return () => {
      stale = true;
    };
  }, [services, currency, live, changeKey]);

  if (!live)
    return (
      <div className={css.root}>
        <p className={css.message.note}>
          <Trans>Sign in to see your funding.</Trans>
        </p>
      </div>
    );

  const info = view?.fundingInfo[symbol] ?? fetchedInfo;
  const days = (d: number | null | undefined): string => {
    const n = d === null || d === undefined ? 0 : Math.round(d * 10) / 10;
    return t`${n} days`;
  };
  const earned = earnings === null ? "…" : `${formatAmount(earnings.earned)} ${currency}`;
  const paid = earnings === null ? "…" : `${formatAmount(earnings.paid)} ${currency}`;
  const yieldText = (rate: number | null): string => {
    if (rate === null || rate === 0) return "—";
    const daily = dailyPercent(rate);
    const yearly = yearlyPercent(rate);
    return t`${daily} a day · ${yearly} a year`;
  };
  const figures: readonly { key: string; label: string; value: string }[] = [
    { key: "earned", label: t`Interest earned`, value: earned },
    { key: "paid", label: t`Interest paid`, value: paid },
    { key: "yield-lend", label: t`Lending yield`, value: yieldText(info?.yieldLend ?? null) },
    { key: "duration-lend", label: t`Lent for`, value: days(info?.durationLend) },
    { key: "yield-loan", label: t`Borrowing cost`, value: yieldText(info?.yieldLoan ?? null) },
    { key: "duration-loan", label: t`Borrowed for`, value: days(info?.durationLoan) },
  ];
  return (
    <section className={css.root} aria-label={t`Funding summary, ${currency}`}>
      <dl className={css.figures}>
        {figures.map((f) => (
          <div key={f.key} className={css.figure} data-testid={`funding-${f.key}`}>
            <dt className={css.figureLabel}>{f.label}</dt>
            <dd className={css.figureValue}>{f.value}</dd>
          </div>
        ))}
      </dl>
      {failed && (
        <p role="alert" className={css.message.error}>
          <Trans>Your interest payments could not be read. They will be read again with the next change.</Trans>
        </p>
      )}
    </section>
  );
}
