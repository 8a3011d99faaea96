import { Trans } from "@lingui/react/macro";
import { ContentPage, ContentSection } from "../ui/site";
import { HalvingCountdown } from "../ui/site-live/HalvingCountdown";

/** The countdown to the next Bitcoin halving, with how it is estimated. */
export function HalvingPage() {
  return (
    <ContentPage
      title={<Trans>Bitcoin halving countdown</Trans>}
      lead={
        <Trans>
          Every 210,000 blocks, the bitcoin paid to miners for each new block is cut in half. Here is our estimate of
          when the next halving happens.
        </Trans>
      }
      toc={false}
      related={[
        { href: "/tradedesk/BTCUSD", label: <Trans>Trade BTC/USD</Trans> },
        { href: "/stats", label: <Trans>Exchange statistics</Trans> },
      ]}
    >
      <HalvingCountdown />
      <ContentSection id="estimate" title={<Trans>How this is estimated</Trans>}>
        <p>
          <Trans>
            This is an estimate, not a schedule. It starts from block 840,000, the fourth halving, mined on 20 April
            2024 at 00:09 UTC, and assumes one block every 10 minutes, the network's target. Blocks are found at random
            and their pace drifts with mining power, so the real date can come days or weeks earlier or later. The block
            height shown is projected the same way; a block explorer has the real one.
          </Trans>
        </p>
      </ContentSection>
      <ContentSection id="why" title={<Trans>Why it matters</Trans>}>
        <p>
          <Trans>
            The halving slows the issue of new bitcoin until the 21 million limit is reached, around 2140. Miners earn
            less per block, and past halvings have drawn attention and volatility to the market. Prices can move sharply
            either way: trade only what you can afford to lose.
          </Trans>
        </p>
      </ContentSection>
    </ContentPage>
  );
}
