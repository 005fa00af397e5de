import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts, useInstanceConfig, usePlaybooks, type Account } from "../../api/queries.ts";
import { SymbolField } from "../../components/symbol-field.tsx";
import { EmptyState, ErrorAlert, Loading, PageHeader, SelectField, TextField } from "../../components/ui.tsx";
import { signOf } from "../../lib/decimal.ts";
import { formatDate, formatDateTime, formatNumber, formatTime, formatPnl, formatPrice, formatR, priceDecimals, symbolLabel, toneOf } from "../../lib/format.ts";
import { nextDay, wallToIso, zoneLabel } from "../../lib/zoned-input.ts";
import { useDetachedNotes } from "../notes/detached-notes-page.tsx";

const PAGE_SIZE = 50;
const FILTERS = ["accountId", "from", "to", "symbol", "tag", "playbookId", "status", "excursion"] as const;

/** The excursion filter's choices (docs/charts.md): the API's maxEfficiency and maxMaeR. */
const EXCURSION_FILTERS = {
  "kept-under-half": { label: "Kept under half of the best exit", query: { maxEfficiency: "0.4999" } },
  "against-1r": { label: "Went 1R or more against", query: { maxMaeR: "-1" } },
} as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/**
 * A yyyy-mm-dd date at midnight in `zone` (the chosen account's, or the one all accounts share; the reader's
 * own otherwise), as an ISO instant; `endOfDay` gives the next midnight.
 */
export function dateToIso(date: string, zone: string | undefined, endOfDay = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const day = endOfDay ? nextDay(date) : date;
  if (zone) return wallToIso(day, zone);
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const local = new Date(y, m - 1, d);
  return Number.isNaN(local.getTime()) ? undefined : local.toISOString();
}

/** The zone dates are read in: the account's, or the one every account shares (undefined: the reader's). */
export function filterZone(accounts: Account[], accountId: string | undefined): string | undefined {
  if (accountId) return accounts.find((a) => a.id === accountId)?.timezone;
  const zones = new Set(accounts.map((a) => a.timezone));
  return zones.size === 1 ? [...zones][0] : undefined;
}

function readFilters(params: URLSearchParams): Filters {
  const out: Filters = {};
  for (const k of FILTERS) {
    const v = params.get(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

/** Notes whose trade's fills are gone wait under Detached notes: the trades list says so while there are some. */
function DetachedNotice() {
  const notes = useDetachedNotes();
  const n = notes.data?.journals.length ?? 0;
  if (n === 0) return null;
  return (
    <p className="notice">
      {n === 1 ? "1 note is" : `${n} notes are`} kept apart from {n === 1 ? "its trade" : "their trades"}: the fills were deleted or their import
      undone. <Link to="/notes/detached">See detached notes</Link>.
    </p>
  );
}

function zoneHint(accounts: Account[], accountId: string | undefined): string {
  const zone = filterZone(accounts, accountId);
  return zone ? `Days in ${zoneLabel(zone)}.` : "Days on your computer's clock: choose an account for its time zone.";
}

function FilterForm({ initial, accounts, onApply }: { initial: Filters; accounts: Account[]; onApply(f: Filters): void }) {
  const [f, setF] = useState<Filters>(initial);
  const books = usePlaybooks();
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setF((prev) => ({ ...prev, [k]: e.target.value }));
  function submit(e: FormEvent) {
    e.preventDefault();
    onApply(f);
  }
  return (
    <form className="form form--inline panel" onSubmit={submit} aria-label="Filter trades">
      <SelectField label="Account" value={f.accountId ?? ""} onChange={set("accountId")}>
        <option value="">All accounts</option>
        {accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </SelectField>
      <TextField label="Opened from" type="date" value={f.from ?? ""} onChange={set("from")} hint={zoneHint(accounts, f.accountId)} />
      <TextField label="Opened to" type="date" value={f.to ?? ""} onChange={set("to")} hint="The whole day included." />
      <SymbolField label="Symbol" value={f.symbol ?? ""} maxLength={40} onChange={(symbol) => setF((prev) => ({ ...prev, symbol }))} />
      <TextField label="Tag" value={f.tag ?? ""} maxLength={50} onChange={set("tag")} />
      {(books.data?.playbooks.length ?? 0) > 0 && (
        <SelectField label="Playbook" value={f.playbookId ?? ""} onChange={set("playbookId")}>
          <option value="">Any</option>
          {books.data!.playbooks.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField label="Status" value={f.status ?? ""} onChange={set("status")}>
        <option value="">Open and closed</option>
        <option value="open">Open</option>
        <option value="closed">Closed</option>
      </SelectField>
      <SelectField label="How it went" value={f.excursion ?? ""} onChange={set("excursion")} hint="From the bars of closed trades.">
        <option value="">Any</option>
        {Object.entries(EXCURSION_FILTERS).map(([id, e]) => (
          <option key={id} value={id}>
            {e.label}
          </option>
        ))}
      </SelectField>
      <div className="button-row">
        <button type="submit" className="button">
          Apply filters
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => {
            setF({});
            onApply({});
          }}
        >
          Clear
        </button>
      </div>
    </form>
  );
}

type Valuation = { price: string; asOf: string; stale: boolean; marketValue: string; unrealizedPnl: string };

/** The last price (with its time, and "stale" when the provider could not refresh it) and the unrealised P&L. */
function QuoteCells({ valuation, currency, timezone }: { valuation: Valuation | null; currency: string; timezone: string | undefined }) {
  if (!valuation)
    return (
      <>
        <td data-label="Last price" className="num muted">Not priced</td>
        <td data-label="Unrealised P&L" className="num">—</td>
      </>
    );
  const sign = signOf(valuation.unrealizedPnl);
  return (
    <>
      <td data-label="Last price" className="num">
        {formatPrice(valuation.price, priceDecimals([valuation.price], 4))}
        <br />
        <small className="muted">
          {valuation.stale ? "stale, " : ""}
          {formatDateTime(valuation.asOf, timezone)}
        </small>
      </td>
      <td data-label="Unrealised P&L" className={`num ${sign < 0 ? "negative" : sign > 0 ? "positive" : ""}`}>{formatPnl(valuation.unrealizedPnl, currency)}</td>
    </>
  );
}

export function TradesPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const accounts = useAccounts();
  const config = useInstanceConfig();
  // Open positions are valued at the delayed quote when the instance has a quote provider.
  const priced = filters.status === "open" && config.data?.quotes === true;
  const zone = filterZone(accounts.data?.accounts ?? [], filters.accountId);
  const query = {
    ...(filters.accountId ? { accountId: filters.accountId } : {}),
    ...(filters.symbol ? { symbol: filters.symbol } : {}),
    ...(filters.tag ? { tag: filters.tag } : {}),
    ...(filters.playbookId && /^[0-9a-f-]{36}$/i.test(filters.playbookId) ? { playbookId: filters.playbookId } : {}),
    ...(filters.status === "open" || filters.status === "closed" ? { status: filters.status as "open" | "closed" } : {}),
    ...(filters.from && dateToIso(filters.from, zone) ? { from: dateToIso(filters.from, zone)! } : {}),
    ...(filters.to && dateToIso(filters.to, zone, true) ? { to: dateToIso(filters.to, zone, true)! } : {}),
    ...(filters.excursion && filters.excursion in EXCURSION_FILTERS ? EXCURSION_FILTERS[filters.excursion as keyof typeof EXCURSION_FILTERS].query : {}),
    ...(priced ? { quotes: "true" as const } : {}),
    page: String(page),
    pageSize: String(PAGE_SIZE),
  };
  const trades = useQuery({
    queryKey: keys.tradeList(query),
    queryFn: () => unwrap(api.api.trades.$get({ query })),
    placeholderData: keepPreviousData,
  });
  const byId = new Map((accounts.data?.accounts ?? []).map((a) => [a.id, a]));
  // An account alone (the account page's "Trades" link) is not a search: an empty answer there still
  // means "nothing recorded yet", with the same advice.
  const filtered = Object.keys(filters).some((k) => k !== "accountId");

  function apply(next: Filters, nextPage = 1) {
    const p: Record<string, string> = {};
    for (const [k, v] of Object.entries(next)) if (v?.trim()) p[k] = v.trim();
    if (nextPage > 1) p.page = String(nextPage);
    setParams(p);
  }

  if (accounts.isPending) return <Loading label="Loading your trades…" />;
  if (accounts.data?.accounts.length === 0)
    return (
      <>
        <PageHeader title="Trades" />
        <EmptyState title="Create your first account" action={<Link className="button" to="/accounts">Create an account</Link>}>
          <p>Trades belong to an account. Create one, then import a CSV from your broker or add a fill.</p>
        </EmptyState>
      </>
    );

  return (
    <>
      <PageHeader title="Trades">
        <Link className="button button--secondary" to="/import">
          Import CSV
        </Link>
        <Link className="button" to={`/fills/new${filters.accountId ? `?accountId=${filters.accountId}` : ""}`}>
          Add a fill
        </Link>
      </PageHeader>
      <ErrorAlert error={accounts.error} title="Could not load your accounts." />
      <DetachedNotice />
      <FilterForm key={params.toString()} initial={filters} accounts={accounts.data?.accounts ?? []} onApply={(f) => apply(f)} />
      {trades.isPending ? (
        <Loading label="Loading trades…" />
      ) : trades.isError ? (
        <>
          <ErrorAlert error={trades.error} title="Could not load trades." />
          <button type="button" className="button button--secondary" onClick={() => void trades.refetch()}>
            Try again
          </button>
        </>
      ) : trades.data.trades.length === 0 && page === 1 ? (
        filtered ? (
          <EmptyState title="No trades match these filters">
            <p>Change or clear the filters to see more.</p>
          </EmptyState>
        ) : (
          <EmptyState
            title="No trades yet"
            action={
              <>
                <Link className="button" to="/import">
                  Import a CSV
                </Link>
                <Link className="button button--secondary" to="/fills/new">
                  Add a fill
                </Link>
              </>
            }
          >
            <p>Import a CSV from your broker or add a fill. Fills are grouped into trades automatically.</p>
          </EmptyState>
        )
      ) : (
        <>
          {priced && (
            <div className="button-row quote-note">
              <p className="muted">Last prices are delayed quotes; unrealised P&amp;L is before the fees of closing. Options and futures are not priced.</p>
              <button type="button" className="button button--secondary" disabled={trades.isFetching} onClick={() => void trades.refetch()}>
                Refresh prices
              </button>
            </div>
          )}
          <div className="table-wrap">
            <table className="stack-table trades-table">
              <caption>
                {priced ? "Open positions, newest first" : "Trades, newest opened first"}
                {trades.isFetching && <span className="muted"> (updating…)</span>}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Symbol</th>
                  <th scope="col">Account</th>
                  <th scope="col">Side</th>
                  <th scope="col">Status</th>
                  <th scope="col">Opened</th>
                  <th scope="col" className="num">
                    Quantity
                  </th>
                  <th scope="col" className="num">
                    Avg entry
                  </th>
                  <th scope="col" className="num">
                    Avg exit
                  </th>
                  <th scope="col" className="num">
                    Net P&amp;L
                  </th>
                  <th scope="col" className="num">
                    <abbr title="Net P&L in multiples of the trade's planned risk (1R)">R</abbr>
                  </th>
                  {!priced && (
                    <>
                      <th scope="col" className="num">
                        <abbr title="Maximum adverse excursion: the lowest running P&L while open">MAE</abbr>
                      </th>
                      <th scope="col" className="num">
                        <abbr title="Maximum favourable excursion: the highest running P&L while open">MFE</abbr>
                      </th>
                      <th scope="col" className="num">
                        <abbr title="Exit efficiency: the share of the best exit the trade kept">Kept</abbr>
                      </th>
                    </>
                  )}
                  {priced && (
                    <>
                      <th scope="col" className="num">
                        Last price
                      </th>
                      <th scope="col" className="num">
                        Unrealised P&amp;L
                      </th>
                    </>
                  )}
                </tr>
              </thead>
              <tbody>
                {trades.data.trades.map((t) => {
                  const account = byId.get(t.accountId);
                  const currency = t.currency;
                  // Averages of several fills can run to 10 decimals: at most 4 here, the same for entry and exit.
                  const decimals = priceDecimals([t.averageEntryPrice, t.averageExitPrice], 4);
                  return (
                    <tr key={t.id}>
                      <th scope="row">
                        <Link to={`/trades/${t.id}`} title={t.symbol}>{symbolLabel(t.symbol)}</Link>
                      </th>
                      <td data-label="Account">{account?.name ?? "—"}</td>
                      <td data-label="Side">{t.direction === "long" ? "Long" : "Short"}</td>
                      <td data-label="Status">
                        <span className={`badge badge--${t.status}`}>{t.status === "open" ? "Open" : "Closed"}</span>
                      </td>
                      <td data-label="Opened">
                        <span className="keep-together">{formatDate(t.openedAt, account?.timezone)},</span> <span className="keep-together">{formatTime(t.openedAt, account?.timezone)}</span>
                      </td>
                      <td data-label="Quantity" className="num">{formatNumber(t.maxQuantity)}</td>
                      <td data-label="Avg entry" className="num">{t.averageEntryPrice ? formatPrice(t.averageEntryPrice, decimals) : "—"}</td>
                      <td data-label="Avg exit" className="num">{t.averageExitPrice ? formatPrice(t.averageExitPrice, decimals) : "—"}</td>
                      <td data-label="Net P&L" className={`num ${signOf(t.netPnl) < 0 ? "negative" : signOf(t.netPnl) > 0 ? "positive" : ""}`}>
                        {t.status === "open" && signOf(t.netPnl) === 0 ? "—" : formatPnl(t.netPnl, currency)}
                      </td>
                      <td data-label="R" className={`num ${t.risk.rMultiple ? toneOf(t.risk.rMultiple) : ""}`}>
                        {t.risk.rMultiple === null || (t.status === "open" && signOf(t.netPnl) === 0) ? "—" : formatR(t.risk.rMultiple)}
                      </td>
                      {!priced && (
                        <>
                          <td data-label="MAE" className="num negative">{t.excursions?.positionMae ? formatPnl(t.excursions.positionMae, currency) : "—"}</td>
                          <td data-label="MFE" className="num positive">{t.excursions?.positionMfe ? formatPnl(t.excursions.positionMfe, currency) : "—"}</td>
                          <td data-label="Kept" className="num">{t.excursions?.efficiency ? `${Math.round(Number(t.excursions.efficiency) * 100)} %` : "—"}</td>
                        </>
                      )}
                      {priced && <QuoteCells valuation={"valuation" in t ? (t.valuation as Valuation | null) : null} currency={currency} timezone={account?.timezone} />}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Trade pages">
            <button type="button" className="button button--secondary" disabled={page <= 1} onClick={() => apply(filters, page - 1)}>
              Previous
            </button>
            <span>Page {page}</span>
            <button type="button" className="button button--secondary" disabled={!trades.data.hasMore} onClick={() => apply(filters, page + 1)}>
              Next
            </button>
          </nav>
        </>
      )}
    </>
  );
}
