import { useLocation } from "wouter";
import { Desk } from "../ui/desk/Desk";
import { deskMarketFromPath } from "../ui/desk/desk-paths";
import { KnownMarket } from "../ui/desk/KnownMarket";
import { defaultDeskPair, usePaperOwner } from "../ui/paper";

/**
 * /tradedesk[/PAIR], /t/PAIR, /trading/PAIR: the trading desk for the pair in the address, once the
 * exchange's pair list says it exists (an unknown pair or a funding symbol gets the "unknown
 * market" state instead, and nothing is subscribed for it). An address without a pair opens the
 * default pair, paper trading's own in paper mode.
 */
export function DeskPage() {
  const [path] = useLocation();
  const paper = usePaperOwner() !== null;
  return (
    <KnownMarket market={deskMarketFromPath(path, defaultDeskPair(paper))}>
      {(pair) => <Desk pair={pair} />}
    </KnownMarket>
  );
}
