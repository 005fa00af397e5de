// The Trades area's views: every trade, the option trades taken together as strategies (docs/options.md), and the
// tax year's lots and forms (docs/tax.md).
import { SectionTabs } from "./section-tabs.tsx";

const TRADES = [
  { to: "/trades", label: "Trades" },
  { to: "/strategies", label: "Option strategies" },
  { to: "/tax", label: "Tax" },
] as const;

export function TradesTabs() {
  return <SectionTabs label="Trades views" links={TRADES} />;
}
