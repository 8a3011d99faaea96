/** Official channels: every way the exchange speaks to its users, and the ones it does not use. */
import { Trans } from "@lingui/react/macro";
import { Callout, CardGrid, ContentPage, ContentSection } from "../ui/site";

export function ChannelsPage() {
  return (
    <ContentPage
      title={<Trans>Official channels</Trans>}
      lead={
        <Trans>
          These are the only ways Orderflow speaks to you. A message that reaches you any other way and uses our name is
          not from us.
        </Trans>
      }
      related={[
        { href: "/anti-spam", label: <Trans>Anti-spam</Trans> },
        { href: "/support", label: <Trans>Support</Trans> },
      ]}
    >
      <ContentSection id="channels" title={<Trans>How we reach you</Trans>}>
        <CardGrid
          cards={[
            {
              id: "site",
              title: <Trans>This website</Trans>,
              body: (
                <Trans>
                  The desk, your account and these pages. Type the address yourself or use a bookmark; never sign in
                  from a link in a message.
                </Trans>
              ),
            },
            {
              id: "mail",
              title: <Trans>E-mail to your account's address</Trans>,
              body: (
                <Trans>
                  Codes, confirmations and reports you asked for. Every genuine mail ends with your account's freeze
                  link, and it is encrypted if you added a PGP key.
                </Trans>
              ),
            },
            {
              id: "app",
              title: <Trans>Notifications in the app</Trans>,
              body: <Trans>Order fills, deposits, withdrawals and maintenance notices, shown in the desk.</Trans>,
            },
            {
              id: "sms",
              title: <Trans>Text messages</Trans>,
              body: (
                <Trans>
                  Only the sign-in codes of a phone you added as a second factor. A text from us never has a link.
                </Trans>
              ),
            },
            {
              id: "news",
              title: <Trans>Newsletters</Trans>,
              body: (
                <Trans>
                  The Weekly Close, Product News and Research Desk, only after you confirmed your subscription; each
                  issue has its own unsubscribe link.
                </Trans>
              ),
            },
            {
              id: "support",
              title: <Trans>Support answers</Trans>,
              body: (
                <Trans>
                  Sent to the address you gave in a report, quoting the report's reference. We answer; we do not write
                  first.
                </Trans>
              ),
            },
          ]}
        />
      </ContentSection>
      <ContentSection id="not-us" title={<Trans>What is not us</Trans>}>
        <Callout tone="warning">
          <Trans>
            We run no support account on Telegram, WhatsApp, Discord or any social network, and no phone line that calls
            you. Anyone offering Orderflow support there is an impostor: <a href="/anti-spam">report them</a>.
          </Trans>
        </Callout>
      </ContentSection>
    </ContentPage>
  );
}
