import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Link, NavLink, Outlet, useLocation, useNavigate } from "react-router";
import { api, setCsrfToken, unwrap } from "../api/client.ts";
import { ME_KEY } from "../api/query-client.ts";
import { keys, useChangelog, useSettings } from "../api/queries.ts";
import { setMoneyMasked } from "../lib/format.ts";
import { useMe } from "../api/session.ts";
import { ErrorAlert } from "./ui.tsx";

const NAV = [
  { to: "/accounts", label: "Accounts" },
  // Trades and the option strategies made of them: one item, the pages' tabs lead between them.
  { to: "/trades", label: "Trades", also: ["/strategies", "/tax"] },
  { to: "/import", label: "Import" },
  { to: "/dashboard", label: "Dashboard" },
  // The daily journal, playbooks, rules and insights: one item, the pages' tabs lead between them.
  { to: "/journal", label: "Journal", also: ["/playbooks", "/rules", "/insights", "/simulations", "/report"] },
  { to: "/advisor", label: "Advisor" },
] as const;

function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to content
    </a>
  );
}

function Brand() {
  return (
    <Link to="/" className="brand">
      <svg aria-hidden="true" viewBox="0 0 32 32" width="24" height="24">
        <rect width="32" height="32" rx="6" fill="currentColor" />
        <path d="M6 22l6-7 5 4 9-10" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>Trading Journal</span>
    </Link>
  );
}

/** Moves focus to the main region after a client-side navigation, as a full page load would. */
function useFocusMainOnNavigate() {
  const location = useLocation();
  useEffect(() => {
    const main = document.getElementById("main");
    if (main && document.activeElement !== main && main.dataset.ready) main.focus({ preventScroll: false });
    if (main) main.dataset.ready = "1";
  }, [location.pathname]);
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => unwrap(api.api.auth.logout.$post()),
    onSuccess: () => {
      setCsrfToken(null);
      queryClient.clear();
      queryClient.setQueryData(ME_KEY, null);
      void navigate("/sign-in", { replace: true });
    },
  });
}

/**
 * Privacy mode: the setting, and a switch that turns it on or off at once (the page is drawn again with every
 * amount masked, or shown). The flag is set before the page renders (lib/format.ts reads it).
 */
function usePrivacyMode() {
  const settings = useSettings();
  const queryClient = useQueryClient();
  const on = settings.data?.privacyMode ?? false;
  setMoneyMasked(on);
  const toggle = useMutation({
    mutationFn: (next: boolean) => unwrap(api.api.settings.$put({ json: { privacyMode: next } })),
    onMutate: (next) => queryClient.setQueryData(keys.settings, (old: typeof settings.data) => (old ? { ...old, privacyMode: next } : old)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.settings }),
  });
  return { on, available: settings.isSuccess, toggle };
}

/** The signed-in layout: header with navigation (a menu button at phone width), then the page. */
export function AppShell() {
  const privacy = usePrivacyMode();
  const me = useMe();
  const changelog = useChangelog();
  const unread = changelog.data?.unread ?? 0;
  const signOut = useSignOut();
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const location = useLocation();
  useFocusMainOnNavigate();
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <div className="shell">
      <SkipLink />
      <header className="topbar">
        <div className="topbar__inner">
          <Brand />
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls={navId}
            onClick={() => setMenuOpen((o) => !o)}
          >
            Menu
          </button>
          <nav id={navId} className={`nav${menuOpen ? " nav--open" : ""}`} aria-label="Main">
            <ul className="nav__list">
              {NAV.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    className={({ isActive }) => `nav__link${isActive || ("also" in item && item.also.some((p) => location.pathname.startsWith(p))) ? " active" : ""}`}
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
              {me.data?.isAdmin && (
                <li>
                  <NavLink to="/admin" className="nav__link">
                    Admin
                  </NavLink>
                </li>
              )}
            </ul>
            <ul className="nav__list nav__list--user">
              <li>
                <NavLink to="/whats-new" className="nav__link">
                  What's new
                  {unread > 0 && (
                    <span className="count-badge" aria-label={`${unread} unread`}>
                      {unread}
                    </span>
                  )}
                </NavLink>
              </li>
              {privacy.available && (
                <li>
                  <button
                    type="button"
                    className="nav__link nav__button"
                    aria-pressed={privacy.on}
                    title="Privacy mode: every amount of money masked, for sharing or streaming your screen"
                    onClick={() => privacy.toggle.mutate(!privacy.on)}
                  >
                    {privacy.on ? "Show amounts" : "Hide amounts"}
                  </button>
                </li>
              )}
              <li>
                <NavLink to="/settings/account" className={() => `nav__link${location.pathname.startsWith("/settings/") ? " active" : ""}`}>
                  Settings
                </NavLink>
              </li>
              <li>
                <button type="button" className="nav__link nav__button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
                  {signOut.isPending ? "Signing out…" : "Sign out"}
                </button>
              </li>
            </ul>
            {me.data && <p className="nav__user">Signed in as {me.data.email}</p>}
          </nav>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        <ErrorAlert error={signOut.error} title="Could not sign out." />
        <ErrorAlert error={privacy.toggle.error} title="Could not change privacy mode." />
        {/* Drawn again when privacy mode changes, so every amount on the page follows it. */}
        <div key={privacy.on ? "masked" : "shown"} className="contents">
          <Outlet />
        </div>
      </main>
      <footer className="footer">
        <a href="/api/docs">API reference</a>
      </footer>
    </div>
  );
}

/** Layout for sign-in and register: the brand and one centred card. */
export function PublicShell() {
  return (
    <div className="shell shell--public">
      <SkipLink />
      <header className="topbar">
        <div className="topbar__inner">
          <Brand />
        </div>
      </header>
      <main id="main" className="main main--narrow" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
