import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { api, setCsrfToken, unwrap } from "../../api/client.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { SETUP_PAGE } from "../admin/setup-admin-page.tsx";
import { useMe, usePublicConfig } from "../../api/session.ts";
import { QueryView } from "../../components/ui.tsx";
import { browserConfig } from "../../config.ts";
import { PASSWORD_MAX, PASSWORD_MIN } from "../../lib/credentials.ts";
import { CredentialsForm } from "./credentials-form.tsx";

/** Shown instead of the form when the operator has closed sign-up (DISABLE_REGISTRATION). */
export function RegistrationClosed({ newsletterUrl }: { newsletterUrl: string | null }) {
  return (
    <div className="notice" role="note">
      <p>
        <strong>Sign-ups are closed on this instance for now.</strong>
      </p>
      {newsletterUrl ? (
        <p>
          <a href={newsletterUrl} rel="noopener noreferrer">
            Join the newsletter
          </a>{" "}
          to hear when they reopen.
        </p>
      ) : (
        <p>Check back later.</p>
      )}
      <p>
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </p>
    </div>
  );
}

export function RegisterPage() {
  const config = usePublicConfig();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // A new account starts on Accounts (to make its first), unless the setup page sent it here and wants it back.
  const [params] = useSearchParams();
  const next = params.get("next") === SETUP_PAGE ? SETUP_PAGE : "/accounts";
  const me = useMe();
  const register = useMutation({
    mutationFn: (json: { email: string; password: string }) => unwrap(api.api.auth.register.$post({ json })),
    onSuccess: (body) => {
      setCsrfToken("csrfToken" in body ? body.csrfToken : null);
      queryClient.clear();
      queryClient.setQueryData(ME_KEY, body.user);
      void navigate(next, { replace: true });
    },
  });
  if (me.data && !register.isPending) return <Navigate to={next} replace />;

  return (
    <section className="card" aria-labelledby="register-title">
      <h1 id="register-title">Create your account</h1>
      <QueryView query={config} label="sign-up settings">
        {(c) =>
          c.registrationOpen && !(register.error as { code?: string } | null)?.code?.startsWith("REGISTRATION_DISABLED") ? (
            <>
              <CredentialsForm
                submitLabel="Create account"
                pendingLabel="Creating account…"
                passwordAutocomplete="new-password"
                passwordHint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`}
                pending={register.isPending}
                error={register.error}
                onSubmit={(cred) => register.mutate(cred)}
              />
              <p className="card__footer">
                Already registered? <Link to="/sign-in">Sign in</Link>
              </p>
            </>
          ) : (
            // /config.js is the web container's own copy of NEWSLETTER_URL; the API's is the fallback.
            <RegistrationClosed newsletterUrl={browserConfig().newsletterUrl ?? c.newsletterUrl} />
          )
        }
      </QueryView>
    </section>
  );
}
