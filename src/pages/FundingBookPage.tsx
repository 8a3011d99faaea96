import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import type { BookPrecision } from "../protocol";
import { ContentPage, ContentSection } from "../ui/site";
import { BookPickers, LiveBook } from "../ui/site-live/LiveBook";
import { LoadError } from "../ui/site-live/LoadState";
import { fetchBookChoices } from "../ui/site-live/site-api";
import { useRemote } from "../ui/site-live/use-remote";

const loadCurrencies = (signal: AbortSignal) => fetchBookChoices("funding", signal);

/** A funding currency's live book: lenders' offers and borrowers' bids by daily rate. */
export function FundingBookPage() {
  const [currencies, retry] = useRemote(loadCurrencies);
  const [currency, setCurrency] = useState("USD");
  const [precision, setPrecision] = useState<BookPrecision>("P0");
  return (
    <ContentPage
      title={<Trans>Funding book</Trans>}
      lead={
        <Trans>
          The margin funding market, live: lenders offer currency at a daily rate, and traders borrow it to open margin
          positions.
        </Trans>
      }
      toc={false}
      related={[
        { href: "/order-book", label: <Trans>Order book</Trans> },
        { href: "/fees", label: <Trans>Fees</Trans> },
      ]}
    >
      {currencies.status === "error" && <LoadError onRetry={retry} />}
      <BookPickers
        choices={currencies.status === "ready" ? currencies.value : []}
        symbol={currency}
        onSymbol={setCurrency}
        precision={precision}
        onPrecision={setPrecision}
        funding
      />
      <LiveBook symbol={`f${currency}`} funding precision={precision} />
      <ContentSection id="reading" title={<Trans>Reading the funding book</Trans>}>
        <p>
          <Trans>
            Rates are per day: 0.02% a day is about 7.3% a year before compounding. A bid and an offer match at the rate
            of the one that was waiting first, for 2 to 120 days. Lenders earn the interest less the exchange's share
            shown on the fees page.
          </Trans>
        </p>
      </ContentSection>
    </ContentPage>
  );
}
