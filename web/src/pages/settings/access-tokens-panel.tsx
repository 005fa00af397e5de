// Settings > Account, "Access tokens" (docs/auth.md, "Personal access tokens"): tokens for scripts and trading
// platforms, each limited to the scopes ticked here. Making one asks for the password (and a code while two-factor
// sign-in is on), and a token lives a year at most. A new token is shown once, with a button to copy it; the list
// shows when each was last used; Revoke stops it at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, unwrap } from "../../api/client.ts";
import { keys } from "../../api/queries.ts";
import { ErrorAlert, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDate } from "../../lib/format.ts";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { DataTable } from "../../components/data-table.tsx";

type Scope = "read" | "import" | "fills:write";
const SCOPES: Array<{ scope: Scope; label: string }> = [
  { scope: "read", label: "Read: accounts, trades, fills, ledger, statistics" },
  { scope: "import", label: "Import: CSV preview, commit and undo" },
  { scope: "fills:write", label: "Write fills: add, correct and delete fills" },
];
// A token lives a year at most (lib/auth/tokens.ts TOKEN_MAX_DAYS).
const EXPIRY = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "180", label: "180 days" },
  { value: "365", label: "1 year (the longest)" },
];

function NewToken() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [expiry, setExpiry] = useState("90");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [problems, setProblems] = useState<{ name?: string; scopes?: string; password?: string; code?: string }>({});
  const [copied, setCopied] = useState(false);
  const twoFactor = useQuery({ queryKey: keys.twoFactor, queryFn: () => unwrap(api.api.auth["2fa"].$get()) });
  const needsCode = twoFactor.data?.enabled === true;
  const create = useMutation({
    mutationFn: (json: { name: string; scopes: Scope[]; expiresInDays: number; password: string; code?: string }) => unwrap(api.api.auth.tokens.$post({ json })),
    onSuccess: () => {
      setName("");
      setPassword("");
      setCode("");
      setCopied(false);
      void queryClient.invalidateQueries({ queryKey: keys.accessTokens });
      void queryClient.invalidateQueries({ queryKey: keys.twoFactor });
    },
  });
  const server = serverFieldErrors(create.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = {
      name: name.trim() ? undefined : "is required",
      scopes: scopes.length ? undefined : "tick at least one",
      password: password ? undefined : "is required",
      code: needsCode && !code.trim() ? "is required" : undefined,
    };
    setProblems(found);
    if (!Object.values(found).some(Boolean)) {
      create.mutate({ name: name.trim(), scopes, expiresInDays: Number(expiry), password, ...(needsCode ? { code: code.trim() } : {}) });
    }
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
      <ErrorAlert error={create.error && !server.name && !server.password && !server.code ? create.error : null} title="No token was made." />
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
      <TextField
        label="Your password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={problems.password ?? server.password}
        hint="Asked again so that a session left open cannot make a token. We email you when a token is made."
      />
      {needsCode && (
        <TextField
          label="Code from your authenticator (or a backup code)"
          autoComplete="one-time-code"
          inputMode="text"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={problems.code ?? server.code}
          maxLength={32}
        />
      )}
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
        token can never change your password, keys, billing or tokens, nor download your archive.
      </p>
      <p>A token lives a year at most. Changing your password, resetting it or signing out everywhere else revokes every token.</p>
      <ErrorAlert error={revoke.error} title="Could not revoke the token." />
      <QueryView query={tokens} label="your access tokens">
        {({ tokens: list }) => (
          <DataTable
            caption="Your access tokens, newest first"
            hideCaption
            rows={list}
            rowKey={(t) => t.id}
            empty={<p>No tokens yet.</p>}
            columns={[
              { header: "Name", cell: (t) => t.name },
              { header: "Scopes", cell: (t) => t.scopes.join(", ") },
              { header: "Last used", cell: (t) => (t.lastUsedAt ? formatDate(t.lastUsedAt) : "Never") },
              { header: "Expires", cell: (t) => (t.expiresAt ? (new Date(t.expiresAt) <= new Date() ? `Expired ${formatDate(t.expiresAt)}` : formatDate(t.expiresAt)) : "Never") },
              {
                header: "Actions",
                hideHeader: true,
                cell: (t) => (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    disabled={revoke.isPending && revoke.variables === t.id}
                    onClick={() => revoke.mutate(t.id)}
                    aria-label={`Revoke ${t.name}`}
                  >
                    Revoke
                  </button>
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <NewToken />
    </section>
  );
}
