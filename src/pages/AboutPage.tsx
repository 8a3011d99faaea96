/** About: what Orderflow is, the exchange behind the desk, how accounts are protected, where it operates. */
import { Trans } from "@lingui/react/macro";
import { ContentPage, FactList } from "../ui/site";
import * as css from "./pages.css";

export function AboutPage() {
  return (
    <ContentPage
      title={<Trans>About us</Trans>}
      lead={
        <Trans>
          Orderflow is an exchange built for high-volume traders: a web trading desk that stays fast under any feed rate
          and correct to the last level, and an exchange behind it that keeps every book and balance exact.
        </Trans>
      }
      actions={
        <>
          <a className={css.cta} href="/signup">
            <Trans>Open an account</Trans>
          </a>
          <a className={css.ctaGhost} href="/features">
            <Trans>See the features</Trans>
          </a>
        </>
      }
      sections={[
        {
          id: "facts",
          title: <Trans>In short</Trans>,
          content: (
            <FactList
              facts={[
                {
                  term: <Trans>Protocol</Trans>,
                  value: <Trans>Bitfinex API version 2, over REST and WebSocket</Trans>,
                },
                { term: <Trans>Trading fees</Trans>, value: <Trans>0.1 % maker, 0.2 % taker</Trans> },
                {
                  term: <Trans>Languages</Trans>,
                  value: (
                    <Trans>English, Russian, Chinese (simplified and traditional), Spanish, Turkish, Portuguese</Trans>
                  ),
                },
                {
                  term: <Trans>Local entities</Trans>,
                  value: <Trans>Orderflow Türkiye and Orderflow Brasil, for residents of those countries</Trans>,
                },
              ]}
            />
          ),
        },
        {
          id: "desk",
          title: <Trans>The trading desk</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  The desk keeps the connection, the order books and their checksums in a background worker, so the page
                  only draws. Books show 250 levels a side at five precisions; a silent or drifting feed turns its badge
                  red and is reconnected instead of staying green.
                </Trans>
              </p>
              <p>
                <Trans>
                  It is usable by everyone: high-contrast and colour-blind themes, keyboard shortcuts and screen-reader
                  announcements are part of the product, not an afterthought.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "exchange",
          title: <Trans>The exchange</Trans>,
          content: (
            <>
              <p>
                <Trans>
                  Orders match by price, then time: limit, market, IOC and fill-or-kill, post-only and hidden orders,
                  margin up to 10x and peer-to-peer funding. You are never matched against yourself.
                </Trans>
              </p>
              <p>
                <Trans>
                  Every order, fill and balance change is written to the exchange's database before anyone is told of
                  it, so what you see after a restart is what was confirmed. The same protocol serves the desk and your
                  own programs, and a paper-trading exchange with the same rules is available for practice.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "safety",
          title: <Trans>How we protect accounts</Trans>,
          content: (
            <ul>
              <li>
                <Trans>Two-factor sign-in with an authenticator app, a hardware key or a text message.</Trans>
              </li>
              <li>
                <Trans>Every withdrawal confirmed by a mailed link, with an optional list of allowed addresses.</Trans>
              </li>
              <li>
                <Trans>A freeze link in every mail we send, which stops the account at once.</Trans>
              </li>
              <li>
                <Trans>
                  Passwords stored only as scrypt hashes, and mail encrypted with your PGP key if you add one.
                </Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "contact",
          title: <Trans>Contact</Trans>,
          content: (
            <p>
              <Trans>
                Questions about your account go through <a href="/support">support</a>; journalists, see the{" "}
                <a href="/press">press page</a>. Our official accounts are listed on the{" "}
                <a href="/channels">channels page</a>.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/manifesto", label: <Trans>Manifesto</Trans> },
        { href: "/security-policy", label: <Trans>Security policy</Trans> },
        { href: "/join", label: <Trans>Careers</Trans> },
      ]}
    />
  );
}
