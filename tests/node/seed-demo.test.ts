// `npm run seed:demo` against the real Node server and Postgres: what it leaves is what a newcomer sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import { demoCsv, demoJournal, seedDemo } from "../../scripts/seed-demo.ts";
import { isNyseTradingDay } from "../../lib/time/nyse.ts";
import { wallClock } from "../../lib/time/zoned.ts";
import { TestClient, uniqueEmail } from "../support/client.ts";
import { startTestServer } from "../support/node-server.ts";

// Every request comes from 127.0.0.1 and no proxy is trusted: the demo registers from "one client".
const start = (env: Record<string, string> = {}) => startTestServer({ TRUSTED_PROXIES: "", ...env });

describe("npm run seed:demo", () => {
  let server: NodeServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server?.close());

  it("generates the same history on every run: round trips on the exchange's trading days, in its hours, at prices that walk", () => {
    const now = new Date("2026-11-30T12:00:00Z");
    const csv = demoCsv(120, now);
    expect(demoCsv(120, now)).toBe(csv);
    const rows = csv.trim().split("\n").slice(1).map((l) => l.split(","));
    expect(rows).toHaveLength(240);
    const days = new Set<string>();
    const bySymbol = new Map<string, number[]>();
    for (const [at, symbol, , , price] of rows) {
      const time = new Date(at!);
      expect(time.getTime()).toBeLessThan(now.getTime());
      const wall = wallClock(time.getTime(), "America/New_York");
      const date = `${wall.year}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}`;
      days.add(date);
      expect(isNyseTradingDay(date), date).toBe(true);
      const minutes = wall.hour * 60 + wall.minute;
      expect(minutes).toBeGreaterThanOrEqual(9 * 60 + 30);
      expect(minutes).toBeLessThan(16 * 60);
      bySymbol.set(symbol!, [...(bySymbol.get(symbol!) ?? []), Number(price)]);
    }
    // Sixty trading days back from 30 November 2026 take in Thanksgiving, Labor Day and the weekends, and skip them.
    expect(days.size).toBe(60);
    for (const closed of ["2026-11-26", "2026-09-07", "2026-11-28"]) expect(days.has(closed)).toBe(false);
    // A symbol's price moves a little from one fill to the next, never leaps about.
    const moves = [...bySymbol.values()].flatMap((prices) => prices.slice(1).map((p, i) => Math.abs(p / prices[i]! - 1)));
    moves.sort((a, b) => a - b);
    expect(moves[Math.floor(moves.length / 2)]!).toBeLessThan(0.02);
    expect(moves.at(-1)!).toBeLessThan(0.15);
  });

  it("journals a trade as it went: ratings and tags agree with the result and the hold", () => {
    const pick = () => 0.3;
    const at = (minutes: number) => new Date(Date.parse("2026-03-02T15:00:00Z") + minutes * 60_000).toISOString();
    expect(demoJournal({ netPnl: "120.00", openedAt: at(0), closedAt: at(45) }, "breakout", pick, false)).toEqual({
      setup: "breakout", tags: ["breakout", "a-plus"], rating: 5, notes: null,
    });
    expect(demoJournal({ netPnl: "-12.00", openedAt: at(0), closedAt: at(10) }, "gap and go", pick, true)).toEqual({
      setup: "gap and go", tags: ["gap-and-go", "scalp"], rating: 3, notes: "Demo note: followed the plan.",
    });
    expect(demoJournal({ netPnl: "-300.00", openedAt: at(0), closedAt: at(60) }, "reversal", pick, false)).toMatchObject({ tags: ["reversal", "mistake"], rating: 2 });
  });

  it("leaves a signed-in-able user with an imported, journaled account; a second run signs in and adds another", async () => {
    const email = uniqueEmail("demo");
    const password = "demo password";
    const first = await seedDemo({ url: server.url, email, password, trades: 60 });
    expect(first).toMatchObject({ email, fills: 120, created: "registered" });

    const client = new TestClient(server.url);
    expect((await client.post("/api/auth/login", { email, password })).status).toBe(200);
    const { trades } = await (await client.get(`/api/trades?accountId=${first.accountId}&status=closed&pageSize=200`)).json();
    expect(trades).toHaveLength(60);
    expect(trades.filter((t: { setup: string | null }) => t.setup !== null)).toHaveLength(40);
    for (const t of trades as Array<{ tags: string[]; rating: number | null; netPnl: string }>) {
      if (t.tags.includes("a-plus")) expect(t.rating).toBeGreaterThanOrEqual(4);
      if (t.tags.includes("mistake")) expect(t.rating).toBeLessThanOrEqual(2);
      if (t.rating !== null && t.rating >= 4) expect(Number(t.netPnl)).toBeGreaterThan(0);
    }
    const summary = await (await client.get(`/api/stats/summary?accountId=${first.accountId}`)).json();
    expect(summary.trades).toBe(60);
    expect(summary.wins).toBeGreaterThan(0);
    expect(summary.losses).toBeGreaterThan(0);
    const ledger = await (await client.get(`/api/ledger/${first.accountId}?pageSize=200`)).json();
    // Opening balance, 120 fills, a deposit and a withdrawal.
    expect(ledger.entries).toHaveLength(123);
    expect(ledger.entries.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(["opening", "deposit", "withdrawal", "fill"]));

    const second = await seedDemo({ url: server.url, email, password, trades: 10 });
    expect(second).toMatchObject({ created: "signed in", fills: 20 });
    expect(second.accountId).not.toBe(first.accountId);
  });

  it("works in cross-origin mode, where every change needs the anti-CSRF token", async () => {
    const cors = await start({ CORS_ALLOWED_ORIGINS: "https://app.example.com" });
    try {
      const result = await seedDemo({ url: cors.url, email: uniqueEmail("demo-cors"), password: "demo password", trades: 5 });
      expect(result.fills).toBe(10);
    } finally {
      await cors.close();
    }
  });

  it("says what the API answered when it cannot go on", async () => {
    const email = uniqueEmail("demo-wrong");
    await seedDemo({ url: server.url, email, password: "demo password", trades: 1 });
    await expect(seedDemo({ url: server.url, email, password: "another password", trades: 1 })).rejects.toThrow(/Signing in as .*401 UNAUTHORIZED/);
  });
});
