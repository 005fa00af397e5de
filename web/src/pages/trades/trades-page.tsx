import { BaseAmount } from "../../components/base-amount.tsx";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts, useInstanceConfig, usePlaybooks, type Account } from "../../api/queries.ts";
import { AccountFilter, FilterActions, StatusFilter } from "../../components/filters.tsx";
import { SymbolField } from "../../components/symbol-field.tsx";
import { TradesTabs } from "../../components/trades-tabs.tsx";
import { EmptyState, ErrorAlert, Loading, PageHeader, SelectField, TextField, ZoneNote } from "../../components/ui.tsx";
import { signOf } from "../../lib/decimal.ts";
import {
  averageDecimals,
  formatDate,
  formatDateTime,
  formatDuration,
  formatQuantity,
  formatTime,
  formatPnl,
  formatPrice,
  formatR,
  priceDecimals,
  quantityDecimals,
  symbolLabel,
  toneOf,
} from "../../lib/format.ts";
import { formatWinRate } from "../dashboard/format.ts";
import { nextDay, wallToIso, zoneLabel } from "../../lib/zoned-input.ts";
import type { TradeSort } from "../../../../lib/trades/schema.ts";
import { useDetachedNotes } from "../notes/detached-notes-page.tsx";

const PAGE_SIZE = 50;
/**
 * The filters kept in the address. The form edits the first ones; the rest arrive with a link from the
 * dashboard (a calendar day, a breakdown row) and show as chips a trader can remove.
 */
const FILTERS = [
  "accountId", "from", "to", "closedFrom", "closedTo", "symbol", "tag", "playbookId", "status", "excursion",
  "tradedFrom", "tradedTo", "direction", "setup", "noSetup", "entryWeekday", "entryHour", "rules",
] as const;

/** The list's orders (the API's sort), and the way each starts: newest or largest first, names A to Z. */
const SORTS = {
  symbol: "asc", account: "asc", direction: "asc", openedAt: "desc", closedAt: "desc", heldFor: "desc", quantity: "desc",
  averageEntryPrice: "desc", averageExitPrice: "desc", netPnl: "desc", rMultiple: "desc", mae: "asc", mfe: "desc", efficiency: "desc",
} as const satisfies Partial<Record<TradeSort, "asc" | "desc">>;
type SortKey = keyof typeof SORTS;
type Sort = { key: SortKey; order: "asc" | "desc" };
const SORT_LABELS: Record<SortKey, string> = {
  symbol: "Symbol", account: "Account", direction: "Side", openedAt: "Opened", closedAt: "Closed", heldFor: "Held", quantity: "Quantity",
  averageEntryPrice: "Avg entry", averageExitPrice: "Avg exit", netPnl: "Net P&L", rMultiple: "R", mae: "MAE", mfe: "MFE", efficiency: "Kept",
};

function readSort(params: URLSearchParams): Sort {
  const key = params.get("sort");
  if (!key || !(key in SORTS)) return { key: "openedAt", order: "desc" };
  const order = params.get("order");
  return { key: key as SortKey, order: order === "asc" || order === "desc" ? order : SORTS[key as SortKey] };
}

const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const isInstant = (v: string | undefined): v is string => v !== undefined && !Number.isNaN(Date.parse(v));

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
      <AccountFilter value={f.accountId ?? ""} accounts={accounts} onChange={set("accountId")} />
      <TextField label="Opened from" type="date" value={f.from ?? ""} onChange={set("from")} hint={zoneHint(accounts, f.accountId)} />
      <TextField label="Opened to" type="date" value={f.to ?? ""} onChange={set("to")} hint="The whole day included." />
      <TextField label="Closed from" type="date" value={f.closedFrom ?? ""} onChange={set("closedFrom")} />
      <TextField label="Closed to" type="date" value={f.closedTo ?? ""} onChange={set("closedTo")} hint="Open trades are left out." />
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
      <StatusFilter value={f.status ?? ""} onChange={set("status")} />
      <SelectField label="How it went" value={f.excursion ?? ""} onChange={set("excursion")} hint="From the bars of closed trades.">
        <option value="">Any</option>
        {Object.entries(EXCURSION_FILTERS).map(([id, e]) => (
          <option key={id} value={id}>
            {e.label}
          </option>
        ))}
      </SelectField>
      <FilterActions
        onClear={() => {
          setF({});
          onApply({});
        }}
      />
    </form>
  );
}

/** The filters a dashboard link set, as chips: what each keeps, and a button to drop it. */
function LinkedFilters({ filters, zone, onRemove }: { filters: Filters; zone: string | undefined; onRemove(keys: Array<keyof Filters>): void }) {
  const chips: Array<{ keys: Array<keyof Filters>; label: string }> = [];
  const { tradedFrom, tradedTo } = filters;
  if (isInstant(tradedFrom) || isInstant(tradedTo)) {
    const first = isInstant(tradedFrom) ? formatDate(tradedFrom, zone) : null;
    const last = isInstant(tradedTo) ? formatDate(new Date(Date.parse(tradedTo) - 1).toISOString(), zone) : null;
    const label = first && last ? (first === last ? `With a fill on ${first}` : `With a fill from ${first} to ${last}`) : first ? `With a fill from ${first} on` : `With a fill up to ${last}`;
    chips.push({ keys: ["tradedFrom", "tradedTo"], label });
  }
  if (filters.direction === "long" || filters.direction === "short") chips.push({ keys: ["direction"], label: filters.direction === "long" ? "Long" : "Short" });
  if (filters.setup) chips.push({ keys: ["setup"], label: `Setup: ${filters.setup}` });
  if (filters.noSetup) chips.push({ keys: ["noSetup"], label: "No setup" });
  if (filters.entryWeekday && /^[1-7]$/.test(filters.entryWeekday)) chips.push({ keys: ["entryWeekday"], label: `Entered on a ${WEEKDAY_NAMES[Number(filters.entryWeekday) - 1]}` });
  if (filters.entryHour && /^\d{1,2}$/.test(filters.entryHour)) {
    const hh = filters.entryHour.padStart(2, "0");
    chips.push({ keys: ["entryHour"], label: `Entered ${hh}:00–${hh}:59` });
  }
  if (filters.rules === "kept" || filters.rules === "broke") chips.push({ keys: ["rules"], label: filters.rules === "broke" ? "Broke a trading rule" : "Kept every trading rule" });
  if (chips.length === 0) return null;
  return (
    <ul className="filter-chips" aria-label="Also filtered by">
      {chips.map((c) => (
        <li key={c.keys.join()} className="filter-chip">
          {c.label}
          <button type="button" className="filter-chip__remove" aria-label={`Remove the filter ${c.label}`} onClick={() => onRemove(c.keys)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A column heading that orders the list by its figure; the active one says which way (aria-sort) and flips on a second click. */
function SortHeader({ k, sort, onSort, num, children }: { k: SortKey; sort: Sort; onSort(s: Sort): void; num?: boolean; children?: ReactNode }) {
  const active = sort.key === k;
  const next: Sort = { key: k, order: active ? (sort.order === "asc" ? "desc" : "asc") : SORTS[k] };
  return (
    <th scope="col" className={num ? "num" : undefined} aria-sort={active ? (sort.order === "asc" ? "ascending" : "descending") : undefined}>
      <button type="button" className="sort-button" onClick={() => onSort(next)}>
        {children ?? SORT_LABELS[k]}
        <span className="sort-button__arrow" aria-hidden="true">
          {active ? (sort.order === "asc" ? "▲" : "▼") : ""}
        </span>
      </button>
    </th>
  );
}

/** On a phone the headings are hidden (each row is a card): the order is chosen here instead. */
function SortBar({ sort, onSort, priced }: { sort: Sort; onSort(s: Sort): void; priced: boolean }) {
  const keys = (Object.keys(SORTS) as SortKey[]).filter((k) => !priced || !["mae", "mfe", "efficiency"].includes(k));
  return (
    <div className="sort-bar">
      <SelectField label="Sort by" value={sort.key} onChange={(e) => onSort({ key: e.target.value as SortKey, order: SORTS[e.target.value as SortKey] })} className="field--compact">
        {keys.map((k) => (
          <option key={k} value={k}>
            {SORT_LABELS[k]}
          </option>
        ))}
      </SelectField>
      <SelectField label="Order" value={sort.order} onChange={(e) => onSort({ ...sort, order: e.target.value === "asc" ? "asc" : "desc" })} className="field--compact">
        <option value="desc">Highest or newest first</option>
        <option value="asc">Lowest or oldest first</option>
      </SelectField>
    </div>
  );
}

type Totals = Array<{ currency: string; trades: number; closed: number; wins: number; winRate: string | null; netPnl: string }>;

/** Every matching trade counted, not only this page: per currency, never summed across them. */
function TotalsLine({ totals }: { totals: Totals }) {
  if (totals.length === 0) return null;
  return (
    <p className="trade-totals" aria-label="Totals of the trades matching the filters">
      {totals.map((t) => (
        <span key={t.currency} className="trade-totals__currency">
          <strong>
            {t.trades} {t.trades === 1 ? "trade" : "trades"}
          </strong>
          {" · "}
          {t.closed} closed · win rate {formatWinRate(t.wins, t.closed)} · net P&amp;L <span className={toneOf(t.netPnl)}>{formatPnl(t.netPnl, t.currency)}</span>
        </span>
      ))}
    </p>
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

/** The caption names the order, so a screen reader hears it too. */
function sortCaption(sort: Sort): string {
  if (sort.key === "openedAt") return sort.order === "desc" ? "newest opened first" : "oldest opened first";
  if (sort.key === "closedAt") return sort.order === "desc" ? "latest closed first" : "earliest closed first";
  const text = ["symbol", "account", "direction"].includes(sort.key);
  const which = text ? (sort.order === "asc" ? "A to Z" : "Z to A") : sort.order === "asc" ? "lowest first" : "highest first";
  return `by ${SORT_LABELS[sort.key].replace("Avg", "average")}, ${which}`;
}

export function TradesPage() {
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const page = Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1);
  const sort = readSort(params);
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
    ...(filters.closedFrom && dateToIso(filters.closedFrom, zone) ? { closedFrom: dateToIso(filters.closedFrom, zone)! } : {}),
    ...(filters.closedTo && dateToIso(filters.closedTo, zone, true) ? { closedTo: dateToIso(filters.closedTo, zone, true)! } : {}),
    ...(isInstant(filters.tradedFrom) ? { tradedFrom: new Date(filters.tradedFrom).toISOString() } : {}),
    ...(isInstant(filters.tradedTo) ? { tradedTo: new Date(filters.tradedTo).toISOString() } : {}),
    ...(filters.direction === "long" || filters.direction === "short" ? { direction: filters.direction as "long" | "short" } : {}),
    ...(filters.noSetup ? { setup: "" } : filters.setup ? { setup: filters.setup } : {}),
    ...(filters.entryWeekday && /^[1-7]$/.test(filters.entryWeekday) ? { entryWeekday: filters.entryWeekday } : {}),
    ...(filters.entryHour && /^\d{1,2}$/.test(filters.entryHour) && Number(filters.entryHour) < 24 ? { entryHour: filters.entryHour } : {}),
    ...((filters.rules === "kept" || filters.rules === "broke") && filters.accountId ? { rules: filters.rules as "kept" | "broke" } : {}),
    ...(filters.excursion && filters.excursion in EXCURSION_FILTERS ? EXCURSION_FILTERS[filters.excursion as keyof typeof EXCURSION_FILTERS].query : {}),
    ...(priced ? { quotes: "true" as const } : {}),
    ...(sort.key === "openedAt" && sort.order === "desc" ? {} : { sort: sort.key, order: sort.order }),
    totals: "true" as const,
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

  // The order is kept when the filters change, and a new filter or order starts again at page 1.
  function apply(next: Filters, nextPage = 1, nextSort: Sort = sort) {
    const p: Record<string, string> = {};
    for (const [k, v] of Object.entries(next)) if (v?.trim()) p[k] = v.trim();
    if (nextSort.key !== "openedAt" || nextSort.order !== "desc") Object.assign(p, { sort: nextSort.key, order: nextSort.order });
    if (nextPage > 1) p.page = String(nextPage);
    setParams(p);
  }
  const onSort = (next: Sort) => apply(filters, 1, next);
  // One account (chosen, or the only one): its name on every row says nothing.
  const showAccount = !filters.accountId && (accounts.data?.accounts.length ?? 0) > 1;

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
      <TradesTabs />
      <ErrorAlert error={accounts.error} title="Could not load your accounts." />
      <DetachedNotice />
      <FilterForm key={params.toString()} initial={filters} accounts={accounts.data?.accounts ?? []} onApply={(f) => apply(f)} />
      <LinkedFilters filters={filters} zone={zone} onRemove={(drop) => apply(Object.fromEntries(Object.entries(filters).filter(([k]) => !drop.includes(k as keyof Filters))))} />
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
          {trades.data.totals && <TotalsLine totals={trades.data.totals} />}
          <ZoneNote zone={zone} />
          <SortBar sort={sort} onSort={onSort} priced={priced} />
          <div className="table-wrap">
            <table className="stack-table trades-table">
              <caption>
                {priced ? "Open positions" : "Trades"}, {sortCaption(sort)}
                {trades.isFetching && <span className="muted"> (updating…)</span>}
              </caption>
              <thead>
                <tr>
                  <SortHeader k="symbol" sort={sort} onSort={onSort} />
                  {showAccount && <SortHeader k="account" sort={sort} onSort={onSort} />}
                  <SortHeader k="direction" sort={sort} onSort={onSort} />
                  <SortHeader k="openedAt" sort={sort} onSort={onSort} />
                  <SortHeader k="closedAt" sort={sort} onSort={onSort} />
                  <SortHeader k="heldFor" sort={sort} onSort={onSort} num />
                  <SortHeader k="quantity" sort={sort} onSort={onSort} num />
                  <SortHeader k="averageEntryPrice" sort={sort} onSort={onSort} num />
                  <SortHeader k="averageExitPrice" sort={sort} onSort={onSort} num />
                  <SortHeader k="netPnl" sort={sort} onSort={onSort} num>
                    Net P&amp;L
                  </SortHeader>
                  <SortHeader k="rMultiple" sort={sort} onSort={onSort} num>
                    <abbr title="Net P&L in multiples of the trade's planned risk (1R)">R</abbr>
                  </SortHeader>
                  {!priced && (
                    <>
                      <SortHeader k="mae" sort={sort} onSort={onSort} num>
                        <abbr title="Maximum adverse excursion: the lowest running P&L while open">MAE</abbr>
                      </SortHeader>
                      <SortHeader k="mfe" sort={sort} onSort={onSort} num>
                        <abbr title="Maximum favourable excursion: the highest running P&L while open">MFE</abbr>
                      </SortHeader>
                      <SortHeader k="efficiency" sort={sort} onSort={onSort} num>
                        <abbr title="Exit efficiency: the share of the best exit the trade kept">Kept</abbr>
                      </SortHeader>
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
                {trades.data.trades.map((t, _i, page) => {
                  const account = byId.get(t.accountId);
                  const currency = t.currency;
                  // One number of decimals per column, over the page's rows.
                  const decimals = averageDecimals(...page.flatMap((x) => [x.averageEntryPrice, x.averageExitPrice]));
                  const quantityPlaces = quantityDecimals(page.map((x) => x.maxQuantity));
                  return (
                    <tr key={t.id}>
                      <th scope="row">
                        <Link to={`/trades/${t.id}`} title={t.symbol}>{symbolLabel(t.symbol)}</Link>
                      </th>
                      {showAccount && <td data-label="Account">{account?.name ?? "—"}</td>}
                      <td data-label="Side">{t.direction === "long" ? "Long" : "Short"}</td>
                      <td data-label="Opened">
                        <span className="keep-together">{formatDate(t.openedAt, zone)},</span> <span className="keep-together">{formatTime(t.openedAt, zone)}</span>
                      </td>
                      <td data-label="Closed">
                        {t.closedAt ? (
                          <>
                            <span className="keep-together">{formatDate(t.closedAt, zone)},</span> <span className="keep-together">{formatTime(t.closedAt, zone)}</span>
                          </>
                        ) : (
                          <span className="badge badge--open">Open</span>
                        )}
                      </td>
                      <td data-label="Held" className="num">
                        {t.closedAt ? formatDuration(t.openedAt, t.closedAt) : <span title="Still open: held so far">{formatDuration(t.openedAt, new Date().toISOString())}…</span>}
                      </td>
                      <td data-label="Quantity" className="num">{formatQuantity(t.maxQuantity, quantityPlaces)}</td>
                      <td data-label="Avg entry" className="num">{t.averageEntryPrice ? formatPrice(t.averageEntryPrice, decimals) : "—"}</td>
                      <td data-label="Avg exit" className="num">{t.averageExitPrice ? formatPrice(t.averageExitPrice, decimals) : "—"}</td>
                      <td data-label="Net P&L" className={`num ${signOf(t.netPnl) < 0 ? "negative" : signOf(t.netPnl) > 0 ? "positive" : ""}`}>
                        {t.status === "open" && signOf(t.netPnl) === 0 ? "—" : formatPnl(t.netPnl, currency)}
                        {!(t.status === "open" && signOf(t.netPnl) === 0) && <BaseAmount base={t.base} currency={t.currency} />}
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
                      {priced && <QuoteCells valuation={"valuation" in t ? (t.valuation as Valuation | null) : null} currency={currency} timezone={zone} />}
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
