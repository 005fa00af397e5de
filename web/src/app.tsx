import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router";
import { createQueryClient } from "./api/query-client.ts";
import { AppShell, PublicShell } from "./components/app-shell.tsx";
import { RequireSignedIn, RedirectHome } from "./components/guards.tsx";
import { AccountPage } from "./pages/accounts/account-page.tsx";
import { AccountsPage } from "./pages/accounts/accounts-page.tsx";
import { RegisterPage } from "./pages/auth/register-page.tsx";
import { SignInPage } from "./pages/auth/sign-in-page.tsx";
import { DashboardPage } from "./pages/dashboard/index.tsx";
import { ImportPage } from "./pages/import/index.tsx";
import { NotFoundPage } from "./pages/not-found-page.tsx";
import { SessionsPage } from "./pages/settings/sessions-page.tsx";
import { NewFillPage } from "./pages/trades/new-fill-page.tsx";
import { TradePage } from "./pages/trades/trade-page.tsx";
import { TradesPage } from "./pages/trades/trades-page.tsx";

/** Every route of the app (paths are listed in docs/web.md). */
export const routes: RouteObject[] = [
  {
    element: <PublicShell />,
    children: [
      { path: "/sign-in", element: <SignInPage /> },
      { path: "/register", element: <RegisterPage /> },
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
          { path: "/fills/new", element: <NewFillPage /> },
          { path: "/import/*", element: <ImportPage /> },
          { path: "/dashboard/*", element: <DashboardPage /> },
          { path: "/settings/sessions", element: <SessionsPage /> },
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
