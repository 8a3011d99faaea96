import { useLingui } from "@lingui/react/macro";
import { useState, type ReactNode } from "react";
import type { AccountView, FundingCredit, FundingLoan, FundingOffer } from "../../../protocol";
import { notify } from "../../desk/notices";
import { AccountGate } from "../../desk/widgets/tables/AccountGate";
import { formatAmount } from "../../desk/widgets/tables/format";
import type { WidgetProps } from "../../desk/widget";
import { useTimeFormat } from "../../time/format";
import { currencyOf } from "./currency";
import * as css from "./funding-account.css";
import { dailyPercent } from "./model";
import { useFundingServices } from "./services";

type Tab = "offers" | "credits" | "loans";

/**
 * The account's funding records in one currency, as the worker reconciles them from channel 0:
 * open offers (with Cancel), credits — what the account lends out — and loans — what it borrows
 * (each with Close: a credit taken back, a loan repaid). A row leaves when the exchange says so
 * (`foc`, `fcc`, `flc`), not when the button is pressed.
 */
export function FundingTables(props: WidgetProps) {
  const { t } = useLingui();
  const currency = currencyOf(props);
  const [tab, setTab] = useState<Tab>("offers");
  const tabs: readonly { id: Tab; label: string }[] = [
    { id: "offers", label: t`Offers` },
    { id: "credits", label: t`Credits` },
    { id: "loans", label: t`Loans` },
  ];
  const panelId = `${props.widgetKey}-panel`;
  return (
    <section className={css.widget} aria-label={t`Funding, ${currency}`}>
      <div className={css.toolbar}>
        <div className={css.tabs} role="tablist" aria-label={t`Funding records`}>
          {tabs.map((x) => (
            <button
              key={x.id}
              type="button"
              role="tab"
              id={`${props.widgetKey}-${x.id}`}
              aria-selected={tab === x.id}
              aria-controls={panelId}
              className={css.tab}
              onClick={() => setTab(x.id)}
            >
              {x.label}
            </button>
          ))}
        </div>
      </div>
      <div className={css.scroller} role="tabpanel" id={panelId} aria-labelledby={`${props.widgetKey}-${tab}`}>
        <AccountGate>{(view) => <Records view={view} tab={tab} symbol={`f${currency}`} />}</AccountGate>
      </div>
    </section>
  );
}

function Records(props: { readonly view: AccountView; readonly tab: Tab; readonly symbol: string }) {
  const { t } = useLingui();
  const time = useTimeFormat();
  const services = useFundingServices();
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const [result, setResult] = useState<{ readonly ok: boolean; readonly text: string } | null>(null);

  const act = (id: number, path: string, done: string): void => {
    setBusy((b) => new Set(b).add(id));
    void services.call(path, { id }).then((r) => {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(id);
        return next;
      });
      const reason = r.text;
      const text = r.ok ? done : reason === "" ? t`The exchange did not answer.` : t`The exchange refused: ${reason}`;
      setResult({ ok: r.ok, text });
      notify({ level: r.ok ? "success" : "error", kind: "funding", text });
    });
  };

  const status = (
    <p role="status" className={`${css.tableStatus} ${result?.ok === false ? css.message.error : css.message.note}`}>
      {result?.text ?? ""}
    </p>
  );

  if (props.tab === "offers") {
    const rows = props.view.fundingOffers.filter((o) => o.symbol === props.symbol && o.active);
    return (
      <>
        <Table
          testId="funding-offers"
          caption={t`Open offers`}
          empty={t`No open offers.`}
          head={[t`Side`, t`Amount`, t`Rate a day`, t`Period`, t`Type`, t`Created`, t`Actions`]}
          rows={rows.map((o: FundingOffer) => {
            const { id, period } = o;
            return {
              id,
              cells: [
                o.amount > 0 ? t`Lend` : t`Borrow`,
                formatAmount(Math.abs(o.amount)),
                dailyPercent(o.rateReal ?? o.rate),
                t`${period} days`,
                offerTypeWord(o.type, t`Fixed`, t`FRR floating`, t`FRR fixed`),
                time.full(o.mtsCreate),
                <button
                  key="cancel"
                  type="button"
                  className={css.button.danger}
                  disabled={busy.has(o.id)}
                  aria-label={t`Cancel offer ${id}`}
                  onClick={() => act(o.id, "/v2/auth/w/funding/offer/cancel", t`Offer cancelled.`)}
                >
                  {t`Cancel`}
                </button>,
              ],
            };
          })}
        />
        {status}
      </>
    );
  }

  const lending = props.tab === "credits";
  const rows: readonly (FundingCredit | FundingLoan)[] = (lending ? props.view.credits : props.view.loans).filter(
    (c) => c.symbol === props.symbol,
  );
  return (
    <>
      <Table
        testId={lending ? "funding-credits" : "funding-loans"}
        caption={lending ? t`Credits: what you lend` : t`Loans: what you borrow`}
        empty={lending ? t`No credits.` : t`No loans.`}
        head={[t`Amount`, t`Rate a day`, t`Period`, t`Opened`, t`Last payment`, t`Status`, t`Actions`]}
        rows={rows.map((c) => {
          const { id, period } = c;
          return {
            id,
            cells: [
              formatAmount(Math.abs(c.amount)),
              dailyPercent(c.rate),
              t`${period} days`,
              time.full(c.mtsOpening ?? c.mtsCreate),
              time.full(c.mtsLastPayout),
              c.status ?? "–",
              <button
                key="close"
                type="button"
                className={css.button.danger}
                disabled={busy.has(c.id) || c.noClose}
                aria-label={lending ? t`Close credit ${id}` : t`Repay loan ${id}`}
                onClick={() => act(c.id, "/v2/auth/w/funding/close", lending ? t`Credit closed.` : t`Loan repaid.`)}
              >
                {lending ? t`Close` : t`Repay`}
              </button>,
            ],
          };
        })}
      />
      {status}
    </>
  );
}

function offerTypeWord(type: string | null, fixed: string, floating: string, frrFixed: string): string {
  if (type === "FRRDELTAVAR") return floating;
  if (type === "FRRDELTAFIX") return frrFixed;
  return fixed;
}

function Table(props: {
  readonly testId: string;
  readonly caption: string;
  readonly empty: string;
  readonly head: readonly string[];
  readonly rows: readonly { readonly id: number; readonly cells: readonly ReactNode[] }[];
}) {
  if (props.rows.length === 0) return <p className={css.empty}>{props.empty}</p>;
  const last = props.head.length - 1;
  return (
    <table className={css.table} data-testid={props.testId}>
      <caption className={css.heading}>{props.caption}</caption>
      <thead>
        <tr>
          {props.head.map((h, i) => (
            <th key={h} scope="col" className={i === 0 || i === last ? css.th : `${css.th} ${css.thEnd}`}>
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <tr key={r.id} data-row={r.id}>
            {r.cells.map((c, i) => (
              <td key={i} className={i === 0 || i === last ? css.td : `${css.td} ${css.tdEnd}`}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
