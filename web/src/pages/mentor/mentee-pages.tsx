// A mentor's read-only view of a trader's journal (docs/sharing.md): the accounts and views the trader granted,
// read through the ordinary API with `?mentee=<userId>`, under a banner naming whose journal it is. Nothing here
// writes but comments; the API refuses anything else a mentor sends (403), and anything not granted is 404.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { api, apiFetch, asMentee, readJson, unwrap } from "../../api/client.ts";
import { Comments } from "../../components/comments.tsx";
import { ErrorAlert, Loading, PageHeader, QueryView } from "../../components/ui.tsx";
import { formatDate, formatDateTime, formatPnl, formatR, symbolLabel, toneOf } from "../../lib/format.ts";
import { BarsChart, SummaryOutline, TradeOutline, type OutlineBar } from "../share/trade-outline.tsx";
import { EquityChart } from "../dashboard/equity-chart.tsx";
import type { EquityPoint } from "../dashboard/equity.ts";
import "../dashboard/dashboard.css";
import { addDays, todayIn } from "../dashboard/range.ts";

type Mentee = { id: string; userId: string; name: string; accounts: Array<{ id: string; name: string; currency: string }>; scopes: string[]; status: string };
type TradeRow = { id: string; symbol: string; direction: string; status: string; openedAt: string; closedAt: string | null; netPnl: string; currency: string; notes: string | null; risk: { rMultiple: string | null } };

function useMentee(userId: string) {
  const mentees = useQuery({ queryKey: ["mentees"], queryFn: () => unwrap(api.api.mentees.$get()) });
  const mentee = mentees.data?.mentees.find((m) => m.userId === userId && m.status === "active") as Mentee | undefined;
  return { mentees, mentee };
}

/** The banner over every page of a mentee's journal. */
function Banner({ mentee }: { mentee: Mentee }) {
  return (
    <p className="notice mentor-banner" role="note">
      You are reading <strong>{mentee.name}</strong>'s journal, read-only ({mentee.scopes.join(", ")}). You can comment on trades and days.{" "}
      <Link to="/mentees">All journals you mentor</Link>
    </p>
  );
}

const get = async <T,>(path: string, mentee: string) => readJson<T>(await apiFetch(asMentee(path, mentee)));

export function MenteesPage() {
  const mentees = useQuery({ queryKey: ["mentees"], queryFn: () => unwrap(api.api.mentees.$get()) });
  return (
    <>
      <PageHeader title="Journals you mentor" />
      <p>
        Invitations to your email and the journals you read. Accept them in <Link to="/settings/sharing">Settings → Sharing</Link>.
      </p>
      <QueryView query={mentees} label="the journals you mentor">
        {({ mentees: list }) =>
          list.length === 0 ? (
            <p className="muted">No one has invited you to read their journal.</p>
          ) : (
            <ul>
              {list.map((m) => (
                <li key={m.id}>
                  {m.status === "active" ? <Link to={`/mentees/${m.userId}`}>{m.name}</Link> : `${m.name} (invited: accept in Settings → Sharing)`}
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
    </>
  );
}

export function MenteeJournalPage() {
  const { userId = "" } = useParams();
  const { mentees, mentee } = useMentee(userId);
  const [search, setSearch] = useSearchParams();
  if (mentees.isPending) return <Loading />;
  if (!mentee) {
    return (
      <>
        <PageHeader title="Not shared with you" />
        <ErrorAlert error={mentees.error} title="Could not load the journals you mentor." />
        <p>
          This journal is not shared with you, or no longer. See <Link to="/mentees">the journals you mentor</Link>.
        </p>
      </>
    );
  }
  const accountId = search.get("account") ?? mentee.accounts[0]?.id ?? "";
  const account = mentee.accounts.find((a) => a.id === accountId);
  const tabs = ["trades", "stats", "days"].filter((s) => mentee.scopes.includes(s));
  const tab = tabs.includes(search.get("tab") ?? "") ? search.get("tab")! : tabs[0];
  const go = (next: Record<string, string>) => setSearch({ account: accountId, ...(tab ? { tab } : {}), ...next });
  return (
    <>
      <PageHeader title={`${mentee.name}'s journal`} />
      <Banner mentee={mentee} />
      <div className="toolbar">
        <label>
          Account{" "}
          <select value={accountId} onChange={(e) => go({ account: e.target.value })}>
            {mentee.accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.currency})
              </option>
            ))}
          </select>
        </label>
        <nav aria-label="Views" className="section-tabs">
          {tabs.map((t) => (
            <button key={t} type="button" className={`button button--secondary${t === tab ? " active" : ""}`} aria-pressed={t === tab} onClick={() => go({ tab: t })}>
              {t === "trades" ? "Trades" : t === "stats" ? "Statistics" : "Daily journal"}
            </button>
          ))}
        </nav>
      </div>
      {account && tab === "trades" && <MenteeTrades userId={userId} accountId={account.id} />}
      {account && tab === "stats" && <MenteeStats userId={userId} accountId={account.id} />}
      {account && tab === "days" && <MenteeDays userId={userId} accountId={account.id} />}
    </>
  );
}

function MenteeTrades({ userId, accountId }: { userId: string; accountId: string }) {
  const trades = useQuery({ queryKey: ["mentee", userId, "trades", accountId], queryFn: () => get<{ trades: TradeRow[] }>(`/api/trades?accountId=${accountId}&pageSize=100`, userId) });
  return (
    <QueryView query={trades} label="the trades">
      {({ trades: list }) =>
        list.length === 0 ? (
          <p className="muted">No trades in this account.</p>
        ) : (
          <div className="table-wrap">
            <table className="stack-table">
              <caption className="visually-hidden">Trades, newest opened first</caption>
              <thead>
                <tr>
                  <th scope="col">Opened</th>
                  <th scope="col">Symbol</th>
                  <th scope="col">Side</th>
                  <th scope="col" className="num">
                    R
                  </th>
                  <th scope="col" className="num">
                    Net P&L
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((t) => (
                  <tr key={t.id}>
                    <td>{formatDateTime(t.openedAt)}</td>
                    <td>
                      <Link to={`/mentees/${userId}/trades/${t.id}`}>{symbolLabel(t.symbol)}</Link>
                    </td>
                    <td>{t.direction === "long" ? "Long" : "Short"}</td>
                    <td className="num">{t.risk.rMultiple ? formatR(t.risk.rMultiple) : "–"}</td>
                    <td className={`num ${toneOf(t.netPnl)}`}>{formatPnl(t.netPnl, t.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryView>
  );
}

type Summary = { trades: number; winRate: string | null; profitFactor: string | null; netPnl: string; currency: string | null; r: { total: string | null; expectancy: string | null } };

function MenteeStats({ userId, accountId }: { userId: string; accountId: string }) {
  const summary = useQuery({ queryKey: ["mentee", userId, "summary", accountId], queryFn: () => get<Summary>(`/api/stats/summary?accountId=${accountId}`, userId) });
  const equity = useQuery({ queryKey: ["mentee", userId, "equity", accountId], queryFn: () => get<{ points: EquityPoint[] }>(`/api/stats/equity?accountId=${accountId}&bucket=day`, userId) });
  return (
    <QueryView query={summary} label="the statistics">
      {(s) => (
        <>
          <SummaryOutline summary={s} />
          {equity.data && equity.data.points.length > 0 && <EquityChart points={equity.data.points} bucket="day" unit={{ kind: "money", currency: s.currency }} />}
        </>
      )}
    </QueryView>
  );
}

type DayEntry = { accountId: string; day: string; plan: string | null; review: string | null; tags: string[] };

function MenteeDays({ userId, accountId }: { userId: string; accountId: string }) {
  const to = todayIn("UTC");
  const from = addDays(to, -30);
  const days = useQuery({ queryKey: ["mentee", userId, "days", accountId, from], queryFn: () => get<{ days: DayEntry[] }>(`/api/days?accountId=${accountId}&from=${from}&to=${to}`, userId) });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <QueryView query={days} label="the daily journal">
      {({ days: list }) =>
        list.length === 0 ? (
          <p className="muted">No daily journal entries in the last 30 days.</p>
        ) : (
          <ul className="plain-list">
            {[...list].reverse().map((d) => (
              <li key={d.day} className="comment">
                <h3>{formatDate(`${d.day}T12:00:00Z`, "UTC")}</h3>
                {d.plan && <p className="notes-text">Plan: {d.plan}</p>}
                {d.review && <p className="notes-text">Review: {d.review}</p>}
                {d.tags.length > 0 && <p>Tags: {d.tags.join(", ")}</p>}
                <button type="button" className="button button--secondary" aria-expanded={open === d.day} onClick={() => setOpen(open === d.day ? null : d.day)}>
                  Comments
                </button>
                {open === d.day && <Comments path={`/api/days/${accountId}/${d.day}`} mentee={userId} />}
              </li>
            ))}
          </ul>
        )
      }
    </QueryView>
  );
}

type Detail = {
  trade: TradeRow & { averageEntryPrice: string | null; averageExitPrice: string | null; maxQuantity: string; fees: string; tags: string[]; setup: string | null };
  fills: Array<{ id: string; executedAt: string; side: "buy" | "sell"; price: string; quantityInTrade: string }>;
};

export function MenteeTradePage() {
  const { userId = "", tradeId = "" } = useParams();
  const { mentees, mentee } = useMentee(userId);
  const trade = useQuery({ queryKey: ["mentee", userId, "trade", tradeId], queryFn: () => get<Detail>(`/api/trades/${tradeId}`, userId) });
  const chart = useQuery({ queryKey: ["mentee", userId, "chart", tradeId], queryFn: () => get<{ resolution: string; bars: OutlineBar[] }>(`/api/trades/${tradeId}/chart`, userId) });
  if (mentees.isPending) return <Loading />;
  return (
    <>
      {mentee && <Banner mentee={mentee} />}
      <p className="breadcrumb">
        <Link to={`/mentees/${userId}`}>{mentee ? `${mentee.name}'s journal` : "Their journal"}</Link>
      </p>
      <QueryView query={trade} label="the trade">
        {({ trade: t, fills }) => {
          return (
            <>
              <PageHeader title={`${symbolLabel(t.symbol)} · ${t.direction === "long" ? "Long" : "Short"}`} />
              {chart.data && chart.data.bars.length > 0 && <BarsChart bars={chart.data.bars} fills={fills} daily={chart.data.resolution === "1d"} />}
              <TradeOutline trade={t} fills={fills} />
              {mentee?.scopes.includes("journal") && (
                <section className="panel">
                  <h2>What they wrote</h2>
                  {t.setup && <p>Setup: {t.setup}</p>}
                  {t.tags.length > 0 && <p>Tags: {t.tags.join(", ")}</p>}
                  <p className="notes-text">{t.notes || "No notes."}</p>
                </section>
              )}
              <Comments path={`/api/trades/${t.id}`} mentee={userId} />
            </>
          );
        }}
      </QueryView>
    </>
  );
}
