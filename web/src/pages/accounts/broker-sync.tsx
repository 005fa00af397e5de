import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import type { Account } from "../../api/queries.ts";
import { ErrorAlert, StatusMessage, TextField } from "../../components/ui.tsx";
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
  error: string | null;
  importId: string | null;
};

const connectionKey = (accountId: string) => ["broker-connection", accountId] as const;
const runsKey = (accountId: string) => ["broker-connection", accountId, "runs"] as const;

function runLine(run: Run): string {
  if (run.status === "running") return "Running…";
  if (run.status === "failed") return `Failed: ${run.error ?? "no reason given"}`;
  const deleted = run.skippedDeleted > 0 ? `, ${run.skippedDeleted} you deleted left out` : "";
  const what = `${run.imported} ${run.imported === 1 ? "fill" : "fills"} imported, ${run.duplicates} already here${deleted}`;
  return run.error ? `${what}. ${run.error}` : `${what}.`;
}

/** The token and query id form (a new connection, or a new token for a broken one). */
function ConnectForm({ account, onDone, startDate: savedStart = null }: { account: Account; onDone?: () => void; startDate?: string | null }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState("");
  const [queryId, setQueryId] = useState("");
  const [startDate, setStartDate] = useState(savedStart ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: () => unwrap(api.api.accounts[":id"]["broker-connection"].$put({ param: { id: account.id }, json: { provider: "ibkr-flex", token: token.trim(), queryId: queryId.trim(), startDate: startDate || null } })),
    onSuccess: async () => {
      setToken("");
      setErrors({});
      await queryClient.invalidateQueries({ queryKey: connectionKey(account.id) });
      onDone?.();
    },
    onError: (err) => setErrors(serverFieldErrors(err)),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const found: FieldErrors = {};
    if (!token.trim()) found.token = "Token is required.";
    if (!/^\d+$/.test(queryId.trim())) found.queryId = "Query ID must be the Flex query's number.";
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate();
  }
  return (
    <form className="form" onSubmit={submit} aria-label="Connect Interactive Brokers" noValidate>
      <TextField label="Flex Web Service token" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" spellCheck={false} error={errors.token} hint="Client Portal → Performance & Reports → Flex Queries → Flex Web Service. Stored sealed; never shown again." />
      <TextField label="Query ID" inputMode="numeric" value={queryId} onChange={(e) => setQueryId(e.target.value)} error={errors.queryId} hint="An Activity Flex Query with the Trades section (XML, or CSV with the columns of the IBKR Flex preset)." />
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
        {save.isPending ? "Checking with Interactive Brokers…" : "Connect"}
      </button>
    </form>
  );
}

/**
 * The account's broker sync (docs/imports.md, "Broker sync"): connect Interactive Brokers' Flex Web Service,
 * see its state and runs, pull now, disconnect.
 */
export function BrokerSync({ account }: { account: Account }) {
  const queryClient = useQueryClient();
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
  const anyRunning = running || (runs.data?.runs.some((r) => r.status === "running") ?? false);
  const [replacing, setReplacing] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: connectionKey(account.id) });
    await queryClient.invalidateQueries({ queryKey: runsKey(account.id) });
  };
  const syncNow = useMutation({
    mutationFn: () => unwrap(api.api.accounts[":id"]["broker-connection"].sync.$post({ param: { id: account.id } })),
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
          Pull this account&apos;s trades from Interactive Brokers automatically: twice a day, and whenever you ask. Each pull is an import (duplicates
          skipped, undo from the <Link to="/import">import history</Link>).
        </p>
        <ConnectForm account={account} />
      </>
    );
  const finished = runs.data?.runs.find((r) => r.status !== "running");
  return (
    <>
      <dl className="facts">
        <div>
          <dt>Broker</dt>
          <dd>Interactive Brokers (Flex Web Service)</dd>
        </div>
        <div>
          <dt>Query ID</dt>
          <dd>{c.queryId}</dd>
        </div>
        <div>
          <dt>Token</dt>
          <dd>…{c.tokenHintTail}</dd>
        </div>
        <div>
          <dt>Imports from</dt>
          <dd>{c.startDate ?? "Everything the statement holds"}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd>{c.broken ? <strong className="negative">Broken</strong> : c.verified ? "Connected" : "Saved, not checked yet"}</dd>
        </div>
      </dl>
      {c.broken && (
        <div className="alert alert--error" role="alert">
          <p className="alert__title">Interactive Brokers refused this connection: {c.broken}</p>
          <p>Pulls are paused until you save a new token.</p>
        </div>
      )}
      {(c.broken || replacing) && <ConnectForm account={account} startDate={c.startDate} onDone={() => setReplacing(false)} />}
      <div className="button-row">
        <button type="button" className="button" disabled={anyRunning || syncNow.isPending || Boolean(c.broken)} onClick={() => syncNow.mutate()}>
          {anyRunning ? "Syncing…" : "Sync now"}
        </button>
        {!c.broken && !replacing && (
          <button type="button" className="button button--secondary" onClick={() => setReplacing(true)}>
            Replace the token
          </button>
        )}
        <button type="button" className="button button--secondary" disabled={disconnect.isPending} onClick={() => disconnect.mutate()}>
          Disconnect
        </button>
      </div>
      <ErrorAlert error={syncNow.error ?? disconnect.error} title="Could not do that." />
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
