/**
 * Trading from a phone: the site's phone layout and the installable web app (public/sw.js,
 * public/manifest.webmanifest; src/ui/service-worker.ts registers the worker).
 */
import { Trans } from "@lingui/react/macro";
import { CardGrid, ContentPage } from "../ui/site";
import * as css from "./pages.css";

export function MobileTradingPage() {
  return (
    <ContentPage
      title={<Trans>Mobile trading</Trans>}
      lead={
        <Trans>
          Orderflow runs in your phone's browser: the same account, markets and orders as on a computer, laid out for a
          narrow screen. Add it to your home screen and it opens like an app.
        </Trans>
      }
      actions={
        <>
          <a className={css.cta} href="/tradedesk/BTCUSD">
            <Trans>Open the desk</Trans>
          </a>
          <a className={css.ctaGhost} href="/app">
            <Trans>Install the app</Trans>
          </a>
        </>
      }
      sections={[
        {
          id: "phone",
          title: <Trans>Made for a phone screen</Trans>,
          content: (
            <CardGrid
              cards={[
                {
                  id: "markets",
                  title: <Trans>Markets and books</Trans>,
                  body: (
                    <Trans>
                      Live prices on the home page, and the full <a href="/order-book">order book</a> with its bids and
                      asks one above the other.
                    </Trans>
                  ),
                },
                {
                  id: "account",
                  title: <Trans>Your account</Trans>,
                  body: (
                    <Trans>
                      Your wallets, deposits, withdrawals and security settings, on the same pages as on a computer.
                    </Trans>
                  ),
                },
                {
                  id: "alerts",
                  title: <Trans>Notifications</Trans>,
                  body: <Trans>Fills and order changes appear as notices the moment the exchange reports them.</Trans>,
                },
              ]}
            />
          ),
        },
        {
          id: "install",
          title: <Trans>Install it like an app</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  Orderflow is an installable web app. Installed, it opens in its own window from your home screen, and
                  a background worker keeps the app's files on your phone so it starts faster. Prices, orders and
                  balances always come fresh from the exchange, never from that store.
                </Trans>
              </p>
              <p>
                <Trans>
                  The steps for each browser are on the <a href="/download">download page</a>.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "safety",
          title: <Trans>Safe on the move</Trans>,
          content: (
            <p>
              <Trans>
                Use an authenticator app or a hardware key for sign-in and withdrawals, and lock your phone. If you lose
                it, <a href="/freeze">freeze your account</a> from any other device: that signs out every session at
                once.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/app", label: <Trans>The Orderflow app</Trans> },
        { href: "/pro", label: <Trans>Orderflow Pro</Trans> },
      ]}
    />
  );
}
