// Option strategies from broker files (issue 53; docs/options.md, "From your broker's file"): the same week of
// option orders as tastytrade, Interactive Brokers (Flex) and thinkorswim write it. Each import makes the same six
// strategies: a credit vertical (opened and closed as one order each), a lone call 35 seconds after it (another
// order: another strategy), an iron condor whose call side filled 104 seconds after its put side (one order: one
// strategy; IBKR and tastytrade), a calendar, and a short put rolled in one order (linked as its roll even with the
// new leg 150 seconds after the close). thinkorswim writes a spread's later legs without a time: they take the
// first row's.
import { readFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import Papa from "papaparse";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { journal } from "../support/app.ts";

const url = () => inject("databaseUrl");
const fixture = (name: string) => readFileSync(new URL(`../fixtures/options/${name}`, import.meta.url));

type Strategy = {
  id: string;
  underlying: string;
  kind: string;
  credit: boolean | null;
  status: string;
  legs: Array<{ symbol: string; side: string }>;
  netPnl: string;
  maxProfit: string | null;
  maxLoss: string | null;
  breakevens: string[];
  rollOfId: string | null;
  rolledIntoId: string | null;
  campaignNetPnl: string;
};

const FILES = [
  // The vertical's fees: tastytrade's per leg (1.14 to open, 0.13 to close), IBKR's 0.65 a contract, thinkorswim's
  // from its cash section (1.32 an order of two contracts).
  { preset: "tastytrade", file: "tastytrade-strategies.csv", verticalNet: "57.46" },
  { preset: "ibkr-flex", file: "ibkr-flex-strategies.csv", verticalNet: "57.40" },
  { preset: "schwab-tos", file: "schwab-tos-strategies.csv", verticalNet: "57.36" },
] as const;

describe("option strategies from broker files", () => {
  for (const { preset, file, verticalNet } of FILES) {
    it(`${preset}: one strategy per order, the kinds and figures right, the roll linked`, async () => {
      const j = await journal(url());
      const { client } = await j.signUp(`strategies-${preset}`);
      const accountId = (await (await client.post("/api/accounts", { name: "Options", currency: "USD", startingBalance: "25000", timezone: "America/New_York" })).json()).id as string;
      const form = new FormData();
      form.set("file", new Blob([fixture(file)]), file);
      form.set("request", JSON.stringify({ accountId, presetId: preset }));
      const preview = await (await client.request("/api/csv-import/preview", { method: "POST", body: form })).json();
      expect(preview.errors, JSON.stringify(preview.errors)).toEqual([]);
      expect(preview.summary.toImport).toBe(14);
      expect((await client.post("/api/csv-import/commit", { importId: preview.importId })).status).toBe(200);

      const res = await client.get("/api/strategies?limit=50");
      expect(res.status).toBe(200);
      const all = ((await res.json()) as { strategies: Strategy[] }).strategies;
      const shape = all.map((s) => `${s.underlying} ${s.kind} ${s.legs.length}`).sort();
      expect(shape).toEqual(["AAPL single 1", "AAPL single 1", "IWM iron_condor 4", "QQQ calendar 2", "SPY single 1", "SPY vertical 2"]);

      const vertical = all.find((s) => s.kind === "vertical")!;
      expect(vertical).toMatchObject({ credit: true, status: "closed", netPnl: verticalNet, maxProfit: "120.00", maxLoss: "380.00", breakevens: ["468.80"] });
      const condor = all.find((s) => s.kind === "iron_condor")!;
      expect(condor).toMatchObject({ credit: true, maxProfit: "140.00", maxLoss: "360.00", breakevens: ["183.60", "206.40"] });
      expect(all.find((s) => s.kind === "calendar")).toMatchObject({ credit: false, maxProfit: null, maxLoss: null });

      // The roll: the new put's strategy is the old one's roll, and its campaign adds both.
      const [first, rolled] = all.filter((s) => s.underlying === "AAPL").sort((a, b) => (a.rollOfId === null ? -1 : b.rollOfId === null ? 1 : 0));
      expect(rolled!.rollOfId).toBe(first!.id);
      expect(first!.rolledIntoId).toBe(rolled!.id);
      const net = (v: string) => Math.round(Number(v) * 100);
      expect(net(rolled!.campaignNetPnl)).toBe(net(first!.netPnl) + net(rolled!.netPnl));

      // The statistics count each strategy once (all closed by now: expired, or closed in the file), and group them by
      // kind with credit and debit apart.
      const stats = async (path: string) => (await client.get(`/api/stats/${path}&accountId=${accountId}`)).json();
      expect((await stats("summary?countBy=trade")).trades).toBe(11);
      expect((await stats("summary?countBy=strategy")).trades).toBe(6);
      const { groups } = await stats("breakdown?by=strategy");
      expect(groups.map((g: { key: string; trades: number }) => `${g.key}: ${g.trades}`)).toEqual([
        "Calendar spread (debit): 1",
        "Iron condor (credit): 1",
        "Single option (credit): 2",
        "Single option (debit): 1",
        "Vertical spread (credit): 1",
      ]);
      expect(groups.find((g: { key: string }) => g.key === "Vertical spread (credit)")).toMatchObject({ netPnl: verticalNet, wins: 1, winRate: "1.0000", withRisk: 1 });

      // The trades export says which strategy each trade is a leg of, and what it is.
      const exported = Papa.parse<Record<string, string>>((await (await client.get(`/api/accounts/${accountId}/export/trades`)).text()).trim(), { header: true }).data;
      const iwm = exported.filter((r) => r.Symbol!.startsWith("IWM"));
      expect(iwm.map((r) => [r["Strategy ID"], r.Strategy])).toEqual(Array(4).fill([condor.id, "Iron condor (credit)"]));
      expect(exported.filter((r) => r["Strategy ID"] === "")).toEqual([]);

      // Every fill keeps its order: one id for each order of the file.
      const orders = rowsOf<{ n: number; orders: number }>(
        await j.db.execute(sql`select count(*)::int as n, count(distinct order_id)::int as orders from fills where account_id = ${accountId}::uuid and generated is null`),
      );
      expect(orders[0]).toEqual({ n: 14, orders: 7 });
    });
  }
});
