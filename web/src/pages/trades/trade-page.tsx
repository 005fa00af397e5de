import { BaseAmount } from "../../components/base-amount.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, Navigate, useLocation, useNavigate, useParams } from "react-router";
import { TradeJournalSchema } from "../../../../lib/trades/schema.ts";
import { api, unwrap } from "../../api/client.ts";
import { keys, useAccounts } from "../../api/queries.ts";
import { ErrorAlert, Loading, PageHeader, QueryView, TextField, ZoneNote } from "../../components/ui.tsx";
import { signOf } from "../../lib/decimal.ts";
import { averageDecimals, formatDateTime, formatMoney, formatNumber, formatPnl, formatPrice, formatR, priceDecimals, symbolLabel, toneOf } from "../../lib/format.ts";
import { ApiError } from "../../api/errors.ts";
import { Comments } from "../../components/comments.tsx";
import { ShareTrade } from "../share/share-trade.tsx";
import { TradeImages } from "./trade-images.tsx";
import { Fees } from "../../components/fees.tsx";
import { FillActionPanel, FillActionsCell, FillOrigin, useFillActions, type FollowFill } from "./fill-editor.tsx";
import { SplitsPanel } from "./splits-panel.tsx";
import { StrategyLink } from "../strategies/strategy-link.tsx";
import { TradeChart } from "./trade-chart.tsx";
import { PlaybookPanel } from "./playbook-panel.tsx";
import { RulesPanel } from "./rules-panel.tsx";
import { JournalFormEnd } from "../../components/journal-fields.tsx";
import { focusFirstInvalid, schemaErrors, serverFieldErrors, type FieldErrors } from "../../lib/form-errors.ts";
import { DataTable } from "../../components/data-table.tsx";

type TradeDetail = Awaited<ReturnType<typeof fetchTrade>>;
type Journal = {
  notes: string | null;
  tags: string[];
  setup: string | null;
  rating: number | null;
  stopPrice: string | null;
  targetPrice: string | null;
  plannedRisk: string | null;
};

/** A decimal field's text as the API takes it: trimmed, null when empty. */
const decimalOrNull = (v: string) => (v.trim() ? v.trim() : null);

function fetchTrade(id: string) {
  return unwrap(api.api.trades[":id"].$get({ param: { id } }));
}

function JournalForm({ trade }: { trade: TradeDetail["trade"] }) {
  const queryClient = useQueryClient();
  const [notes, setNotes] = useState(trade.notes ?? "");
  const [tags, setTags] = useState<string[]>(trade.tags);
  const [setup, setSetup] = useState(trade.setup ?? "");
  const [rating, setRating] = useState<number | null>(trade.rating);
  const [stop, setStop] = useState(trade.risk.stopPrice ?? "");
  const [target, setTarget] = useState(trade.risk.targetPrice ?? "");
  const [plannedRisk, setPlannedRisk] = useState(trade.risk.plannedRisk ?? "");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState("");
  const save = useMutation({
    mutationFn: (json: Journal) => unwrap(api.api.trades[":id"].$patch({ param: { id: trade.id }, json })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.trades });
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
      stopPrice: decimalOrNull(stop),
      targetPrice: decimalOrNull(target),
      plannedRisk: decimalOrNull(plannedRisk),
    };
    const found = schemaErrors(TradeJournalSchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) save.mutate(value);
    else focusFirstInvalid(e.currentTarget as HTMLFormElement);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Trade journal">
      <ErrorAlert error={save.error} title="Could not save the journal." />
      <TextField label="Setup" value={setup} maxLength={100} onChange={(e) => setSetup(e.target.value)} error={shown.setup} hint="The pattern or plan behind the trade." />
      <fieldset>
        <legend>Plan and risk</legend>
        <div className="grid-3">
          <TextField
            label="Stop"
            inputMode="decimal"
            value={stop}
            onChange={(e) => setStop(e.target.value)}
            error={shown.stopPrice}
            hint={trade.direction === "long" ? "Below the entry: where the trade is wrong." : "Above the entry: where the trade is wrong."}
          />
          <TextField label="Target" inputMode="decimal" value={target} onChange={(e) => setTarget(e.target.value)} error={shown.targetPrice} hint="Where you meant to take profit." />
          <TextField
            label="Planned risk"
            inputMode="decimal"
            value={plannedRisk}
            onChange={(e) => setPlannedRisk(e.target.value)}
            error={shown.plannedRisk}
            hint={`In ${trade.currency}: 1R, when it is not the distance to the stop.`}
          />
        </div>
      </fieldset>
      <JournalFormEnd rating={rating} onRating={setRating} tags={tags} onTags={setTags} notes={notes} onNotes={setNotes} errors={shown} saving={save.isPending} saved={saved} />
    </form>
  );
}

/**
 * An address whose trade is gone: a rebuild (a fill added, edited or deleted, an import undone) replaced or
 * merged it. Its journal knows where it went: to the trade that now holds it, or to the detached notes.
 */
function MovedTrade({ tradeId }: { tradeId: string }) {
  const journal = useQuery({
    queryKey: ["journals", "by-trade", tradeId],
    queryFn: () => unwrap(api.api.journals["by-trade"][":tradeId"].$get({ param: { tradeId } })),
    retry: false,
  });
  return <GoneTrade tradeId={tradeId} journal={journal.isPending ? "pending" : (journal.data ?? null)} />;
}

/**
 * A trade whose fills are gone, said from what is known of it: its journal (the detached note), or nothing.
 * The trade page says it at once when one of its fills was deleted there (it knows the trade went), without
 * asking for the trade again (a 404 in the browser's console).
 */
function GoneTrade({ tradeId, journal, symbol }: { tradeId: string; journal: "pending" | { id: string; tradeId: string | null; symbol: string } | null; symbol?: string }) {
  if (journal === "pending") return <Loading label="Looking for this trade…" />;
  if (journal?.tradeId) return <Navigate to={`/trades/${journal.tradeId}`} replace state={{ movedFrom: tradeId }} />;
  if (journal)
    return (
      <>
        <PageHeader title="This trade's fills are gone" />
        <p>
          The fills of this {symbolLabel(journal.symbol)} trade were deleted or their import undone. What you wrote on it is kept as a{" "}
          <Link to={`/notes/detached#note-${journal.id}`}>detached note</Link>, and goes back on the trade by itself when the same fills
          return (importing the same file again, for example).
        </p>
      </>
    );
  if (symbol)
    return (
      <>
        <PageHeader title="This trade's fills are gone" />
        <p>
          The fills of this {symbolLabel(symbol)} trade were deleted; nothing was written on it. See <Link to="/trades">your trades</Link>.
        </p>
      </>
    );
  return (
    <>
      <PageHeader title="Trade not found" />
      <p>
        There is no trade at this address. See <Link to="/trades">your trades</Link>.
      </p>
    </>
  );
}

type PageState = { movedFrom?: string; gone?: { journalId: string | null; symbol: string } } | null;

export function TradePage() {
  const { tradeId = "" } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { movedFrom, gone } = (location.state as PageState) ?? {};
  const trade = useQuery({
    queryKey: keys.trade(tradeId),
    queryFn: () => fetchTrade(tradeId),
    retry: (n, err) => !(err instanceof ApiError && err.status === 404) && n < 2,
    // A trade whose last fill was deleted on this page is known to be gone: not asked for again.
    enabled: !gone,
  });
  const accounts = useAccounts();
  const fillActions = useFillActions();
  // While a replay runs, the trade's result stays hidden: the chart tells it bar by bar.
  const [replaying, setReplaying] = useState(false);
  const later = <span className="muted">after the replay</span>;

  if (gone) return <GoneTrade tradeId={tradeId} journal={gone.journalId ? { id: gone.journalId, tradeId: null, symbol: gone.symbol } : null} symbol={gone.symbol} />;
  if (trade.error instanceof ApiError && trade.error.code === "NOT_FOUND") return <MovedTrade key={tradeId} tradeId={tradeId} />;
  // An old address of a rebuilt trade: the API sent the request on (308) to the trade holding its notes now.
  if (trade.data && trade.data.trade.id !== tradeId) return <Navigate to={`/trades/${trade.data.trade.id}`} replace state={{ movedFrom: tradeId }} />;
  return (
    <QueryView query={trade} label="the trade">
      {({ trade: t, fills, compliance, adjacent }) => {
        const account = accounts.data?.accounts.find((a) => a.id === t.accountId);
        const currency = t.currency;
        const zone = account?.timezone;
        const pnlClass = signOf(t.netPnl) < 0 ? "negative" : signOf(t.netPnl) > 0 ? "positive" : "";
        // One precision for the instrument's prices (its fills', the excursions'); averages at the list's (averageDecimals).
        const decimals = priceDecimals(fills.map((f) => f.price));
        const price = (v: string | null) => (v ? formatPrice(v, decimals) : "—");
        const averages = averageDecimals(t.averageEntryPrice, t.averageExitPrice);
        const average = (v: string | null) => (v ? formatPrice(v, averages) : "—");
        // A fill changed here rebuilt the trade: the page goes where the trade went (the trade holding the fill now,
        // or, its fills gone, says so) before anything is fetched again, so the old trade is never asked for (404).
        const follow: FollowFill = async (fillId, deleted) => {
          const probe = deleted ? fills.find((f) => f.id !== fillId)?.id : fillId;
          let now: string[] = [];
          try {
            if (probe) now = (await unwrap(api.api.fills[":id"].$get({ param: { id: probe } }))).tradeIds;
          } catch {
            return []; // the page finds its way as before (MovedTrade)
          }
          if (now.includes(t.id)) return [];
          if (now[0]) navigate(`/trades/${now[0]}`, { replace: true, state: { movedFrom: t.id } });
          else navigate(`/trades/${t.id}`, { replace: true, state: { gone: { journalId: t.journalId, symbol: t.symbol } } });
          return [t.id];
        };
        return (
          <>
            <div className="trade-page__top">
              <p className="breadcrumb">
                <Link to="/trades">Trades</Link> / {symbolLabel(t.symbol)}
              </p>
              <nav className="trade-page__steps" aria-label="Other trades of this account">
                {adjacent.older ? <Link to={`/trades/${adjacent.older}`} rel="prev">‹ Opened before</Link> : <span className="muted">‹ Opened before</span>}
                {adjacent.newer ? <Link to={`/trades/${adjacent.newer}`} rel="next">Opened after ›</Link> : <span className="muted">Opened after ›</span>}
              </nav>
            </div>
            <PageHeader title={`${symbolLabel(t.symbol)} · ${t.direction === "long" ? "Long" : "Short"}`}>
              <span className={`badge badge--${t.status}`}>{t.status === "open" ? "Open" : "Closed"}</span>
            </PageHeader>
            {t.assetClass !== "future" && <StrategyLink key={`strategy-${t.id}`} tradeId={t.id} />}
            {movedFrom && (
              <p className="notice" role="status">
                The trade you opened was rebuilt when its fills changed. This is the trade that holds its notes now.
              </p>
            )}
            <dl className="stats">
              <div>
                <dt>{t.status === "open" ? "Realised so far" : "Net P&L"}</dt>
                <dd className={replaying ? "" : pnlClass}>
                  {replaying ? later : formatPnl(t.netPnl, currency)}
                  {!replaying && <BaseAmount base={t.base} currency={t.currency} />}
                </dd>
              </div>
              <div>
                <dt>Gross P&amp;L</dt>
                <dd className={replaying ? "" : toneOf(t.grossPnl)}>{replaying ? later : formatPnl(t.grossPnl, currency)}</dd>
              </div>
              <div>
                <dt>Fees</dt>
                <dd>{formatMoney(t.fees, currency)}</dd>
              </div>
              <div>
                <dt>Quantity</dt>
                <dd>
                  {formatNumber(t.maxQuantity)}
                  {t.status === "open" && <span className="muted"> ({formatNumber(t.openQuantity)} open)</span>}
                </dd>
              </div>
              <div>
                <dt>Average entry</dt>
                <dd>{average(t.averageEntryPrice)}</dd>
              </div>
              {t.risk.oneR && !replaying && (
                <div>
                  <dt>Result in R</dt>
                  <dd className={pnlClass}>
                    {formatR(t.risk.rMultiple!)}
                    <span className="muted"> (1R {formatMoney(t.risk.oneR, currency)})</span>
                  </dd>
                </div>
              )}
              {t.risk.plannedRR && (
                <div>
                  <dt>Planned reward : risk</dt>
                  <dd>{formatNumber(t.risk.plannedRR)} : 1</dd>
                </div>
              )}
              <div>
                <dt>Average exit</dt>
                <dd>{replaying ? later : average(t.averageExitPrice)}</dd>
              </div>
              <div>
                <dt>Opened</dt>
                <dd>{formatDateTime(t.openedAt, zone)}</dd>
              </div>
              <div>
                <dt>Closed</dt>
                <dd>{replaying ? later : t.closedAt ? formatDateTime(t.closedAt, zone) : "—"}</dd>
              </div>
              <div>
                <dt>Account</dt>
                <dd>{account ? <Link to={`/accounts/${account.id}`}>{account.name}</Link> : "—"}</dd>
              </div>
            </dl>
            {t.excursions && !replaying && (
              <section aria-labelledby="excursions-title">
                <h2 id="excursions-title">How far it went</h2>
                <dl className="stats">
                  <div>
                    <dt>Against you (MAE)</dt>
                    <dd className="negative">
                      {formatMoney(t.excursions.positionMae ?? "0", currency)}
                      {t.excursions.maeR && <span className="muted"> ({formatR(t.excursions.maeR)})</span>}
                      <span className="muted"> · worst price {price(t.excursions.priceMae)}</span>
                    </dd>
                  </div>
                  <div>
                    <dt>For you (MFE)</dt>
                    <dd className="positive">
                      {formatMoney(t.excursions.positionMfe ?? "0", currency)}
                      {t.excursions.mfeR && <span className="muted"> ({formatR(t.excursions.mfeR)})</span>}
                      <span className="muted"> · best price {price(t.excursions.priceMfe)}</span>
                    </dd>
                  </div>
                  <div>
                    <dt>Best exit</dt>
                    <dd>{t.excursions.bestExitPnl ? formatPnl(t.excursions.bestExitPnl, currency) : "—"}</dd>
                  </div>
                  <div>
                    <dt>Exit efficiency</dt>
                    <dd>{t.excursions.efficiency ? `${(Number(t.excursions.efficiency) * 100).toFixed(0)} %` : "—"}</dd>
                  </div>
                </dl>
                <p className="muted">From {t.excursions.barsFrom === "1m" ? "1-minute" : "daily"} bars; the share of the best exit the trade kept.</p>
              </section>
            )}
            <TradeChart key={`chart-${t.id}`} tradeId={t.id} zone={zone} currency={currency} onReplayChange={setReplaying} />
            <section aria-labelledby="fills-title" hidden={replaying}>
              <h2 id="fills-title">Fills</h2>
              <ZoneNote zone={zone} />
              <DataTable
                caption="Fills of this trade, oldest first"
                hideCaption
                rows={fills}
                rowKey={(f) => `${f.id}-${f.role}`}
                columns={[
                  { header: "Executed", className: "nowrap", cell: (f) => formatDateTime(f.executedAt, zone) },
                  {
                    header: "Side",
                    cell: (f) => (
                      <>
                        {f.side === "buy" ? "Buy" : "Sell"} <FillOrigin generated={f.generated} />
                      </>
                    ),
                  },
                  {
                    header: "Quantity",
                    num: true,
                    cell: (f) => (
                      <>
                        {formatNumber(f.quantityInTrade)}
                        {f.splitFactor !== "1.00" ? (
                          <span className="muted"> ({formatNumber(f.quantity)} as filled, before a split: ×{formatNumber(f.splitFactor)})</span>
                        ) : (
                          f.quantityInTrade !== f.quantity && <span className="muted"> of {formatNumber(f.quantity)}</span>
                        )}
                      </>
                    ),
                  },
                  { header: "Price", num: true, cell: (f) => formatPrice(f.price, decimals) },
                  { header: "Fees", num: true, cell: (f) => <Fees value={f.feesInTrade} estimated={f.feesEstimated} currency={currency} /> },
                  { header: "Execution ID", cell: (f) => f.executionId ?? "—" },
                  {
                    header: "Actions",
                    hideHeader: true,
                    ownCell: true,
                    cell: (f) =>
                      zone ? (
                        <FillActionsCell fill={f} label={`${f.side} of ${formatNumber(f.quantity)} at ${formatPrice(f.price, decimals)}`} onOpen={fillActions.open} />
                      ) : (
                        <td data-label="Actions" />
                      ),
                  },
                ]}
              />
              {zone && <FillActionPanel actions={fillActions} zone={zone} follow={follow} />}
            </section>
            <section className="panel" aria-labelledby="journal-title">
              <h2 id="journal-title">Journal</h2>
              <JournalForm key={t.id} trade={t} />
            </section>
            <PlaybookPanel key={`playbook-${t.id}`} trade={t} />
            <RulesPanel compliance={compliance ?? null} accountId={t.accountId} />
            <TradeImages key={`images-${t.id}`} tradeId={t.id} zone={zone} />
            <Comments key={`comments-${t.id}`} path={`/api/trades/${t.id}`} intro="Your mentors' comments on this trade, and your answers." />
            <ShareTrade key={`share-${t.id}`} tradeId={t.id} />
            {t.assetClass === "stock" && <SplitsPanel symbol={t.symbol} />}
          </>
        );
      }}
    </QueryView>
  );
}
