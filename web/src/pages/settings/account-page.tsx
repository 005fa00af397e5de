// Settings > Account (/settings/account): the email the trader signs in with and whether it is confirmed
// (with a new confirmation link when the instance sends email), changing the password, which signs out
// every other session, two-factor sign-in (two-factor-panel.tsx), passkeys (passkeys-panel.tsx), access tokens
// for scripts (access-tokens-panel.tsx), exporting and importing all of one's data as JSON, and deleting the
// account.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { api, apiFetch, setCsrfToken, unwrap } from "../../api/client.ts";
import { ApiError, errorFromResponse } from "../../api/errors.ts";
import { useInstanceConfig } from "../../api/queries.ts";
import { ME_KEY } from "../../api/query-client.ts";
import { useMe } from "../../api/session.ts";
import { ErrorAlert, PageHeader, StatusMessage, TextField } from "../../components/ui.tsx";
import { PASSWORD_MAX, PASSWORD_MIN, passwordProblem } from "../../lib/credentials.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { AccessTokensPanel } from "./access-tokens-panel.tsx";
import { PasskeysPanel } from "./passkeys-panel.tsx";
import { TwoFactorPanel } from "./two-factor-panel.tsx";
import { SettingsTabs } from "../../components/settings-tabs.tsx";

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
          hint={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters. Your other sessions are signed out and every access token is revoked; this session stays.`}
          required
        />
        <button type="submit" className="button" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </button>
        <StatusMessage>{change.isSuccess ? "Password changed. Every other session is signed out and every access token revoked." : ""}</StatusMessage>
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
      <SettingsTabs />
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
      <TwoFactorPanel />
      <PasskeysPanel />
      <AccessTokensPanel />
      <YourData />
      <DeleteAccount />
    </>
  );
}

type Restored = { accounts: number; fills: number; entries: number; journaled: number; screenshots?: number; detachedNotes?: number; conversations?: number };

/** Whether a chosen file is a ZIP (the complete archive) rather than the JSON export: by its first bytes, "PK". */
async function isZip(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x50 && head[1] === 0x4b;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What an import added, in one sentence. */
function restoredMessage(done: Restored): string {
  const parts = [plural(done.accounts, "account", "accounts"), plural(done.fills, "fill", "fills"), plural(done.entries, "ledger entry", "ledger entries")];
  if (done.screenshots !== undefined) parts.push(plural(done.screenshots, "screenshot", "screenshots"), plural(done.conversations ?? 0, "conversation", "conversations"));
  return `Imported ${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}.`;
}

/**
 * Export everything as one JSON file or as one ZIP (with screenshots, detached notes, conversations and import
 * history), and import either (from this instance or another): its accounts are added to this one's, all or
 * nothing. The ZIP is sent as it is, never read into the page.
 */
function YourData() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const restore = useMutation({
    mutationFn: async (chosen: File) => {
      let res: Response;
      if (await isZip(chosen)) {
        res = await apiFetch("/api/archive", { method: "POST", body: chosen, headers: { "Content-Type": "application/zip" } });
      } else {
        const form = new FormData();
        form.set("file", chosen);
        res = await apiFetch("/api/auth/account/import", { method: "POST", body: form });
      }
      if (!res.ok) {
        const err = await errorFromResponse(res);
        // The message names what is wrong with the file; there is no form field to point at.
        throw err.fields.length ? new ApiError(err.status, err.code, `${err.message} ${err.fields.slice(0, 3).map((f) => `${f.path} ${f.message}`).join("; ")}.`, err.requestId) : err;
      }
      return (await res.json()) as Restored;
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
  const done = restore.data;
  return (
    <section className="panel" aria-labelledby="data-title">
      <h2 id="data-title">Your data</h2>
      <p>
        Download everything you entered as one JSON file: brokerages, accounts, their ledgers, fills and trade journals (screenshots are
        not included). Or everything as one ZIP: that JSON file with your screenshots, detached notes, advisor conversations and import
        history. Either imports back, below, here or on another instance. Each account&apos;s page also exports its fills, trades and
        ledger as CSV.
      </p>
      <p className="button-row">
        <a className="button button--secondary" href="/api/auth/account/export" download>
          Export (JSON)
        </a>
        <a className="button button--secondary" href="/api/archive" download>
          Everything (ZIP)
        </a>
      </p>
      <form
        className="form"
        aria-label="Import an export"
        onSubmit={(e) => {
          e.preventDefault();
          if (file) restore.mutate(file);
        }}
      >
        <div className="field">
          <label htmlFor="data-import-file">Import an export file</label>
          <p className="field__hint" id="data-import-hint">
            The JSON export or the ZIP. Its accounts are added to yours, all or nothing; an account whose name you already use stops the
            import.
          </p>
          <input
            id="data-import-file"
            type="file"
            accept="application/json,.json,application/zip,.zip"
            aria-describedby="data-import-hint"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <ErrorAlert error={restore.error} title="Nothing was imported." />
        <StatusMessage>{restore.isPending ? "Importing…" : done ? restoredMessage(done) : ""}</StatusMessage>
        <div className="button-row">
          <button type="submit" className="button" disabled={!file || restore.isPending}>
            Import
          </button>
        </div>
      </form>
    </section>
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
        cannot be undone. A Pro subscription is cancelled at the payment provider first, so nothing more is charged.
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
