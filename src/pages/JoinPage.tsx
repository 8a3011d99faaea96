/** Join (careers): the work, how the team works and how to get in touch. */
import { Trans } from "@lingui/react/macro";
import { CardGrid, ContentPage } from "../ui/site";

export function JoinPage() {
  return (
    <ContentPage
      title={<Trans>Join us</Trans>}
      lead={
        <Trans>
          We build the exchange and the trading desk that high-volume traders rely on. If correctness, speed and clear
          writing matter to you, we would like to hear from you.
        </Trans>
      }
      sections={[
        {
          id: "work",
          title: <Trans>The work</Trans>,
          content: (
            <CardGrid
              cards={[
                {
                  id: "engine",
                  title: <Trans>Exchange engineering</Trans>,
                  body: <Trans>Matching, margin, funding and settlement, where every unit must add up.</Trans>,
                },
                {
                  id: "frontend",
                  title: <Trans>Real-time front end</Trans>,
                  body: <Trans>Books, charts and order entry that stay smooth at thousands of updates a second.</Trans>,
                },
                {
                  id: "security",
                  title: <Trans>Security</Trans>,
                  body: <Trans>Accounts, keys and withdrawals, and the bug bounty's reports.</Trans>,
                },
                {
                  id: "support",
                  title: <Trans>Support and compliance</Trans>,
                  body: <Trans>Answering traders in seven languages, and the reviews of our local entities.</Trans>,
                },
              ]}
            />
          ),
        },
        {
          id: "how",
          title: <Trans>How we work</Trans>,
          content: (
            <ul>
              <li>
                <Trans>In writing first: decisions, designs and rules are written down where the code lives.</Trans>
              </li>
              <li>
                <Trans>Every change is tested against the real exchange, not a mock of it.</Trans>
              </li>
              <li>
                <Trans>Small team, remote, with the time zones of the traders we serve.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "apply",
          title: <Trans>Get in touch</Trans>,
          content: (
            <p>
              <Trans>
                Send a short note through the <a href="/report">report form</a>: choose "Something else", start with
                "Careers:", say what you would like to work on with a link to work you are proud of, and leave your
                e-mail address.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/manifesto", label: <Trans>Manifesto</Trans> },
        { href: "/about", label: <Trans>About us</Trans> },
      ]}
    />
  );
}
