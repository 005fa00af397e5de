import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { useMe } from "../../api/session.ts";
import { ErrorAlert, Loading } from "../../components/ui.tsx";

/** Where the token waits while its reader signs up or in (this tab only; gone once used). */
const TOKEN_KEY = "journal.setupToken";
export const SETUP_PAGE = "/setup/admin";

/**
 * The token of the link the server printed: it arrives in the fragment (never sent to a server) and is kept in
 * this tab while the reader signs up or in.
 */
function takeToken(hash: string): string {
  const fromLink = hash.slice(1);
  if (fromLink) window.sessionStorage.setItem(TOKEN_KEY, fromLink);
  return fromLink || window.sessionStorage.getItem(TOKEN_KEY) || "";
}

/** /setup/admin: the first administrator of an instance on the embedded database (docs/admin.md, "Who is an administrator"). */
export function SetupAdminPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => takeToken(location.hash));
  // The token leaves the address bar (and the history) at once.
  useEffect(() => {
    if (location.hash) void navigate(location.pathname, { replace: true });
  }, [location.hash, location.pathname, navigate]);
  const me = useMe();
  const queryClient = useQueryClient();
  const claim = useMutation({
    mutationFn: () => unwrap(api.api.admin.setup.$post({ json: { token } })),
    onSuccess: (body) => {
      window.sessionStorage.removeItem(TOKEN_KEY);
      queryClient.setQueryData(ME_KEY, body.user);
    },
  });
  let body;
  if (me.isPending) body = <Loading label="Checking your session…" />;
  else if (claim.isSuccess)
    body = (
      <p role="status">
        You are this journal&apos;s administrator. <Link to="/admin">Open the admin console</Link>.
      </p>
    );
  else if (!token)
    body = (
      <p>
        This page needs the setup link the server printed when it started with no administrator (a line starting &quot;No administrator
        yet&quot;). Open that link itself, or ask whoever runs this journal.
      </p>
    );
  else if (!me.data)
    body = (
      <>
        <p>Create your account or sign in first: you come back here after, and this tab remembers the link.</p>
        <p className="button-row">
          <Link className="button" to={`/register?next=${encodeURIComponent(SETUP_PAGE)}`}>
            Create an account
          </Link>
          <Link className="button button--secondary" to={`/sign-in?next=${encodeURIComponent(SETUP_PAGE)}`}>
            Sign in
          </Link>
        </p>
      </>
    );
  else
    body = (
      <>
        <p>
          Signed in as <strong>{me.data.email}</strong>. The first administrator can manage users, plans and credits and reads the audit log. The
          link works once.
        </p>
        <ErrorAlert error={claim.error} title="Could not make you the administrator." />
        <button type="button" className="button" disabled={claim.isPending} onClick={() => claim.mutate()}>
          {claim.isPending ? "Making you the administrator…" : "Make me the administrator"}
        </button>
      </>
    );
  return (
    <section className="card" aria-labelledby="setup-title">
      <h1 id="setup-title">Set up this journal</h1>
      {body}
    </section>
  );
}
