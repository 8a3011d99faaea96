/**
 * Anti-spam: how to tell the exchange from people pretending to be it, and a form to report them
 * (the report form with the `spam` kind: docs/product-rules.md#site-reports).
 */
import { Trans } from "@lingui/react/macro";
import { ContentPage } from "../ui/site";
import { SiteReportForm } from "./SiteReportForm";

export function AntiSpamPage() {
  return (
    <ContentPage
      title={<Trans>Anti-spam</Trans>}
      lead={
        <Trans>
          Scammers copy our name, our pages and our staff to get at your funds. Here is how to recognise them, and how
          to report a message or an address that claims to be us.
        </Trans>
      }
      sections={[
        {
          id: "never",
          title: <Trans>What we never do</Trans>,
          content: (
            <ul>
              <li>
                <Trans>Ask for your password, two-factor codes, recovery words or API secrets, in any channel.</Trans>
              </li>
              <li>
                <Trans>Contact you first on Telegram, WhatsApp, social networks or by phone.</Trans>
              </li>
              <li>
                <Trans>
                  Ask you to send funds to "verify", "unlock" or "protect" your account, or promise guaranteed returns.
                </Trans>
              </li>
              <li>
                <Trans>Ask you to install remote-access software or a browser extension.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "recognise",
          title: <Trans>How to recognise phishing</Trans>,
          content: (
            <>
              <ul>
                <li>
                  <Trans>
                    The address is almost ours: a zero for an O, an extra word, another ending. Type our address
                    yourself or use a bookmark instead of following a link.
                  </Trans>
                </li>
                <li>
                  <Trans>
                    It hurries you: an account "about to be closed", a withdrawal "to cancel within 10 minutes", a prize
                    that expires today.
                  </Trans>
                </li>
                <li>
                  <Trans>
                    A "support agent" writes to you first after you asked a question in a public group. Real staff
                    answer only through the report page and from the addresses on our channels page.
                  </Trans>
                </li>
              </ul>
              <p>
                <Trans>
                  Every mail we send ends with your account's freeze link. If you clicked a suspicious link or typed
                  your password somewhere, <a href="/freeze">freeze your account</a> and then report the message.
                </Trans>
              </p>
            </>
          ),
        },
        {
          id: "official",
          title: <Trans>Our official channels</Trans>,
          content: (
            <p>
              <Trans>
                The accounts and addresses that speak for us are listed on the <a href="/channels">channels page</a>.
                Anything else using our name is not us.
              </Trans>
            </p>
          ),
        },
        {
          id: "report",
          title: <Trans>Report a suspicious message</Trans>,
          content: <SiteReportForm kind="spam" />,
        },
      ]}
      related={[
        { href: "/channels", label: <Trans>Official channels</Trans> },
        { href: "/security-policy", label: <Trans>Security policy</Trans> },
        { href: "/support", label: <Trans>Support</Trans> },
      ]}
    />
  );
}
