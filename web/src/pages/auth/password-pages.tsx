// The pages the account emails link to, and the one that sends the reset link: /forgot-password (ask for a
// link), /reset-password?token= (choose a new password), /verify-email?token= (confirm the address). They work
// signed in or not. The reset request is answered the same whatever the address (DESIGN.md section 4), so
// the page says what to expect either way.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { ErrorAlert, Loading, TextField } from "../../components/ui.tsx";
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from "../../lib/credentials.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { useInstanceConfig } from "../../api/queries.ts";

export function ForgotPasswordPage() {
  const config = useInstanceConfig();
  const [email, setEmail] = useState("");
  const [problem, setProblem] = useState<string>();
  const request = useMutation({ mutationFn: (json: { email: string }) => unwrap(api.api.auth["password-reset"].request.$post({ json })) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = email.trim();
    const invalid = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) ? undefined : trimmed ? "must be an email address" : "is required";
    setProblem(invalid);
    if (!invalid) request.mutate({ email: trimmed });
  };
  return (
    <section className="card" aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot your password?</h1>
      {config.data?.email === false ? (
        <div role="status">
          <p>This journal does not send email, so it cannot mail you a link to choose a new password.</p>
          <p>
            Ask whoever runs it to set a new one for you: they can do it with <code>npm run cli -- reset-password</code> and your email.
          </p>
        </div>
      ) : request.isSuccess ? (
        <div role="status">
          <p>
            If an account uses <strong>{email.trim()}</strong>, a link to choose a new password is on its way. It works once and
            for a limited time.
          </p>
          <p className="muted">
            Nothing after a few minutes? Check your spam folder. If this journal cannot send email, whoever runs it can reset your
            password for you.
          </p>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <p>Enter the email you sign in with; we send you a link to choose a new password.</p>
          <ErrorAlert error={request.error} />
          <TextField label="Email" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={problem ?? serverFieldErrors(request.error).email} required />
          <button type="submit" className="button" disabled={request.isPending}>
            {request.isPending ? "Sending…" : "Send the link"}
          </button>
        </form>
      )}
      <p className="card__footer">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </section>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string>();
  const reset = useMutation({ mutationFn: (json: { token: string; password: string }) => unwrap(api.api.auth["password-reset"].confirm.$post({ json })) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const invalid = passwordProblem(password);
    setProblem(invalid);
    if (!invalid) reset.mutate({ token, password });
  };
  if (!token) {
    return (
      <section className="card" aria-labelledby="reset-title">
        <h1 id="reset-title">Choose a new password</h1>
        <p className="alert alert--error">This link is incomplete. Open the link from the email again, or ask for a new one.</p>
        <p className="card__footer">
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      {reset.isSuccess ? (
        <div role="status">
          <p>Your password is changed: every session that used the old one is signed out, and every access token is revoked.</p>
          <p>
            <Link to="/sign-in" className="button">
              Sign in
            </Link>
          </p>
        </div>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <ErrorAlert error={reset.error} title="The password was not changed." />
          <TextField
            label="New password"
            type="password"
            name="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={problem ?? serverFieldErrors(reset.error).password}
            hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`}
            required
          />
          <button type="submit" className="button" disabled={reset.isPending}>
            {reset.isPending ? "Saving…" : "Save the new password"}
          </button>
          {reset.isError && (
            <p>
              <Link to="/forgot-password">Ask for a new link</Link>
            </p>
          )}
        </form>
      )}
    </section>
  );
}

export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: (json: { token: string }) => unwrap(api.api.auth["verify-email"].$post({ json })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
  // The link is used once: sent once when the page opens (not again on a re-render).
  const sent = useRef(false);
  useEffect(() => {
    if (token && !sent.current) {
      sent.current = true;
      verify.mutate({ token });
    }
  }, [token, verify]);
  return (
    <section className="card" aria-labelledby="verify-title">
      <h1 id="verify-title">Confirm your email</h1>
      {!token ? (
        <p className="alert alert--error">This link is incomplete. Open the link from the email again.</p>
      ) : verify.isSuccess ? (
        <p role="status">Your email address is confirmed. Thank you.</p>
      ) : verify.isError ? (
        <ErrorAlert error={verify.error} title="This link did not work: it may have been used already or have expired. Ask for a new one in Settings > Account." />
      ) : (
        <Loading label="Confirming…" />
      )}
      <p className="card__footer">
        <Link to="/">Go to your journal</Link>
      </p>
    </section>
  );
}
