// The weekly digest as an email (docs/digest.md): a plain-text part every client shows, and an HTML part that
// reads in light and dark mode (it declares both colour schemes and sets no background it cannot invert).
// Every section links into the app at WEB_BASE_URL; amounts are written as the API gives them, to the cent.
import { escapeHtml, PRODUCT } from "../email/messages.ts";
import type { MailContent } from "../email/types.ts";
import type { DigestFigures } from "./digest.ts";
import type { Reading } from "./reading.ts";

const money = (v: string | null | undefined, currency: string) => {
  if (v === null || v === undefined) return "-";
  const n = Number(v);
  const s = Math.abs(n).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return `${n < 0 ? "-" : n > 0 ? "+" : ""}${s} ${currency}`;
};
const pct = (v: string | null | undefined) => (v === null || v === undefined ? "-" : `${(Number(v) * 100).toFixed(0)}%`);
const r = (v: string | null) => (v === null ? "-" : `${Number(v) > 0 ? "+" : ""}${v}R`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

type Section = { title: string; lines: Array<{ text: string; href?: string }>; link?: { label: string; href: string } };

/** The digest's sections, shared by both parts. */
function sections(d: DigestFigures, web: string): Section[] {
  const out: Section[] = [];
  const range = `from=${d.week.firstDay}&to=${d.week.lastDay}`;
  for (const f of d.figures) {
    const lines: Section["lines"] = [];
    if (f.trades === 0) lines.push({ text: "No trade closed this week." });
    else {
      lines.push({ text: `Net P&L ${money(f.netPnl, f.currency)} over ${plural(f.trades, "closed trade")} (${f.wins} won, ${f.losses} lost, win rate ${pct(f.winRate)}); fees ${money(f.fees, f.currency).replace("+", "")}.` });
      if (f.rTotal !== null) lines.push({ text: `In R: ${r(f.rTotal)} over the ${plural(f.rTrades, "trade")} with a planned risk.` });
      if (f.best) lines.push({ text: `Best trade: ${f.best.symbol} (${f.best.accountName}) ${money(f.best.netPnl, f.best.currency)}`, href: `${web}/trades/${f.best.id}` });
      if (f.worst) lines.push({ text: `Worst trade: ${f.worst.symbol} (${f.worst.accountName}) ${money(f.worst.netPnl, f.worst.currency)}`, href: `${web}/trades/${f.worst.id}` });
    }
    if (f.averageWeek) {
      lines.push({
        text: `Your average week (the ${plural(f.averageWeek.weeks, "week")} with trades of the 12 before): ${money(f.averageWeek.netPnl, f.currency)}, ${f.averageWeek.trades} trades${f.averageWeek.rTotal !== null ? `, ${r(f.averageWeek.rTotal)}` : ""}.`,
      });
    }
    if ("missingRates" in f && f.missingRates?.length) lines.push({ text: `Left out for want of a rate: ${f.missingRates.map((m) => `${m.currency} on ${m.date}`).join(", ")}.` });
    out.push({ title: `The week in ${f.currency}`, lines, link: { label: "Open the dashboard", href: `${web}/dashboard?${range}` } });
  }
  if (!d.comparable) out.push({ title: "No comparison", lines: [{ text: `${d.tradingDays === 0 ? "No trading day" : "One trading day"} this week: too little to compare or read into.` }] });
  if (d.rulesBroken.length) {
    out.push({
      title: "Rules broken",
      lines: d.rulesBroken.map((b) => ({ text: `${b.label} (${b.accountName}): ${plural(b.trades, "trade")}, ${plural(b.days, "day")}; those trades made ${money(b.netPnl, b.currency)}.` })),
      link: { label: "Open your rules", href: `${web}/rules` },
    });
  }
  if (d.findings.length) {
    out.push({ title: "Behaviour findings", lines: d.findings.map((f) => ({ text: `${f.title}: ${f.detail} (${money(f.netPnl, f.currency)})` })), link: { label: "Open the insights", href: `${web}/insights` } });
  }
  out.push({
    title: "Journal",
    lines: d.journaledDays.length ? [{ text: `You journaled ${plural(new Set(d.journaledDays.map((j) => j.day)).size, "day")}: ${[...new Set(d.journaledDays.map((j) => j.day))].join(", ")}.` }] : [{ text: "No day journaled this week." }],
    link: { label: "Open the journal", href: `${web}/journal` },
  });
  if (d.openPositions.total) {
    out.push({
      title: `Open positions (${d.openPositions.total})`,
      lines: d.openPositions.listed.map((p) => ({ text: `${p.symbol} ${p.direction} ${p.quantity} (${p.accountName}), open since ${p.openedAt.slice(0, 10)}`, href: `${web}/trades/${p.id}` })),
    });
  }
  if (d.evaluations.length) {
    out.push({
      title: "Evaluations",
      lines: d.evaluations.map((e) => ({
        text: `${e.accountName} (${e.firm}, ${e.phase}): ${e.state ?? "-"}${e.distanceToFloor !== null ? `; ${money(e.distanceToFloor, e.currency).replace("+", "")} above the floor` : ""}${e.profitToTarget !== null ? `; ${money(e.profitToTarget, e.currency).replace("+", "")} to the target` : ""}.`,
        href: `${web}/accounts/${e.accountId}`,
      })),
    });
  }
  if (d.washWatch?.length) {
    out.push({
      title: "Wash-sale watch (US taxes)",
      lines: d.washWatch.map((l) => ({
        text: `${l.symbol} (${l.accountName}): ${money(`-${l.loss}`, "USD")} realised on ${l.soldAt}. Buying ${l.symbol} again on or before ${l.washableUntil} would wash this loss.`,
      })),
      link: { label: "Open the tax year", href: `${web}/tax` },
    });
  }
  return out;
}

/** The subject and both parts. `unsubscribe`: the signed one-click link (also shown at the foot). */
export function digestEmail(d: DigestFigures, reading: Reading, web: string, unsubscribe: string): MailContent {
  const title = `Your week ${d.week.firstDay} to ${d.week.lastDay}`;
  const head = d.figures.map((f) => (f.trades ? money(f.netPnl, f.currency) : `no trades (${f.currency})`)).join(", ");
  const subject = `${title}: ${head || "no accounts yet"}`;
  const all = sections(d, web);
  const foot = [`Sent weekly by ${PRODUCT}. Change the day and hour: ${web}/settings/digest`, `Stop these emails: ${web}/digest/unsubscribe?token=${unsubscribe}`];

  const text = [
    title,
    ...(reading.text ? ["", reading.text, `(A reading by ${reading.model} on your own key.)`] : []),
    ...all.flatMap((s) => ["", s.title.toUpperCase(), ...s.lines.map((l) => `- ${l.text}${l.href ? `\n  ${l.href}` : ""}`), ...(s.link ? [`${s.link.label}: ${s.link.href}`] : [])]),
    "",
    ...foot,
    "",
  ].join("\n");

  const e = escapeHtml;
  const html = [
    `<!doctype html><html><head><meta charset="utf-8"><meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark">`,
    `<style>body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;line-height:1.45;max-width:640px;margin:0 auto;padding:16px}`,
    `h1{font-size:20px}h2{font-size:16px;margin:20px 0 6px}a{color:#2563eb}.muted{opacity:.75;font-size:13px}.reading{border-left:3px solid #2563eb;padding-left:12px}`,
    `@media (prefers-color-scheme: dark){a{color:#93c5fd}.reading{border-color:#93c5fd}}</style></head><body>`,
    `<h1>${e(title)}</h1>`,
    reading.text ? `<div class="reading"><p>${e(reading.text).replace(/\n+/g, "</p><p>")}</p><p class="muted">A reading by ${e(reading.model)} on your own key.</p></div>` : "",
    ...all.map(
      (s) =>
        `<h2>${e(s.title)}</h2><ul>${s.lines.map((l) => `<li>${l.href ? `<a href="${e(l.href)}">${e(l.text)}</a>` : e(l.text)}</li>`).join("")}</ul>${s.link ? `<p><a href="${e(s.link.href)}">${e(s.link.label)}</a></p>` : ""}`,
    ),
    `<p class="muted">Sent weekly by ${e(PRODUCT)}. <a href="${e(`${web}/settings/digest`)}">Change the day and hour</a> or <a href="${e(`${web}/digest/unsubscribe?token=${unsubscribe}`)}">stop these emails</a>.</p>`,
    `</body></html>`,
  ].join("");
  return { subject, text, html };
}
