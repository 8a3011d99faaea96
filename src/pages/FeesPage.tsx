import { Trans, useLingui } from "@lingui/react/macro";
import { ContentPage, ContentSection } from "../ui/site";
import { MovementTable, TradingFeeTable } from "../ui/site-live/FeeTables";
import { percent } from "../ui/site-live/format";
import { LoadError, Loading } from "../ui/site-live/LoadState";
import { fetchFees, fetchTxMethods } from "../ui/site-live/site-api";
import { useRemote } from "../ui/site-live/use-remote";

const loadFees = (signal: AbortSignal) => Promise.all([fetchFees(signal), fetchTxMethods(signal)]);

/** The fee schedule, read from the exchange's own configuration (docs/protocol.md#site-figures). */
export function FeesPage() {
  const { i18n } = useLingui();
  const [state, retry] = useRemote(loadFees);
  const l = i18n.locale;
  const schedule = state.status === "ready" ? state.value[0].schedule : null;
  const lenderFee = schedule ? percent(l, schedule.lenderFee) : "";
  const fiatFee = schedule ? percent(l, schedule.fiatConversion) : "";
  const stableFee = schedule ? percent(l, schedule.stableConversion) : "";
  return (
    <ContentPage
      title={<Trans>Fees</Trans>}
      lead={
        <Trans>
          What trading, funding, conversions and withdrawals cost on this exchange. Every figure below is read live from
          the exchange's configuration: the same rates it charges.
        </Trans>
      }
      related={[
        { href: "/deposits-and-withdrawals", label: <Trans>Deposits and withdrawals</Trans> },
        { href: "/stats", label: <Trans>Exchange statistics</Trans> },
      ]}
    >
      {state.status === "loading" && <Loading />}
      {state.status === "error" && <LoadError onRetry={retry} />}
      {state.status === "ready" && (
        <>
          <ContentSection id="trading" title={<Trans>Trading fees</Trans>}>
            <p>
              <Trans>
                A maker adds an order to the book that waits to be filled; a taker fills an order already there. The fee
                is taken from what you receive in each fill.
              </Trans>
            </p>
            <TradingFeeTable fees={state.value[0]} />
          </ContentSection>
          <ContentSection id="funding" title={<Trans>Margin funding</Trans>}>
            <p>
              <Trans>
                Lending is free to offer and to cancel. When a loan pays interest, the exchange keeps {lenderFee} of it;
                the lender receives the rest. Borrowers pay the agreed daily rate and nothing more.
              </Trans>
            </p>
          </ContentSection>
          <ContentSection id="conversions" title={<Trans>Currency conversions</Trans>}>
            <p>
              <Trans>
                Converting between two fiat currencies costs {fiatFee}, and between a fiat currency and USDt {stableFee}
                , taken from the amount you receive. The quote shows the fee before you confirm.
              </Trans>
            </p>
          </ContentSection>
          <ContentSection id="movements" title={<Trans>Deposits and withdrawals</Trans>}>
            <p>
              <Trans>
                Deposits are free. A withdrawal pays the network fee below, taken from the amount sent, so what arrives
                is the amount minus the fee.
              </Trans>
            </p>
            <MovementTable methods={state.value[1]} />
          </ContentSection>
        </>
      )}
    </ContentPage>
  );
}
