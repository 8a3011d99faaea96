import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import type { BookPrecision } from "../protocol";
import { ContentPage, ContentSection } from "../ui/site";
import { BookPickers, LiveBook } from "../ui/site-live/LiveBook";
import { LoadError } from "../ui/site-live/LoadState";
import { fetchBookChoices } from "../ui/site-live/site-api";
import { useRemote } from "../ui/site-live/use-remote";

const loadPairs = (signal: AbortSignal) => fetchBookChoices("trading", signal);

/** A trading pair's live order book, for visitors: no account needed. */
export function OrderBookPage() {
  const [pairs, retry] = useRemote(loadPairs);
  const [pair, setPair] = useState("BTCUSD");
  const [precision, setPrecision] = useState<BookPrecision>("P0");
  return (
    <ContentPage
      title={<Trans>Order book</Trans>}
      lead={
        <Trans>
          Every buy and sell order waiting on the exchange, grouped by price, as it changes. Bids are what buyers offer;
          asks are what sellers want.
        </Trans>
      }
      toc={false}
      related={[
        { href: `/tradedesk/${pair}`, label: <Trans>Trade on the desk</Trans> },
        { href: "/funding-book", label: <Trans>Funding book</Trans> },
        { href: "/fees", label: <Trans>Fees</Trans> },
      ]}
    >
      {pairs.status === "error" && <LoadError onRetry={retry} />}
      <BookPickers
        choices={pairs.status === "ready" ? pairs.value : []}
        symbol={pair}
        onSymbol={setPair}
        precision={precision}
        onPrecision={setPrecision}
        funding={false}
      />
      <LiveBook symbol={`t${pair}`} funding={false} precision={precision} />
      <ContentSection id="reading" title={<Trans>Reading the book</Trans>}>
        <p>
          <Trans>
            Amount is what waits at that price; total adds up every level from the best price down to it, so you can see
            how much a market order of a given size would sweep. The gap between the best bid and the best ask is the
            spread. The book is checked against the exchange's checksum on every update.
          </Trans>
        </p>
      </ContentSection>
    </ContentPage>
  );
}
