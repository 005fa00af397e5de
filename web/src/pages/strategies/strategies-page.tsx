// The option strategies list (/strategies; docs/options.md): each spread, condor or covered call as one row with
// its kind, legs, net P&L, R and what it could make or lose at expiry; filtered by account, underlying, status
// and kind (kept in the address), newest opened first, more on request.
import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { STRATEGY_KINDS, type StrategyKind } from "../../../../lib/options/strategy-shape.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts, type Account } from "../../api/queries.ts";
import { AccountFilter, FilterActions, StatusFilter } from "../../components/filters.tsx";
import { TradesTabs } from "../../components/trades-tabs.tsx";
import { EmptyState, ErrorAlert, Loading, PageHeader, SelectField, TextField, ZoneNote } from "../../components/ui.tsx";
import { formatDate, formatMoney, formatNumber, formatPnl, formatR, formatTime, toneOf } from "../../lib/format.ts";
import { filterZone } from "../trades/trades-page.tsx";
import { KIND_LABELS, payoffFigure, strategyName } from "./kinds.ts";

type ListQuery = Parameters<typeof api.api.strategies.$get>[0]["query"];

const FILTERS = ["accountId", "underlying", "status", "kind", "minIv", "maxIv", "minDelta", "maxDelta"] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/** A filter's number as the API takes it (divided by `per`: a percentage by 100), or null when it is not one. */
function bound(v: string | undefined, per = 1): string | null {
  if (!v || !/^-?\d{1,7}(\.\d{1,4})?$/.test(v.trim())) return null;
  return String(Number((Number(v) / per).toFixed(6)));
}

function readFilters(params: URLSearchParams): Filters {
  const out: Filters = {};
  for (const k of FILTERS) {
    const v = params.get(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

function FilterForm({ initial, accounts, onApply }: { initial: Filters; accounts: Account[]; onApply(f: Filters): void }) {
  const [f, setF] = useState<Filters>(initial);
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setF((prev) => ({ ...prev, [k]: e.target.value }));
  function submit(e: FormEvent) {
    e.preventDefault();
    onApply(f);
  }
  return (
    <form className="form form--inline panel" onSubmit={submit} aria-label="Filter strategies">
      <AccountFilter value={f.accountId ?? ""} accounts={accounts} onChange={set("accountId")} />
      <TextField label="Underlying" value={f.underlying ?? ""} maxLength={12} onChange={set("underlying")} hint="SPY, AAPL…" />
      <StatusFilter value={f.status ?? ""} onChange={set("status")} />
      <SelectField label="Kind" value={f.kind ?? ""} onChange={set("kind")}>
        <option value="">Any</option>
        {STRATEGY_KINDS.map((k) => (
          <option key={k} value={k}>
            {KIND_LABELS[k]}
          </option>
        ))}
      </SelectField>
      <TextField label="Entry IV from (%)" inputMode="decimal" value={f.minIv ?? ""} maxLength={8} onChange={set("minIv")} hint="The legs' implied volatility when opened." />
      <TextField label="Entry IV to (%)" inputMode="decimal" value={f.maxIv ?? ""} maxLength={8} onChange={set("maxIv")} />
      <TextField label="Entry delta from" inputMode="decimal" value={f.minDelta ?? ""} maxLength={10} onChange={set("minDelta")} hint="In shares: -50 is short 50 shares' worth." />
      <TextField label="Entry delta to" inputMode="decimal" value={f.maxDelta ?? ""} maxLength={10} onChange={set("maxDelta")} />
      <FilterActions
        onClear={() => {
          setF({});
          onApply({});
        }}
      />
    </form>
  );
}

export function StrategiesPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const accounts = useAccounts();
  const zone = filterZone(accounts.data?.accounts ?? [], filters.accountId);
  const query = {
    ...(filters.accountId && /^[0-9a-f-]{36}$/i.test(filters.accountId) ? { accountId: filters.accountId } : {}),
    ...(filters.underlying ? { underlying: filters.underlying.slice(0, 12) } : {}),
    ...(filters.status === "open" || filters.status === "closed" ? { status: filters.status as "open" | "closed" } : {}),
    ...(filters.kind && (STRATEGY_KINDS as readonly string[]).includes(filters.kind) ? { kind: filters.kind as StrategyKind } : {}),
    // IV is typed in percent and sent as a fraction; a bound that is not a number is left out.
    ...(bound(filters.minIv, 100) ? { minIv: bound(filters.minIv, 100)! } : {}),
    ...(bound(filters.maxIv, 100) ? { maxIv: bound(filters.maxIv, 100)! } : {}),
    ...(bound(filters.minDelta) ? { minDelta: bound(filters.minDelta)! } : {}),
    ...(bound(filters.maxDelta) ? { maxDelta: bound(filters.maxDelta)! } : {}),
  };
  const list = useInfiniteQuery({
    queryKey: keys.strategyList(query),
    // The bounds go as text (the typed client reads the query parsed, where they are numbers).
    queryFn: ({ pageParam }) => unwrap(api.api.strategies.$get({ query: { ...(query as unknown as ListQuery), ...(pageParam ? { cursor: pageParam } : {}) } })),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
  });
  const byId = new Map((accounts.data?.accounts ?? []).map((a) => [a.id, a]));
  const showAccount = !filters.accountId && (accounts.data?.accounts.length ?? 0) > 1;
  const rows = list.data?.pages.flatMap((p) => p.strategies) ?? [];
  function apply(next: Filters) {
    const p: Record<string, string> = {};
    for (const [k, v] of Object.entries(next)) if (v?.trim()) p[k] = v.trim();
    setParams(p);
  }

  return (
    <>
      <PageHeader title="Option strategies">
        <Link className="button button--secondary" to="/import">
          Import CSV
        </Link>
      </PageHeader>
      <TradesTabs />
      <p className="muted">
        The option legs of one order (when your broker's file names its orders), or else opened within a minute of each other, on one account and
        underlying, are one strategy; a strategy opened as another closes is its roll. Group or split them by hand on a strategy's page: what you
        group stays grouped.
      </p>
      <ErrorAlert error={accounts.error} title="Could not load your accounts." />
      <FilterForm key={params.toString()} initial={filters} accounts={accounts.data?.accounts ?? []} onApply={apply} />
      {list.isPending ? (
        <Loading label="Loading strategies…" />
      ) : list.isError ? (
        <>
          <ErrorAlert error={list.error} title="Could not load your strategies." />
          <button type="button" className="button button--secondary" onClick={() => void list.refetch()}>
            Try again
          </button>
        </>
      ) : rows.length === 0 ? (
        Object.keys(query).length > 0 ? (
          <EmptyState title="No strategies match these filters">
            <p>Change or clear the filters to see more.</p>
          </EmptyState>
        ) : (
          <EmptyState title="No option trades yet" action={<Link className="button" to="/import">Import a CSV</Link>}>
            <p>Import your broker's history with its option trades: spreads, condors and covered calls show here as one strategy each.</p>
          </EmptyState>
        )
      ) : (
        <>
          <ZoneNote zone={zone} />
          <div className="table-wrap">
            <table className="stack-table strategies-table">
              <caption>
                Strategies, newest opened first{list.isFetching && !list.isFetchingNextPage && <span className="muted"> (updating…)</span>}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Strategy</th>
                  {showAccount && <th scope="col">Account</th>}
                  <th scope="col">Opened</th>
                  <th scope="col">Closed</th>
                  <th scope="col" className="num">Legs</th>
                  <th scope="col" className="num">Net P&amp;L</th>
                  <th scope="col" className="num">
                    <abbr title="Net P&L in multiples of the planned risk, or of the max loss at expiry">R</abbr>
                  </th>
                  <th scope="col" className="num">
                    <abbr title="The legs' implied volatility when opened">IV</abbr>
                  </th>
                  <th scope="col" className="num">
                    <abbr title="Delta at entry, in shares' worth">Delta</abbr>
                  </th>
                  <th scope="col" className="num">Max profit</th>
                  <th scope="col" className="num">Max loss</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((s) => (
                  <tr key={s.id}>
                    <th scope="row">
                      <Link to={`/strategies/${s.id}`}>
                        {s.underlying} · {strategyName(s)}
                      </Link>
                      {s.rollOfId && <span className="badge">Roll</span>}
                    </th>
                    {showAccount && <td data-label="Account">{byId.get(s.accountId)?.name ?? "—"}</td>}
                    <td data-label="Opened">
                      <span className="keep-together">{formatDate(s.openedAt, zone)},</span> <span className="keep-together">{formatTime(s.openedAt, zone)}</span>
                    </td>
                    <td data-label="Closed">
                      {s.closedAt ? (
                        <>
                          <span className="keep-together">{formatDate(s.closedAt, zone)},</span> <span className="keep-together">{formatTime(s.closedAt, zone)}</span>
                        </>
                      ) : (
                        <span className="badge badge--open">Open</span>
                      )}
                    </td>
                    <td data-label="Legs" className="num">{s.legs.length}</td>
                    <td data-label="Net P&L" className={`num ${toneOf(s.netPnl)}`}>{formatPnl(s.netPnl, s.currency)}</td>
                    <td data-label="R" className={`num ${s.rMultiple ? toneOf(s.rMultiple) : ""}`}>{s.rMultiple ? formatR(s.rMultiple) : "—"}</td>
                    <td data-label="IV" className="num">{s.greeks?.iv ? `${(Number(s.greeks.iv) * 100).toFixed(1)} %` : "—"}</td>
                    <td data-label="Delta" className="num">{s.greeks ? formatNumber(s.greeks.delta) : "—"}</td>
                    <td data-label="Max profit" className="num">{payoffFigure(s.maxProfit, s, formatMoney)}</td>
                    <td data-label="Max loss" className="num">{payoffFigure(s.maxLoss, s, formatMoney)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {list.hasNextPage && (
            <div className="button-row">
              <button type="button" className="button button--secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {list.isFetchingNextPage ? "Loading…" : "Show more"}
              </button>
            </div>
          )}
        </>
      )}
    </>
  );
}
