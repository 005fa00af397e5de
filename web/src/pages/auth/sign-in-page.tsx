import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { api, setCsrfToken, unwrap } from "../../api/client.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { useMe } from "../../api/session.ts";
import { safeNext } from "../../components/guards.tsx";
import { CredentialsForm } from "./credentials-form.tsx";

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const me = useMe();
  const signIn = useMutation({
    mutationFn: (json: { email: string; password: string }) => unwrap(api.api.auth.login.$post({ json })),
    onSuccess: (body) => {
      setCsrfToken("csrfToken" in body ? body.csrfToken : null);
      queryClient.clear();
      queryClient.setQueryData(ME_KEY, body.user);
      void navigate(next, { replace: true });
    },
  });
  if (me.data && !signIn.isPending) return <Navigate to={next} replace />;

  return (
    <section className="card" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      {params.get("deleted") === "1" && (
        <p className="alert" role="status">
          Your account and everything in it have been deleted.
        </p>
      )}
      <CredentialsForm
        submitLabel="Sign in"
        pendingLabel="Signing in…"
        passwordAutocomplete="current-password"
        pending={signIn.isPending}
        error={signIn.error}
        onSubmit={(c) => signIn.mutate(c)}
      />
      <p className="card__footer">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p className="card__footer">
        New here? <Link to="/register">Create an account</Link>
      </p>
    </section>
  );
}
