import { useLocation } from "wouter";
import { Desk } from "../ui/desk/Desk";
import { pairFromPath } from "../ui/desk/desk-paths";

/** /tradedesk[/PAIR], /t/PAIR, /trading/PAIR: the trading desk for the pair in the address. */
export function DeskPage() {
  const [path] = useLocation();
  return <Desk pair={pairFromPath(path)} />;
}
