import { Navigate, Outlet, useLocation } from "react-router";
import { useMe } from "../api/session.ts";
import { ErrorAlert, Loading } from "./ui.tsx";

/** Where to go after signing in: only a path on this site, never another origin. */
export function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/accounts";
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

export function RedirectHome() {
  return <Navigate to="/accounts" replace />;
}
