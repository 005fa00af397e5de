// Behaviour findings (docs/discipline.md, "Insights"): what the trader's own record says about revenge
// trades, overtrading, sizing up after a loss and holding losers, each finding with its figures and the
// trades it cites (links to them). The advisor reads the same findings.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { useAccounts, type Account } from "../../api/queries.ts";
import { DisciplineTabs } from "../../components/discipline-tabs.tsx";
import { ScopeSelect, useStatsScope } from "../../components/stats-scope.tsx";
import { EmptyState, PageHeader, QueryView } from "../../components/ui.tsx";
import { formatDate, formatPnl, toneOf } from "../../lib/format.ts";

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
                              {t.symbol} · {formatDate(t.openedAt, zone)}
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
    </>
  );
}

export function InsightsPage() {
  const accounts = useAccounts();
  return (
    <>
      <PageHeader title="Insights" />
      <DisciplineTabs />
      <QueryView query={accounts} label="accounts">
        {({ accounts: list }) =>
          list.length === 0 ? (
            <EmptyState title="Create an account first" action={<Link to="/accounts" className="button">Go to accounts</Link>}>
              <p>Findings are read from your trades.</p>
            </EmptyState>
          ) : (
            <Insights accounts={list} />
          )
        }
      </QueryView>
    </>
  );
}
