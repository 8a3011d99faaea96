/**
 * The verification levels and what each unlocks. The table is built from the rules the exchange
 * enforces (src/ui/site-learn/levels.ts reads src/protocol's gates and limits), so it cannot say
 * something the exchange does not do.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import {
  MARGIN_INTERMEDIATE_FROM,
  TRAVEL_RULE_THRESHOLD_USD,
  WITHDRAWAL_LIMIT_WINDOW_MS,
  type Locale,
} from "../protocol";
import { LEVEL_NAMES } from "../ui/account/level-gate";
import { intlTag } from "../ui/i18n";
import { ContentPage } from "../ui/site";
import { levelRights } from "../ui/site-learn/levels";
import * as learn from "../ui/site-learn/site-learn.css";
import * as css from "./pages.css";

const HOUR_MS = 3_600_000;

function LevelsTable() {
  const { t, i18n } = useLingui();
  const tag = intlTag(i18n.locale as Locale);
  const usd = new Intl.NumberFormat(tag, { style: "currency", currency: "USD", maximumFractionDigits: 0 });
  const yesNo = (allowed: boolean) =>
    allowed ? <span className={learn.yes}>{t`Yes`}</span> : <span className={learn.no}>{t`No`}</span>;
  return (
    <div className={learn.tableWrap} tabIndex={0} role="region" aria-label={t`Verification levels`}>
      <table className={learn.table} data-testid="level-rules">
        <caption className={css.muted}>
          <Trans>What each level allows, as the exchange enforces it.</Trans>
        </caption>
        <thead>
          <tr>
            <th className={learn.th} scope="col">{t`Level`}</th>
            <th className={learn.th} scope="col">{t`Deposits`}</th>
            <th className={learn.th} scope="col">{t`Margin trading`}</th>
            <th className={learn.th} scope="col">{t`Withdrawals`}</th>
            <th className={learn.th} scope="col">{t`Daily withdrawal limit`}</th>
          </tr>
        </thead>
        <tbody>
          {levelRights().map((r) => (
            <tr key={r.level}>
              <th className={learn.rowHead} scope="row">
                {r.level} · {i18n._(LEVEL_NAMES[r.level])}
              </th>
              <td className={learn.td}>{yesNo(r.deposit)}</td>
              <td className={learn.td}>{yesNo(r.margin)}</td>
              <td className={learn.td}>{yesNo(r.withdraw)}</td>
              <td className={learn.td}>{r.dailyWithdrawalUsd > 0 ? usd.format(r.dailyWithdrawalUsd) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VerificationPage() {
  const { i18n } = useLingui();
  const tag = intlTag(i18n.locale as Locale);
  const marginDate = new Intl.DateTimeFormat(tag, { dateStyle: "long", timeZone: "UTC" }).format(
    MARGIN_INTERMEDIATE_FROM,
  );
  const threshold = new Intl.NumberFormat(tag, { style: "currency", currency: "USD", maximumFractionDigits: 0 }).format(
    TRAVEL_RULE_THRESHOLD_USD,
  );
  const hours = WITHDRAWAL_LIMIT_WINDOW_MS / HOUR_MS;
  return (
    <ContentPage
      title={<Trans>Verification</Trans>}
      lead={
        <Trans>
          Your verification level decides what your account can do. Every account starts at level 0; you raise it with
          one form on your account page, and a reviewer answers by e-mail.
        </Trans>
      }
      actions={
        <>
          <a className={css.cta} href="/account">
            <Trans>Verify your account</Trans>
          </a>
          <a className={css.ctaGhost} href="/signup">
            <Trans>Open an account</Trans>
          </a>
        </>
      }
      sections={[
        {
          id: "levels",
          title: <Trans>Levels and what they unlock</Trans>,
          content: (
            <>
              <LevelsTable />
              <p>
                <Trans>
                  Spot and paper trading are open at every level. The margin column is for accounts opened from{" "}
                  {marginDate}; older accounts keep the lower requirement they had.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "how",
          title: <Trans>How to get verified</Trans>,
          content: (
            <ol>
              <li>
                <Trans>
                  Sign in and open your <a href="/account">account page</a>.
                </Trans>
              </li>
              <li>
                <Trans>
                  Say whether you are a US person. US persons cannot deposit, trade on margin or apply for a level; they
                  can always withdraw what they hold.
                </Trans>
              </li>
              <li>
                <Trans>
                  Choose an individual or a corporate account and the level you want, and give your full name (or the
                  company's) and your home address.
                </Trans>
              </li>
              <li>
                <Trans>
                  Send the form. One request is reviewed at a time: you get an e-mail when it is approved, or the reason
                  it was not, so you can correct it and send it again.
                </Trans>
              </li>
            </ol>
          ),
        },
        {
          id: "limits",
          title: <Trans>How the withdrawal limit counts</Trans>,
          content: (
            <p>
              <Trans>
                The limit covers every withdrawal you requested in the last {hours} hours that was not cancelled, each
                at its US dollar value when you requested it. A withdrawal worth {threshold} or more must also name its
                recipient, as the travel rule requires.
              </Trans>
            </p>
          ),
        },
        {
          id: "privacy",
          title: <Trans>What we keep</Trans>,
          content: (
            <p>
              <Trans>
                We keep the names and the address you give, your answers and the reviewer's decision. Anything that
                shows the state of a review shows your name and country only, never your address.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/how-to-buy-bitcoin", label: <Trans>How to buy bitcoin</Trans> },
        { href: "/deposits-and-withdrawals", label: <Trans>Deposits and withdrawals</Trans> },
        { href: "/fees", label: <Trans>Fees</Trans> },
      ]}
    />
  );
}
