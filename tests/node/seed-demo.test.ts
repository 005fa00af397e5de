// `npm run seed:demo` against the real Node server and Postgres: what it leaves is what a newcomer sees.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NodeServer } from "../../functions/node.ts";
import { demoCsv, seedDemo } from "../../scripts/seed-demo.ts";
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

  it("generates the same history on every run: round trips on weekdays, in market hours", () => {
    const now = new Date("2026-11-23T12:00:00Z");
    const csv = demoCsv(50, now);
    expect(demoCsv(50, now)).toBe(csv);
    const rows = csv.trim().split("\n").slice(1).map((l) => l.split(","));
    expect(rows).toHaveLength(100);
    for (const [at] of rows) {
      const time = new Date(at!);
      expect(time.getTime()).toBeLessThan(now.getTime());
      expect([0, 6]).not.toContain(time.getUTCDay());
      expect(time.getUTCHours()).toBeGreaterThanOrEqual(14);
      expect(time.getUTCHours()).toBeLessThan(21);
    }
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
