import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useInstanceConfig, type Account } from "../../api/queries.ts";
import { ErrorAlert, SelectField, StatusMessage, TextAreaField, TextField } from "../../components/ui.tsx";
import { formatDateTime } from "../../lib/format.ts";
import { serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";

type Run = {
  id: string;
  trigger: "schedule" | "manual";
  status: "running" | "succeeded" | "failed";
  startedAt: string;
  finishedAt: string | null;
  imported: number;
  duplicates: number;
  skippedDeleted: number;
  skipped: Array<{ reason: string; count: number }>;
  error: string | null;
  importId: string | null;
};

const connectionKey = (accountId: string) => ["broker-connection", accountId] as const;
const runsKey = (accountId: string) => ["broker-connection", accountId, "runs"] as const;

function runLine(run: Run): string {
  if (run.status === "running") return "Running…";
  if (run.status === "failed") return `Failed: ${run.error ?? "no reason given"}`;
  // What the run left out and why (deleted by you, before the start date, not a trade...), most first.
  const left = (run.skipped ?? []).map((s) => `${s.count} ${s.reason}`).join("; ");
  const what = `${run.imported} ${run.imported === 1 ? "fill" : "fills"} imported, ${run.duplicates} already here${left ? `; left out: ${left}` : run.skippedDeleted > 0 ? `, ${run.skippedDeleted} you deleted left out` : ""}`;
  return run.error ? `${what}. ${run.error}` : `${what}.`;
}

type ProviderId = "ibkr-flex" | "alpaca" | "tastytrade" | "tradovate" | "schwab" | "kraken" | "coinbase";
type FieldSpec = { key: string; label: string; hint: string; secret?: boolean; numeric?: boolean; multiline?: boolean; optional?: boolean };

/**
 * Each broker the journal syncs, as a trader meets it: where the key is made, which permission is read-only,
 * and the fields the PUT takes (docs/imports.md, "Broker sync").
 */
const BROKERS: Record<ProviderId, { name: string; short: string; secretLabel: string; steps: string; fields: FieldSpec[]; flag?: { key: "paper" | "sandbox" | "demo"; label: string }; signIn?: boolean }> = {
  "ibkr-flex": {
    name: "Interactive Brokers (Flex Web Service)",
    short: "Interactive Brokers",
    secretLabel: "Token",
    steps: "In Client Portal: Performance & Reports → Flex Queries. Make an Activity Flex Query with the Trades section, then turn on the Flex Web Service there and generate its token. The token only reads statements.",
    fields: [
      { key: "token", label: "Flex Web Service token", secret: true, hint: "Client Portal → Performance & Reports → Flex Queries → Flex Web Service. Stored sealed; never shown again." },
      { key: "queryId", label: "Query ID", numeric: true, hint: "An Activity Flex Query with the Trades section (XML, or CSV with the columns of the IBKR Flex preset)." },
    ],
  },
  alpaca: {
    name: "Alpaca",
    short: "Alpaca",
    secretLabel: "API key",
    steps: "In Alpaca's dashboard, choose the paper or the live account, then API Keys → Generate New Keys. Alpaca's keys cannot be limited to reading: the journal only ever reads your fills with them. Paper keys work only with Paper ticked.",
    fields: [
      { key: "keyId", label: "API key ID", hint: "Starts with PK (paper) or AK (live)." },
      { key: "secret", label: "Secret key", secret: true, hint: "Shown once by Alpaca. Stored sealed; never shown again." },
    ],
    flag: { key: "paper", label: "Paper trading account" },
  },
  tastytrade: {
    name: "tastytrade",
    short: "tastytrade",
    secretLabel: "Refresh token",
    steps: "On my.tastytrade.com: Manage → My Profile → API → OAuth Applications. Create an application with the read scope only, then Create Grant: paste the application's client secret and the grant's refresh token. (tastytrade no longer lets apps sign in with your password.)",
    fields: [
      { key: "clientSecret", label: "Client secret", secret: true, hint: "The OAuth application's secret. Stored sealed; never shown again." },
      { key: "refreshToken", label: "Refresh token", secret: true, hint: "The personal grant's refresh token. Stored sealed; never shown again." },
      { key: "accountNumber", label: "Account number", optional: true, hint: "Only when the grant opens several accounts, such as 5WT00001." },
    ],
    flag: { key: "sandbox", label: "Sandbox (cert) account" },
  },
  tradovate: {
    name: "Tradovate",
    short: "Tradovate",
    secretLabel: "API key cid",
    steps: "In Tradovate: Application Settings → API Access → Generate API Key, with read permissions only. Tradovate keeps fills for the current session only: the journal pulls twice a day, and older history imports from the Fills report as a file.",
    fields: [
      { key: "name", label: "Tradovate user name", hint: "The name you sign in with." },
      { key: "password", label: "Password", secret: true, hint: "Tradovate's API signs in with it. Stored sealed; never shown again." },
      { key: "appId", label: "API key name (app id)", hint: "The name you gave the API key." },
      { key: "cid", label: "cid", numeric: true, hint: "The key's cid, digits." },
      { key: "secret", label: "Secret", secret: true, hint: "The key's secret. Stored sealed; never shown again." },
      { key: "accountName", label: "Account name", optional: true, hint: "Only when you have several accounts." },
    ],
    flag: { key: "demo", label: "Demo account" },
  },
  schwab: {
    name: "Charles Schwab",
    short: "Schwab",
    secretLabel: "Sign-in",
    steps: "You sign in at Schwab and allow this journal to read your account; Schwab never shows the journal your password. Schwab asks for the sign-in again every 7 days: the journal emails you when it is due. A first sync reads the last year, or from the Import from date.",
    fields: [{ key: "accountTail", label: "Last four digits of the account", numeric: true, optional: true, hint: "Only when your Schwab login opens several accounts." }],
    signIn: true,
  },
  kraken: {
    name: "Kraken",
    short: "Kraken",
    secretLabel: "API key",
    steps: "In Kraken: Settings → Connections & API → Create API key. Tick only “Query closed orders & trades” (read-only); leave every trading and funding permission off.",
    fields: [
      { key: "key", label: "API key", hint: "The public key Kraken shows first." },
      { key: "secret", label: "Private key", secret: true, hint: "Shown once by Kraken. Stored sealed; never shown again." },
    ],
  },
  coinbase: {
    name: "Coinbase Advanced",
    short: "Coinbase",
    secretLabel: "Key name",
    steps: "In the Coinbase Developer Platform: API keys → Create API key, with the ECDSA signature algorithm and only the View permission (read-only). Paste its name and its private key.",
    fields: [
      { key: "keyName", label: "API key name", hint: "organizations/…/apiKeys/…" },
      { key: "privateKey", label: "Private key", secret: true, multiline: true, hint: "From -----BEGIN EC PRIVATE KEY----- to its end. Stored sealed; never shown again." },
    ],
  },
};

/** The broker and its keys (a new connection, or new keys for a broken one). */
function ConnectForm({ account, onDone, startDate: savedStart = null, provider: savedProvider = "ibkr-flex", paper: savedPaper = false }: { account: Account; onDone?: () => void; startDate?: string | null; provider?: ProviderId; paper?: boolean }) {
  const queryClient = useQueryClient();
  const schwab = useInstanceConfig().data?.schwab ?? false;
  const offered = (Object.keys(BROKERS) as ProviderId[]).filter((id) => id !== "schwab" || schwab || savedProvider === "schwab");
  const [provider, setProvider] = useState<ProviderId>(savedProvider);
  const [values, setValues] = useState<Record<string, string>>({});
  const [flag, setFlag] = useState(savedPaper);
  const [startDate, setStartDate] = useState(savedStart ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const broker = BROKERS[provider];
  const save = useMutation({
    mutationFn: () => {
      const fields = Object.fromEntries(broker.fields.flatMap((f) => ((values[f.key] ?? "").trim() || !f.optional ? [[f.key, (values[f.key] ?? "").trim()]] : [])));
      const json = { provider, ...fields, ...(broker.flag ? { [broker.flag.key]: flag } : {}), startDate: startDate || null } as Parameters<(typeof api.api.accounts)[":id"]["broker-connection"]["$put"]>[0]["json"];
      return unwrap(api.api.accounts[":id"]["broker-connection"].$put({ param: { id: account.id }, json }));
    },
    onSuccess: async () => {
      setValues({});
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: connectionKey(account.id) });
      onDone?.();
    },
    onError: (err) => setErrors(serverFieldErrors(err)),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const found: FieldErrors = {};
    for (const f of broker.fields) {
      const value = (values[f.key] ?? "").trim();
      if (!value && !f.optional) found[f.key] = `${f.label} is required.`;
      else if (value && f.numeric && !/^\d+$/.test(value)) found[f.key] = provider === "ibkr-flex" ? `${f.label} must be the Flex query's number.` : `${f.label} must be digits.`;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (broker.signIn) {
      // Schwab: the browser goes to Schwab's sign-in and comes back to this page (?broker=connected).
      const tail = (values.accountTail ?? "").trim();
      const query = { ...(startDate ? { startDate } : {}), ...(tail ? { accountTail: tail } : {}) };
      window.location.assign(api.api.accounts[":id"]["broker-connection"].oauth.schwab.start.$url({ param: { id: account.id }, query }).toString());
      return;
    }
    save.mutate();
  }
  const set = (key: string) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  return (
    <form className="form" onSubmit={submit} aria-label={`Connect ${broker.short}`} noValidate>
      <SelectField label="Broker" value={provider} onChange={(e) => { setProvider(e.target.value as ProviderId); setFlag(false); setErrors({}); }}>
        {offered.map((id) => (
          <option key={id} value={id}>
            {BROKERS[id].name}
          </option>
        ))}
      </SelectField>
      <p className="muted">{broker.steps}</p>
      {broker.fields.map((f) =>
        f.multiline ? (
          <TextAreaField key={`${provider}-${f.key}`} label={f.label} value={values[f.key] ?? ""} onChange={set(f.key)} rows={5} spellCheck={false} autoComplete="off" error={errors[f.key]} hint={f.hint} />
        ) : (
          <TextField key={`${provider}-${f.key}`} label={f.label} value={values[f.key] ?? ""} onChange={set(f.key)} inputMode={f.numeric ? "numeric" : undefined} autoComplete="off" spellCheck={false} error={errors[f.key]} hint={f.hint} />
        ),
      )}
      {broker.flag && (
        <label className="checkbox">
          <input type="checkbox" checked={flag} onChange={(e) => setFlag(e.target.checked)} /> {broker.flag.label}
        </label>
      )}
      <TextField
        label="Import from"
        type="date"
        value={startDate}
        onChange={(e) => setStartDate(e.target.value)}
        error={errors.startDate}
        hint={`Optional: nothing executed before this day (${account.timezone}) is imported, such as history you already imported as a file.`}
      />
      {save.isError && !Object.keys(errors).length && <ErrorAlert error={save.error} title="Could not connect." />}
      <button type="submit" className="button" disabled={save.isPending}>
        {broker.signIn ? `Sign in at ${broker.short}` : save.isPending ? `Checking with ${broker.short}…` : "Connect"}
      </button>
    </form>
  );
}

/**
 * The account's broker sync (docs/imports.md, "Broker sync"): connect Interactive Brokers' Flex Web Service,
 * Alpaca, Kraken or Coinbase, see the connection's state and runs, pull now, replace the keys, disconnect.
 */
export function BrokerSync({ account }: { account: Account }) {
  const queryClient = useQueryClient();
  // Back from Schwab's sign-in: what happened, said once on the page.
  const [params] = useSearchParams();
  const returned = params.get("broker") === "connected" ? "Connected to Schwab." : null;
  const returnedError = params.get("brokerError");
  const connection = useQuery({
    queryKey: connectionKey(account.id),
    queryFn: async () => (await unwrap(api.api.accounts[":id"]["broker-connection"].$get({ param: { id: account.id } }))).connection,
  });
  const running = connection.data?.lastRun?.status === "running";
  const runs = useQuery({
    queryKey: runsKey(account.id),
    queryFn: () => unwrap(api.api.accounts[":id"]["broker-connection"].runs.$get({ param: { id: account.id } })),
    enabled: Boolean(connection.data),
    // While a run goes on, its end is looked for every two seconds.
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === "running") ? 2000 : false),
  });
  // The runs are looked at every two seconds while one goes on; the connection's own last run is read once, so
  // once the runs are known they decide (a connection read while the first sync ran said "running" for good).
  const runsRunning = runs.data?.runs.some((r) => r.status === "running");
  const anyRunning = runsRunning ?? running;
  useEffect(() => {
    if (runsRunning === false && running) void queryClient.invalidateQueries({ queryKey: connectionKey(account.id) });
  }, [runsRunning, running, queryClient, account.id]);
  const [replacing, setReplacing] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: connectionKey(account.id) });
    await queryClient.invalidateQueries({ queryKey: runsKey(account.id) });
  };
  const syncNow = useMutation({
    mutationFn: () => unwrap(api.api.accounts[":id"]["broker-connection"].sync.$post({ param: { id: account.id } })),
    onSuccess: refresh,
  });
  const pause = useMutation({
    mutationFn: (paused: boolean) => unwrap(api.api.accounts[":id"]["broker-connection"].$patch({ param: { id: account.id }, json: { paused } })),
    onSuccess: refresh,
  });
  const check = useMutation({
    mutationFn: () => unwrap(api.api.accounts[":id"]["broker-connection"].test.$post({ param: { id: account.id } })),
    onSuccess: refresh,
  });
  const disconnect = useMutation({
    mutationFn: () => unwrap(api.api.accounts[":id"]["broker-connection"].$delete({ param: { id: account.id } })),
    onSuccess: refresh,
  });

  if (connection.isPending) return <p className="muted">Loading the broker connection…</p>;
  if (connection.isError) return <ErrorAlert error={connection.error} title="Could not load the broker connection." />;
  const c = connection.data;
  if (!c)
    return (
      <>
        <p>
          Pull this account&apos;s trades from its broker automatically: twice a day, and whenever you ask. Each pull is an import (duplicates
          skipped, undo from the <Link to="/import">import history</Link>); a fill you delete here is never brought back by a pull.
        </p>
        {returnedError && <div className="alert alert--error" role="alert"><p className="alert__title">Not connected: {returnedError}</p></div>}
        <ConnectForm account={account} />
      </>
    );
  const finished = runs.data?.runs.find((r) => r.status !== "running");
  const broker = BROKERS[c.provider];
  return (
    <>
      {returned && !returnedError && <StatusMessage>{returned}</StatusMessage>}
      {returnedError && <div className="alert alert--error" role="alert"><p className="alert__title">Not connected: {returnedError}</p></div>}
      <dl className="facts">
        <div>
          <dt>Broker</dt>
          <dd>{broker.name}</dd>
        </div>
        {c.queryId && (
          <div>
            <dt>Query ID</dt>
            <dd>{c.queryId}</dd>
          </div>
        )}
        {(c.accountNumber || c.accountName || c.accountTail || c.provider === "alpaca") && (
          <div>
            <dt>Account</dt>
            <dd>{`${c.accountNumber || c.accountName || (c.accountTail ? `…${c.accountTail}` : "") || "Not read yet"}${c.paper || c.sandbox || c.demo ? ` (${c.paper ? "paper" : c.sandbox ? "sandbox" : "demo"})` : c.provider === "alpaca" ? " (live)" : ""}`}</dd>
          </div>
        )}
        {!broker.signIn && (
          <div>
            <dt>{broker.secretLabel}</dt>
            <dd>…{c.tokenHintTail}</dd>
          </div>
        )}
        <div>
          <dt>Imports from</dt>
          <dd>{c.startDate ?? "Everything the statement holds"}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{c.broken ? <strong className="negative">Broken</strong> : c.paused ? "Paused: not pulled on the schedule" : c.verified ? "Connected" : "Saved, not checked yet"}</dd>
        </div>
      </dl>
      {c.broken && (
        <div className="alert alert--error" role="alert">
          <p className="alert__title">{broker.short} refused this connection: {c.broken}</p>
          <p>{c.needsReauth ? "Pulls are paused until you sign in at Schwab again." : "Pulls are paused until you save new keys."}</p>
        </div>
      )}
      {(c.broken || replacing) && <ConnectForm account={account} startDate={c.startDate} provider={c.provider} paper={c.paper ?? c.sandbox ?? c.demo ?? false} onDone={() => setReplacing(false)} />}
      <div className="button-row">
        <button type="button" className="button" disabled={anyRunning || syncNow.isPending || Boolean(c.broken)} onClick={() => syncNow.mutate()}>
          {anyRunning ? "Syncing…" : "Sync now"}
        </button>
        {!c.broken && !replacing && (
          <button type="button" className="button button--secondary" onClick={() => setReplacing(true)}>
            {broker.signIn ? "Sign in again" : "Replace the keys"}
          </button>
        )}
        <button type="button" className="button button--secondary" disabled={check.isPending} onClick={() => check.mutate()}>
          {check.isPending ? `Checking with ${broker.short}…` : "Test the connection"}
        </button>
        <button type="button" className="button button--secondary" disabled={pause.isPending} onClick={() => pause.mutate(!c.paused)}>
          {c.paused ? "Resume the schedule" : "Pause the schedule"}
        </button>
        <button type="button" className="button button--secondary" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
          Disconnect
        </button>
      </div>
      {check.data && <StatusMessage>{check.data.ok ? `${broker.short} accepted the connection.` : `${broker.short} refused it: ${check.data.message}`}</StatusMessage>}
      <ErrorAlert error={syncNow.error ?? pause.error ?? check.error ?? disconnect.error} title="Could not do that." />
      {finished && <StatusMessage>{`Last sync ${formatDateTime(finished.finishedAt ?? finished.startedAt, account.timezone)}: ${runLine(finished)}`}</StatusMessage>}
      {(runs.data?.runs.length ?? 0) > 0 && (
        <details className="sync-runs">
          <summary>Sync history ({runs.data!.runs.length})</summary>
          <table className="stack-table">
            <caption className="visually-hidden">Sync runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Started</th>
                <th scope="col">How</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {runs.data!.runs.map((r) => (
                <tr key={r.id}>
                  <td data-label="Started">{formatDateTime(r.startedAt, account.timezone)}</td>
                  <td data-label="How">{r.trigger === "manual" ? "You asked" : "Scheduled"}</td>
                  <td data-label="Result" className={r.status === "failed" ? "negative" : undefined}>
                    {runLine(r)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </>
  );
}
