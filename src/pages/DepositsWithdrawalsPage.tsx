import { Trans } from "@lingui/react/macro";
import { ContentPage, ContentSection } from "../ui/site";
import { MovementTable } from "../ui/site-live/FeeTables";
import { LoadError, Loading } from "../ui/site-live/LoadState";
import { fetchTxMethods } from "../ui/site-live/site-api";
import { useRemote } from "../ui/site-live/use-remote";

/** Minimums, fees and confirmations of every currency and network, read from the exchange. */
export function DepositsWithdrawalsPage() {
  const [state, retry] = useRemote(fetchTxMethods);
  return (
    <ContentPage
      title={<Trans>Deposits and withdrawals</Trans>}
      lead={
        <Trans>
          Every currency and network this exchange accepts, with its minimums, its withdrawal fee and the confirmations
          a deposit waits for, as the exchange applies them.
        </Trans>
      }
      related={[{ href: "/fees", label: <Trans>Fees</Trans> }]}
    >
      {state.status === "loading" && <Loading />}
      {state.status === "error" && <LoadError onRetry={retry} />}
      {state.status === "ready" && <MovementTable methods={state.value} />}
      <ContentSection id="deposits" title={<Trans>Deposits</Trans>}>
        <p>
          <Trans>
            Sign in, open Deposit and choose the currency and network: you get an address of your own (for XRP, the
            exchange's address and your destination tag; for a bank wire, our account and your payment reference). A
            deposit is credited once the network has confirmed it the number of times shown. A deposit below the minimum
            is recorded but not credited.
          </Trans>
        </p>
      </ContentSection>
      <ContentSection id="withdrawals" title={<Trans>Withdrawals</Trans>}>
        <p>
          <Trans>
            Withdrawals need a verified account and your second factor. Each one is confirmed from a link we e-mail you
            and can be cancelled until it is sent. Send only to an address of the same network: coins sent to another
            network cannot be recovered.
          </Trans>
        </p>
      </ContentSection>
    </ContentPage>
  );
}
