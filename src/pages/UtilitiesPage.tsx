/** The tools around trading: API keys, reports and exports, the address book, sub-accounts and more, with links. */
import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { ContentPage } from "../ui/site";
import * as learn from "../ui/site-learn/site-learn.css";

interface Tool {
  readonly id: string;
  readonly href: string;
  readonly title: ReactNode;
  readonly body: ReactNode;
}

export function UtilitiesPage() {
  const tools: readonly Tool[] = [
    {
      id: "api",
      href: "/api",
      title: <Trans>API keys</Trans>,
      body: (
        <Trans>
          Keys for bots and tools, each with read or write access per area (orders, funding, wallets, withdrawals and
          more) and an optional list of IP addresses it may be used from.
        </Trans>
      ),
    },
    {
      id: "reports",
      href: "/reports",
      title: <Trans>Reports and CSV export</Trans>,
      body: (
        <Trans>
          Orders, trades, ledgers and movements for any date range, exported to CSV on the spot or mailed to you as a
          report.
        </Trans>
      ),
    },
    {
      id: "archive",
      href: "/archive",
      title: <Trans>Archive</Trans>,
      body: <Trans>Your complete history, page by page, however far back it goes.</Trans>,
    },
    {
      id: "addresses",
      href: "/security/addresses",
      title: <Trans>Withdrawal address book</Trans>,
      body: (
        <Trans>
          Save the addresses you withdraw to, each confirmed by e-mail, and allow withdrawals to those addresses only.
        </Trans>
      ),
    },
    {
      id: "subaccounts",
      href: "/subaccounts",
      title: <Trans>Sub-accounts</Trans>,
      body: (
        <Trans>
          Separate accounts for strategies, desks or team members under your main account, with transfers between them.
        </Trans>
      ),
    },
    {
      id: "notifications",
      href: "/notifications",
      title: <Trans>Notifications</Trans>,
      body: <Trans>Choose which events reach you by e-mail and on screen, and subscribe to our newsletters.</Trans>,
    },
  ];
  return (
    <ContentPage
      title={<Trans>Trading tools</Trans>}
      lead={
        <Trans>
          Everything around your trading: keys for your programs, records for your accountant, and controls over where
          your money can go. These tools are in your account; sign in to open them.
        </Trans>
      }
      toc={false}
      sections={[
        {
          id: "tools",
          title: <Trans>Tools in your account</Trans>,
          content: (
            <ul className={learn.toolList}>
              {tools.map((tool) => (
                <li key={tool.id} className={learn.tool}>
                  <h3 className={learn.toolTitle}>
                    <a href={tool.href}>{tool.title}</a>
                  </h3>
                  <p className={learn.toolBody}>{tool.body}</p>
                </li>
              ))}
            </ul>
          ),
        },
        {
          id: "public",
          title: <Trans>Open to everyone</Trans>,
          content: (
            <ul>
              <li>
                <Trans>
                  The live <a href="/order-book">order book</a> and <a href="/funding-book">funding book</a>.
                </Trans>
              </li>
              <li>
                <Trans>
                  <a href="/stats">Exchange statistics</a>: volume, open positions and funding over time.
                </Trans>
              </li>
              <li>
                <Trans>
                  <a href="/fees">Fees</a> and the <a href="/deposits-and-withdrawals">terms of every network</a>.
                </Trans>
              </li>
            </ul>
          ),
        },
      ]}
      related={[
        { href: "/pro", label: <Trans>Orderflow Pro</Trans> },
        { href: "/verification", label: <Trans>Verification levels</Trans> },
      ]}
    />
  );
}
