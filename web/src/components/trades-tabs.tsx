// The Trades area's two views: every trade, and the option trades taken together as strategies (docs/options.md).
import { SectionTabs } from "./section-tabs.tsx";

const TRADES = [
  { to: "/trades", label: "Trades" },
  { to: "/strategies", label: "Option strategies" },
] as const;

export function TradesTabs() {
  return <SectionTabs label="Trades views" links={TRADES} />;
}
