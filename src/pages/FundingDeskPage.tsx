import { useLocation } from "wouter";
import { FundingDesk } from "../ui/funding/FundingDesk";
import { fundingMarketFromPath } from "../ui/funding/funding-paths";
import { KnownCurrency } from "../ui/funding/KnownCurrency";

/**
 * /funding[/CCY], /f/CCY: the funding desk for the currency in the address (USD when it names
 * none), once the exchange's funding currencies include it (an unknown currency gets the "unknown
 * market" state instead, and nothing is subscribed for it).
 */
export function FundingDeskPage() {
  const [path] = useLocation();
  return (
    <KnownCurrency market={fundingMarketFromPath(path)}>
      {(currency) => <FundingDesk currency={currency} />}
    </KnownCurrency>
  );
}
