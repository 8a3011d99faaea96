/**
 * Two pages about services run by partners, not by the exchange: buying crypto with a card
 * (/buy-with-cards) and paying Bitrefill with a withdrawal (/bitrefill/start). Each says plainly
 * what the partner does, what the exchange does, and what is not connected on this exchange.
 */
import { Trans } from "@lingui/react/macro";
import { Callout, ContentPage } from "../ui/site";
import { WITHDRAW_LEVEL } from "../ui/site-learn/levels";
import * as css from "./pages.css";

export function BuyWithCardsPage() {
  return (
    <ContentPage
      title={<Trans>Buy crypto with a card</Trans>}
      lead={
        <Trans>
          Orderflow does not take card payments itself. A card purchase goes through a licensed payment partner, which
          charges your card and sends the coins to your Orderflow deposit address.
        </Trans>
      }
      toc={false}
      sections={[
        {
          id: "steps",
          title: <Trans>How a card purchase works</Trans>,
          content: (
            <ol>
              <li>
                <Trans>
                  Sign in and copy your address for the coin from its deposit page, for example your{" "}
                  <a href="/deposit/BTC">BTC deposit address</a>.
                </Trans>
              </li>
              <li>
                <Trans>
                  On the partner's page, choose the coin and the amount, paste the address and pay by card. The partner
                  checks you and your card under its own rules and shows its fee and rate before you pay.
                </Trans>
              </li>
              <li>
                <Trans>The coins arrive as a deposit once the network confirms them, and show in your wallets.</Trans>
              </li>
            </ol>
          ),
        },
        {
          id: "status",
          title: <Trans>On this exchange</Trans>,
          content: (
            <Callout>
              <Trans>
                No card partner is connected to Orderflow yet, so there is no card checkout here. Until there is, buy
                with a bank wire: see <a href="/how-to-buy-bitcoin">how to buy bitcoin</a>.
              </Trans>
            </Callout>
          ),
        },
      ]}
      related={[
        { href: "/how-to-buy-bitcoin", label: <Trans>How to buy bitcoin</Trans> },
        { href: "/deposits-and-withdrawals", label: <Trans>Deposits and withdrawals</Trans> },
      ]}
    />
  );
}

export function BitrefillStartPage() {
  return (
    <ContentPage
      title={<Trans>Spend crypto with Bitrefill</Trans>}
      lead={
        <Trans>
          Bitrefill, a separate company, sells gift cards and phone top-ups for crypto. You can pay its invoices with a
          withdrawal from your Orderflow wallet.
        </Trans>
      }
      actions={
        <a className={css.ctaGhost} href="/withdraw/LTC">
          <Trans>Go to withdrawals</Trans>
        </a>
      }
      toc={false}
      sections={[
        {
          id: "steps",
          title: <Trans>Paying an invoice</Trans>,
          content: (
            <ol>
              <li>
                <Trans>
                  At Bitrefill, choose what to buy and a coin Orderflow can send: bitcoin, ether or litecoin. Bitrefill
                  shows an address and the exact amount.
                </Trans>
              </li>
              <li>
                <Trans>
                  On the <a href="/withdraw/LTC">withdrawal page</a>, send that amount to that address. The network fee
                  is taken from what you withdraw, so raise the amount until what arrives covers the invoice.
                </Trans>
              </li>
              <li>
                <Trans>
                  Confirm the withdrawal from the e-mail we send you straight away: an invoice expires after a short
                  time, and an underpaid or late payment is settled by Bitrefill, not by us.
                </Trans>
              </li>
            </ol>
          ),
        },
        {
          id: "limits",
          title: <Trans>What applies</Trans>,
          content: (
            <p>
              <Trans>
                It is an ordinary withdrawal: it needs verification level {WITHDRAW_LEVEL}, counts towards your daily
                limit and goes only to addresses in your <a href="/security/addresses">address book</a> when you allow
                no others. Lightning invoices cannot be paid from Orderflow.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/verification", label: <Trans>Verification levels</Trans> },
        { href: "/utilities", label: <Trans>Trading tools</Trans> },
      ]}
    />
  );
}
