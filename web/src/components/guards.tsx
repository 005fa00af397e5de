import { Link, Navigate, Outlet, useLocation } from "react-router";
import { useMe } from "../api/session.ts";
import { ErrorAlert, Loading, PageHeader } from "./ui.tsx";

/** Where to go after signing in: only a path on this site, never another origin. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/dashboard";
}

/** Renders its routes for a signed-in reader; anyone else is sent to sign in and brought back after. */
export function RequireSignedIn() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) return <Loading label="Checking your session…" />;
  if (me.isError)
    return (
      <main className="centered">
        <ErrorAlert error={me.error} title="Could not reach the journal." />
      </main>
    );
  if (!me.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`} replace />;
  }
  return <Outlet />;
}

/** "/" and a sign-in without a page to return to land on the dashboard (a new account's first steps are there too). */
export function RedirectHome() {
  return <Navigate to="/dashboard" replace />;
}

/** The admin console's routes: someone who is not an administrator gets a page saying so, not a failed request. */
export function RequireAdmin() {
  const me = useMe();
  if (me.data && !me.data.isAdmin) {
    return (
      <>
        <PageHeader title="Not authorised" />
        <p>
          The admin console is for this journal&apos;s administrators. Ask whoever runs it if you need to be one. Back to{" "}
          <Link to="/dashboard">your dashboard</Link>.
        </p>
      </>
    );
  }
  return <Outlet />;
}
