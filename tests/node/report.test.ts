// The printable report (docs/digest.md, "The printable report"): its query's validation, the page's figures
// against the summary of the same period and its content policy, and the PDF that Chromium prints of it, read
// back with poppler (pdfinfo, pdftotext) at A4 and Letter: one section a page, every heading present, and no word
// of any table outside the page. On the real Postgres.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chromiumPrinter } from "../../lib/report/chromium.ts";
import { SECTIONS } from "../../lib/report/html.ts";
import { signUp, testApp, type TestApp } from "../support/app.ts";
import { startFxServer } from "../support/fx-server.ts";

const run = promisify(execFile);
let t: TestApp;
let bare: TestApp;
let dir: string;
beforeAll(async () => {
  const printPdf = chromiumPrinter();
  if (!printPdf) throw new Error("the report's PDF test needs Chromium (the Debian package chromium)");
  t = await testApp(inject("databaseUrl"), {}, { printPdf });
  bare = await testApp(inject("databaseUrl"));
  dir = await mkdtemp(join(tmpdir(), "journal-report-test-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const FROM = "2026-11-02T05:00:00.000Z";
const TO = "2026-11-28T05:00:00.000Z";
/** One word longer than the page is wide: it must wrap, not run off the paper. */
const LONG_WORD = `Supercalifragilistic${"x".repeat(150)}`;

async function trader(app: TestApp) {
  const { client } = await signUp(app, "report");
  const res = await client.post("/api/accounts", { name: `Report ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" });
  const accountId = (await res.json()).id as string;
  expect((await client.post("/api/rules", { accountId, rule: { type: "max_trades_per_day", count: 1 } })).status).toBe(201);
  const trip = async (day: string, symbol: string, buy: string, sell: string, at = "10:00") => {
    for (const [side, price, time] of [["buy", buy, at], ["sell", sell, at.replace(/^(\d\d)/, (h) => String(Number(h) + 1).padStart(2, "0"))]] as const) {
      const r = await client.post("/api/fills", { accountId, symbol, side, quantity: "10", price, fees: "1", executedAt: `${day}T${time}:00-05:00` });
      expect(r.status, await r.clone().text()).toBe(201);
    }
  };
  for (let d = 3; d <= 26; d += 1) {
    const day = `2026-11-${String(d).padStart(2, "0")}`;
    if ([7, 8, 14, 15, 21, 22].includes(d)) continue;
    await trip(day, d % 3 === 0 ? "AAPL" : d % 3 === 1 ? "MSFT" : "GOOGL", "100", d % 4 === 0 ? "98.5" : "102");
  }
  await trip("2026-11-05", "NVDA", "50", "49", "13:00");
  expect((await client.request(`/api/days/${accountId}/2026-11-05`, { method: "PUT", json: { review: `${"Two trades against my one-a-day rule. ".repeat(30)}${LONG_WORD}`, mood: 2, tags: ["tilt"] } })).status).toBe(200);
  return { client, accountId };
}

const query = (accountId: string, paper = "a4") => `accountId=${accountId}&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}&paper=${paper}`;

describe("the printable report", () => {
  it("refuses a period missing, backwards or over 400 days, an unknown paper and another trader's account", async () => {
    const a = await trader(bare);
    const other = await signUp(bare, "report-other");
    for (const [q, path] of [
      [`accountId=${a.accountId}&to=${TO}`, "from"],
      [`accountId=${a.accountId}&from=${TO}&to=${FROM}`, "to"],
      [`accountId=${a.accountId}&from=2025-01-01T00:00:00Z&to=2026-03-01T00:00:00Z`, "to"],
      [`${query(a.accountId)}&paper=a5`, "paper"],
      [`accountId=nope&from=${FROM}&to=${TO}`, "accountId"],
    ] as const) {
      const res = await a.client.get(`/api/reports/report.html?${q.replace("&paper=a4&paper=a5", "&paper=a5")}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).error.fields.map((f: { path: string }) => f.path)).toContain(path);
    }
    expect((await other.client.get(`/api/reports/report.html?${query(a.accountId)}`)).status).toBe(404);
  });

  it("is one HTML page with every section, the summary's figures, and a policy that lets nothing but its style run", async () => {
    const a = await trader(bare);
    const res = await a.client.get(`/api/reports/report.html?${query(a.accountId)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
    const html = await res.text();
    for (const heading of SECTIONS) expect(html).toContain(`<h2>${heading}</h2>`);
    expect(html).not.toContain("<script");
    const summary = await (await a.client.get(`/api/stats/summary?accountId=${a.accountId}&from=${FROM}&to=${TO}`)).json();
    expect(html).toContain(`<td>${summary.netPnl} USD</td>`);
    // Every account of a currency: the same figures here (one account), the scope said in the header.
    const all = await a.client.get(`/api/reports/report.html?currency=USD&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`);
    expect(all.status).toBe(200);
    const allHtml = await all.text();
    expect(allHtml).toContain("Every USD account, 2026-11-02 to 2026-11-27.");
    expect(allHtml).toContain(`<td>${summary.netPnl} USD</td>`);
    // Where the instance cannot print (as on Workers): 503, saying to print the page instead.
    const pdf = await a.client.get(`/api/reports/report.pdf?${query(a.accountId)}`);
    expect(pdf.status).toBe(503);
    expect((await pdf.json()).error.message).toMatch(/save it as PDF with your browser's Print/);
  });

  it("reports every account in the base currency for a trader with two currencies", async () => {
    const fx = await startFxServer();
    try {
      const app = await testApp(inject("databaseUrl"), { ...fx.env }, { peer: "per-request" });
      const { client } = await signUp(app, "report-base");
      const make = async (currency: string) => (await (await client.post("/api/accounts", { name: `Base ${currency} ${crypto.randomUUID()}`, currency, startingBalance: "10000", timezone: "America/New_York" })).json()).id as string;
      for (const [accountId, day] of [[await make("USD"), "2026-11-17"], [await make("EUR"), "2026-11-18"]] as const) {
        for (const [side, price, at] of [["buy", "100", "10:00"], ["sell", "103", "11:00"]] as const) {
          expect((await client.post("/api/fills", { accountId, symbol: "AAPL", side, quantity: "10", price, fees: "1", executedAt: `${day}T${at}:00-05:00` })).status).toBe(201);
        }
      }
      expect((await client.request("/api/settings", { method: "PUT", json: { baseCurrency: "EUR" } })).status).toBe(200);
      // Without a currency, two currencies cannot be added: 400 naming it; in the base, one report.
      expect((await client.get(`/api/reports/report.html?from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`)).status).toBe(400);
      const res = await client.get(`/api/reports/report.html?currency=base&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`);
      expect(res.status, await res.clone().text()).toBe(200);
      const html = await res.text();
      const summary = await (await client.get(`/api/stats/summary?currency=base&from=${FROM}&to=${TO}`)).json();
      expect(html).toContain("Every account, in EUR,");
      expect(html).toContain(`<td>${summary.netPnl} EUR</td>`);
    } finally {
      await fx.close();
    }
  });

  for (const [paper, width, height] of [["a4", 595.28, 841.89], ["letter", 612, 792]] as const) {
    it(`prints as a PDF on ${paper === "a4" ? "A4" : "Letter"}: one section a page, every heading, no table cut`, { timeout: 60_000 }, async () => {
      const a = await trader(t);
      const res = await a.client.get(`/api/reports/report.pdf?${query(a.accountId, paper)}`);
      expect(res.status, await res.clone().text()).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      const file = join(dir, `${paper}.pdf`);
      await writeFile(file, Buffer.from(await res.arrayBuffer()));
      const info = (await run("pdfinfo", [file])).stdout;
      const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
      expect(Number(w)).toBeCloseTo(width, 0);
      expect(Number(h)).toBeCloseTo(height, 0);
      const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
      expect(pages).toBeGreaterThanOrEqual(SECTIONS.length);
      // Each section starts a page: its heading is the first line of some page, in order.
      const firstLines: string[] = [];
      for (let p = 1; p <= pages; p++) {
        const text = (await run("pdftotext", ["-f", String(p), "-l", String(p), "-layout", file, "-"])).stdout;
        firstLines.push(text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "");
      }
      const starts = SECTIONS.map((s) => firstLines.findIndex((l, i) => (s === "Summary" ? i === 0 : l === s)));
      expect(starts.slice(1).every((i) => i > 0)).toBe(true);
      expect([...starts].sort((x, y) => x - y)).toEqual(starts);
      const all = (await run("pdftotext", ["-layout", file, "-"])).stdout;
      for (const heading of SECTIONS) expect(all).toContain(heading);
      expect(all).toContain("At most 1 trade a day");
      // No word outside the page: every word's box (pdftotext -bbox) lies within the page's width and height.
      await run("pdftotext", ["-bbox", file, join(dir, `${paper}.html`)]);
      const boxes = [...(await readFile(join(dir, `${paper}.html`), "utf8")).matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)];
      expect(boxes.length).toBeGreaterThan(200);
      const outside = boxes.filter((m) => Number(m[1]) < 0 || Number(m[3]) > width + 0.5 || Number(m[4]) > height + 0.5).map((m) => m[5]);
      expect(outside).toEqual([]);
      expect(boxes.some((m) => m[5]!.includes("Supercalifragilistic"))).toBe(true);
      // And at full size: Chromium shrinks a page to fit what is wider than the paper, so a table or a word that
      // did not wrap would show as smaller type. The 13 pt headings stay 15 pt tall (shrunk, they measure 10).
      for (const heading of SECTIONS.filter((h) => !h.includes(" "))) {
        const tallest = Math.max(...boxes.filter((m) => m[5] === heading).map((m) => Number(m[4]) - Number(m[2])));
        expect(tallest, heading).toBeGreaterThan(14);
      }
    });
  }
});
