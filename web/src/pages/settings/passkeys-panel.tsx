// Settings > Account, "Passkeys" (docs/auth.md, "Passkeys"): add a passkey (this device's fingerprint, face or
// PIN, or a security key), see when each was last used, remove one with the password. A passkey signs in by
// itself, and is asked for after the password like an authenticator code.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { ErrorAlert, QueryView, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDate } from "../../lib/format.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { addPasskey, passkeyProblem, passkeysSupported } from "../../lib/passkeys.ts";

function RemovePasskey({ id, name }: { id: string; name: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const remove = useMutation({
    mutationFn: () => unwrap(api.api.passkeys[":id"].$delete({ param: { id }, json: { password } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: keys.passkeys }),
  });
  if (!open) {
    return (
      <button type="button" className="button button--secondary button--small" onClick={() => setOpen(true)} aria-label={`Remove ${name}`}>
        Remove
      </button>
    );
  }
  const server = serverFieldErrors(remove.error);
  return (
    <form
      className="form"
      aria-label={`Remove ${name}`}
      onSubmit={(e) => {
        e.preventDefault();
        if (password) remove.mutate();
      }}
    >
      <ErrorAlert error={remove.error && !server.password ? remove.error : null} title="The passkey was not removed." />
      <TextField label="Your password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={server.password} />
      <div className="button-row">
        <button type="submit" className="button button--danger button--small" disabled={remove.isPending || !password}>
          Remove {name}
        </button>
        <button type="button" className="button button--secondary button--small" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function PasskeysPanel() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: keys.passkeys, queryFn: () => unwrap(api.api.passkeys.$get()) });
  const [name, setName] = useState("");
  const add = useMutation({
    mutationFn: () => addPasskey(name.trim() || "Passkey"),
    onSuccess: () => {
      setName("");
      void queryClient.invalidateQueries({ queryKey: keys.passkeys });
    },
  });
  const supported = passkeysSupported();
  const problem = passkeyProblem(add.error);
  return (
    <section className="panel" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">Passkeys</h2>
      <p>
        A passkey signs you in with this device&apos;s fingerprint, face or PIN (or a security key), with no password to type. Once you have
        one, signing in with your password also asks for it (or for an authenticator code).
      </p>
      <QueryView query={list} label="your passkeys">
        {({ passkeys }) =>
          passkeys.length === 0 ? (
            <p>No passkeys yet.</p>
          ) : (
            <ul className="passkey-list" aria-label="Your passkeys">
              {passkeys.map((p) => (
                <li key={p.id}>
                  <span>
                    <strong>{p.name}</strong> · added {formatDate(p.createdAt)} · {p.lastUsedAt ? `last used ${formatDate(p.lastUsedAt)}` : "not used yet"}
                  </span>
                  <RemovePasskey id={p.id} name={p.name} />
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      {supported ? (
        <form
          className="form"
          aria-label="Add a passkey"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          {problem ? (
            <div className="alert alert--error" role="alert">
              {problem}
            </div>
          ) : (
            <ErrorAlert error={add.error} title="The passkey was not added." />
          )}
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} hint="Which device it is on, e.g. “MacBook” or “Phone”." maxLength={80} />
          <div className="button-row">
            <button type="submit" className="button" disabled={add.isPending}>
              Add a passkey
            </button>
          </div>
          <StatusMessage>{add.isSuccess ? "Passkey added." : ""}</StatusMessage>
        </form>
      ) : (
        <p className="muted">This browser cannot use passkeys.</p>
      )}
    </section>
  );
}
