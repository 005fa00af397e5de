// A public link's page (/s/:token; docs/sharing.md): what the trader chose to show of a trade or a report, for
// anyone with the link. It asks nothing of the session (no cookie is set or needed), is never indexed (a robots
// meta here; the server adds X-Robots-Tag), and shows only what the API's allowlist sent.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { ApiError } from "../../api/errors.ts";
import { ErrorAlert, Loading } from "../../components/ui.tsx";
import { baseChartOptions, chartPalette } from "../../lib/chart-theme.ts";
import { formatDate, formatDateTime, formatPnl, formatPrice, formatR, formatSigned, priceDecimals, symbolLabel, toneOf, type Unit } from "../../lib/format.ts";
import { EquityChart } from "../dashboard/equity-chart.tsx";
import "../dashboard/dashboard.css";

type Bar = { t: string; open: string; high: string; low: string; close: string };
type SharedTrade = {
  symbol: string;
  direction: "long" | "short";
  status: "open" | "closed";
  openedAt: string;
  closedAt: string | null;
  averageEntryPrice: string | null;
  averageExitPrice: string | null;
  returnPercent: string | null;
  currency?: string;
  netPnl?: string;
  fees?: string;
  maxQuantity?: string;
  notes?: string | null;
  tags?: string[];
  setup?: string | null;
  risk: { rMultiple: string | null; stopPrice: string | null; targetPrice: string | null; plannedRR: string | null };
};
type SharedFill = { executedAt: string; side: "buy" | "sell"; price: string; role: string; quantityInTrade?: string };
type Summary = { trades: number; wins: number; losses: number; winRate: string | null; profitFactor: string | null; currency?: string; netPnl?: string; r: { total: string | null; expectancy: string | null; withRisk: number } };
type Point = { start: string; trades: number; rTotal: string | null; rEquity: string; netPnl?: string; equity?: string };
type Day = { date: string; trades: number; rTotal: string | null; netPnl?: string };

/** Keeps search engines off the page for as long as it is shown. */
function useNoIndex() {
  useEffect(() => {
    const meta = document.createElement("meta");
    meta.name = "robots";
    meta.content = "noindex, nofollow";
    document.head.append(meta);
    return () => meta.remove();
  }, []);
}

export function SharedPage() {
  const { token = "" } = useParams();
  useNoIndex();
  const shared = useQuery({
    queryKey: ["public-share", token],
    queryFn: () => unwrap(api.api.public.shares[":token"].$get({ param: { token } })),
    retry: false,
  });
  return (
    <div className="shell shell--public">
      <header className="topbar">
        <div className="topbar__inner">
          <span className="brand">Trading Journal</span>
        </div>
      </header>
      <main id="main" className="main" tabIndex={-1}>
        {shared.isPending && <Loading />}
        {shared.error instanceof ApiError && shared.error.status === 404 ? (
          <section className="card">
            <h1>Link not available</h1>
            <p>This link does not exist, has expired or was revoked.</p>
          </section>
        ) : (
          <ErrorAlert error={shared.error} title="Could not load the shared page." />
        )}
        {shared.data?.kind === "trade" && <SharedTradeView token={token} data={shared.data as unknown as TradeShare} />}
        {shared.data?.kind === "report" && <SharedReportView data={shared.data as unknown as ReportShare} />}
        {shared.data && <p className="muted">Shared from a trading journal until {formatDate(shared.data.expiresAt)}. Amounts are shown only when the trader chose to.</p>}
      </main>
    </div>
  );
}

type TradeShare = { trade: SharedTrade; fills: SharedFill[]; chart: { resolution: string; bars: Bar[] } | null; images: Array<{ id: string; contentType: string }>; show: { money: boolean } };
type ReportShare = { from: string | null; to: string | null; reports: Array<{ summary: Summary; equity: Point[]; calendar: Day[] }>; show: { money: boolean } };

function SharedTradeView({ token, data }: { token: string; data: TradeShare }) {
  const { trade, fills } = data;
  const decimals = priceDecimals([trade.averageEntryPrice, trade.averageExitPrice, ...fills.map((f) => f.price)]);
  const r = trade.risk.rMultiple;
  return (
    <article className="share-page">
      <h1>
        {symbolLabel(trade.symbol)} · {trade.direction === "long" ? "Long" : "Short"} · {trade.status === "open" ? "Open" : "Closed"}
      </h1>
      <dl className="stats">
        <div>
          <dt>R multiple</dt>
          <dd className={r ? toneOf(r) : undefined}>{r ? formatR(r) : "No 1R"}</dd>
        </div>
        <div>
          <dt>Return</dt>
          <dd className={trade.returnPercent ? toneOf(trade.returnPercent) : undefined}>{trade.returnPercent ? `${Number(trade.returnPercent) > 0 ? "+" : ""}${trade.returnPercent}%` : "–"}</dd>
        </div>
        {trade.netPnl !== undefined && (
          <div>
            <dt>Net P&L</dt>
            <dd className={toneOf(trade.netPnl)}>{formatPnl(trade.netPnl, trade.currency ?? null)}</dd>
          </div>
        )}
        <div>
          <dt>Entry → exit</dt>
          <dd>
            {trade.averageEntryPrice ? formatPrice(trade.averageEntryPrice, decimals) : "–"} → {trade.averageExitPrice ? formatPrice(trade.averageExitPrice, decimals) : "–"}
          </dd>
        </div>
        <div>
          <dt>Held</dt>
          <dd>
            {formatDateTime(trade.openedAt)}
            {trade.closedAt ? ` – ${formatDateTime(trade.closedAt)}` : ""}
          </dd>
        </div>
      </dl>
      {data.chart && data.chart.bars.length > 0 && <SharedChart bars={data.chart.bars} fills={fills} daily={data.chart.resolution === "1d"} />}
      <section>
        <h2>Fills</h2>
        <div className="table-wrap">
          <table className="stack-table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Side</th>
                <th scope="col" className="num">
                  Price
                </th>
                {data.show.money && (
                  <th scope="col" className="num">
                    Quantity
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {fills.map((f, i) => (
                <tr key={i}>
                  <td>{formatDateTime(f.executedAt)}</td>
                  <td>{f.side === "buy" ? "Buy" : "Sell"}</td>
                  <td className="num">{formatPrice(f.price, decimals)}</td>
                  {data.show.money && <td className="num">{f.quantityInTrade}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      {trade.notes !== undefined && (
        <section>
          <h2>Notes</h2>
          {trade.setup && <p>Setup: {trade.setup}</p>}
          {trade.tags && trade.tags.length > 0 && <p>Tags: {trade.tags.join(", ")}</p>}
          <p className="notes-text">{trade.notes || "No notes."}</p>
        </section>
      )}
      {data.images.length > 0 && (
        <section>
          <h2>Screenshots</h2>
          <div className="share-images">
            {data.images.map((img) => (
              <img key={img.id} src={`/api/public/shares/${encodeURIComponent(token)}/images/${img.id}`} alt="A screenshot of the trade" loading="lazy" />
            ))}
          </div>
        </section>
      )}
    </article>
  );
}

/** The bars around the trade, with its fills as markers (lightweight-charts, loaded on first use). */
function SharedChart({ bars, fills, daily }: { bars: Bar[]; fills: SharedFill[]; daily: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element || typeof CanvasRenderingContext2D === "undefined") return;
    let remove: (() => void) | undefined;
    let disposed = false;
    void import("lightweight-charts").then((lw) => {
      if (disposed) return;
      const colors = chartPalette();
      const view = lw.createChart(element, { ...baseChartOptions(lw, colors), timeScale: { borderColor: colors.border, timeVisible: !daily, secondsVisible: false } });
      const price = view.addSeries(lw.CandlestickSeries, { upColor: colors.positive, downColor: colors.negative, borderVisible: false, wickUpColor: colors.positive, wickDownColor: colors.negative, priceLineVisible: false });
      const at = (iso: string) => Math.floor(Date.parse(iso) / 1000) as never;
      price.setData(bars.map((b) => ({ time: at(b.t), open: Number(b.open), high: Number(b.high), low: Number(b.low), close: Number(b.close) })));
      // Each fill on the bar it falls in.
      const starts = bars.map((b) => Date.parse(b.t));
      const barOf = (t: number) => starts.reduce((found, s) => (s <= t ? s : found), starts[0]!);
      lw.createSeriesMarkers(
        price,
        fills
          .map((f) => ({ time: Math.floor(barOf(Date.parse(f.executedAt)) / 1000) as never, position: f.side === "buy" ? ("belowBar" as const) : ("aboveBar" as const), shape: f.side === "buy" ? ("arrowUp" as const) : ("arrowDown" as const), color: f.side === "buy" ? colors.positive : colors.negative, text: f.side === "buy" ? "Buy" : "Sell" }))
          .sort((a, b) => Number(a.time) - Number(b.time)),
      );
      view.timeScale().fitContent();
      element.dataset.candles = String(bars.length);
      remove = () => view.remove();
    });
    return () => {
      disposed = true;
      remove?.();
    };
  }, [bars, fills, daily]);
  return <div ref={host} className="trade-chart" role="img" aria-label={`Price bars around the trade with its ${fills.length} fills marked`} />;
}

function SharedReportView({ data }: { data: ReportShare }) {
  return (
    <article className="share-page">
      <h1>Trading report</h1>
      {(data.from || data.to) && (
        <p>
          {data.from ? formatDate(data.from) : "The start"} – {data.to ? formatDate(data.to) : "today"}
        </p>
      )}
      {data.reports.map((report, i) => {
        const s = report.summary;
        const money = s.netPnl !== undefined;
        const unit: Unit = money ? { kind: "money", currency: s.currency ?? null } : { kind: "r" };
        const points = report.equity.map((p) => (money ? { start: p.start, trades: p.trades, equity: p.equity!, netPnl: p.netPnl! } : { start: p.start, trades: p.trades, equity: p.rEquity, netPnl: p.rTotal ?? "0" }));
        return (
          <section key={i} className="share-page">
            {data.reports.length > 1 && <h2>Account {i + 1}</h2>}
            <dl className="stats">
              <div>
                <dt>Trades</dt>
                <dd>{s.trades}</dd>
              </div>
              <div>
                <dt>Win rate</dt>
                <dd>{s.winRate === null ? "–" : `${(Number(s.winRate) * 100).toFixed(1)}%`}</dd>
              </div>
              <div>
                <dt>Profit factor</dt>
                <dd>{s.profitFactor ?? "–"}</dd>
              </div>
              <div>
                <dt>Total R</dt>
                <dd>{s.r.total ? formatR(s.r.total) : "–"}</dd>
              </div>
              <div>
                <dt>Expectancy</dt>
                <dd>{s.r.expectancy ? formatR(s.r.expectancy) : "–"}</dd>
              </div>
              {money && (
                <div>
                  <dt>Net P&L</dt>
                  <dd className={toneOf(s.netPnl!)}>{formatPnl(s.netPnl!, s.currency ?? null)}</dd>
                </div>
              )}
            </dl>
            {points.length > 0 && <EquityChart points={points} bucket="day" unit={unit} />}
            <h3>By day</h3>
            <div className="table-wrap">
              <table className="stack-table">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col" className="num">
                      Trades
                    </th>
                    <th scope="col" className="num">
                      {money ? "Net P&L" : "R"}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {report.calendar.map((d) => (
                    <tr key={d.date}>
                      <td>{d.date}</td>
                      <td className="num">{d.trades}</td>
                      <td className="num">{money ? formatSigned(d.netPnl!, unit) : d.rTotal ? formatR(d.rTotal) : "–"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
    </article>
  );
}
