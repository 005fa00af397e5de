// Figures kept by version (lib/maintained/cache.ts): a read again with nothing changed answers what the same
// statement gave, and every change a trader can make to what the figures read (a fill, a plan, a tag, the
// account's zone or default risk, an account deleted) raises the version, so the next read is computed again.
// Each read goes through the API on one server (one database handle, one cache); each answer is compared
// with the same figure computed from the journal (source "journal": never kept).
import { sql } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { rowsOf } from "../../lib/db/rows.ts";
import { breakdown, equityCurve, summary } from "../../lib/stats/stats.ts";
import { testApp, type TestApp } from "../support/app.ts";
import { PASSWORD, type TestClient, uniqueEmail } from "../support/client.ts";

const url = () => inject("databaseUrl");

async function trader(t: TestApp) {
  const client = t.client();
  const res = await client.post("/api/auth/register", { email: uniqueEmail("kept"), password: PASSWORD });
  return { client, userId: (await res.json()).user.id as string };
}

async function account(client: TestClient, currency = "USD") {
  const res = await client.post("/api/accounts", { name: `K ${crypto.randomUUID()}`, currency, timezone: "America/New_York" });
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
}

async function roundTrip(client: TestClient, accountId: string, closedAt: string, pnl: number, symbol = "SPY") {
  const openedAt = new Date(Date.parse(closedAt) - 60_000).toISOString();
  expect((await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "1", price: "1000", executedAt: openedAt })).status).toBe(201);
  const sell = await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "1", price: String(1000 + pnl), executedAt: closedAt });
  expect(sell.status).toBe(201);
  return (await sell.json()).id as string;
}

async function read(client: TestClient, path: string) {
  const res = await client.get(path);
  expect(res.status, path).toBe(200);
  return res.json();
}

const versionOf = async (t: TestApp, userId: string) =>
  Number(rowsOf<{ v: string | null }>(await t.deps.db.execute(sql`select (select version from stats_versions where user_id = ${userId}::uuid)::text as v`))[0]!.v ?? 0);

describe("figures kept by the maintained rows' version", () => {
  it("a read again with nothing changed answers the same; each change is read at once", async () => {
    const t = await testApp(url());
    const { client, userId } = await trader(t);
    const accountId = await account(client);
    await roundTrip(client, accountId, "2026-04-01T15:00:00Z", 100);
    const caller = { id: userId };
    const q = `accountId=${accountId}`;
    // Every figure the API answers, against the journal's.
    const check = async () => {
      const [s, e, b] = await Promise.all([read(client, `/api/stats/summary?${q}`), read(client, `/api/stats/equity?${q}`), read(client, `/api/stats/breakdown?${q}&by=tag`)]);
      expect(s).toEqual(await summary(t.deps, caller, { accountId }, "journal"));
      expect(e).toEqual(await equityCurve(t.deps, caller, { accountId, bucket: "day" }, "journal"));
      expect(b).toEqual(await breakdown(t.deps, caller, { accountId, by: "tag" }, "journal"));
      return { s, e, b };
    };
    const first = await check();
    const version = await versionOf(t, userId);
    expect(await check()).toEqual(first);
    expect(await versionOf(t, userId)).toBe(version);

    // A new trade.
    await roundTrip(client, accountId, "2026-04-02T15:00:00Z", -40);
    const second = await check();
    expect(second.s.netPnl).toBe("60.00");
    expect(await versionOf(t, userId)).toBeGreaterThan(version);

    // A tag and a stop on the trade (its journal).
    const [trade] = (await read(client, `/api/trades?accountId=${accountId}`)).trades;
    expect((await client.request(`/api/trades/${trade.id}`, { method: "PATCH", json: { tags: ["breakout"], stopPrice: "990" } })).status).toBe(200);
    const third = await check();
    expect(third.b.groups.map((g: { key: string }) => g.key)).toContain("breakout");

    // The account's default risk and zone.
    expect((await client.request(`/api/accounts/${accountId}`, { method: "PATCH", json: { defaultRisk: "25" } })).status).toBe(200);
    const fourth = await check();
    expect(fourth.s.r.withRisk).toBe(2);
    expect((await client.request(`/api/accounts/${accountId}`, { method: "PATCH", json: { timezone: "Asia/Tokyo" } })).status).toBe(200);
    const fifth = await check();
    expect(fifth.e.points.map((p: { start: string }) => p.start)).toEqual(["2026-04-02", "2026-04-03"]);

    // A fill deleted.
    const fills = (await read(client, `/api/fills?${q}`)).fills as Array<{ id: string; side: string; price: string }>;
    const lossSell = fills.find((f) => f.side === "sell" && f.price.startsWith("960"))!;
    expect((await client.delete(`/api/fills/${lossSell.id}`)).status).toBe(204);
    const sixth = await check();
    expect(sixth.s.netPnl).toBe("100.00");
  });

  it("figures over all the user's accounts follow an account deleted", async () => {
    const t = await testApp(url());
    const { client, userId } = await trader(t);
    const kept = await account(client);
    const gone = await account(client);
    await roundTrip(client, kept, "2026-04-01T15:00:00Z", 100);
    await roundTrip(client, gone, "2026-04-01T16:00:00Z", -30);
    expect((await read(client, "/api/stats/summary")).netPnl).toBe("70.00");
    expect((await read(client, "/api/stats/summary")).netPnl).toBe("70.00");
    const version = await versionOf(t, userId);
    expect((await client.delete(`/api/accounts/${gone}?confirm=delete-history`)).status).toBe(204);
    expect(await versionOf(t, userId)).toBeGreaterThan(version);
    const after = await read(client, "/api/stats/summary");
    expect(after.netPnl).toBe("100.00");
    expect(after).toEqual(await summary(t.deps, { id: userId }, {}, "journal"));
    expect(await read(client, "/api/stats/equity")).toEqual(await equityCurve(t.deps, { id: userId }, { bucket: "day" }, "journal"));
  });
});
