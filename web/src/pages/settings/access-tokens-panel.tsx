// Settings > Account, "Access tokens" (docs/auth.md, "Personal access tokens"): tokens for scripts and trading
// platforms, each limited to the scopes ticked here. A new token is shown once, with a button to copy it; the
// list shows when each was last used; Revoke stops it at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { ErrorAlert, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDate } from "../../lib/format.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";

type Scope = "read" | "import" | "fills:write";
const SCOPES: Array<{ scope: Scope; label: string }> = [
  { scope: "read", label: "Read: accounts, trades, fills, ledger, statistics" },
  { scope: "import", label: "Import: CSV preview, commit and undo" },
  { scope: "fills:write", label: "Write fills: add, correct and delete fills" },
];
const EXPIRY = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: "", label: "Never" },
];

function NewToken() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [expiry, setExpiry] = useState("90");
  const [problems, setProblems] = useState<{ name?: string; scopes?: string }>({});
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: (json: { name: string; scopes: Scope[]; expiresInDays?: number }) => unwrap(api.api.auth.tokens.$post({ json })),
    onSuccess: () => {
      setName("");
      setCopied(false);
      void queryClient.invalidateQueries({ queryKey: keys.accessTokens });
    },
  });
  const server = serverFieldErrors(create.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = { name: name.trim() ? undefined : "is required", scopes: scopes.length ? undefined : "tick at least one" };
    setProblems(found);
    if (!found.name && !found.scopes) create.mutate({ name: name.trim(), scopes, ...(expiry ? { expiresInDays: Number(expiry) } : {}) });
  };
  const made = create.data;
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="New access token">
      <h3>New token</h3>
      {made && (
        <div className="alert" role="status">
          <p>
            <strong>Copy the token now: it is shown only this once.</strong>
          </p>
          <p>
            <code className="token-value">{made.token}</code>
          </p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => void navigator.clipboard?.writeText(made.token).then(() => setCopied(true), () => setCopied(false))}
          >
            Copy
          </button>
          <StatusMessage>{copied ? "Copied." : ""}</StatusMessage>
        </div>
      )}
      <ErrorAlert error={create.error && !server.name ? create.error : null} title="No token was made." />
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={problems.name ?? server.name} hint="Where it is used, e.g. “My broker bot”." maxLength={80} />
      <fieldset>
        <legend>What it may do</legend>
        {SCOPES.map(({ scope, label }) => (
          <label key={scope} className="checkbox">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((s) => s !== scope))}
            />
            {label}
          </label>
        ))}
        {problems.scopes && <p className="field__error">Scopes: {problems.scopes}</p>}
      </fieldset>
      <SelectField label="Expires after" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
        {EXPIRY.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </SelectField>
      <div className="button-row">
        <button type="submit" className="button" disabled={create.isPending}>
          Make token
        </button>
      </div>
    </form>
  );
}

export function AccessTokensPanel() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: keys.accessTokens, queryFn: () => unwrap(api.api.auth.tokens.$get()) });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.api.auth.tokens[":id"].$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.accessTokens }),
  });
  return (
    <section className="panel" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Access tokens</h2>
      <p>
        For scripts and trading platforms: send <code>Authorization: Bearer &lt;token&gt;</code> to the API (see the API reference). A
        token can never change your password, keys, billing or tokens.
      </p>
      <ErrorAlert error={revoke.error} title="Could not revoke the token." />
      <QueryView query={tokens} label="your access tokens">
        {({ tokens: list }) =>
          list.length === 0 ? (
            <p>No tokens yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="stack-table">
                <caption className="visually-hidden">Your access tokens, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((t) => (
                    <tr key={t.id}>
                      <td>{t.name}</td>
                      <td data-label="Scopes">{t.scopes.join(", ")}</td>
                      <td data-label="Last used">{t.lastUsedAt ? formatDate(t.lastUsedAt) : "Never"}</td>
                      <td data-label="Expires">
                        {t.expiresAt ? (new Date(t.expiresAt) <= new Date() ? `Expired ${formatDate(t.expiresAt)}` : formatDate(t.expiresAt)) : "Never"}
                      </td>
                      <td>
                        <button
                          type="button"
                          className="button button--secondary button--small"
                          disabled={revoke.isPending && revoke.variables === t.id}
                          onClick={() => revoke.mutate(t.id)}
                          aria-label={`Revoke ${t.name}`}
                        >
                          Revoke
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
      <NewToken />
    </section>
  );
}
