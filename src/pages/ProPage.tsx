/**
 * The trading desk for high-volume traders: what it does, in the desk's own terms (its order types,
 * books, layouts, shortcuts and the API), with links into it.
 */
import { Trans } from "@lingui/react/macro";
import { CardGrid, ContentPage } from "../ui/site";
import * as css from "./pages.css";

export function ProPage() {
  return (
    <ContentPage
      title={<Trans>Orderflow Pro: the trading desk</Trans>}
      lead={
        <Trans>
          One screen for traders who move size: deep live books, every order type the exchange takes, and a layout you
          arrange yourself. It runs in the browser, with nothing to install.
        </Trans>
      }
      actions={
        <>
          <a className={css.cta} href="/tradedesk/BTCUSD">
            <Trans>Open the desk</Trans>
          </a>
          <a className={css.ctaGhost} href="/fees">
            <Trans>See the fees</Trans>
          </a>
        </>
      }
      sections={[
        {
          id: "books",
          title: <Trans>Books you can trust</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  The order book shows 250 price levels a side at five precisions, with cumulative depth and a depth
                  chart. Every update is checked against the exchange's checksum; a book that drifts is fetched again,
                  and a feed that goes quiet turns its badge red instead of showing old prices.
                </Trans>
              </p>
              <p>
                <Trans>
                  Market data is handled in a background worker, so the page stays responsive in a fast market.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "orders",
          title: <Trans>Orders</Trans>,
          content: (
            <CardGrid
              cards={[
                {
                  id: "types",
                  title: <Trans>Seven order types</Trans>,
                  body: (
                    <Trans>
                      Limit, market, stop, stop limit, trailing stop, fill-or-kill and immediate-or-cancel, on spot or
                      margin.
                    </Trans>
                  ),
                },
                {
                  id: "flags",
                  title: <Trans>Order flags</Trans>,
                  body: (
                    <Trans>
                      Hidden, post-only and reduce-only orders, and one-cancels-other with its own stop price.
                    </Trans>
                  ),
                },
                {
                  id: "book-click",
                  title: <Trans>From the book to the form</Trans>,
                  body: (
                    <Trans>
                      Click a price level to fill the order form; amount, total and percent of balance stay in step.
                    </Trans>
                  ),
                },
                {
                  id: "edit",
                  title: <Trans>Edit in place</Trans>,
                  body: (
                    <Trans>Change the price or amount of an open order, or cancel them all on a market at once.</Trans>
                  ),
                },
              ]}
            />
          ),
        },
        {
          id: "layout",
          title: <Trans>Your layout, your keys</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  Move and resize the book, chart, trades, order form and account tables on a grid, save named layouts,
                  and find them on any device you sign in from.
                </Trans>
              </p>
              <p>
                <Trans>
                  Keyboard shortcuts: F focuses the order form, B and S choose the side, / switches the market, and ?
                  lists them all.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "funding",
          title: <Trans>Margin and funding</Trans>,
          content: (
            <p>
              <Trans>
                Trade on margin with funds borrowed from the <a href="/funding-book">funding book</a>, or lend your own
                balance there at the daily rate you choose.
              </Trans>
            </p>
          ),
        },
        {
          id: "api",
          title: <Trans>Automate with the API</Trans>,
          content: (
            <p>
              <Trans>
                The exchange speaks the Bitfinex v2 REST and WebSocket protocol, so existing bots and libraries connect
                unchanged. Create keys with only the permissions a program needs on the <a href="/api">API keys page</a>
                .
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/order-book", label: <Trans>Order book</Trans> },
        { href: "/utilities", label: <Trans>Trading tools</Trans> },
        { href: "/mobile-trading", label: <Trans>Mobile trading</Trans> },
      ]}
    />
  );
}
