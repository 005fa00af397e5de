// The admin console (administrators only; the API answers 403 to anyone else): users with search and paging,
// one user with its actions (each confirmed, with a reason), instance statistics and the audit log.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { Link, NavLink, useParams, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { EmptyState, ErrorAlert, Loading, PageHeader, QueryView, SelectField, StatusMessage, TextField } from "../../components/ui.tsx";
import { formatDateTime, formatNumber } from "../../lib/format.ts";
import { DataTable } from "../../components/data-table.tsx";

const adminKeys = {
  all: ["admin"] as const,
  users: (q: string, cursor: string) => ["admin", "users", q, cursor] as const,
  user: (id: string) => ["admin", "user", id] as const,
  stats: ["admin", "stats"] as const,
  audit: (cursor: string, target: string) => ["admin", "audit", cursor, target] as const,
};

function AdminTabs() {
  return (
    <nav aria-label="Admin sections" className="tabs">
      <NavLink to="/admin" end className="tabs__link">
        Users
      </NavLink>
      <NavLink to="/admin/stats" className="tabs__link">
        Statistics
      </NavLink>
      <NavLink to="/admin/audit" className="tabs__link">
        Audit log
      </NavLink>
    </nav>
  );
}

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "never");

/** Cursor paging kept in the address: the cursors seen so far, so Previous goes back. */
function usePager(params: URLSearchParams, setParams: (p: URLSearchParams) => void) {
  const trail = params.getAll("after");
  const cursor = trail.at(-1) ?? "";
  return {
    cursor,
    page: trail.length + 1,
    next(nextCursor: string) {
      const p = new URLSearchParams(params);
      p.append("after", nextCursor);
      setParams(p);
    },
    previous() {
      const p = new URLSearchParams(params);
      p.delete("after");
      for (const c of trail.slice(0, -1)) p.append("after", c);
      setParams(p);
    },
  };
}

function Pager({ page, hasNext, onPrevious, onNext, label }: { page: number; hasNext: boolean; onPrevious(): void; onNext(): void; label: string }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button button--secondary" disabled={page <= 1} onClick={onPrevious}>
        Previous
      </button>
      <span>Page {page}</span>
      <button type="button" className="button button--secondary" disabled={!hasNext} onClick={onNext}>
        Next
      </button>
    </nav>
  );
}

export function AdminUsersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const [draft, setDraft] = useState(q);
  const pager = usePager(params, setParams);
  const users = useQuery({
    queryKey: adminKeys.users(q, pager.cursor),
    queryFn: () => unwrap(api.api.admin.users.$get({ query: { ...(q ? { q } : {}), ...(pager.cursor ? { cursor: pager.cursor } : {}), limit: "50" } })),
    placeholderData: keepPreviousData,
  });
  function search(e: FormEvent) {
    e.preventDefault();
    setParams(draft.trim() ? { q: draft.trim() } : {});
  }
  return (
    <>
      <PageHeader title="Admin" />
      <AdminTabs />
      <form className="form form--inline panel" onSubmit={search} aria-label="Search users">
        <TextField label="Email starts with" type="search" value={draft} maxLength={254} onChange={(e) => setDraft(e.target.value)} />
        <div className="button-row">
          <button type="submit" className="button">
            Search
          </button>
        </div>
      </form>
      <QueryView query={users} label="the users">
        {(data) =>
          data.users.length === 0 ? (
            <EmptyState title="No users match">
              <p>Try the start of another email address.</p>
            </EmptyState>
          ) : (
            <>
              <DataTable
                caption="Users, newest first"
                rows={data.users}
                rowKey={(u) => u.id}
                columns={[
                  { header: "Email", rowHeader: true, cell: (u) => <Link to={`/admin/users/${u.id}`}>{u.email}</Link> },
                  { header: "Plan", cell: (u) => (u.plan === "pro" ? "Pro" : "Free") },
                  { header: "Role", cell: (u) => (u.isAdmin ? <span className="badge">Admin</span> : "User") },
                  { header: "Created", cell: (u) => formatDateTime(u.createdAt) },
                  { header: "Last seen", cell: (u) => when(u.lastSeenAt) },
                  { header: "Accounts", num: true, cell: (u) => formatNumber(String(u.accounts)) },
                  { header: "Fills", num: true, cell: (u) => formatNumber(String(u.fills)) },
                  { header: "Trades", num: true, cell: (u) => formatNumber(String(u.trades)) },
                ]}
              />
              <Pager page={pager.page} hasNext={Boolean(data.nextCursor)} onPrevious={pager.previous} onNext={() => pager.next(data.nextCursor!)} label="User pages" />
            </>
          )
        }
      </QueryView>
    </>
  );
}

/** An action behind a confirmation: the button opens a short form (reason, plus `fields`) with Confirm and Cancel. */
function ConfirmAction({
  label,
  danger,
  reasonRequired,
  fields,
  onConfirm,
  pending,
  error,
}: {
  label: string;
  danger?: boolean;
  reasonRequired?: boolean;
  fields?: ReactNode;
  onConfirm(reason: string): void;
  pending: boolean;
  error: unknown;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  if (!open)
    return (
      <button type="button" className={`button ${danger ? "button--danger" : "button--secondary"}`} onClick={() => setOpen(true)}>
        {label}
      </button>
    );
  return (
    <form
      className="form panel confirm"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        if (reasonRequired && !reason.trim()) return setMissing(true);
        onConfirm(reason.trim());
      }}
    >
      <ErrorAlert error={error} title={`Could not ${label.toLowerCase()}.`} />
      {fields}
      <TextField
        label={reasonRequired ? "Reason" : "Reason (optional)"}
        value={reason}
        maxLength={500}
        onChange={(e) => setReason(e.target.value)}
        error={missing ? "is required" : undefined}
        hint="Kept in the audit log."
      />
      <div className="button-row">
        <button type="submit" className={`button ${danger ? "button--danger" : ""}`} disabled={pending}>
          Confirm: {label.toLowerCase()}
        </button>
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function AdminUserPage() {
  const { userId = "" } = useParams();
  const queryClient = useQueryClient();
  const [done, setDone] = useState("");
  const [amount, setAmount] = useState("");
  const user = useQuery({ queryKey: adminKeys.user(userId), queryFn: () => unwrap(api.api.admin.users[":id"].$get({ param: { id: userId } })) });
  const refresh = async (message: string) => {
    setDone(message);
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
  };
  const patch = useMutation({
    mutationFn: (json: { isAdmin?: boolean; plan?: "free" | "pro"; reason?: string }) => unwrap(api.api.admin.users[":id"].$patch({ param: { id: userId }, json })),
    onSuccess: () => refresh("Saved, and written to the audit log."),
  });
  const credits = useMutation({
    mutationFn: (json: { amount: number; reason: string }) => unwrap(api.api.admin.users[":id"].credits.$post({ param: { id: userId }, json })),
    onSuccess: (r) => refresh(`Credits changed by ${r.movement.amount}; the balance is now ${r.movement.balanceAfter}.`),
  });
  const sessions = useMutation({
    mutationFn: (reason: string) => unwrap(api.api.admin.users[":id"].sessions.$delete({ param: { id: userId }, query: reason ? { reason } : {} })),
    onSuccess: () => refresh("Every session of this user has ended."),
  });
  const [plan, setPlan] = useState<"free" | "pro" | "">("");
  return (
    <>
      <p className="breadcrumb">
        <Link to="/admin">Admin</Link> / User
      </p>
      <QueryView query={user} label="the user">
        {({ user: u }) => (
          <>
            <PageHeader title={u.email} />
            <StatusMessage>{done}</StatusMessage>
            <section className="panel">
              <dl className="facts">
                <dt>Role</dt>
                <dd>{u.isAdmin ? "Administrator" : "User"}</dd>
                <dt>Plan</dt>
                <dd>{u.plan === "pro" ? "Pro" : "Free"}</dd>
                <dt>Email</dt>
                <dd>{u.emailVerified ? "verified" : "not verified"}</dd>
                <dt>Created</dt>
                <dd>{formatDateTime(u.createdAt)}</dd>
                <dt>Last seen</dt>
                <dd>{when(u.lastSeenAt)}</dd>
                <dt>Accounts, trades, fills</dt>
                <dd>
                  {u.accounts}, {u.trades}, {u.fills}
                </dd>
                <dt>Live sessions</dt>
                <dd>{u.sessions}</dd>
                <dt>Credits</dt>
                <dd>
                  {u.wallet.available} available ({u.wallet.balance} balance, {u.wallet.reserved} held)
                </dd>
              </dl>
            </section>
            <section className="panel stack" aria-label="Actions">
              <h2>Actions</h2>
              <ConfirmAction
                label={u.isAdmin ? "Demote to user" : "Promote to administrator"}
                danger={u.isAdmin}
                pending={patch.isPending}
                error={patch.error}
                onConfirm={(reason) => patch.mutate({ isAdmin: !u.isAdmin, ...(reason ? { reason } : {}) })}
              />
              <ConfirmAction
                label="Change the plan"
                pending={patch.isPending}
                error={patch.error}
                fields={
                  <SelectField label="New plan" value={plan || u.plan} onChange={(e) => setPlan(e.target.value as "free" | "pro")}>
                    <option value="free">Free</option>
                    <option value="pro">Pro</option>
                  </SelectField>
                }
                onConfirm={(reason) => patch.mutate({ plan: plan || u.plan, ...(reason ? { reason } : {}) })}
              />
              <ConfirmAction
                label="Grant or take credits"
                reasonRequired
                pending={credits.isPending}
                error={credits.error}
                fields={
                  <TextField
                    label="Credits"
                    inputMode="numeric"
                    value={amount}
                    onChange={(e) => setAmount(e.target.value)}
                    hint="A whole number: positive grants, negative takes back (never below what the user has available)."
                  />
                }
                onConfirm={(reason) => credits.mutate({ amount: Number(amount), reason })}
              />
              <ConfirmAction label="End all sessions" danger pending={sessions.isPending} error={sessions.error} onConfirm={(reason) => sessions.mutate(reason)} />
            </section>
            <p>
              <Link to={`/admin/audit?target=${u.id}`}>This user's audit entries</Link>
            </p>
          </>
        )}
      </QueryView>
    </>
  );
}

export function AdminStatsPage() {
  const stats = useQuery({ queryKey: adminKeys.stats, queryFn: () => unwrap(api.api.admin.stats.$get({ query: {} })) });
  return (
    <>
      <PageHeader title="Admin" />
      <AdminTabs />
      <QueryView query={stats} label="the statistics">
        {(s) => (
          <section className="panel">
            <h2>This instance</h2>
            <dl className="facts">
              <dt>Users</dt>
              <dd>
                {s.users.total} ({s.users.admins} admin, {s.users.pro} Pro)
              </dd>
              <dt>Active in 7 days</dt>
              <dd>{s.users.active7Days}</dd>
              <dt>Active in 30 days</dt>
              <dd>{s.users.active30Days}</dd>
              <dt>Accounts</dt>
              <dd>{s.accounts}</dd>
              <dt>Fills</dt>
              <dd>{s.fills}</dd>
              <dt>Imports committed</dt>
              <dd>{s.imports}</dd>
              <dt>Advisor turns (last 30 days)</dt>
              <dd>{s.advisor.turns}</dd>
              <dt>Credits charged (last 30 days)</dt>
              <dd>{s.advisor.creditsCharged}</dd>
              <dt>Weekly digests (last 30 days)</dt>
              <dd>
                {s.digests.emailConfigured ? "" : "Email is not configured: digests cannot be sent. "}
                {s.digests.sent} sent, {s.digests.failed} failed, {s.digests.retrying} to try again
                {s.digests.lastError ? ` (last failure: ${s.digests.lastError})` : ""}
              </dd>
            </dl>
          </section>
        )}
      </QueryView>
    </>
  );
}

const ACTIONS: Record<string, string> = {
  promote: "Promoted to admin",
  demote: "Demoted to user",
  set_plan: "Plan changed",
  credit_grant: "Credits changed",
  end_sessions: "Sessions ended",
  disable_2fa: "Two-factor sign-in turned off",
};

function detailText(action: string, details: Record<string, unknown>): string {
  if (action === "set_plan") return `${String(details.from)} → ${String(details.to)}`;
  if (action === "credit_grant") return `${Number(details.amount) > 0 ? "+" : ""}${String(details.amount)} (balance ${String(details.balanceAfter)})`;
  if (action === "end_sessions") return `${String(details.sessions)} session(s)`;
  return "";
}

export function AdminAuditPage() {
  const [params, setParams] = useSearchParams();
  const target = params.get("target") ?? "";
  const pager = usePager(params, setParams);
  const audit = useQuery({
    queryKey: adminKeys.audit(pager.cursor, target),
    queryFn: () =>
      unwrap(api.api.admin.audit.$get({ query: { ...(pager.cursor ? { cursor: pager.cursor } : {}), ...(target ? { targetUserId: target } : {}), limit: "50" } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader title="Admin" />
      <AdminTabs />
      {audit.isPending ? (
        <Loading label="Loading the audit log…" />
      ) : audit.isError ? (
        <ErrorAlert error={audit.error} title="Could not load the audit log." />
      ) : audit.data.entries.length === 0 ? (
        <EmptyState title="Nothing yet">
          <p>Every administrator action is listed here.</p>
        </EmptyState>
      ) : (
        <>
          <DataTable
            caption={`Audit log, newest first${target ? " (one user)" : ""}`}
            rows={audit.data.entries}
            rowKey={(e) => e.id}
            columns={[
              { header: "When", cell: (e) => formatDateTime(e.at) },
              { header: "Who", cell: (e) => e.actorEmail },
              { header: "Action", rowHeader: true, cell: (e) => ACTIONS[e.action] ?? e.action },
              { header: "User", cell: (e) => (e.targetUserId ? <Link to={`/admin/users/${e.targetUserId}`}>{e.targetEmail}</Link> : e.targetEmail) },
              { header: "Details", cell: (e) => detailText(e.action, e.details) },
              { header: "Reason", cell: (e) => e.reason ?? "—" },
            ]}
          />
          <Pager page={pager.page} hasNext={Boolean(audit.data.nextCursor)} onPrevious={pager.previous} onNext={() => pager.next(audit.data.nextCursor!)} label="Audit pages" />
        </>
      )}
    </>
  );
}
