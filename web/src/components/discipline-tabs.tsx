// The Journal area's sections: the daily journal, playbooks, trading rules, insights, simulations and the printable report (one item in the main menu).
import { SectionTabs } from "./section-tabs.tsx";

const JOURNAL = [
  { to: "/journal", label: "Daily journal" },
  { to: "/playbooks", label: "Playbooks" },
  { to: "/rules", label: "Rules" },
  { to: "/insights", label: "Insights" },
  { to: "/simulations", label: "Simulations" },
  { to: "/report", label: "Report" },
] as const;

export function DisciplineTabs() {
  return <SectionTabs label="Journal sections" links={JOURNAL} />;
}
