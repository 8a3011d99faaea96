/** Affiliates: the partner programme for people who bring traders to the exchange, and how to apply. */
import { Trans } from "@lingui/react/macro";
import { ContentPage } from "../ui/site";

export function AffiliatesPage() {
  return (
    <ContentPage
      title={<Trans>Affiliates</Trans>}
      lead={
        <Trans>
          Run a trading community, write about markets or build tools for traders? Bring them to Orderflow and share in
          the fees they pay.
        </Trans>
      }
      sections={[
        {
          id: "how",
          title: <Trans>How it works</Trans>,
          content: (
            <ul>
              <li>
                <Trans>You apply, and we look at who you reach and how you talk about trading.</Trans>
              </li>
              <li>
                <Trans>
                  Once accepted, you get a partner agreement with your share of the trading fees of the accounts you
                  refer, how long it runs and how it is paid.
                </Trans>
              </li>
              <li>
                <Trans>The accounts you refer trade on the same terms as everyone else: no hidden mark-up.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "rules",
          title: <Trans>What we ask of partners</Trans>,
          content: (
            <ul>
              <li>
                <Trans>No promises of profit, no "signals" sold as certainties, no pressure to trade.</Trans>
              </li>
              <li>
                <Trans>No paid search ads on our name and no look-alike addresses: they are how phishing works.</Trans>
              </li>
              <li>
                <Trans>Say clearly that you are paid for referrals.</Trans>
              </li>
            </ul>
          ),
        },
        {
          id: "apply",
          title: <Trans>Apply</Trans>,
          content: (
            <p>
              <Trans>
                Send your application through the <a href="/report">report form</a>: choose "Something else", start with
                "Affiliates:", describe your audience with links, and leave your e-mail address.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/press", label: <Trans>Press</Trans> },
        { href: "/channels", label: <Trans>Official channels</Trans> },
      ]}
    />
  );
}
