// The Journal area's sections: the daily journal, playbooks, trading rules and insights (one item in the main menu).
import { NavLink } from "react-router";

export function DisciplineTabs() {
  return (
    <nav aria-label="Journal sections" className="tabs">
      <NavLink to="/journal" className="tabs__link">
        Daily journal
      </NavLink>
      <NavLink to="/playbooks" className="tabs__link">
        Playbooks
      </NavLink>
      <NavLink to="/rules" className="tabs__link">
        Rules
      </NavLink>
      <NavLink to="/insights" className="tabs__link">
        Insights
      </NavLink>
    </nav>
  );
}
