import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router";
import { createQueryClient } from "./api/query-client.ts";
import { AppShell, PublicShell } from "./components/app-shell.tsx";
import { RequireAdmin, RequireSignedIn, RedirectHome } from "./components/guards.tsx";
import { AccountPage } from "./pages/accounts/account-page.tsx";
import { AccountsPage } from "./pages/accounts/accounts-page.tsx";
import { RegisterPage } from "./pages/auth/register-page.tsx";
import { ForgotPasswordPage, ResetPasswordPage, VerifyEmailPage } from "./pages/auth/password-pages.tsx";
import { SignInPage } from "./pages/auth/sign-in-page.tsx";
import { Loading } from "./components/ui.tsx";
import { NotFoundPage } from "./pages/not-found-page.tsx";
import { SetupAdminPage } from "./pages/admin/setup-admin-page.tsx";
import { AccountSettingsPage } from "./pages/settings/account-page.tsx";
import { AdvisorKeysPage } from "./pages/settings/advisor-keys-page.tsx";
import { BillingPage } from "./pages/settings/billing-page.tsx";
import { SessionsPage } from "./pages/settings/sessions-page.tsx";
import { CurrencySettingsPage } from "./pages/settings/currency-page.tsx";
import { NewFillPage } from "./pages/trades/new-fill-page.tsx";
import { DetachedNotesPage } from "./pages/notes/detached-notes-page.tsx";
import { AccountFillsPage } from "./pages/accounts/account-fills-page.tsx";
import { TradePage } from "./pages/trades/trade-page.tsx";
import { TradesPage } from "./pages/trades/trades-page.tsx";

// The import wizard, the dashboard (charts) and the advisor (markdown, streaming) are the heaviest screens and
// not on the first page a reader sees, so they load on first visit instead of growing the main bundle.
const ImportPage = lazy(() => import("./pages/import/index.tsx").then((m) => ({ default: m.ImportPage })));
const AdvisorPage = lazy(() => import("./pages/advisor/advisor-page.tsx").then((m) => ({ default: m.AdvisorPage })));
const WhatsNewPage = lazy(() => import("./pages/whats-new/whats-new-page.tsx").then((m) => ({ default: m.WhatsNewPage })));
const admin = () => import("./pages/admin/admin-pages.tsx");
const AdminUsersPage = lazy(() => admin().then((m) => ({ default: m.AdminUsersPage })));
const AdminUserPage = lazy(() => admin().then((m) => ({ default: m.AdminUserPage })));
const AdminStatsPage = lazy(() => admin().then((m) => ({ default: m.AdminStatsPage })));
const AdminAuditPage = lazy(() => admin().then((m) => ({ default: m.AdminAuditPage })));
const PlaybooksPage = lazy(() => import("./pages/playbooks/playbooks-page.tsx").then((m) => ({ default: m.PlaybooksPage })));
const RulesPage = lazy(() => import("./pages/rules/rules-page.tsx").then((m) => ({ default: m.RulesPage })));
const TaxPage = lazy(() => import("./pages/tax/tax-page.tsx").then((m) => ({ default: m.TaxPage })));
const SimulationsPage = lazy(() => import("./pages/simulations/simulations-page.tsx").then((m) => ({ default: m.SimulationsPage })));
const InsightsPage = lazy(() => import("./pages/insights/insights-page.tsx").then((m) => ({ default: m.InsightsPage })));
const DayJournalPage = lazy(() => import("./pages/days/day-journal-page.tsx").then((m) => ({ default: m.DayJournalPage })));
const strategies = () => import("./pages/strategies/index.ts");
const StrategiesPage = lazy(() => strategies().then((m) => ({ default: m.StrategiesPage })));
const StrategyPage = lazy(() => strategies().then((m) => ({ default: m.StrategyPage })));
const sharing = () => import("./pages/mentor/mentee-pages.tsx");
const MenteesPage = lazy(() => sharing().then((m) => ({ default: m.MenteesPage })));
const MenteeJournalPage = lazy(() => sharing().then((m) => ({ default: m.MenteeJournalPage })));
const MenteeTradePage = lazy(() => sharing().then((m) => ({ default: m.MenteeTradePage })));
const SharingSettingsPage = lazy(() => import("./pages/settings/sharing-page.tsx").then((m) => ({ default: m.SharingSettingsPage })));
const SharedPage = lazy(() => import("./pages/share/shared-page.tsx").then((m) => ({ default: m.SharedPage })));
const ReportPage = lazy(() => import("./pages/report/report-page.tsx").then((m) => ({ default: m.ReportPage })));
const DigestSettingsPage = lazy(() => import("./pages/settings/digest-page.tsx").then((m) => ({ default: m.DigestSettingsPage })));
const DigestUnsubscribePage = lazy(() => import("./pages/digest/unsubscribe-page.tsx").then((m) => ({ default: m.DigestUnsubscribePage })));
const DashboardPage = lazy(() => import("./pages/dashboard/index.tsx").then((m) => ({ default: m.DashboardPage })));

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/** Every route of the app (paths are listed in docs/web.md). */
export const routes: RouteObject[] = [
  // A public link: no session asked for, no shell of the signed-in app (docs/sharing.md).
  { path: "/s/:token", element: <Lazy><SharedPage /></Lazy> },
  {
    element: <PublicShell />,
    children: [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "/register", element: <RegisterPage /> },
      { path: "/forgot-password", element: <ForgotPasswordPage /> },
      { path: "/reset-password", element: <ResetPasswordPage /> },
      { path: "/verify-email", element: <VerifyEmailPage /> },
      { path: "/setup/admin", element: <SetupAdminPage /> },
      { path: "/digest/unsubscribe", element: <Lazy><DigestUnsubscribePage /></Lazy> },
    ],
  },
  {
    element: <RequireSignedIn />,
    children: [
      {
        element: <AppShell />,
        children: [
          { index: true, element: <RedirectHome /> },
          { path: "/accounts", element: <AccountsPage /> },
          { path: "/accounts/:accountId", element: <AccountPage /> },
          { path: "/trades", element: <TradesPage /> },
          { path: "/trades/:tradeId", element: <TradePage /> },
          { path: "/strategies", element: <Lazy><StrategiesPage /></Lazy> },
          { path: "/strategies/:strategyId", element: <Lazy><StrategyPage /></Lazy> },
          { path: "/fills/new", element: <NewFillPage /> },
          { path: "/notes/detached", element: <DetachedNotesPage /> },
          { path: "/accounts/:accountId/fills", element: <AccountFillsPage /> },
          { path: "/import/*", element: <Lazy><ImportPage /></Lazy> },
          { path: "/dashboard/*", element: <Lazy><DashboardPage /></Lazy> },
          { path: "/playbooks", element: <Lazy><PlaybooksPage /></Lazy> },
          { path: "/journal", element: <Lazy><DayJournalPage /></Lazy> },
          { path: "/rules", element: <Lazy><RulesPage /></Lazy> },
          { path: "/insights", element: <Lazy><InsightsPage /></Lazy> },
          { path: "/simulations", element: <Lazy><SimulationsPage /></Lazy> },
          { path: "/report", element: <Lazy><ReportPage /></Lazy> },
          { path: "/tax", element: <Lazy><TaxPage /></Lazy> },
          { path: "/advisor/:conversationId?", element: <Lazy><AdvisorPage /></Lazy> },
          { path: "/settings/account", element: <AccountSettingsPage /> },
          { path: "/settings/sessions", element: <SessionsPage /> },
          { path: "/settings/currency", element: <CurrencySettingsPage /> },
          { path: "/settings/keys", element: <AdvisorKeysPage /> },
          { path: "/settings/billing", element: <BillingPage /> },
          { path: "/settings/sharing", element: <Lazy><SharingSettingsPage /></Lazy> },
          { path: "/settings/digest", element: <Lazy><DigestSettingsPage /></Lazy> },
          { path: "/mentees", element: <Lazy><MenteesPage /></Lazy> },
          { path: "/mentees/:userId", element: <Lazy><MenteeJournalPage /></Lazy> },
          { path: "/mentees/:userId/trades/:tradeId", element: <Lazy><MenteeTradePage /></Lazy> },
          { path: "/whats-new", element: <Lazy><WhatsNewPage /></Lazy> },
          {
            element: <RequireAdmin />,
            children: [
              { path: "/admin", element: <Lazy><AdminUsersPage /></Lazy> },
              { path: "/admin/users/:userId", element: <Lazy><AdminUserPage /></Lazy> },
              { path: "/admin/stats", element: <Lazy><AdminStatsPage /></Lazy> },
              { path: "/admin/audit", element: <Lazy><AdminAuditPage /></Lazy> },
            ],
          },
          { path: "*", element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
