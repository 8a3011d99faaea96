/** Press: a short description to quote, key facts, naming rules and how journalists reach us. */
import { Trans } from "@lingui/react/macro";
import { ContentPage, FactList } from "../ui/site";

export function PressPage() {
  return (
    <ContentPage
      title={<Trans>Press</Trans>}
      lead={
        <Trans>
          For journalists and analysts writing about Orderflow: what we are, in our words, and how to reach us.
        </Trans>
      }
      sections={[
        {
          id: "boilerplate",
          title: <Trans>About Orderflow</Trans>,
          content: (
            <p>
              <Trans>
                Orderflow is a cryptocurrency exchange for high-volume traders. Its web trading desk verifies every
                order book it receives and stays responsive under the busiest markets; the exchange behind it speaks the
                Bitfinex API version 2, in seven languages, with local entities in Türkiye and Brazil.
              </Trans>
            </p>
          ),
        },
        {
          id: "facts",
          title: <Trans>Key facts</Trans>,
          content: (
            <FactList
              facts={[
                {
                  term: <Trans>Markets</Trans>,
                  value: <Trans>Spot, margin up to 10x, perpetual futures and funding</Trans>,
                },
                { term: <Trans>Fees</Trans>, value: <Trans>0.1 % maker, 0.2 % taker</Trans> },
                {
                  term: <Trans>Protocol</Trans>,
                  value: <Trans>Bitfinex API version 2, over REST and WebSocket</Trans>,
                },
              ]}
            />
          ),
        },
        {
          id: "name",
          title: <Trans>Our name</Trans>,
          content: (
            <p>
              <Trans>
                Write Orderflow as one word with a capital O. Please do not suggest a partnership or an endorsement that
                we have not announced.
              </Trans>
            </p>
          ),
        },
        {
          id: "contact",
          title: <Trans>Press enquiries</Trans>,
          content: (
            <p>
              <Trans>
                Send your questions through the <a href="/report">report form</a>: choose "Something else", start with
                "Press:" and leave your e-mail address. We answer press enquiries in English.
              </Trans>
            </p>
          ),
        },
      ]}
      related={[
        { href: "/about", label: <Trans>About us</Trans> },
        { href: "/channels", label: <Trans>Official channels</Trans> },
      ]}
    />
  );
}
