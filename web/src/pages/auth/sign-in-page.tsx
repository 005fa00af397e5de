import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";
import { api, setCsrfToken, unwrap } from "../../api/client.ts";
import { ApiError } from "../../api/errors.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { useMe } from "../../api/session.ts";
import { safeNext } from "../../components/guards.tsx";
import { ErrorAlert, TextField } from "../../components/ui.tsx";
import { passkeyProblem, passkeysSupported, secondStepWithPasskey, signInWithPasskey } from "../../lib/passkeys.ts";
import { CredentialsForm } from "./credentials-form.tsx";

type SignedIn = { user: { id: string; email: string; emailVerified: boolean; isAdmin: boolean }; csrfToken?: string };

export function SignInPage() {
  const [params] = useSearchParams();
  const next = safeNext(params.get("next"));
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const me = useMe();
  // With two-factor sign-in on, the right password gives a challenge for the code step (5 minutes, 5 tries).
  const [challenge, setChallenge] = useState<{ token: string; methods: Array<"totp" | "passkey"> } | null>(null);
  const finish = (body: SignedIn) => {
    setCsrfToken(body.csrfToken ?? null);
    queryClient.clear();
    queryClient.setQueryData(ME_KEY, body.user);
    void navigate(next, { replace: true });
  };
  const signIn = useMutation({
    mutationFn: (json: { email: string; password: string }) => unwrap(api.api.auth.login.$post({ json })),
    onSuccess: (body) => {
      if ("twoFactorRequired" in body) setChallenge({ token: body.challenge, methods: body.methods });
      else finish(body);
    },
  });
  const withPasskey = useMutation({ mutationFn: signInWithPasskey, onSuccess: finish });
  if (me.data && !signIn.isPending && !challenge) return <Navigate to={next} replace />;

  if (challenge) {
    return <SecondStep challenge={challenge.token} methods={challenge.methods} onSignedIn={finish} onStartOver={() => (setChallenge(null), signIn.reset())} />;
  }
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
      {passkeysSupported() && (
        <div className="card__footer">
          {passkeyProblem(withPasskey.error) ? (
            <div className="alert alert--error" role="alert">
              {passkeyProblem(withPasskey.error)}
            </div>
          ) : (
            <ErrorAlert error={withPasskey.error} title="The passkey did not sign you in." />
          )}
          <button type="button" className="button button--secondary" disabled={withPasskey.isPending} onClick={() => withPasskey.mutate()}>
            Sign in with a passkey
          </button>
        </div>
      )}
      <p className="card__footer">
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      <p className="card__footer">
        New here? <Link to="/register">Create an account</Link>
      </p>
    </section>
  );
}

/** The second step: a 6-digit code from the authenticator app or a backup code, or the account's passkey. */
function SecondStep({
  challenge,
  methods,
  onSignedIn,
  onStartOver,
}: {
  challenge: string;
  methods: Array<"totp" | "passkey">;
  onSignedIn(body: SignedIn): void;
  onStartOver(): void;
}) {
  const passkey = useMutation({ mutationFn: () => secondStepWithPasskey(challenge), onSuccess: onSignedIn });
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const verify = useMutation({
    mutationFn: (json: { challenge: string; code: string }) => unwrap(api.api.auth.login["2fa"].$post({ json })),
    onSuccess: onSignedIn,
    onError: () => setCode(""),
  });
  // The server answers a wrong code like a wrong password (it says nothing to a guesser); here the trader knows
  // their password was right, so the words say what to do.
  const wrong = verify.error instanceof ApiError && verify.error.status === 401;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const typed = code.trim();
    setProblem(typed ? undefined : "is required");
    if (typed) verify.mutate({ challenge, code: typed });
  };
  return (
    <section className="card" aria-labelledby="second-step-title">
      <h1 id="second-step-title">Two-factor sign-in</h1>
      {methods.includes("passkey") && passkeysSupported() && (
        <div className="form">
          {passkey.error && (
            <div className="alert alert--error" role="alert">
              {passkeyProblem(passkey.error) ?? "The passkey was not accepted. Try again, or use a code."}
            </div>
          )}
          <button type="button" className="button" disabled={passkey.isPending} onClick={() => passkey.mutate()}>
            Use your passkey
          </button>
          {methods.includes("totp") && <p className="muted">Or type a code:</p>}
        </div>
      )}
      {methods.includes("totp") && (
        <form className="form" onSubmit={submit} noValidate>
          {wrong ? (
            <div className="alert alert--error" role="alert">
              That code did not work. Codes change every 30 seconds and each works once; after 5 tries or 5 minutes, start over with your
              password.
            </div>
          ) : (
            <ErrorAlert error={verify.error} />
          )}
          <TextField
            label="Code"
            name="code"
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={problem}
            hint="The 6-digit code from your authenticator app, or one of your backup codes."
            required
          />
          <button type="submit" className="button" disabled={verify.isPending}>
            {verify.isPending ? "Checking…" : "Sign in"}
          </button>
        </form>
      )}
      <p className="card__footer">
        <button type="button" className="button button--secondary button--small" onClick={onStartOver}>
          Start over
        </button>
      </p>
      <p className="card__footer">
        Lost your authenticator and your backup codes? The operator of this journal can turn two-factor sign-in off for you.
      </p>
    </section>
  );
}
