// The printable report as one HTML document (docs/digest.md, "The printable report"): styled for paper (the
// @page size of the chosen paper, each section from a new page, table heads repeated, rows never split, fixed
// table layout so no column runs off the page), charts as inline SVG so they print as drawn. The same document
// is the browser's page (saved as PDF with the browser's Print) and the server's PDF (lib/report/pdf.ts). No
// script; its one style sheet is allowed by hash (REPORT_CONTENT_POLICY).
import { createHash } from "node:crypto";
import { escapeHtml as e } from "../email/messages.ts";
import type { Paper, Report } from "./report.ts";

/** The headings of the sections, in order (a test finds each in the printed PDF). */
export const SECTIONS = ["Summary", "Equity", "Calendar", "Breakdowns", "R distribution", "Rules", "Behaviour findings", "Journal"] as const;

const style = (paper: Paper) => `@page{size:${paper === "letter" ? "letter" : "A4"};margin:14mm 12mm}
*{box-sizing:border-box}
body{font:10pt/1.4 "DejaVu Sans",Helvetica,Arial,sans-serif;color:#111;background:#fff;margin:0 auto;max-width:186mm}
h1{font-size:17pt;margin:0 0 2pt}h2{font-size:13pt;margin:0 0 6pt;break-after:avoid}h3{font-size:11pt;margin:10pt 0 4pt;break-after:avoid}
.meta{color:#444;margin:0 0 10pt}
section{break-before:page}section.first{break-before:auto}
table{width:100%;border-collapse:collapse;table-layout:fixed;margin:0 0 8pt}
th,td{padding:2pt 4pt;border-bottom:.5pt solid #bbb;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{font-weight:600;border-bottom:1pt solid #333}
thead{display:table-header-group}tr{break-inside:avoid}
.num{text-align:right;font-variant-numeric:tabular-nums}
.neg{color:#a11}.pos{color:#065f2c}
svg{display:block;width:100%;height:auto;margin:0 0 8pt}
.note{white-space:pre-wrap;overflow-wrap:anywhere;margin:2pt 0 6pt}
.muted{color:#555}
.screen{background:#eef2ff;border:1px solid #c7d2fe;padding:8px 12px;margin:12px 0}
@media print{.screen{display:none}}
@media screen{body{padding:16px}}`;

/** The report page's content policy: nothing but its own style sheet (by hash) and inline SVG. */
export function reportContentPolicy(paper: Paper): string {
  const hash = createHash("sha256").update(style(paper)).digest("base64");
  return `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`;
}

const money = (v: string | null | undefined) => (v === null || v === undefined ? "-" : v);
const signed = (v: string | null | undefined) => {
  if (v === null || v === undefined) return `<td class="num">-</td>`;
  const n = Number(v);
  return `<td class="num${n < 0 ? " neg" : n > 0 ? " pos" : ""}">${e(v)}</td>`;
};
const pct = (v: string | null | undefined) => (v === null || v === undefined ? "-" : `${(Number(v) * 100).toFixed(1)}%`);
const table = (head: string[], rows: string[][], numeric: number[] = []) =>
  `<table><thead><tr>${head.map((h, i) => `<th${numeric.includes(i) ? ' class="num"' : ""}>${e(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => (c.startsWith("<td") ? c : `<td>${c}</td>`)).join("")}</tr>`)
    .join("")}</tbody></table>`;

/** Cumulative net P&L by day as a line, with its zero line and its first, last, lowest and highest values. */
function equityChart(points: Report["equity"]): string {
  if (points.length === 0) return `<p class="muted">No trade closed in the period.</p>`;
  const values = [0, ...points.map((p) => Number(p.equity))];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const [w, h, left, right, top, bottom] = [600, 220, 64, 12, 10, 24];
  const x = (i: number) => left + (points.length === 1 ? (w - left - right) / 2 : (i * (w - left - right)) / (points.length - 1));
  const y = (v: number) => top + ((hi - v) * (h - top - bottom)) / span;
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(Number(p.equity)).toFixed(1)}`).join(" ");
  const label = (v: number) => `<text x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" font-size="11" fill="#333" text-anchor="end">${e(v.toFixed(2))}</text>`;
  return `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="Equity curve"><line x1="${left}" x2="${w - right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}" stroke="#999" stroke-width="0.8" stroke-dasharray="4 3"/><polyline points="${line}" fill="none" stroke="#1d4ed8" stroke-width="2"/>${label(hi)}${lo !== hi ? label(lo) : ""}${lo < 0 && hi > 0 ? label(0) : ""}<text x="${left}" y="${h - 6}" font-size="11" fill="#333">${e(points[0]!.start)}</text><text x="${w - right}" y="${h - 6}" font-size="11" fill="#333" text-anchor="end">${e(points.at(-1)!.start)}</text></svg>`;
}

/** How many trades fall in each R bucket, as bars. */
function rChart(buckets: Report["rDistribution"]["buckets"]): string {
  const most = Math.max(1, ...buckets.map((b) => b.trades));
  const [w, h, pad] = [600, 160, 20];
  const bw = (w - 2 * pad) / buckets.length;
  const bars = buckets
    .map((b, i) => {
      const bh = ((h - 2 * pad) * b.trades) / most;
      const fill = b.to !== null && Number(b.to) <= 0 ? "#b91c1c" : "#15803d";
      return `<rect x="${(pad + i * bw + 1).toFixed(1)}" y="${(h - pad - bh).toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${bh.toFixed(1)}" fill="${fill}"/>`;
    })
    .join("");
  // Each whole R under the bucket it starts (the tails' own buckets stay unlabelled).
  const ticks = buckets
    .map((b, i) => (b.from !== null && Number.isInteger(Number(b.from)) ? `<text x="${(pad + i * bw).toFixed(1)}" y="${h - 6}" font-size="10" fill="#333" text-anchor="middle">${e(`${Number(b.from)}R`)}</text>` : ""))
    .join("");
  return `<svg viewBox="0 0 ${w} ${h}" role="img" aria-label="R distribution">${bars}<line x1="${pad}" x2="${w - pad}" y1="${h - pad}" y2="${h - pad}" stroke="#333" stroke-width="0.8"/>${ticks}</svg>`;
}

const rangeLabel = (b: { from: string | null; to: string | null }) => (b.from === null ? `below ${b.to}R` : b.to === null ? `${b.from}R and above` : `${b.from}R to ${b.to}R`);

/** The whole document. `title` names the trader's scope ("Main account", "Every USD account"). */
export function reportHtml(r: Report, paper: Paper, generatedAt: Date): string {
  const c = r.currency ?? "";
  const s = r.summary;
  const [from, to] = [r.period.firstDay, r.period.lastDay];
  const sections: string[] = [];
  sections.push(`<section class="first"><h2>Summary</h2>${table(
    ["Figure", "Value"],
    [
      ["Closed trades", `${s.trades} (${s.wins} won, ${s.losses} lost)`],
      ["Net P&amp;L", `${e(money(s.netPnl))} ${e(c)}`],
      ["Gross P&amp;L, fees", `${e(money(s.grossPnl))} ${e(c)}, ${e(money(s.fees))} ${e(c)}`],
      ["Win rate", pct(s.winRate)],
      ["Profit factor", e(money(s.profitFactor))],
      ["Expectancy", `${e(money(s.expectancy))} ${e(c)}`],
      ["Average win, average loss", `${e(money(s.averageWin))}, ${e(money(s.averageLoss))} ${e(c)}`],
      ["Largest win, largest loss", `${e(money(s.largestWin))}, ${e(money(s.largestLoss))} ${e(c)}`],
      ["Max drawdown", `${e(money(s.maxDrawdown))} ${e(c)}`],
      ["In R", s.r.total === null ? "no trade with a planned risk" : `${e(s.r.total)}R over ${s.r.withRisk} trades; expectancy ${e(money(s.r.expectancy))}R`],
    ],
  )}${"missingRates" in s && s.missingRates?.length ? `<p class="muted">Left out for want of a rate: ${e(s.missingRates.map((m) => `${m.currency} on ${m.date}`).join(", "))}.</p>` : ""}</section>`);
  sections.push(`<section><h2>Equity</h2><p class="muted">Cumulative net P&amp;L at each trading day's end, in ${e(c)}.</p>${equityChart(r.equity)}</section>`);
  sections.push(
    `<section><h2>Calendar</h2>${
      r.calendar.length
        ? table(["Day", "Trades", `Net P&L (${c})`, "R"], r.calendar.map((d) => [e(d.date), `<td class="num">${d.trades}</td>`, signed(d.netPnl), signed(d.rTotal)]), [1, 2, 3])
        : `<p class="muted">No trading day in the period.</p>`
    }</section>`,
  );
  const groups = (title: string, list: Report["breakdowns"]["symbol"]) =>
    `<h3>${e(title)}</h3>${
      list.length
        ? table(["Group", "Trades", "Win rate", `Net P&L (${c})`, "R"], list.map((g) => [e(g.key), `<td class="num">${g.trades}</td>`, `<td class="num">${pct(g.winRate)}</td>`, signed(g.netPnl), signed(g.rTotal)]), [1, 2, 3, 4])
        : `<p class="muted">None.</p>`
    }`;
  sections.push(`<section><h2>Breakdowns</h2>${groups("By symbol", r.breakdowns.symbol)}${groups("By weekday", r.breakdowns.weekday)}${groups("By direction", r.breakdowns.direction)}</section>`);
  sections.push(
    `<section><h2>R distribution</h2><p class="muted">${r.rDistribution.withRisk} of ${r.rDistribution.trades} closed trades have a planned risk (1R).</p>${rChart(r.rDistribution.buckets)}${table(
      ["R-multiple", "Trades"],
      r.rDistribution.buckets.map((b) => [e(rangeLabel(b)), `<td class="num">${b.trades}</td>`]),
      [1],
    )}</section>`,
  );
  sections.push(
    `<section><h2>Rules</h2>${
      r.rules.length
        ? r.rules
            .map(
              (a) =>
                `<h3>${e(a.accountName)}${a.score !== null ? ` (average day score ${a.score} of 100)` : ""}</h3>${table(
                  ["Rule", "Trades broke it", "Days broke it", `What those trades made (${a.currency})`],
                  a.rules.map((x) => [e(x.label), `<td class="num">${x.brokenTrades}</td>`, `<td class="num">${x.brokenDays}</td>`, signed(x.brokenNetPnl)]),
                  [1, 2, 3],
                )}`,
            )
            .join("")
        : `<p class="muted">No account in the report has rules.</p>`
    }</section>`,
  );
  const found = r.findings.flatMap((f) => f.findings.filter((x) => x.found).map((x) => ({ ...x, currency: f.currency })));
  sections.push(
    `<section><h2>Behaviour findings</h2>${
      found.length
        ? table(["Finding", "What", "Count", "Net P&L"], found.map((f) => [e(f.title), e(f.detail), `<td class="num">${f.count}</td>`, `<td class="num">${e(f.netPnl)} ${e(f.currency)}</td>`]), [2, 3])
        : `<p class="muted">Nothing found in the period.</p>`
    }</section>`,
  );
  sections.push(
    `<section><h2>Journal</h2>${
      r.journal.length
        ? r.journal
            .map(
              (d) =>
                `<h3>${e(d.day)}, ${e(d.accountName)}${d.mood !== null ? ` (mood ${d.mood} of 5)` : ""}${d.tags.length ? `: ${e(d.tags.join(", "))}` : ""}</h3>${d.plan ? `<p class="muted">Plan</p><p class="note">${e(d.plan)}</p>` : ""}${d.review ? `<p class="muted">Review</p><p class="note">${e(d.review)}</p>` : ""}`,
            )
            .join("")
        : `<p class="muted">No day journaled in the period.</p>`
    }</section>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Trading report ${e(from)} to ${e(to)}</title><style>${style(paper)}</style></head><body><header><h1>Trading report</h1><p class="meta">${e(r.scope)}, ${e(from)} to ${e(to)}. Generated ${e(generatedAt.toISOString().slice(0, 16).replace("T", " "))} UTC.</p><p class="screen">Print this page, or save it as PDF, with your browser's Print (Ctrl+P, or Cmd+P on a Mac). Each section starts on a new page.</p></header>${sections.join("")}</body></html>`;
}
