// Personal settings: one "Settings" item in the main menu, these tabs between its pages.
import { NavLink } from "react-router";

export function SettingsTabs() {
  return (
    <nav aria-label="Settings sections" className="tabs">
      <NavLink to="/settings/account" className="tabs__link">
        Account
      </NavLink>
      <NavLink to="/settings/keys" className="tabs__link">
        Advisor keys
      </NavLink>
      <NavLink to="/settings/billing" className="tabs__link">
        Billing
      </NavLink>
      <NavLink to="/settings/sessions" className="tabs__link">
        Sessions
      </NavLink>
    </nav>
  );
}
