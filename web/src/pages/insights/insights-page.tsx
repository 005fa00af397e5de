// Behaviour findings (docs/discipline.md, "Insights"): what the trader's own record says about revenge
// trades, overtrading, sizing up after a loss and holding losers, each finding with its figures and the
// trades it cites (links to them). The advisor reads the same findings.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { type Account } from "../../api/queries.ts";
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { ScopeSelect, useStatsScope } from "../../components/stats-scope.tsx";
import { ErrorAlert, PageHeader, QueryView, SelectField, StatusMessage } from "../../components/ui.tsx";
import { WithAccounts } from "../../components/with-accounts.tsx";
import type { Filter } from "../../components/stats-scope.tsx";
import { useState } from "react";
import { formatDate, formatPnl, symbolLabel, toneOf } from "../../lib/format.ts";

function Insights({ accounts }: { accounts: readonly Account[] }) {
  const { currencies, filter, value, currency, choose } = useStatsScope(accounts);
  const insights = useQuery({ queryKey: ["insights", filter], queryFn: () => unwrap(api.api.insights.$get({ query: filter })) });
  const zoneOf = new Map(accounts.map((a) => [a.id, a.timezone]));
  const zone = filter.accountId ? zoneOf.get(filter.accountId) : undefined;
  return (
    <>
      <div className="form form--inline">
        <ScopeSelect accounts={accounts} currencies={currencies} value={value} onChange={choose} />
      </div>
      <QueryView query={insights} label="the findings">
        {({ findings }) => (
          <>
            {findings.map((f) => {
              const titleId = `finding-${f.kind}`;
              return (
                <section key={f.kind} className="panel" aria-labelledby={titleId}>
                  <h2 id={titleId}>
                    {f.title} <span className={`badge ${f.found ? "badge--unverified" : "badge--verified"}`}>{f.found ? "Found" : "Not found"}</span>
                  </h2>
                  <p>{f.detail}</p>
                  {f.found && (
                    <>
                      <p className={toneOf(f.netPnl)}>
                        {f.count} {f.count === 1 ? "trade" : "trades"}, which made {formatPnl(f.netPnl, currency)}.
                      </p>
                      <ul className="plain-list" aria-label={`${f.title}: the trades`}>
                        {f.trades.slice(0, 20).map((t) => (
                          <li key={t.id}>
                            <Link to={`/trades/${t.id}`}>
                              {symbolLabel(t.symbol)} · {formatDate(t.openedAt, zone)}
                            </Link>
                            <span className={toneOf(t.netPnl)}>{formatPnl(t.netPnl, currency)}</span>
                            {t.afterLoss && (
                              <Link to={`/trades/${t.afterLoss}`} className="muted">
                                after this loss
                              </Link>
                            )}
                          </li>
                        ))}
                      </ul>
                      {f.count > 20 && <p className="muted">And {f.count - 20} more.</p>}
                    </>
                  )}
                </section>
              );
            })}
          </>
        )}
      </QueryView>
      <MistakeCosts filter={filter} currency={currency} />
      <TagKinds />
    </>
  );
}

type Kind = "setup" | "mistake" | "emotion";
const KINDS: Array<{ value: Kind | ""; label: string }> = [
  { value: "", label: "No kind" },
  { value: "setup", label: "Setup" },
  { value: "mistake", label: "Mistake" },
  { value: "emotion", label: "Emotion" },
];

/** What each tag marked a mistake cost over the scope: the closed trades carrying it, costliest first. */
function MistakeCosts({ filter, currency }: { filter: Filter; currency: string | null }) {
  const report = useQuery({ queryKey: ["tags", "cost", filter], queryFn: () => unwrap(api.api.stats.tags.$get({ query: { ...filter, kind: "mistake" } })) });
  return (
    <section className="panel" aria-labelledby="mistakes-title">
      <h2 id="mistakes-title">What your mistakes cost</h2>
      <QueryView query={report} label="the mistakes">
        {({ tags }) =>
          tags.length === 0 ? (
            <p className="muted">No closed trade carries a tag marked as a mistake. Mark your tags below (for example fomo, moved stop).</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Each mistake tag: the closed trades carrying it and what they made, costliest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Mistake</th>
                    <th scope="col">Trades</th>
                    <th scope="col">Net P&amp;L</th>
                    <th scope="col">Per trade</th>
                  </tr>
                </thead>
                <tbody>
                  {tags.map((t) => (
                    <tr key={t.tag}>
                      <th scope="row">
                        <Link to={`/trades?tag=${encodeURIComponent(t.tag)}${filter.accountId ? `&accountId=${filter.accountId}` : ""}`}>{t.tag}</Link>
                      </th>
                      <td data-label="Trades">{t.trades}</td>
                      <td data-label="Net P&L" className={toneOf(t.netPnl)}>
                        {formatPnl(t.netPnl, currency)}
                      </td>
                      <td data-label="Per trade" className={toneOf(t.expectancy)}>
                        {formatPnl(t.expectancy, currency)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </QueryView>
    </section>
  );
}

/** Every tag with its kind, changed in place. */
function TagKinds() {
  const queryClient = useQueryClient();
  const tags = useQuery({ queryKey: ["tags", "list"], queryFn: () => unwrap(api.api.tags.$get()) });
  const [status, setStatus] = useState("");
  const save = useMutation({
    mutationFn: (json: { tag: string; kind: Kind | null }) => unwrap(api.api.tags.kind.$put({ json })),
    onSuccess: async (t) => {
      setStatus(t.kind ? `${t.tag} is now a ${t.kind} tag.` : `${t.tag} has no kind now.`);
      await queryClient.invalidateQueries({ queryKey: ["tags"] });
    },
  });
  return (
    <section className="panel" aria-labelledby="tag-kinds-title">
      <h2 id="tag-kinds-title">Your tags</h2>
      <p className="muted">Mark what each tag means: a setup you trade, a mistake you made, or an emotion you felt.</p>
      <ErrorAlert error={save.error} title="Could not change the tag." />
      <QueryView query={tags} label="your tags">
        {({ tags: list }) =>
          list.length === 0 ? (
            <p className="muted">No tags yet: add them on a trade's journal.</p>
          ) : (
            <ul className="plain-list">
              {list.map((t) => (
                <li key={t.tag}>
                  <SelectField
                    label={`${t.tag} (${t.trades} ${t.trades === 1 ? "trade" : "trades"})`}
                    value={t.kind ?? ""}
                    onChange={(e) => save.mutate({ tag: t.tag, kind: (e.target.value || null) as Kind | null })}
                  >
                    {KINDS.map((k) => (
                      <option key={k.value} value={k.value}>
                        {k.label}
                      </option>
                    ))}
                  </SelectField>
                </li>
              ))}
            </ul>
          )
        }
      </QueryView>
      <StatusMessage>{status}</StatusMessage>
    </section>
  );
}

export function InsightsPage() {
  return (
    <>
      <PageHeader title="Insights" />
      <DisciplineTabs />
      <WithAccounts why="Findings are read from your trades.">{(list) => <Insights accounts={list} />}</WithAccounts>
    </>
  );
}
