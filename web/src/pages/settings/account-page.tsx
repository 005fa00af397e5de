// Settings > Account (/settings/account): the email the trader signs in with and whether it is confirmed
// (with a new confirmation link when the instance sends email), and changing the password, which signs out
// every other session.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { api, setCsrfToken, unwrap } from "../../api/client.ts";
import { useInstanceConfig } from "../../api/queries.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { useMe } from "../../api/session.ts";
import { ErrorAlert, PageHeader, StatusMessage, TextField } from "../../components/ui.tsx";
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from "../../lib/credentials.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";

function ChangePassword() {
  const queryClient = useQueryClient();
  const [currentPassword, setCurrent] = useState("");
  const [newPassword, setNew] = useState("");
  const [problems, setProblems] = useState<{ currentPassword?: string; newPassword?: string }>({});
  const change = useMutation({
    mutationFn: (json: { currentPassword: string; newPassword: string }) => unwrap(api.api.auth.password.$post({ json })),
    onSuccess: () => {
      setCurrent("");
      setNew("");
      void queryClient.invalidateQueries({ queryKey: ["auth", "sessions"] });
    },
  });
  const server = serverFieldErrors(change.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = { currentPassword: currentPassword ? undefined : "is required", newPassword: passwordProblem(newPassword) };
    setProblems(found);
    if (!found.currentPassword && !found.newPassword) change.mutate({ currentPassword, newPassword });
  };
  return (
    <section className="panel" aria-labelledby="password-title">
      <h2 id="password-title">Change your password</h2>
      <form className="form" onSubmit={submit} noValidate>
        <ErrorAlert error={change.error} title="The password was not changed." />
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrent(e.target.value)}
          error={problems.currentPassword ?? server.currentPassword}
          required
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNew(e.target.value)}
          error={problems.newPassword ?? server.newPassword}
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Your other sessions are signed out; this one stays.`}
          required
        />
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </button>
        <StatusMessage>{change.isSuccess ? "Password changed. Every other session is signed out." : ""}</StatusMessage>
      </form>
    </section>
  );
}

export function AccountSettingsPage() {
  const me = useMe();
  const config = useInstanceConfig();
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: () => unwrap(api.api.auth["verify-email"].resend.$post()),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: ME_KEY }),
  });
  const user = me.data;
  return (
    <>
      <PageHeader title="Account" />
      <section className="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        {user && (
          <dl className="stats" aria-label="Profile">
            <div>
              <dt>Email</dt>
              <dd>{user.email}</dd>
            </div>
            <div>
              <dt>Confirmed</dt>
              <dd>{user.emailVerified ? "Yes" : "Not yet"}</dd>
            </div>
          </dl>
        )}
        {user && !user.emailVerified && config.data?.email && (
          <>
            <ErrorAlert error={resend.error} title="Could not send the link." />
            <button type="button" className="button button--secondary" disabled={resend.isPending || resend.isSuccess} onClick={() => resend.mutate()}>
              Send the confirmation link again
            </button>
            <StatusMessage>{resend.isSuccess ? `A new link is on its way to ${user.email}.` : ""}</StatusMessage>
          </>
        )}
      </section>
      <ChangePassword />
      <DeleteAccount />
    </>
  );
}

const CONFIRM_WORDS = "delete my account";

/** Deletes the account and everything in it, after the password and the typed words; then signs out. */
function DeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [problems, setProblems] = useState<{ password?: string; confirm?: string }>({});
  const remove = useMutation({
    mutationFn: (json: { password: string; confirm: typeof CONFIRM_WORDS }) => unwrap(api.api.auth.account.$delete({ json })),
    onSuccess: () => {
      setCsrfToken(null);
      queryClient.clear();
      queryClient.setQueryData(ME_KEY, null);
      void navigate("/sign-in?deleted=1", { replace: true });
    },
  });
  const server = serverFieldErrors(remove.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = { password: password ? undefined : "is required", confirm: confirm.trim() === CONFIRM_WORDS ? undefined : `must be exactly "${CONFIRM_WORDS}"` };
    setProblems(found);
    if (!found.password && !found.confirm) remove.mutate({ password, confirm: CONFIRM_WORDS });
  };
  return (
    <section className="panel" aria-labelledby="delete-title">
      <h2 id="delete-title">Delete your account</h2>
      <p>
        This deletes your accounts, ledgers, fills, trades, imports, keys, credits and advisor conversations, and signs you out everywhere. It
        cannot be undone. A Pro subscription is not cancelled by this: cancel it from the billing page first.
      </p>
      <form className="form" onSubmit={submit} noValidate aria-label="Delete your account">
        <ErrorAlert error={remove.error && !server.password ? remove.error : null} title="Could not delete the account." />
        <TextField label="Your password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={problems.password ?? server.password} />
        <TextField label={`Type "${CONFIRM_WORDS}"`} value={confirm} onChange={(e) => setConfirm(e.target.value)} error={problems.confirm} autoComplete="off" />
        <div className="button-row">
          <button type="submit" className="button button--danger" disabled={remove.isPending}>
            Delete my account
          </button>
        </div>
      </form>
    </section>
  );
}
