// Settings > Account (/settings/account): the email the trader signs in with and whether it is confirmed
// (with a new confirmation link when the instance sends email), and changing the password, which signs out
// every other session.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
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
    </>
  );
}
