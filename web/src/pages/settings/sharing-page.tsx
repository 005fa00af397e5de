// Settings -> Sharing (docs/sharing.md): the trader's public links (views, revoke), their mentors (invite,
// what each reads and when, remove), and the journals they read as a mentor themselves (accept, open).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useAccounts } from "../../api/queries.ts";
import { SettingsTabs } from "../../components/settings-tabs.tsx";
import { ErrorAlert, PageHeader, QueryView, StatusMessage, TextField } from "../../components/ui.tsx";
import { serverFieldErrors } from "../../lib/form-errors.ts";
import { formatDateTime } from "../../lib/format.ts";

const SCOPES = [
  ["trades", "Trades, their fills and charts"],
  ["journal", "What you wrote on trades (notes, tags, screenshots)"],
  ["stats", "Statistics"],
  ["days", "The daily journal"],
] as const;
type Scope = (typeof SCOPES)[number][0];

const sharingKeys = { shares: ["shares"] as const, mentors: ["mentors"] as const, mentees: ["mentees"] as const };

export function SharingSettingsPage() {
  return (
    <>
      <PageHeader title="Sharing" />
      <SettingsTabs />
      <Links />
      <ShareReport />
      <Mentors />
      <Mentees />
    </>
  );
}

function Links() {
  const queryClient = useQueryClient();
  const shares = useQuery({ queryKey: sharingKeys.shares, queryFn: () => unwrap(api.api.shares.$get()) });
  const revoke = useMutation({
    mutationFn: (id: string) => unwrap(api.api.shares[":id"].$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKeys.shares }),
  });
  return (
    <section className="panel" aria-labelledby="links-title">
      <h2 id="links-title">Public links</h2>
      <p>Made from a trade's page ("Share this trade"). Anyone with a link sees what you chose, until it expires or you revoke it.</p>
      <ErrorAlert error={revoke.error} title="Could not revoke the link." />
      <QueryView query={shares} label="your links">
        {({ shares: list }) =>
          list.length === 0 ? (
            <p className="muted">No links yet.</p>
          ) : (
            <div className="table-wrap">
              <table className="stack-table">
                <caption className="visually-hidden">Your public links, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">What</th>
                    <th scope="col">Shows</th>
                    <th scope="col">Views</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((s) => {
                    const expired = Date.parse(s.expiresAt) <= Date.now();
                    const shows = Object.entries(s.show).filter(([, on]) => on).map(([k]) => (k === "money" ? "amounts" : k));
                    return (
                      <tr key={s.id}>
                        <td>{s.kind === "trade" ? s.tradeId ? <Link to={`/trades/${s.tradeId}`}>A trade</Link> : "A trade (its fills are gone)" : `A report of ${s.accountIds.length} account${s.accountIds.length === 1 ? "" : "s"}`}</td>
                        <td>{shows.length ? `R, ${shows.join(", ")}` : "R and percentages only"}</td>
                        <td>
                          {s.views}
                          {s.lastViewedAt && <span className="muted"> (last {formatDateTime(s.lastViewedAt)})</span>}
                        </td>
                        <td>{expired ? "Expired" : formatDateTime(s.expiresAt)}</td>
                        <td>
                          <button type="button" className="button button--secondary" disabled={revoke.isPending} onClick={() => revoke.mutate(s.id)}>
                            Revoke
                          </button>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
    </section>
  );
}

/** The trader's accounts as checkboxes: which a link or a mentor covers. */
function AccountChecks({ accounts, chosen, onChange, error }: { accounts: ReadonlyArray<{ id: string; name: string }>; chosen: string[]; onChange(ids: string[]): void; error?: string }) {
  return (
    <fieldset>
      <legend>Accounts</legend>
      {accounts.map((a) => (
        <label key={a.id} className="checkbox">
          <input type="checkbox" checked={chosen.includes(a.id)} onChange={(e) => onChange(e.target.checked ? [...chosen, a.id] : chosen.filter((x) => x !== a.id))} /> {a.name}
        </label>
      ))}
      {error && <p className="field__error">Accounts: {error}</p>}
    </fieldset>
  );
}

/** A report's link: accounts and a period (days, read as UTC), amounts shown or not. */
function ShareReport() {
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const [accountIds, setAccountIds] = useState<string[]>([]);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [money, setMoney] = useState(false);
  const make = useMutation({
    mutationFn: () =>
      unwrap(
        api.api.shares.$post({
          json: { kind: "report", accountIds, show: { money, notes: false, images: false, chart: false }, ...(from ? { from: `${from}T00:00:00Z` } : {}), ...(to ? { to: `${to}T00:00:00Z` } : {}) },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKeys.shares }),
  });
  const errors = serverFieldErrors(make.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    make.mutate();
  };
  const url = make.data ? new URL(make.data.url || `/s/${make.data.token}`, window.location.origin).href : null;
  return (
    <section className="panel" aria-labelledby="report-title">
      <h2 id="report-title">Share a report</h2>
      <p>The accounts' summary, equity curve and days for a period, in R unless you show amounts. No account names.</p>
      <form onSubmit={submit} noValidate>
        <AccountChecks accounts={accounts.data?.accounts ?? []} chosen={accountIds} onChange={setAccountIds} error={errors.accountIds} />
        <TextField label="From (first day)" type="date" value={from} onChange={(e) => setFrom(e.target.value)} error={errors.from} />
        <TextField label="To (the day after the last)" type="date" value={to} onChange={(e) => setTo(e.target.value)} error={errors.to} />
        <label className="checkbox">
          <input type="checkbox" checked={money} onChange={(e) => setMoney(e.target.checked)} /> Show amounts
        </label>
        <ErrorAlert error={errors.accountIds || errors.from || errors.to ? null : make.error} title="Could not make the link." />
        <button type="submit" className="button" disabled={make.isPending}>
          {make.isPending ? "Making the link…" : "Make a report link"}
        </button>
      </form>
      {url && <TextField label="Anyone with this link can see the report (shown once)" readOnly value={url} onFocus={(e) => e.target.select()} />}
    </section>
  );
}

function Mentors() {
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const mentors = useQuery({ queryKey: sharingKeys.mentors, queryFn: () => unwrap(api.api.mentors.$get()) });
  const [email, setEmail] = useState("");
  const [accountIds, setAccountIds] = useState<string[]>([]);
  const [scopes, setScopes] = useState<Scope[]>(["trades", "stats"]);
  const [days, setDays] = useState("");
  const [viewsOf, setViewsOf] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: () => unwrap(api.api.mentors.$post({ json: { email, accountIds, scopes, ...(days ? { expiresInDays: Number(days) } : {}) } })),
    onSuccess: () => {
      setEmail("");
      void queryClient.invalidateQueries({ queryKey: sharingKeys.mentors });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.api.mentors[":id"].$delete({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKeys.mentors }),
  });
  const views = useQuery({
    queryKey: ["mentor-views", viewsOf],
    queryFn: () => unwrap(api.api.mentors[":id"].views.$get({ param: { id: viewsOf! } })),
    enabled: viewsOf !== null,
  });
  const errors = serverFieldErrors(invite.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    invite.mutate();
  };
  const accountName = (id: string) => accounts.data?.accounts.find((a) => a.id === id)?.name ?? "A deleted account";
  return (
    <section className="panel" aria-labelledby="mentors-title">
      <h2 id="mentors-title">Mentors</h2>
      <p>A mentor signs in to this journal with the email you invite and reads the accounts and views you choose, read-only; they can comment on trades and days. Removing one ends their access at once.</p>
      <form onSubmit={submit} noValidate>
        <TextField label="Their email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} autoComplete="off" />
        <AccountChecks accounts={accounts.data?.accounts ?? []} chosen={accountIds} onChange={setAccountIds} error={errors.accountIds} />
        <fieldset>
          <legend>What they read</legend>
          {SCOPES.map(([scope, label]) => (
            <label key={scope} className="checkbox">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={(e) => setScopes(e.target.checked ? [...scopes, scope] : scopes.filter((x) => x !== scope))} /> {label}
            </label>
          ))}
          {errors.scopes && <p className="field__error">What they read: {errors.scopes}</p>}
        </fieldset>
        <TextField label="For how many days (empty: until you remove them)" type="number" min={1} max={730} value={days} onChange={(e) => setDays(e.target.value)} error={errors.expiresInDays} />
        <ErrorAlert error={errors.email || errors.accountIds || errors.scopes || errors.expiresInDays ? null : invite.error} title="Could not invite the mentor." />
        <button type="submit" className="button" disabled={invite.isPending}>
          {invite.isPending ? "Inviting…" : "Invite"}
        </button>
        {invite.isSuccess && <StatusMessage>Invited. They accept it in Settings → Sharing once signed in with that email.</StatusMessage>}
      </form>
      <ErrorAlert error={remove.error} title="Could not remove the mentor." />
      <QueryView query={mentors} label="your mentors">
        {({ mentors: list }) =>
          list.length === 0 ? (
            <p className="muted">No mentors yet.</p>
          ) : (
            <ul className="plain-list">
              {list.map((m) => (
                <li key={m.id} className="comment">
                  <p className="comment__meta">
                    <strong>{m.email}</strong> · {m.status === "active" ? "reads your journal" : "invited"}
                    {m.expiresAt && ` until ${formatDateTime(m.expiresAt)}`}
                    {m.lastViewedAt && ` · last read ${formatDateTime(m.lastViewedAt)}`}
                  </p>
                  <p>
                    {m.accountIds.map(accountName).join(", ")}: {m.scopes.join(", ")}
                  </p>
                  <button type="button" className="button button--secondary" onClick={() => setViewsOf(viewsOf === m.id ? null : m.id)} aria-expanded={viewsOf === m.id}>
                    What they read
                  </button>{" "}
                  <button type="button" className="button button--secondary" disabled={remove.isPending} onClick={() => remove.mutate(m.id)}>
                    Remove
                  </button>
                  {viewsOf === m.id && (
                    <QueryView query={views} label="their reads">
                      {({ views: reads }) =>
                        reads.length === 0 ? (
                          <p className="muted">Nothing read yet.</p>
                        ) : (
                          <ul>
                            {reads.slice(0, 50).map((v, i) => (
                              <li key={i}>
                                {formatDateTime(v.at)}: {v.route}
                              </li>
                            ))}
                          </ul>
                        )
                      }
                    </QueryView>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

function Mentees() {
  const queryClient = useQueryClient();
  const mentees = useQuery({ queryKey: sharingKeys.mentees, queryFn: () => unwrap(api.api.mentees.$get()) });
  const accept = useMutation({
    mutationFn: (id: string) => unwrap(api.api.mentees[":id"].accept.$post({ param: { id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sharingKeys.mentees }),
  });
  return (
    <section className="panel" aria-labelledby="mentees-title">
      <h2 id="mentees-title">Journals you mentor</h2>
      <ErrorAlert error={accept.error} title="Could not accept the invitation." />
      <QueryView query={mentees} label="the journals you mentor">
        {({ mentees: list }) =>
          list.length === 0 ? (
            <p className="muted">No one has invited you to read their journal.</p>
          ) : (
            <ul className="plain-list">
              {list.map((m) => (
                <li key={m.id} className="comment">
                  <p className="comment__meta">
                    <strong>{m.name}</strong> · {m.accounts.map((a) => a.name).join(", ")}: {m.scopes.join(", ")}
                    {m.expiresAt && ` · until ${formatDateTime(m.expiresAt)}`}
                  </p>
                  {m.status === "active" ? (
                    <Link to={`/mentees/${m.userId}`}>Open their journal</Link>
                  ) : (
                    <button type="button" className="button" disabled={accept.isPending} onClick={() => accept.mutate(m.id)}>
                      Accept the invitation
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}
