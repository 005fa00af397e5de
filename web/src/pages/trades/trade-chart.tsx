// The trade on its chart (docs/charts.md): candles around it on TradingView's lightweight-charts (loaded on
// first use), a marker per fill, the average-cost line, the stop and target, the running P&L beneath;
// resolution and replay controls; what is missing said in words. Without bars the path through the fills is
// drawn. The figure is described in words, and every fill is in the table of the trade page.
import { baseChartOptions, chartPalette } from "../../lib/chart-theme.ts";
import { ChartAttribution } from "../../components/chart-attribution.tsx";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { api, apiFetch, unwrap } from "../../api/client.ts";
import { errorFromResponse } from "../../api/errors.ts";
import { ErrorAlert, SelectField, StatusMessage } from "../../components/ui.tsx";
import { formatDate, formatDateTime, formatNumber, formatPnl, formatPrice, formatTime, symbolLabel } from "../../lib/format.ts";
import { fillsAt, replayStart, seconds, seriesUpTo, type ChartData } from "./chart-data.ts";

const RESOLUTIONS = [
  { id: "1m", label: "1 min" },
  { id: "5m", label: "5 min" },
  { id: "15m", label: "15 min" },
  { id: "1h", label: "1 hour" },
  { id: "1d", label: "1 day" },
] as const;
type Resolution = (typeof RESOLUTIONS)[number]["id"];
const SPEEDS = [1, 2, 5, 10] as const;
/** Bars shown before the open and after the close. */
const WINDOWS = [30, 120, 390] as const;

type Chart = Awaited<ReturnType<typeof fetchChart>>;

function fetchChart(tradeId: string, resolution: Resolution | undefined, pad: number) {
  const around = pad === WINDOWS[0] ? {} : { before: pad, after: pad };
  return unwrap(api.api.trades[":id"].chart.$get({ param: { id: tradeId }, query: { ...(resolution ? { resolution } : {}), ...around } }));
}

type Replay = { index: number; playing: boolean; speed: (typeof SPEEDS)[number] };

/** The chart's words: what it shows, for a screen reader and for a canvas that cannot be drawn. */
function describe(chart: Chart, zone: string | undefined): string {
  const res = RESOLUTIONS.find((r) => r.id === chart.resolution)?.label ?? chart.resolution;
  const fills = `${chart.fills.length} fill${chart.fills.length === 1 ? "" : "s"} marked`;
  if (!chart.bars.length) return `${symbolLabel(chart.symbol)}: no bars for this trade; the path through its ${fills.replace(" marked", "")} is drawn.`;
  const first = chart.bars[0]!;
  const last = chart.bars.at(-1)!;
  return `${symbolLabel(chart.symbol)}, ${res} candles from ${formatDateTime(first.t, zone)} to ${formatDateTime(last.t, zone)}, ${chart.bars.length} bars, ${fills}${chart.stopPrice ? `, stop ${chart.stopPrice}` : ""}${chart.targetPrice ? `, target ${chart.targetPrice}` : ""}.`;
}

/** A candle CSV for the trade's symbol, when there is no bar provider key. */
function CandleUpload({ symbol, resolution }: { symbol: string; resolution: Resolution }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState("");
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.set("file", file, file.name);
      form.set("symbol", symbol);
      form.set("resolution", resolution === "1d" ? "1d" : "1m");
      const res = await apiFetch("/api/bars/upload", { method: "POST", body: form });
      if (!res.ok) throw await errorFromResponse(res);
      return (await res.json()) as { bars: number };
    },
    onSuccess: async (r) => {
      setStatus(`${formatNumber(String(r.bars))} bars stored.`);
      await queryClient.invalidateQueries({ queryKey: ["trades"] });
    },
  });
  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = (e.currentTarget.elements.namedItem("candles") as HTMLInputElement).files?.[0];
    if (file) upload.mutate(file);
  }
  return (
    <form className="form form--inline" onSubmit={submit} aria-label={`Upload candles of ${symbol}`}>
      <div className="field">
        <label htmlFor="candles">Candle CSV ({resolution === "1d" ? "daily" : "1-minute"} bars of {symbol})</label>
        <input id="candles" name="candles" type="file" accept=".csv,text/csv" />
        <p className="field__hint">Columns time, open, high, low, close, volume; time in ISO 8601 with its offset, or epoch seconds.</p>
      </div>
      <div>
        <button type="submit" className="button button--secondary" disabled={upload.isPending}>
          Upload candles
        </button>
      </div>
      <ErrorAlert error={upload.error} title="Could not store the candles." />
      <StatusMessage>{upload.isPending ? "Uploading…" : status}</StatusMessage>
    </form>
  );
}

export function TradeChart({ tradeId, zone, currency, onReplayChange }: { tradeId: string; zone: string | undefined; currency: string; onReplayChange(hiding: boolean): void }) {
  const [resolution, setResolution] = useState<Resolution | undefined>(undefined);
  const [pad, setPad] = useState<number>(WINDOWS[0]);
  const [replay, setReplay] = useState<Replay | null>(null);
  const [hover, setHover] = useState<string | null>(null);
  const titleId = useId();
  const host = useRef<HTMLDivElement>(null);
  const chart = useQuery({
    queryKey: ["trades", tradeId, "chart", resolution ?? "auto", pad],
    queryFn: () => fetchChart(tradeId, resolution, pad),
    // While days are on their way from the provider, look again now and then.
    refetchInterval: (q) => (q.state.data?.coverage.missing.some((m) => m.status === "queued" || m.status === "fetching") ? 15_000 : false),
  });
  const data = chart.data;
  const drawn = useMemo(() => (data ? seriesUpTo(data as ChartData, replay?.index) : null), [data, replay?.index]);
  const handles = useRef<{ set(s: NonNullable<typeof drawn>): void; frame(from: number | null): void } | null>(null);
  const hiding = replay !== null && !(drawn?.finished ?? true);

  useEffect(() => onReplayChange(hiding), [hiding, onReplayChange]);

  // The chart, made once per answer; the replay only changes its data.
  useEffect(() => {
    const element = host.current;
    if (!element || !data || typeof CanvasRenderingContext2D === "undefined") return;
    let disposed = false;
    let remove: (() => void) | undefined;
    void import("lightweight-charts")
      .then((lw) => {
        if (disposed) return;
        const colors = chartPalette();
        const clock = (time: number, withDate: boolean) => (withDate ? formatDateTime : formatTime)(new Date(time * 1000).toISOString(), zone);
        const view = lw.createChart(element, {
          ...baseChartOptions(lw, colors),
          timeScale: {
            borderColor: colors.border,
            timeVisible: data.resolution !== "1d",
            secondsVisible: false,
            tickMarkFormatter: (time: number) => (data.resolution === "1d" ? formatDate(new Date(time * 1000).toISOString(), zone) : clock(time, false)),
          },
          localization: { timeFormatter: (time: number) => (data.resolution === "1d" ? formatDate(new Date(time * 1000).toISOString(), zone) : clock(time, true)) },
        });
        const price = data.bars.length
          ? view.addSeries(lw.CandlestickSeries, { upColor: colors.positive, downColor: colors.negative, borderVisible: false, wickUpColor: colors.positive, wickDownColor: colors.negative, priceLineVisible: false })
          : view.addSeries(lw.LineSeries, { color: colors.text, lineWidth: 2, lineStyle: lw.LineStyle.Dotted, priceLineVisible: false, title: "Fills" });
        const markers = lw.createSeriesMarkers(price, []);
        const cost = view.addSeries(lw.LineSeries, { color: colors.primary, lineWidth: 1, lineType: lw.LineType.WithSteps, priceLineVisible: false, lastValueVisible: false, title: "Avg cost" });
        for (const [value, title, color] of [
          [data.stopPrice, "Stop", colors.negative],
          [data.targetPrice, "Target", colors.positive],
        ] as const) {
          if (value) price.createPriceLine({ price: Number(value), color, lineWidth: 1, lineStyle: lw.LineStyle.Dashed, axisLabelVisible: true, title });
        }
        const pnl = view.addSeries(
          lw.BaselineSeries,
          { baseValue: { type: "price", price: 0 }, topLineColor: colors.positive, bottomLineColor: colors.negative, topFillColor1: "rgba(17, 104, 47, 0.2)", topFillColor2: "rgba(17, 104, 47, 0.02)", bottomFillColor1: "rgba(180, 35, 24, 0.02)", bottomFillColor2: "rgba(180, 35, 24, 0.2)", lineWidth: 1, priceLineVisible: false, title: "P&L" },
          1,
        );
        view.panes()[1]?.setHeight(80);
        handles.current = {
          set(s) {
            if (data.bars.length) price.setData(s.candles.map((c) => ({ ...c, time: c.time as never })));
            else price.setData(s.path.map((p) => ({ time: p.time as never, value: p.value })));
            markers.setMarkers(s.markers.map((m) => ({ time: m.time as never, position: m.position, shape: m.shape, color: m.buy ? colors.positive : colors.negative, text: m.text, id: m.id })));
            cost.setData(s.cost.map((c) => (c.value === null ? { time: c.time as never } : { time: c.time as never, value: c.value })));
            pnl.setData(s.pnl.map((p) => ({ time: p.time as never, value: p.value })));
            // What is drawn, counted for tests and tools that cannot read a canvas.
            element.dataset.candles = String(data.bars.length ? s.candles.length : 0);
            element.dataset.markers = String(s.markers.length);
          },
          // A replay holds the window still from the trade's first bar (at the left edge) to the last bar of the
          // answer, so the bars it plays fill it from left to right; otherwise everything fits.
          frame(from) {
            if (from === null || !data.bars.length) view.timeScale().fitContent();
            else view.timeScale().setVisibleLogicalRange({ from, to: Math.max(from + 1, data.bars.length - 1) });
            element.dataset.from = String(from ?? 0);
          },
        };
        handles.current.set(seriesUpTo(data as ChartData));
        view.timeScale().fitContent();
        view.subscribeCrosshairMove((param) => {
          if (param.time === undefined) return setHover(null);
          const time = Number(param.time);
          const here = fillsAt(data as ChartData, time);
          if (here.length) {
            return setHover(here.map((f) => `${f.side === "buy" ? "Buy" : "Sell"} ${formatNumber(f.quantity)} at ${f.price}, ${formatDateTime(f.t, zone)}`).join("; "));
          }
          const bar = data.bars.find((b) => seconds(b.t) === time);
          setHover(bar ? `${formatDateTime(bar.t, zone)}: open ${bar.open}, high ${bar.high}, low ${bar.low}, close ${bar.close}` : null);
        });
        remove = () => view.remove();
      })
      .catch(() => {
        // No canvas, or the chunk failed: the words and the fills table still say it all.
      });
    return () => {
      disposed = true;
      handles.current = null;
      remove?.();
      setHover(null);
    };
  }, [data, zone]);

  const replaying = replay !== null;
  useEffect(() => {
    if (!drawn) return;
    handles.current?.set(drawn);
    handles.current?.frame(replaying && data ? replayStart(data as ChartData) : null);
  }, [drawn, replaying, data]);

  // Playing: one bar per tick at the chosen speed, stopping at the end.
  useEffect(() => {
    if (!replay?.playing || !data) return;
    const timer = setInterval(() => {
      setReplay((r) => (r && r.index < data.bars.length - 1 ? { ...r, index: r.index + 1 } : r && { ...r, playing: false }));
    }, 1000 / replay.speed);
    return () => clearInterval(timer);
  }, [replay?.playing, replay?.speed, data]);

  if (chart.isPending) return <p className="muted">Loading the chart…</p>;
  if (chart.error || !data) return <ErrorAlert error={chart.error} title="Could not load the chart." />;
  const last = data.bars.length - 1;
  const pending = data.coverage.missing.filter((m) => m.status === "queued" || m.status === "fetching");
  const failed = data.coverage.missing.filter((m) => m.status === "failed");
  const position = replay && data.bars[replay.index];
  return (
    <section className="panel trade-chart" aria-labelledby={titleId}>
      <h2 id={titleId}>Chart</h2>
      <div className="trade-chart__controls">
        <SelectField label="Resolution" value={data.resolution} onChange={(e) => (setReplay(null), setResolution(e.target.value as Resolution))}>
          {RESOLUTIONS.map((r) => (
            <option key={r.id} value={r.id}>
              {r.label}
            </option>
          ))}
        </SelectField>
        <SelectField label="Around the trade" value={String(pad)} onChange={(e) => (setReplay(null), setPad(Number(e.target.value)))}>
          {WINDOWS.map((w) => (
            <option key={w} value={w}>
              {w} bars each side
            </option>
          ))}
        </SelectField>
        {data.bars.length > 1 && !replay && (
          <button type="button" className="button button--secondary" onClick={() => setReplay({ index: replayStart(data as ChartData), playing: false, speed: 2 })}>
            Replay
          </button>
        )}
      </div>
      {replay && (
        <div className="trade-chart__replay" role="group" aria-label="Replay">
          <button type="button" className="button button--secondary button--small" onClick={() => setReplay({ ...replay, playing: false, index: Math.max(0, replay.index - 1) })} disabled={replay.index <= 0}>
            Step back
          </button>
          <button type="button" className="button button--small" onClick={() => setReplay({ ...replay, playing: !replay.playing && replay.index < last, index: replay.index >= last ? replayStart(data as ChartData) : replay.index })}>
            {replay.playing ? "Pause" : replay.index >= last ? "Again" : "Play"}
          </button>
          <button type="button" className="button button--secondary button--small" onClick={() => setReplay({ ...replay, playing: false, index: Math.min(last, replay.index + 1) })} disabled={replay.index >= last}>
            Step forward
          </button>
          <label className="trade-chart__speed">
            Speed
            <select value={replay.speed} onChange={(e) => setReplay({ ...replay, speed: Number(e.target.value) as Replay["speed"] })}>
              {SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s} bar{s === 1 ? "" : "s"}/s
                </option>
              ))}
            </select>
          </label>
          <input type="range" min={0} max={last} value={replay.index} aria-label="Replay position" onChange={(e) => setReplay({ ...replay, playing: false, index: Number(e.target.value) })} />
          <button type="button" className="link-button" onClick={() => setReplay(null)}>
            Close replay
          </button>
          <p className="trade-chart__replay-status" role="status" data-testid="replay-status">
            {position ? formatDateTime(position.t, zone) : ""} · {drawn?.fills.length ?? 0} of {data.fills.length} fills
            {drawn?.lastPnl !== null && drawn?.lastPnl !== undefined ? ` · P&L so far ${formatPnl(drawn.lastPnl, currency)}` : ""}
            {drawn?.finished ? " · the end" : ""}
          </p>
        </div>
      )}
      <figure className="trade-chart__figure">
        <div ref={host} className="trade-chart__canvas" role="img" aria-label={describe(data as Chart, zone)} />
        <figcaption className="visually-hidden">{describe(data as Chart, zone)}</figcaption>
      </figure>
      <ChartAttribution />
      <p className="trade-chart__hover muted" data-testid="chart-hover">
        {hover ?? "Point at a bar or a fill to see it."}
      </p>
      {data.note && <p className="notice">{data.note}</p>}
      {pending.length > 0 && (
        <p className="muted">
          On their way from your bar provider: {pending.map((m) => formatDate(`${m.day}T12:00:00Z`, "UTC")).join(", ")}.
        </p>
      )}
      {failed.length > 0 && (
        <ul className="plain-list" aria-label="Days without bars">
          {failed.map((m) => (
            <li key={m.day}>
              {formatDate(`${m.day}T12:00:00Z`, "UTC")}: {m.detail}
            </li>
          ))}
        </ul>
      )}
      {!data.coverage.key && data.assetClass !== "option" && data.coverage.missing.length > 0 && (
        <>
          <p>
            Bars come from your own <Link to="/settings/keys">bar provider key</Link> (Polygon.io), or from candles you upload here.
          </p>
          <CandleUpload symbol={data.symbol} resolution={data.resolution} />
        </>
      )}
      {data.stopPrice || data.targetPrice ? (
        <p className="muted">
          {data.stopPrice && <>Stop {formatPrice(data.stopPrice, 2)} </>}
          {data.targetPrice && <>Target {formatPrice(data.targetPrice, 2)}</>}
        </p>
      ) : null}
    </section>
  );
}
