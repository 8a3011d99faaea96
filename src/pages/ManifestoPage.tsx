/** Manifesto: the principles the exchange and its desk are built on. */
import { Trans } from "@lingui/react/macro";
import { ContentPage } from "../ui/site";

export function ManifestoPage() {
  return (
    <ContentPage
      title={<Trans>Manifesto</Trans>}
      lead={<Trans>What we believe an exchange owes the people who trade on it.</Trans>}
      sections={[
        {
          id: "correct",
          title: <Trans>Correct before fast</Trans>,
          content: (
            <p>
              <Trans>
                A book that is fast and wrong is worse than no book. Every book we send carries a checksum the desk
                verifies, and a book that fails it is fetched again, never shown as if nothing happened.
              </Trans>
            </p>
          ),
        },
        {
          id: "fast",
          title: <Trans>Then fast, under any load</Trans>,
          content: (
            <p>
              <Trans>
                Markets are busiest when traders need their screen most. The desk does its work off the page's thread
                and draws at most once a frame, so a burst of updates never freezes it.
              </Trans>
            </p>
          ),
        },
        {
          id: "honest",
          title: <Trans>Honest about what it knows</Trans>,
          content: (
            <p>
              <Trans>
                A silent feed is shown as silent. A confirmed order is one written to our database. An error says what
                went wrong and what to do next.
              </Trans>
            </p>
          ),
        },
        {
          id: "open",
          title: <Trans>Open protocol, no lock-in</Trans>,
          content: (
            <p>
              <Trans>
                We speak a public protocol, the Bitfinex API version 2, so your programs and tools work with us as they
                are, and you can leave with them.
              </Trans>
            </p>
          ),
        },
        {
          id: "everyone",
          title: <Trans>For everyone who trades</Trans>,
          content: (
            <p>
              <Trans>
                Seven languages, high-contrast and colour-blind themes, keyboard shortcuts and screen-reader
                announcements. A trader who does not use a mouse is still a trader.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/about", label: <Trans>About us</Trans> },
        { href: "/join", label: <Trans>Careers</Trans> },
      ]}
    />
  );
}
