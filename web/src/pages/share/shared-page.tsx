// A public link's page (/s/:token; docs/sharing.md): what the trader chose to show of a trade or a report, for
// anyone with the link. It asks nothing of the session (no cookie is set or needed), is never indexed (a robots
// meta here; the server adds X-Robots-Tag), and shows only what the API's allowlist sent.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useParams } from "react-router";
import { api, unwrap } from "../../api/client.ts";
import { ApiError } from "../../api/errors.ts";
import { ErrorAlert, Loading } from "../../components/ui.tsx";
import { formatDate, formatR, formatSigned, symbolLabel, type Unit } from "../../lib/format.ts";
import { BarsChart, SummaryOutline, TradeOutline, type OutlineBar } from "./trade-outline.tsx";
import { EquityChart } from "../dashboard/equity-chart.tsx";
import "../dashboard/dashboard.css";

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

type TradeShare = { trade: SharedTrade; fills: SharedFill[]; chart: { resolution: string; bars: OutlineBar[] } | null; images: Array<{ id: string; contentType: string }>; show: { money: boolean } };
type ReportShare = { from: string | null; to: string | null; reports: Array<{ summary: Summary; equity: Point[]; calendar: Day[] }>; show: { money: boolean } };

function SharedTradeView({ token, data }: { token: string; data: TradeShare }) {
  const { trade, fills } = data;
  return (
    <article className="share-page">
      <h1>
        {symbolLabel(trade.symbol)} · {trade.direction === "long" ? "Long" : "Short"} · {trade.status === "open" ? "Open" : "Closed"}
      </h1>
      {data.chart && data.chart.bars.length > 0 && <BarsChart bars={data.chart.bars} fills={fills} daily={data.chart.resolution === "1d"} />}
      <TradeOutline trade={trade} fills={fills} />
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
            <SummaryOutline summary={s} />
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
