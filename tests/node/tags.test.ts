// Tag kinds and what each tag cost (docs/discipline.md, "Mistakes and their cost"): a tag marked a mistake,
// a setup or an emotion; the report per tag of a kind over a period, costliest first. On the real Postgres.
import { describe, expect, inject, it } from "vitest";
import { journal } from "../support/app.ts";

const url = () => inject("databaseUrl");

describe("tags and their cost", () => {
  it("lists the tags with their kinds and counts; the mistake report gives what each mistake cost, costliest first", async () => {
    const j = await journal(url());
    const { client } = await j.signUp("tags");
    const accountId = (await (await client.post("/api/accounts", { name: `Tags ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" })).json()).id;
    let n = 0;
    const trip = async (sell: string, tags: string[], day = "2026-11-23") => {
      const symbol = `TG${"ABCDEFGHIJ"[++n]}`;
      await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "10", price: "50", executedAt: `${day}T15:00:00Z` });
      await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "10", price: sell, executedAt: `${day}T16:00:00Z` });
      const id = (await (await client.get(`/api/trades?accountId=${accountId}&symbol=${symbol}`)).json()).trades[0].id;
      expect((await client.request(`/api/trades/${id}`, { method: "PATCH", json: { tags } })).status).toBe(200);
    };
    await trip("45", ["fomo", "breakout"]); // -50
    await trip("48", ["fomo"]); // -20
    await trip("49", ["moved stop"]); // -10
    await trip("55", ["breakout"]); // +50
    await trip("40", ["fomo"], "2026-10-01"); // -100, before the period

    for (const [tag, kind] of [["fomo", "mistake"], ["moved stop", "mistake"], ["breakout", "setup"], ["revenge", "emotion"]] as const) {
      const res = await client.request("/api/tags/kind", { method: "PUT", json: { tag, kind } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ tag, kind });
    }
    const tags = (await (await client.get("/api/tags")).json()).tags;
    expect(tags).toEqual([
      { tag: "fomo", kind: "mistake", trades: 3 },
      { tag: "breakout", kind: "setup", trades: 2 },
      { tag: "moved stop", kind: "mistake", trades: 1 },
      { tag: "revenge", kind: "emotion", trades: 0 },
    ]);

    const report = await (await client.get(`/api/stats/tags?accountId=${accountId}&kind=mistake&from=2026-11-01T00:00:00Z`)).json();
    expect(report).toEqual({
      currency: "USD",
      kind: "mistake",
      tags: [
        { tag: "fomo", kind: "mistake", trades: 2, wins: 0, netPnl: "-70.00", winRate: "0.0000", expectancy: "-35.00" },
        { tag: "moved stop", kind: "mistake", trades: 1, wins: 0, netPnl: "-10.00", winRate: "0.0000", expectancy: "-10.00" },
      ],
    });
    const all = await (await client.get(`/api/stats/tags?accountId=${accountId}`)).json();
    expect(all.tags.map((t: { tag: string; netPnl: string }) => [t.tag, t.netPnl])).toEqual([["fomo", "-170.00"], ["moved stop", "-10.00"], ["breakout", "0.00"]]);

    // A kind cleared; a bad kind refused.
    expect(await (await client.request("/api/tags/kind", { method: "PUT", json: { tag: "revenge", kind: null } })).json()).toEqual({ tag: "revenge", kind: null });
    expect((await (await client.get("/api/tags")).json()).tags.map((t: { tag: string }) => t.tag)).not.toContain("revenge");
    const bad = await client.request("/api/tags/kind", { method: "PUT", json: { tag: "fomo", kind: "regret" } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields[0].path).toBe("kind");
    expect((await client.get(`/api/stats/tags?kind=regret`)).status).toBe(400);
  });
});

describe("tags are case-insensitive", () => {
  it("a tag typed in another case is written as the one in use; twins in one write are one tag; journal days too", async () => {
    const j = await journal(url());
    const { client } = await j.signUp("tagcase");
    const accountId = (await (await client.post("/api/accounts", { name: `Case ${crypto.randomUUID()}`, currency: "USD", startingBalance: "10000", timezone: "America/New_York" })).json()).id;
    let n = 0;
    const trip = async (tags: string[]) => {
      const symbol = `TC${"ABCDEFGHIJ"[++n]}`;
      await client.post("/api/fills", { accountId, symbol, side: "buy", quantity: "10", price: "50", executedAt: "2026-11-23T15:00:00Z" });
      await client.post("/api/fills", { accountId, symbol, side: "sell", quantity: "10", price: "51", executedAt: "2026-11-23T16:00:00Z" });
      const id = (await (await client.get(`/api/trades?accountId=${accountId}&symbol=${symbol}`)).json()).trades[0].id;
      const res = await client.request(`/api/trades/${id}`, { method: "PATCH", json: { tags } });
      expect(res.status).toBe(200);
      return (await res.json()).trade.tags as string[];
    };
    expect(await trip(["Breakout", "FOMO"])).toEqual(["Breakout", "FOMO"]);
    expect(await trip(["breakout", "BREAKOUT", " fomo ", "earnings"])).toEqual(["Breakout", "FOMO", "earnings"]);
    const day = await client.request(`/api/days/${accountId}/2026-11-23`, { method: "PUT", json: { tags: ["EARNINGS", "Breakout"] } });
    expect(day.status).toBe(200);
    expect((await day.json()).tags).toEqual(["earnings", "Breakout"]);
    const tags = (await (await client.get("/api/tags")).json()).tags.map((t: { tag: string }) => t.tag);
    expect(tags.sort()).toEqual(["Breakout", "FOMO", "earnings"]);
  });
});
