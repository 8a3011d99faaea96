/** Bug bounty: what is in scope, the rules of testing, how to report and how reports are rewarded. */
import { Trans } from "@lingui/react/macro";
import { CardGrid, ContentPage } from "../ui/site";
import * as css from "./pages.css";

export function BugBountyPage() {
  return (
    <ContentPage
      title={<Trans>Bug bounty</Trans>}
      lead={
        <Trans>
          We reward security researchers who find and report weaknesses in Orderflow before anyone can abuse them.
        </Trans>
      }
      actions={
        <a className={css.cta} href="/report?category=security">
          <Trans>Report a vulnerability</Trans>
        </a>
      }
      sections={[
        {
          id: "scope",
          title: <Trans>In scope</Trans>,
          content: (
            <ul>
              <li>
                <Trans>This website and the trading desk, including sign-up, sign-in and account pages.</Trans>
              </li>
              <li>
                <Trans>The public and authenticated REST API and the WebSocket API.</Trans>
              </li>
              <li>
                <Trans>
                  The exchange's handling of orders, balances, transfers, withdrawals, API keys and sub-accounts.
                </Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "out-of-scope",
          title: <Trans>Out of scope</Trans>,
          content: (
            <ul>
              <li>
                <Trans>Findings of automated scanners without a demonstrated impact.</Trans>
              </li>
              <li>
                <Trans>Denial of service, load testing and spam of our forms.</Trans>
              </li>
              <li>
                <Trans>Social engineering of our staff or users, and physical attacks.</Trans>
              </li>
              <li>
                <Trans>Services of third parties we do not run.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "rules",
          title: <Trans>Rules</Trans>,
          content: (
            <ul>
              <li>
                <Trans>Test only with your own accounts; open sub-accounts if you need more than one.</Trans>
              </li>
              <li>
                <Trans>Stop as soon as you reach data of another user, do not keep it, and tell us what you saw.</Trans>
              </li>
              <li>
                <Trans>Do not disclose the issue to anyone until we have fixed it and agreed on a date with you.</Trans>
              </li>
              <li>
                <Trans>One report per issue; the first clear report of an issue is the one rewarded.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "rewards",
          title: <Trans>Rewards</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  Rewards follow the severity we confirm: the worse what an attacker could do, the higher the reward.
                </Trans>
              </p>
              <CardGrid
                cards={[
                  {
                    id: "critical",
                    title: <Trans>Critical</Trans>,
                    body: (
                      <Trans>Moving or creating funds, taking over accounts, reading other users' data at scale.</Trans>
                    ),
                  },
                  {
                    id: "high",
                    title: <Trans>High</Trans>,
                    body: <Trans>Placing or cancelling orders for another user, bypassing a second factor.</Trans>,
                  },
                  {
                    id: "medium",
                    title: <Trans>Medium</Trans>,
                    body: <Trans>Reading one user's private data, cross-site scripting on a signed-in page.</Trans>,
                  },
                  {
                    id: "low",
                    title: <Trans>Low</Trans>,
                    body: <Trans>Issues with a limited impact that still need a fix.</Trans>,
                  },
                ]}
              />
            </>
          ),
        },
        {
          id: "report",
          title: <Trans>How to report</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  Use the <a href="/report?category=security">report form</a> and choose "A security vulnerability".
                  Describe the steps to reproduce, the address or API call affected and the impact, and leave an e-mail
                  address so we can reach you about the reward.
                </Trans>
              </p>
              <p>
                <Trans>
                  The form gives you a reference at once. We do not take legal action against research done in good
                  faith within these rules.
                </Trans>
              </p>
            </>
          ),
        },
      ]}
      related={[
        { href: "/security-policy", label: <Trans>Security policy</Trans> },
        { href: "/report", label: <Trans>Report a problem</Trans> },
      ]}
    />
  );
}
