// Tabs between the pages of one menu item (Journal: journal, playbooks, rules, insights; Settings: account,
// keys, billing, sessions): a labelled navigation of links, the current page's marked.
import { NavLink } from "react-router";

export function SectionTabs({ label, links }: { label: string; links: ReadonlyArray<{ to: string; label: string }> }) {
  return (
    <nav aria-label={label} className="tabs">
      {links.map((l) => (
        <NavLink key={l.to} to={l.to} className="tabs__link">
          {l.label}
        </NavLink>
      ))}
    </nav>
  );
}
