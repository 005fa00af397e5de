// Personal settings: one "Settings" item in the main menu, these tabs between its pages.
import { SectionTabs } from "./section-tabs.tsx";

const SETTINGS = [
  { to: "/settings/account", label: "Account" },
  { to: "/settings/currency", label: "Currency" },
  { to: "/settings/keys", label: "Advisor keys" },
  { to: "/settings/billing", label: "Billing" },
  { to: "/settings/sessions", label: "Sessions" },
  { to: "/settings/sharing", label: "Sharing" },
  { to: "/settings/digest", label: "Digest" },
] as const;

export function SettingsTabs() {
  return <SectionTabs label="Settings sections" links={SETTINGS} />;
}
