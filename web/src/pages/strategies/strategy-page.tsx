// One option strategy (/strategies/:id; docs/options.md): what it is and what it made, its payoff at expiry, its
// legs with their Greeks at entry, the roll it came from or went into, the journal written on it as a whole, and
// grouping by hand (other trades of the same account and underlying joined to it, or the strategy split apart).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { StrategyJournalSchema } from "../../../../lib/options/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts, usePlaybooks } from "../../api/queries.ts";
import { JournalFormEnd } from "../../components/journal-fields.tsx";
import { ErrorAlert, PageHeader, QueryView, SelectField, TextField, ZoneNote } from "../../components/ui.tsx";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { formatDateTime, formatMoney, formatNumber, formatPnl, formatPrice, formatR, priceDecimals, symbolLabel, toneOf } from "../../lib/format.ts";
import { KIND_LABELS, payoffFigure, strategyName } from "./kinds.ts";
import { PayoffChart } from "./payoff-chart.tsx";

type Detail = Awaited<ReturnType<typeof fetchStrategy>>;
type Strategy = Detail["strategy"];
type Journal = { notes: string | null; tags: string[]; setup: string | null; rating: number | null; plannedRisk: string | null; playbookId: string | null };

function fetchStrategy(id: string) {
  return unwrap(api.api.strategies[":id"].$get({ param: { id } }));
}

function StrategyJournalForm({ strategy }: { strategy: Strategy }) {
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState(strategy.notes ?? "");
  const [tags, setTags] = useState<string[]>(strategy.tags);
  const [setup, setSetup] = useState(strategy.setup ?? "");
  const [rating, setRating] = useState<number | null>(strategy.rating);
  const [plannedRisk, setPlannedRisk] = useState(strategy.plannedRisk ?? "");
  const [playbookId, setPlaybookId] = useState(strategy.playbookId ?? "");
  const books = usePlaybooks();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState("");
  const save = useMutation({
    mutationFn: (json: Journal) => unwrap(api.api.strategies[":id"].$patch({ param: { id: strategy.id }, json })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.strategy(strategy.id) });
      await queryClient.invalidateQueries({ queryKey: ["trades", "strategies", "list"] });
      setSaved("Journal saved.");
    },
  });
  const shown = { ...serverFieldErrors(save.error), ...errors };
  function submit(e: FormEvent) {
    e.preventDefault();
    setSaved("");
    const value: Journal = {
      notes: notes.trim() ? notes : null,
      tags,
      setup: setup.trim() ? setup.trim() : null,
      rating,
      plannedRisk: plannedRisk.trim() ? plannedRisk.trim() : null,
      playbookId: playbookId || null,
    };
    const found = schemaErrors(StrategyJournalSchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Strategy journal">
      <ErrorAlert error={save.error} title="Could not save the journal." />
      <div className="grid-2">
        <TextField label="Setup" value={setup} maxLength={100} onChange={(e) => setSetup(e.target.value)} error={shown.setup} hint="Why this strategy, on this underlying, then." />
        <TextField
          label="Planned risk"
          inputMode="decimal"
          value={plannedRisk}
          onChange={(e) => setPlannedRisk(e.target.value)}
          error={shown.plannedRisk}
          hint={`In ${strategy.currency}: 1R. Left empty, 1R is the max loss at expiry${strategy.maxLoss ? ` (${formatMoney(strategy.maxLoss, strategy.currency)})` : ""}.`}
        />
      </div>
      {(books.data?.playbooks.length ?? 0) > 0 && (
        <SelectField label="Playbook" value={playbookId} onChange={(e) => setPlaybookId(e.target.value)} error={shown.playbookId} hint="The setup it was taken from. Each leg's checklist stays on its trade.">
          <option value="">None</option>
          {books.data!.playbooks
            .filter((b) => !b.archivedAt || b.id === playbookId)
            .map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
        </SelectField>
      )}
      <JournalFormEnd rating={rating} onRating={setRating} tags={tags} onTags={setTags} notes={notes} onNotes={setNotes} errors={shown} saving={save.isPending} saved={saved} />
    </form>
  );
}

/** A signed Greek with its decimals, or a dash. */
const greek = (v: string | null | undefined) => (v == null ? "—" : `${v.startsWith("-") ? "−" : "+"}${formatNumber(v.replace(/^-/, ""))}`);

function LegsTable({ strategy }: { strategy: Strategy }) {
  const decimals = priceDecimals(strategy.legs.map((l) => l.price));
  return (
    <div className="table-wrap">
      <table className="stack-table legs-table">
        <caption className="visually-hidden">The strategy's legs, first opened first, with their Greeks at entry</caption>
        <thead>
          <tr>
            <th scope="col">Leg</th>
            <th scope="col">Side</th>
            <th scope="col" className="num">Quantity</th>
            <th scope="col" className="num">Entry price</th>
            <th scope="col" className="num">Net P&amp;L</th>
            <th scope="col" className="num">Underlying</th>
            <th scope="col" className="num"><abbr title="Implied volatility at entry">IV</abbr></th>
            <th scope="col" className="num">Delta</th>
            <th scope="col" className="num"><abbr title="Theta: per day, per unit of the underlying">Theta</abbr></th>
            <th scope="col" className="num"><abbr title="Vega: per volatility point, per unit of the underlying">Vega</abbr></th>
          </tr>
        </thead>
        <tbody>
          {strategy.legs.map((l) => (
            <tr key={l.tradeId}>
              <th scope="row">
                <Link to={`/trades/${l.tradeId}`} title={l.symbol}>
                  {symbolLabel(l.symbol)}
                </Link>
              </th>
              <td data-label="Side">{l.side === "long" ? "Long" : "Short"}</td>
              <td data-label="Quantity" className="num">
                {formatNumber(l.quantity)}
                {l.assetClass === "option" && <span className="muted"> ×{formatNumber(l.multiplier)}</span>}
              </td>
              <td data-label="Entry price" className="num">{l.price ? formatPrice(l.price, decimals) : "—"}</td>
              <td data-label="Net P&L" className={`num ${toneOf(l.netPnl)}`}>{formatPnl(l.netPnl, strategy.currency)}</td>
              <td data-label="Underlying" className="num">{l.entry ? formatPrice(l.entry.underlyingPrice, priceDecimals([l.entry.underlyingPrice], 2)) : "—"}</td>
              <td data-label="IV" className="num">{l.entry ? `${(Number(l.entry.iv) * 100).toFixed(1)} %` : "—"}</td>
              <td data-label="Delta" className="num">{greek(l.entry?.delta)}</td>
              <td data-label="Theta" className="num">{greek(l.entry?.theta)}</td>
              <td data-label="Vega" className="num">{greek(l.entry?.vega)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A roll chain: each strategy with what it opened for and made, the chain's total and its days in trade. */
function Campaign({ campaign, current, currency, zone }: { campaign: NonNullable<Detail["campaign"]>; current: string; currency: string; zone: string | undefined }) {
  return (
    <section aria-labelledby="campaign-title">
      <h2 id="campaign-title">Campaign</h2>
      <p>
        Rolled {campaign.strategies.length - 1} {campaign.strategies.length === 2 ? "time" : "times"} over {campaign.days} {campaign.days === 1 ? "day" : "days"}: net{" "}
        <span className={toneOf(campaign.netPnl)}>{formatPnl(campaign.netPnl, currency)}</span> in all.
      </p>
      <div className="table-wrap">
        <table className="stack-table">
          <caption className="visually-hidden">The strategies of the campaign, first opened first</caption>
          <thead>
            <tr>
              <th scope="col">Strategy</th>
              <th scope="col">Opened</th>
              <th scope="col">Closed</th>
              <th scope="col" className="num">Opened for</th>
              <th scope="col" className="num">Net P&amp;L</th>
            </tr>
          </thead>
          <tbody>
            {campaign.strategies.map((x, i) => (
              <tr key={x.id} aria-current={x.id === current ? "page" : undefined}>
                <th scope="row">
                  {x.id === current ? (
                    <strong>{i === 0 ? "First" : `Roll ${i}`} (this one)</strong>
                  ) : (
                    <Link to={`/strategies/${x.id}`}>{i === 0 ? "First" : `Roll ${i}`}</Link>
                  )}{" "}
                  <span className="muted">{KIND_LABELS[x.kind]}</span>
                </th>
                <td data-label="Opened">{formatDateTime(x.openedAt, zone)}</td>
                <td data-label="Closed">{x.closedAt ? formatDateTime(x.closedAt, zone) : <span className="badge badge--open">Open</span>}</td>
                <td data-label="Opened for" className="num">
                  {x.premium === null ? "—" : `${formatMoney(x.premium.replace(/^-/, ""), currency)} ${x.premium.startsWith("-") ? "debit" : "credit"}`}
                </td>
                <td data-label="Net P&L" className={`num ${toneOf(x.netPnl)}`}>{formatPnl(x.netPnl, currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Other strategies of the same account and underlying, to join to this one; and splitting this one apart. */
function GroupingPanel({ strategy, zone }: { strategy: Strategy; zone: string | undefined }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [picked, setPicked] = useState<string[]>([]);
  const siblingsQuery = { accountId: strategy.accountId, underlying: strategy.underlying, limit: "50" };
  const siblings = useQuery({
    queryKey: keys.strategyList(siblingsQuery),
    queryFn: () => unwrap(api.api.strategies.$get({ query: { ...siblingsQuery, limit: 50 } })),
  });
  const others = (siblings.data?.strategies ?? []).filter((s) => s.id !== strategy.id);
  const group = useMutation({
    mutationFn: (tradeIds: string[]) => unwrap(api.api.strategies.$post({ json: { tradeIds } })),
    onSuccess: async ({ strategy: made }) => {
      await queryClient.invalidateQueries({ queryKey: ["trades", "strategies"] });
      navigate(`/strategies/${made.id}`, { replace: true });
    },
  });
  const split = useMutation({
    mutationFn: () => unwrap(api.api.strategies[":id"].$delete({ param: { id: strategy.id } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["trades", "strategies"] });
      navigate(`/strategies?accountId=${strategy.accountId}&underlying=${encodeURIComponent(strategy.underlying)}`, { replace: true });
    },
  });
  function join(e: FormEvent) {
    e.preventDefault();
    const chosen = others.filter((s) => picked.includes(s.id));
    group.mutate([...strategy.legs, ...chosen.flatMap((s) => s.legs)].map((l) => l.tradeId));
  }
  return (
    <section className="panel" aria-labelledby="grouping-title">
      <h2 id="grouping-title">Grouping</h2>
      <p className="muted">
        {strategy.source === "manual" ? "You grouped this strategy by hand: it stays as it is." : "Grouped by itself: its legs were opened by one order, or within a minute of each other."}
        {" "}What is written on a strategy goes with it when you join or split it.
      </p>
      <ErrorAlert error={group.error ?? split.error} title="Could not change the grouping." />
      {others.length > 0 && (
        <form className="form" onSubmit={join} aria-label="Join other strategies to this one">
          <fieldset>
            <legend>Join other {strategy.underlying} strategies of this account to this one</legend>
            <ul className="plain-list">
              {others.map((s) => (
                <li key={s.id}>
                  <label>
                    <input type="checkbox" checked={picked.includes(s.id)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, s.id] : p.filter((x) => x !== s.id)))} />{" "}
                    {strategyName(s)}, opened {formatDateTime(s.openedAt, zone)}: {s.legs.map((l) => symbolLabel(l.symbol)).join(", ")}
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
          <div className="button-row">
            <button type="submit" className="button button--secondary" disabled={picked.length === 0 || group.isPending}>
              Join to this strategy
            </button>
          </div>
        </form>
      )}
      {strategy.legs.length > 1 && (
        <div className="button-row">
          <button
            type="button"
            className="button button--secondary"
            disabled={split.isPending}
            onClick={() => {
              if (window.confirm(`Split this ${strategyName(strategy).toLowerCase()} into ${strategy.legs.length} single legs? Its journal stays on the first leg.`)) split.mutate();
            }}
          >
            Split into single legs
          </button>
        </div>
      )}
    </section>
  );
}

export function StrategyPage() {
  const { strategyId = "" } = useParams();
  const strategy = useQuery({ queryKey: keys.strategy(strategyId), queryFn: () => fetchStrategy(strategyId) });
  const accounts = useAccounts();
  return (
    <QueryView query={strategy} label="the strategy">
      {({ strategy: s, campaign, underlyingQuote }) => {
        const account = accounts.data?.accounts.find((a) => a.id === s.accountId);
        const zone = account?.timezone;
        const name = strategyName(s);
        return (
          <>
            <p className="breadcrumb">
              <Link to="/strategies">Option strategies</Link> / {s.underlying}
            </p>
            <PageHeader title={`${s.underlying} · ${name}`}>
              <span className={`badge badge--${s.status}`}>{s.status === "open" ? "Open" : "Closed"}</span>
              {s.source === "manual" && <span className="badge">Grouped by you</span>}
            </PageHeader>
            <dl className="stats">
              <div>
                <dt>{s.status === "open" ? "Realised so far" : "Net P&L"}</dt>
                <dd className={toneOf(s.netPnl)}>{formatPnl(s.netPnl, s.currency)}</dd>
              </div>
              {s.rMultiple && (
                <div>
                  <dt>Result in R</dt>
                  <dd className={toneOf(s.rMultiple)}>
                    {formatR(s.rMultiple)}
                    <span className="muted"> (1R {s.plannedRisk ? formatMoney(s.plannedRisk, s.currency) : `the max loss, ${formatMoney(s.maxLoss ?? "0", s.currency)}`})</span>
                  </dd>
                </div>
              )}
              <div>
                <dt>Max profit</dt>
                <dd>{payoffFigure(s.maxProfit, s, formatMoney)}</dd>
              </div>
              <div>
                <dt>Max loss</dt>
                <dd>{payoffFigure(s.maxLoss, s, formatMoney)}</dd>
              </div>
              <div>
                <dt>Breakevens</dt>
                <dd>{s.breakevens.length ? s.breakevens.map((b) => formatPrice(b, priceDecimals(s.breakevens, 2))).join(" · ") : "—"}</dd>
              </div>
              {s.greeks && (
                <div>
                  <dt>At entry</dt>
                  <dd>
                    delta {greek(s.greeks.delta)} · theta {greek(s.greeks.theta)} a day · vega {greek(s.greeks.vega)} a point
                  </dd>
                </div>
              )}
              <div>
                <dt>Opened</dt>
                <dd>{formatDateTime(s.openedAt, zone)}</dd>
              </div>
              <div>
                <dt>Closed</dt>
                <dd>{s.closedAt ? formatDateTime(s.closedAt, zone) : "—"}</dd>
              </div>
              <div>
                <dt>Account</dt>
                <dd>{account ? <Link to={`/accounts/${account.id}`}>{account.name}</Link> : "—"}</dd>
              </div>
            </dl>
            <ZoneNote zone={zone} />
            <section aria-labelledby="payoff-title">
              <h2 id="payoff-title">Payoff at expiry</h2>
              <PayoffChart legs={s.legs} breakevens={s.breakevens} maxProfit={s.maxProfit} maxLoss={s.maxLoss} currency={s.currency} quote={underlyingQuote} zone={zone} />
            </section>
            {campaign && <Campaign campaign={campaign} current={s.id} currency={s.currency} zone={zone} />}
            <section aria-labelledby="legs-title">
              <h2 id="legs-title">Legs</h2>
              <LegsTable strategy={s} />
              {!s.greeks && s.legs.some((l) => l.assetClass === "option") && (
                <p className="muted">Greeks at entry need the underlying's price when each leg opened: its 1-minute bars, or a fill of it within a minute.</p>
              )}
            </section>
            <section className="panel" aria-labelledby="journal-title">
              <h2 id="journal-title">Journal</h2>
              <StrategyJournalForm key={s.id} strategy={s} />
            </section>
            <GroupingPanel key={`grouping-${s.id}`} strategy={s} zone={zone} />
          </>
        );
      }}
    </QueryView>
  );
}
